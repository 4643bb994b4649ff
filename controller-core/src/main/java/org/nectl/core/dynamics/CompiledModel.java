package org.nectl.core.dynamics;

import org.nectl.core.model.JointActuation;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;

/**
 * A {@link RobotModel} compiled once into the flat constant arrays every dynamics algorithm reads
 * (the model half of Pinocchio's model / data split): topology, joint types, joint placements,
 * inertias, rotor inertia, friction and the default gravity. Each algorithm keeps only its own
 * per-q workspace and reads the constants from here, so one compiled model serves every
 * algorithm of a controller. It is also the one place that decides what a joint type does: its
 * transform ({@link #jointTransforms}), which component of the transmitted wrench is its joint
 * force ({@link #jointForce}) and the friction law ({@link #friction}).
 *
 * <p>Body j's transform from its parent i is {@code iR_j = placementRotation_j Rot(z, q)}
 * (revolute) and {@code iP_j = placementTranslation_j + q placementRotation_j z} (prismatic).
 * Inertial parameters are Khalil's standard ones in the body frame (first moment and inertia about
 * the body origin). Arrays are never written after construction.
 *
 * <p>Immutable, thread safe: share one instance between algorithms and threads.
 */
public final class CompiledModel
{
    /** Khalil's sigma: revolute. */
    static final int REVOLUTE = 0;
    /** Khalil's sigma: prismatic. */
    static final int PRISMATIC = 1;
    /** Khalil's sigma: fixed. */
    static final int FIXED = 2;

    final int bodyCount;
    final int dof;
    /** Parent body per body, -1 for the base. */
    final int[] parent;
    /** Joint type per body, as Khalil's sigma. */
    final int[] sigma;
    /** Coordinate index per body, -1 for fixed. */
    final int[] coordinate;
    /** Body per coordinate. */
    final int[] bodyOfCoordinate;
    /** Mass per body, kg. */
    final double[] mass;
    /** First moment MS = M c per body, kg m, 3 per body, body frame. */
    final double[] firstMoment;
    /** Inertia about the body origin, kg m^2, 9 per body, row-major, body frame. */
    final double[] inertia;
    /** Centre of mass per body, m, 3 per body, body frame. */
    final double[] centreOfMass;
    /** Smallest principal moment lambda of each body's inertia Ic about its centre of mass, kg m^2. */
    final double[] isotropicInertia;
    /** g then k per body (6 per body, body axes) with Ic = lambda 1 + g g^T + k k^T ({@link RankTwoInertia}). */
    final double[] inertiaFactors;
    /** Rotor inertia Ia per coordinate, kg m^2 or kg. */
    final double[] rotorInertia;
    /** Coulomb friction Fs per coordinate, N m or N. */
    final double[] coulombFriction;
    /** Viscous friction Fv per coordinate, N m s/rad or N s/m. */
    final double[] viscousFriction;
    /** Joint placement rotation per body, 9 per body, row-major, parent frame. */
    final double[] placementRotation;
    /** Joint placement translation per body, m, 3 per body, parent frame. */
    final double[] placementTranslation;

    /** Gravity, base frame, m/s^2, 3 values: the algorithms' default, which a call's AppliedLoads may override. */
    final double[] gravity;

    private final RobotModel robot;

    private CompiledModel(final RobotModel model, final double[] gravity)
    {
        robot = model;
        this.gravity = gravity;
        bodyCount = model.bodyCount();
        dof = model.dof();
        parent = model.parents();
        coordinate = model.coordinatesOfBodies();
        bodyOfCoordinate = new int[dof];
        sigma = new int[bodyCount];
        final JointType[] types = model.jointTypes();
        for (int j = 0; j < bodyCount; j++)
        {
            sigma[j] = types[j] == JointType.REVOLUTE ? REVOLUTE : types[j] == JointType.PRISMATIC ? PRISMATIC : FIXED;
        }
        mass = model.masses();
        firstMoment = model.firstMoments();
        inertia = model.inertiasAtOrigin();
        centreOfMass = new double[3 * bodyCount];
        isotropicInertia = new double[bodyCount];
        inertiaFactors = new double[6 * bodyCount];
        for (int j = 0; j < bodyCount; j++)
        {
            System.arraycopy(model.inertialParameters(j).centreOfMass(), 0, centreOfMass, 3 * j, 3);
            isotropicInertia[j] = RankTwoInertia.split(model.inertialParameters(j).inertiaAtCentreOfMass(), inertiaFactors, 6 * j);
        }
        rotorInertia = new double[dof];
        coulombFriction = new double[dof];
        viscousFriction = new double[dof];
        for (int k = 0; k < dof; k++)
        {
            bodyOfCoordinate[k] = model.bodyOfCoordinate(k);
            final JointActuation a = model.actuation(k);
            rotorInertia[k] = a.rotorInertia();
            coulombFriction[k] = a.coulombFriction();
            viscousFriction[k] = a.viscousFriction();
        }
        placementRotation = model.placementRotations();
        placementTranslation = model.placementTranslations();
    }

    /** Compiles a robot under gravity (0, 0, -9.81). Not real-time safe: allocates the arrays. */
    public static CompiledModel of(final RobotModel model)
    {
        return of(model, 0.0, 0.0, -9.81);
    }

    /** Compiles a robot under the given gravity, base frame, m/s^2. Not real-time safe: allocates the arrays. */
    public static CompiledModel of(final RobotModel model, final double gx, final double gy, final double gz)
    {
        return new CompiledModel(model, new double[] {gx, gy, gz});
    }

    /** @return the robot this was compiled from. */
    public RobotModel robot()
    {
        return robot;
    }

    /** @return the number of joint coordinates. */
    public int dof()
    {
        return dof;
    }

    /** @return the number of bodies. */
    public int bodyCount()
    {
        return bodyCount;
    }

    /** @return true if body j's joint has a coordinate (revolute or prismatic). */
    boolean movable(final int j)
    {
        return sigma[j] != FIXED;
    }

    /**
     * The joint force of body j's joint from the z components (body j's frame: the joint axis) of the
     * wrench transmitted to it, N and N m: momentZ if revolute, forceZ if prismatic (Khalil 2010,
     * eq. 31 without the rotor and friction terms).
     */
    double jointForce(final int j, final double forceZ, final double momentZ)
    {
        return sigma[j] == REVOLUTE ? momentZ : forceZ;
    }

    /**
     * Body j's joint motion subspace S, the unit twist of its joint about the frame origin that the
     * axis is expressed in (Featherstone 2008, §4.4): (p x z, z) for a revolute joint, (z, 0) for a
     * prismatic one, with z the joint axis and p the body origin; written to out at offset, linear
     * then angular part; a fixed joint's entries are left as they are (zero). Real-time safe.
     */
    void motionSubspace(final int j, final double zx, final double zy, final double zz,
        final double px, final double py, final double pz, final double[] out, final int offset)
    {
        if (sigma[j] == REVOLUTE)
        {
            out[offset] = py * zz - pz * zy;
            out[offset + 1] = pz * zx - px * zz;
            out[offset + 2] = px * zy - py * zx;
            out[offset + 3] = zx;
            out[offset + 4] = zy;
            out[offset + 5] = zz;
        }
        else if (sigma[j] == PRISMATIC)
        {
            out[offset] = zx;
            out[offset + 1] = zy;
            out[offset + 2] = zz;
        }
    }

    /**
     * Khalil's joint friction Fs sign(qd) + Fv qd with sign(0) = 0 ("Dynamic modeling of robots
     * using recursive Newton-Euler techniques", ICINCO 2010, eq. 31) of coordinate k, N m or N, or 0
     * if not enabled: the one copy of the law. Real-time safe.
     */
    double friction(final int k, final double qd, final boolean enabled)
    {
        return enabled ? coulombFriction[k] * Math.signum(qd) + viscousFriction[k] * qd : 0.0;
    }

    /**
     * d/dt of {@link #friction} along a motion: Fv qdd (the Coulomb term's derivative is taken as
     * zero, exact away from qd = 0). Real-time safe.
     */
    double frictionRate(final int k, final double qdd, final boolean enabled)
    {
        return enabled ? viscousFriction[k] * qdd : 0.0;
    }

    /**
     * Every joint transform iR_j, iP_j (class comment, {@link JointTransforms}) at q, written only where
     * q moves it: elsewhere the arrays must hold the placements ({@link JointTransforms}). sineCosine
     * is 2 doubles of scratch. Real-time safe.
     */
    void jointTransforms(final double[] q, final double[] rotation, final double[] position, final double[] sineCosine)
    {
        for (int j = 0; j < bodyCount; j++)
        {
            if (sigma[j] == REVOLUTE)
            {
                SineCosine.of(q[coordinate[j]], sineCosine, 0);
                rotateAboutZ(placementRotation, rotation, j, sineCosine[0], sineCosine[1]);
            }
            else if (sigma[j] == PRISMATIC)
            {
                final int p = 3 * j;
                Vec3.copy(placementTranslation, p, position, p);
                Vec3.addScaledAxisZ(q[coordinate[j]], placementRotation, 9 * j, position, p);
            }
        }
    }

    /**
     * rotation_j = placement_j Rot(z, q) from sin q and cos q, 9 per body row-major: only the
     * first two columns change. Real-time safe.
     */
    static void rotateAboutZ(final double[] placement, final double[] rotation, final int j, final double s, final double c)
    {
        final int r = 9 * j;
        for (int row = r; row < r + 9; row += 3)
        {
            final double x = placement[row];
            final double y = placement[row + 1];
            rotation[row] = c * x + s * y;
            rotation[row + 1] = c * y - s * x;
        }
    }
}
