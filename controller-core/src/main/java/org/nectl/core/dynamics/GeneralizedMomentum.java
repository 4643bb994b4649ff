package org.nectl.core.dynamics;

import org.nectl.core.model.RobotModel;

/**
 * The terms of the momentum balance p-dot = tau - tau_f + C(q, qd)^T qd - g(q) + tau_ext that a
 * generalized-momentum observer integrates (De Luca, Albu-Schaeffer, Haddadin, Hirzinger, "Collision
 * detection and safe reaction with the DLR-III lightweight manipulator arm", IROS 2006, eq. 4):
 * the generalized momentum p = M(q) qd, the term C^T qd of a Christoffel-consistent C, the gravity
 * torques g(q) and the model's joint friction tau_f = Fs sign(qd) + Fv qd, in one forward and one
 * backward pass, O(n).
 *
 * <p>Why not M and C: with the joint axes S_i and body velocities v_k in the base frame, the
 * Christoffel-consistent C = sum_k J_k^T (I_k J_k-dot + B_k J_k) of {@link CoriolisMatrix} gives
 * C^T qd = sum_k (J_k-dot^T I_k v_k + J_k^T B_k^T v_k), and B_k^T v_k = I_k-dot v_k - B_k v_k
 * = v_k x* I_k v_k - I_k (v_k x v_k) - v_k x* I_k v_k = 0. What is left is, per joint i,
 * (C^T qd)_i = S_i-dot . hc_i with S_i-dot = v_i x S_i and hc_i = sum over i's subtree of I_k v_k,
 * the subtree's spatial momentum about the base origin; and p_i = S_i . hc_i + Ia_i qd_i (rotor
 * inertia on the diagonal, as {@link MassMatrix}). The same backward pass carries the subtree's mass
 * and first moment for g (as {@link GravityTorques}). The dense route (M, then C and a transposed
 * product) costs a mass matrix plus a Coriolis matrix, O(n^2); this one a little more than one set of
 * base-frame placements.
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} is real-time safe.
 */
public final class GeneralizedMomentum
{
    private final BaseFrameBodies bodies;
    /** Subtree spatial momentum hc_i about the base origin, base frame, 6 per body. */
    private final double[] compositeMomentum;
    private final double[] baseAcceleration = new double[3];

    /**
     * Not real-time safe: allocates the workspace, sized from the model. Gravity (0, 0, -9.81).
     *
     * @param model the robot.
     */
    public GeneralizedMomentum(final RobotModel model)
    {
        bodies = new BaseFrameBodies(model);
        compositeMomentum = new double[6 * bodies.bodyCount];
        gravity(0.0, 0.0, -9.81);
    }

    /**
     * Sets the gravity vector (default 0, 0, -9.81). Real-time safe.
     *
     * @param gx x component in the base frame, m/s^2.
     * @param gy y component in the base frame, m/s^2.
     * @param gz z component in the base frame, m/s^2.
     */
    public void gravity(final double gx, final double gy, final double gz)
    {
        baseAcceleration[0] = -gx;
        baseAcceleration[1] = -gy;
        baseAcceleration[2] = -gz;
    }

    /** @return number of generalised coordinates. */
    public int dof()
    {
        return bodies.dof;
    }

    /**
     * Computes p, C^T qd, g and the model's friction at (q, qd). Real-time safe: allocates nothing.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities by coordinate, rad/s or m/s.
     * @param momentum output p = M(q) qd by coordinate, rotor inertia included, N m s or N s.
     * @param coriolisTransposedTimesQd output C(q, qd)^T qd, N m or N.
     * @param gravityTorque output g(q), N m or N.
     * @param friction output Fs sign(qd) + Fv qd, N m or N.
     */
    public void compute(final double[] q, final double[] qd, final double[] momentum,
        final double[] coriolisTransposedTimesQd, final double[] gravityTorque, final double[] friction)
    {
        bodies.placements(q);
        bodies.velocities(qd);
        compositeSums();
        jointTerms(qd, momentum, coriolisTransposedTimesQd, gravityTorque, friction);
    }

    /** Backward pass: subtree momentum, mass and first moment; nothing to transform in base coordinates. */
    private void compositeSums()
    {
        final int count = bodies.bodyCount;
        for (int i = 0; i < count; i++)
        {
            bodies.inertiaTimes(i, bodies.velocity, 6 * i, compositeMomentum, 6 * i);
        }
        System.arraycopy(bodies.mass, 0, bodies.compositeMass, 0, count);
        System.arraycopy(bodies.firstMoment, 0, bodies.compositeFirstMoment, 0, 3 * count);
        for (int i = count - 1; i >= 0; i--)
        {
            final int p = bodies.parent[i];
            if (p >= 0)
            {
                for (int c = 0; c < 6; c++)
                {
                    compositeMomentum[6 * p + c] += compositeMomentum[6 * i + c];
                }
                bodies.compositeMass[p] += bodies.compositeMass[i];
                for (int c = 0; c < 3; c++)
                {
                    bodies.compositeFirstMoment[3 * p + c] += bodies.compositeFirstMoment[3 * i + c];
                }
            }
        }
    }

    /** p_i = S_i . hc_i + Ia qd_i, (C^T qd)_i = S_i-dot . hc_i, g_i = S_i . (m_c a0, h_c x a0) with a0 = -g. */
    private void jointTerms(final double[] qd, final double[] momentum, final double[] coriolisTransposedTimesQd,
        final double[] gravityTorque, final double[] friction)
    {
        final double ax = baseAcceleration[0];
        final double ay = baseAcceleration[1];
        final double az = baseAcceleration[2];
        for (int k = 0; k < bodies.dof; k++)
        {
            final int i = bodies.bodyOfCoordinate[k];
            final int s = 6 * i;
            momentum[k] = SpatialAlgebra.dot6(bodies.axis, s, compositeMomentum, s) + bodies.rotorInertia[k] * qd[k];
            coriolisTransposedTimesQd[k] = SpatialAlgebra.dot6(bodies.axisRate, s, compositeMomentum, s);
            final double m = bodies.compositeMass[i];
            final double hx = bodies.compositeFirstMoment[3 * i];
            final double hy = bodies.compositeFirstMoment[3 * i + 1];
            final double hz = bodies.compositeFirstMoment[3 * i + 2];
            final double[] axis = bodies.axis;
            gravityTorque[k] = axis[s] * m * ax + axis[s + 1] * m * ay + axis[s + 2] * m * az
                + axis[s + 3] * (hy * az - hz * ay) + axis[s + 4] * (hz * ax - hx * az) + axis[s + 5] * (hx * ay - hy * ax);
            friction[k] = bodies.coulombFriction[k] * Math.signum(qd[k]) + bodies.viscousFriction[k] * qd[k];
        }
    }
}
