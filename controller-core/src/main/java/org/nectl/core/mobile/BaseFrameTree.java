package org.nectl.core.mobile;

import java.util.Arrays;

import org.nectl.core.dynamics.BaseFramePoses;
import org.nectl.core.dynamics.SpatialAlgebra;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointActuation;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;

/**
 * The bodies of a floating-base tree in base coordinates, spatial quantities about the base
 * origin (Featherstone, "Rigid Body Dynamics Algorithms", 2008, ch. 2, in the (linear, angular)
 * order of Khalil's twists): each body's rigid inertia [[m 1, -h^], [h^, O]] (Khalil 2010, eq. 11),
 * its joint's motion subspace S and its twist v_i = v_parent + S_i qd_i from the base twist. In
 * this frame the screw transforms between a body and its parent are the identity, so inertias add
 * without transformation. Poses come from {@link BaseFramePoses}. Not thread safe: one instance per
 * algorithm instance; every method is real-time safe except the constructor.
 */
final class BaseFrameTree
{
    final int bodyCount;
    final int dof;
    /** Parent body per body, -1 for the base. */
    final int[] parent;
    /** Coordinate per body, -1 for a fixed joint. */
    final int[] coordinate;
    /** Body per coordinate. */
    final int[] bodyOfCoordinate;
    /** Rotor inertia, Coulomb and viscous friction per coordinate. */
    final JointActuation[] actuation;
    /** The base's mass, kg. */
    final double baseMass;
    /** The base's first moment, kg m, base frame. */
    final double[] baseFirstMoment;
    /** The base's inertia about its origin, kg m^2, row-major. */
    final double[] baseInertia;

    /** Body mass, kg. */
    final double[] mass;
    /** First moment about the base origin, base frame, kg m, 3 per body. */
    final double[] firstMoment;
    /** Inertia about the base origin, base frame, kg m^2, 9 per body, row-major. */
    final double[] inertia;
    /** Joint motion subspace S, base frame, 6 per body; zero for a fixed joint. */
    final double[] axis;
    /** Twist v_i, base frame, about the base origin, 6 per body. */
    final double[] velocity;
    /** Subtree (composite) mass, kg, per body ({@link #composites}). */
    final double[] compositeMass;
    /** Subtree first moment about the base origin, base frame, kg m, 3 per body. */
    final double[] compositeFirstMoment;
    /** Subtree inertia about the base origin, base frame, kg m^2, 9 per body. */
    final double[] compositeInertia;

    private final boolean[] revolute;
    private final double[] bodyFirstMoment;
    private final double[] bodyInertia;
    private final BaseFramePoses poses;
    private final double[] rotation;
    private final double[] origin;
    private final double[] scratchP = new double[3];
    private final double[] scratchH = new double[3];

    /** Not real-time safe: allocates the workspace. */
    BaseFrameTree(final RobotModel model)
    {
        if (!model.floatingBase())
        {
            throw new IllegalArgumentException("robot '" + model.name() + "' has a fixed base; floating-base"
                + " dynamics need a floating one (URDF floating joint or YAML base_type: floating)");
        }
        bodyCount = model.bodyCount();
        dof = model.dof();
        parent = model.parents();
        coordinate = model.coordinatesOfBodies();
        bodyOfCoordinate = new int[dof];
        actuation = new JointActuation[dof];
        for (int k = 0; k < dof; k++)
        {
            bodyOfCoordinate[k] = model.bodyOfCoordinate(k);
            actuation[k] = model.actuation(k);
        }
        revolute = new boolean[bodyCount];
        for (int j = 0; j < bodyCount; j++)
        {
            revolute[j] = model.jointType(j) == JointType.REVOLUTE;
        }
        final InertialParameters base = model.baseInertia();
        baseMass = base.mass();
        baseFirstMoment = base.firstMoment();
        baseInertia = base.inertiaAtOrigin();
        mass = model.masses();
        bodyFirstMoment = model.firstMoments();
        bodyInertia = model.inertiasAtOrigin();
        firstMoment = new double[3 * bodyCount];
        inertia = new double[9 * bodyCount];
        axis = new double[6 * bodyCount];
        velocity = new double[6 * bodyCount];
        compositeMass = new double[bodyCount];
        compositeFirstMoment = new double[3 * bodyCount];
        compositeInertia = new double[9 * bodyCount];
        poses = new BaseFramePoses(model);
        rotation = new double[9 * bodyCount];
        origin = new double[3 * bodyCount];
    }

    /**
     * Poses, joint axes and inertias in the base frame at q.
     *
     * @param q joint positions by coordinate, rad or m.
     */
    void place(final double[] q)
    {
        poses.compute(q);
        for (int j = 0; j < bodyCount; j++)
        {
            poses.pose(j, rotation, origin);
            placeInertia(j);
            placeAxis(j);
        }
    }

    /**
     * Twists from the base twist: v_i = v_parent + S_i qd_i. Requires {@link #place}.
     *
     * @param baseTwist the base's twist, base coordinates.
     * @param qd joint velocities by coordinate.
     */
    void velocities(final double[] baseTwist, final double[] qd)
    {
        for (int j = 0; j < bodyCount; j++)
        {
            final double[] from = parent[j] < 0 ? baseTwist : velocity;
            final int f = parent[j] < 0 ? 0 : 6 * parent[j];
            final double rate = coordinate[j] < 0 ? 0.0 : qd[coordinate[j]];
            for (int c = 0; c < 6; c++)
            {
                velocity[6 * j + c] = from[f + c] + axis[6 * j + c] * rate;
            }
        }
    }

    /**
     * Subtree sums of the bodies' inertias, leaves first (Khalil 2010, eq. 95 with the screw
     * transforms the identity in base coordinates). Requires {@link #place}.
     */
    void composites()
    {
        System.arraycopy(mass, 0, compositeMass, 0, bodyCount);
        System.arraycopy(firstMoment, 0, compositeFirstMoment, 0, 3 * bodyCount);
        System.arraycopy(inertia, 0, compositeInertia, 0, 9 * bodyCount);
        for (int j = bodyCount - 1; j >= 0; j--)
        {
            final int p = parent[j];
            if (p >= 0)
            {
                compositeMass[p] += compositeMass[j];
                for (int c = 0; c < 3; c++)
                {
                    compositeFirstMoment[3 * p + c] += compositeFirstMoment[3 * j + c];
                }
                for (int c = 0; c < 9; c++)
                {
                    compositeInertia[9 * p + c] += compositeInertia[9 * j + c];
                }
            }
        }
    }

    /**
     * h' = m p + R h and O' = R O R^T + m (|p|^2 1 - p p^T) + 2 (p . Rh) 1 - Rh p^T - p Rh^T: body j's
     * inertia moved from its own origin and axes to the base's.
     */
    private void placeInertia(final int j)
    {
        final int r = 9 * j;
        final int t = 3 * j;
        final double m = mass[j];
        final double px = origin[t];
        final double py = origin[t + 1];
        final double pz = origin[t + 2];
        final double hx = rotation[r] * bodyFirstMoment[t] + rotation[r + 1] * bodyFirstMoment[t + 1]
            + rotation[r + 2] * bodyFirstMoment[t + 2];
        final double hy = rotation[r + 3] * bodyFirstMoment[t] + rotation[r + 4] * bodyFirstMoment[t + 1]
            + rotation[r + 5] * bodyFirstMoment[t + 2];
        final double hz = rotation[r + 6] * bodyFirstMoment[t] + rotation[r + 7] * bodyFirstMoment[t + 1]
            + rotation[r + 8] * bodyFirstMoment[t + 2];
        firstMoment[t] = hx + m * px;
        firstMoment[t + 1] = hy + m * py;
        firstMoment[t + 2] = hz + m * pz;
        final double[] p = scratchP;
        final double[] h = scratchH;
        p[0] = px;
        p[1] = py;
        p[2] = pz;
        h[0] = hx;
        h[1] = hy;
        h[2] = hz;
        final double diagonal = m * (px * px + py * py + pz * pz) + 2.0 * (px * hx + py * hy + pz * hz);
        for (int a = 0; a < 3; a++)
        {
            for (int b = 0; b < 3; b++)
            {
                // (R O R^T)_ab
                double rot = 0.0;
                for (int c = 0; c < 3; c++)
                {
                    double oRt = 0.0;
                    for (int d = 0; d < 3; d++)
                    {
                        oRt += bodyInertia[r + 3 * c + d] * rotation[r + 3 * b + d];
                    }
                    rot += rotation[r + 3 * a + c] * oRt;
                }
                inertia[r + 3 * a + b] = rot + (a == b ? diagonal : 0.0) - m * p[a] * p[b] - h[a] * p[b] - p[a] * h[b];
            }
        }
    }

    /** S = (p x z, z) for a revolute joint, (z, 0) for a prismatic one, 0 for a fixed one; z = 0R_j e_z. */
    private void placeAxis(final int j)
    {
        final int s = 6 * j;
        final int r = 9 * j;
        final int t = 3 * j;
        final double zx = rotation[r + 2];
        final double zy = rotation[r + 5];
        final double zz = rotation[r + 8];
        if (coordinate[j] < 0)
        {
            Arrays.fill(axis, s, s + 6, 0.0);
        }
        else if (revolute[j])
        {
            final double px = origin[t];
            final double py = origin[t + 1];
            final double pz = origin[t + 2];
            axis[s] = py * zz - pz * zy;
            axis[s + 1] = pz * zx - px * zz;
            axis[s + 2] = px * zy - py * zx;
            axis[s + 3] = zx;
            axis[s + 4] = zy;
            axis[s + 5] = zz;
        }
        else
        {
            axis[s] = zx;
            axis[s + 1] = zy;
            axis[s + 2] = zz;
            axis[s + 3] = 0.0;
            axis[s + 4] = 0.0;
            axis[s + 5] = 0.0;
        }
    }

    /** out = I m for body j's rigid inertia; j = -1 is the base. */
    void inertiaTimes(final int j, final double[] m, final int im, final double[] out, final int io)
    {
        if (j < 0)
        {
            SpatialAlgebra.inertiaTimes(baseMass, baseFirstMoment, 0, baseInertia, 0, m, im, out, io);
        }
        else
        {
            SpatialAlgebra.inertiaTimes(mass[j], firstMoment, 3 * j, inertia, 9 * j, m, im, out, io);
        }
    }

    /** out = I^c m for the composite inertia of body j's subtree ({@link #composites}). */
    void compositeTimes(final int j, final double[] m, final int im, final double[] out, final int io)
    {
        SpatialAlgebra.inertiaTimes(compositeMass[j], compositeFirstMoment, 3 * j, compositeInertia, 9 * j, m, im, out, io);
    }

    /** Adds body j's rigid inertia (j = -1: the base) to a full 6x6 row-major matrix at offset. */
    void addInertia(final int j, final double[] matrix, final int offset)
    {
        if (j < 0)
        {
            addRigid(baseMass, baseFirstMoment, 0, baseInertia, 0, matrix, offset);
        }
        else
        {
            addRigid(mass[j], firstMoment, 3 * j, inertia, 9 * j, matrix, offset);
        }
    }

    /** Adds the composite inertia of body j's subtree ({@link #composites}) to a full 6x6 row-major matrix. */
    void addCompositeInertia(final int j, final double[] matrix, final int offset)
    {
        addRigid(compositeMass[j], compositeFirstMoment, 3 * j, compositeInertia, 9 * j, matrix, offset);
    }

    /** matrix += [[mass 1, -h^], [h^, O]] (Khalil 2010, eq. 11), 6x6 row-major at offset. */
    private static void addRigid(final double bodyMass, final double[] h, final int ih, final double[] o, final int jo,
        final double[] matrix, final int offset)
    {
        final double hx = h[ih];
        final double hy = h[ih + 1];
        final double hz = h[ih + 2];
        final int a = offset;
        matrix[a] += bodyMass;
        matrix[a + 7] += bodyMass;
        matrix[a + 14] += bodyMass;
        matrix[a + 4] += hz;
        matrix[a + 5] -= hy;
        matrix[a + 9] -= hz;
        matrix[a + 11] += hx;
        matrix[a + 15] += hy;
        matrix[a + 16] -= hx;
        matrix[a + 19] -= hz;
        matrix[a + 20] += hy;
        matrix[a + 24] += hz;
        matrix[a + 26] -= hx;
        matrix[a + 30] -= hy;
        matrix[a + 31] += hx;
        for (int r = 0; r < 3; r++)
        {
            for (int c = 0; c < 3; c++)
            {
                matrix[a + 6 * (3 + r) + 3 + c] += o[jo + 3 * r + c];
            }
        }
    }
}
