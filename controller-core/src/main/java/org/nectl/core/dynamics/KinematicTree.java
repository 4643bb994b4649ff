package org.nectl.core.dynamics;

import org.nectl.core.model.JointActuation;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;

/**
 * A {@link RobotModel} unpacked into flat arrays for the dynamics algorithms, plus the joint
 * transforms at the current joint positions. Body j's transform from its parent i is
 * {@code iR_j = placementRotation_j Rot(z, q)} (revolute) and {@code iP_j = placementTranslation_j
 * + q placementRotation_j z} (prismatic). Not thread safe: one instance per algorithm instance.
 */
final class KinematicTree
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
    /** Rotor inertia Ia per coordinate. */
    final double[] rotorInertia;
    /** Coulomb friction Fs per coordinate. */
    final double[] coulombFriction;
    /** Viscous friction Fv per coordinate. */
    final double[] viscousFriction;
    /** iR_j at the last {@link #update}: 9 per body, row-major; columns are body j's axes in the parent frame. */
    final double[] rotation;
    /** iP_j at the last {@link #update}: body j's origin in the parent frame, m, 3 per body. */
    final double[] position;

    private final double[] placementRotation;
    private final double[] placementTranslation;
    /** sin q, cos q of the joint being updated. */
    private final double[] sineCosine = new double[2];

    /** Not real-time safe: allocates the arrays. */
    KinematicTree(final RobotModel model)
    {
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
        rotation = placementRotation.clone();
        position = placementTranslation.clone();
    }

    /**
     * Sets every joint transform to the given positions. Real-time safe.
     *
     * @param q joint positions by coordinate, rad or m.
     */
    void update(final double[] q)
    {
        for (int j = 0; j < bodyCount; j++)
        {
            if (sigma[j] == REVOLUTE)
            {
                rotateAboutZ(j, q[coordinate[j]]);
            }
            else if (sigma[j] == PRISMATIC)
            {
                translateAlongZ(j, q[coordinate[j]]);
            }
        }
    }

    /** rotation_j = placementRotation_j Rot(z, q). */
    private void rotateAboutZ(final int j, final double q)
    {
        SineCosine.of(q, sineCosine, 0);
        rotateAboutZ(placementRotation, rotation, j, sineCosine[0], sineCosine[1]);
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

    /** position_j = placementTranslation_j + q (placementRotation_j z). */
    private void translateAlongZ(final int j, final double q)
    {
        final int r = 9 * j;
        final int p = 3 * j;
        Vec3.copy(placementTranslation, p, position, p);
        Vec3.addScaledAxisZ(q, placementRotation, r, position, p);
    }
}
