package org.nectl.core.dynamics;

/**
 * The terms of the momentum balance p-dot = tau - tau_f + C(q, qd)^T qd - g(q) + tau_ext that a
 * generalized-momentum observer integrates (De Luca, Albu-Schaeffer, Haddadin, Hirzinger, "Collision
 * detection and safe reaction with the DLR-III lightweight manipulator arm", IROS 2006, eq. 4):
 * the generalized momentum p = M(q) qd, the term C^T qd of a Christoffel-consistent C, the gravity
 * torques g(q) and the model's joint friction tau_f = Fs sign(qd) + Fv qd, in one forward and one
 * backward pass, O(n). g is computed in these passes, not by {@link GravityTorques}: body-frame gravity
 * steps shared by the two cost the observer tick 5-6 % on the Panda.
 *
 * <p>Why not M and C: with the joint axes S_i and body velocities v_k in the base frame, the
 * Christoffel-consistent C = sum_k J_k^T (I_k J_k-dot + B_k J_k) of {@link CoriolisMatrix} gives
 * C^T qd = sum_k (J_k-dot^T I_k v_k + J_k^T B_k^T v_k), and B_k^T v_k = I_k-dot v_k - B_k v_k
 * = v_k x* I_k v_k - I_k (v_k x v_k) - v_k x* I_k v_k = 0. What is left is, per joint i,
 * (C^T qd)_i = S_i-dot . hc_i with S_i-dot = v_i x S_i and hc_i = sum over i's subtree of I_k v_k,
 * the subtree's spatial momentum; and p_i = S_i . hc_i + Ia_i qd_i (rotor inertia on the diagonal,
 * as {@link MassMatrix}). Both pairings are frame invariant, so they are taken in body i's frame,
 * where S_i is the unit z axis: a forward pass carries each body's velocity and the gravity
 * acceleration into its own frame (Khalil, "Dynamic modeling of robots using recursive Newton-Euler
 * techniques", ICINCO 2010, eqs. 13-15, without accelerations), a backward pass carries each subtree's
 * momentum, mass and first moment into its parent's frame. The dense route (M, then C and a
 * transposed product) costs a mass matrix plus a Coriolis matrix, O(n^2); this one less than an RNEA.
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} is real-time safe.
 */
public final class GeneralizedMomentum
{
    private final CompiledModel model;
    private final JointTransforms joints;
    /** Body velocity (v of the origin, then omega), body frame, 6 per body. */
    private final double[] velocity;
    /** -g in each body's frame, 3 per body. */
    private final double[] gravityAcceleration;
    /** Subtree spatial momentum (linear, then angular about the body origin), body frame, 6 per body. */
    private final double[] compositeMomentum;
    /** Subtree mass, kg. */
    private final double[] compositeMass;
    /** Subtree first moment about the body origin, body frame, 3 per body. */
    private final double[] compositeFirstMoment;
    /** The root's omega, omegaDot and acceleration ({@link NewtonEulerPasses#rootMotion}); only -g is read. */
    private final double[] root = new double[9];
    /** The model's gravity, for calls without loads. */
    private final AppliedLoads noLoads;
    private final double[] scratch = new double[6];

    /**
     * Not real-time safe: allocates the workspace, sized from the model. Gravity the model's.
     */
    public GeneralizedMomentum(final CompiledModel model)
    {
        this.model = model;
        joints = new JointTransforms(model);
        velocity = new double[6 * model.bodyCount];
        gravityAcceleration = new double[3 * model.bodyCount];
        compositeMomentum = new double[6 * model.bodyCount];
        compositeMass = new double[model.bodyCount];
        compositeFirstMoment = new double[3 * model.bodyCount];
        noLoads = new AppliedLoads(model);
    }

    /** As {@link #compute(double[], double[], AppliedLoads, double[], double[], double[], double[])} under the model's gravity. */
    public void compute(final double[] q, final double[] qd, final double[] momentum,
        final double[] coriolisTransposedTimesQd, final double[] gravityTorque, final double[] friction)
    {
        compute(q, qd, noLoads, momentum, coriolisTransposedTimesQd, gravityTorque, friction);
    }

    /**
     * Computes p, C^T qd, g and the model's friction at (q, qd) under the loads' gravity (their
     * wrenches are not part of these terms: an observer estimates them). Real-time safe: allocates
     * nothing.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities by coordinate, rad/s or m/s.
     * @param momentum output p = M(q) qd by coordinate, rotor inertia included, N m s or N s.
     * @param coriolisTransposedTimesQd output C(q, qd)^T qd, N m or N.
     * @param gravityTorque output g(q), N m or N.
     * @param friction output Fs sign(qd) + Fv qd, N m or N.
     */
    public void compute(final double[] q, final double[] qd, final AppliedLoads loads, final double[] momentum,
        final double[] coriolisTransposedTimesQd, final double[] gravityTorque, final double[] friction)
    {
        NewtonEulerPasses.rootMotion(loads, null, root, 0, root, 3, root, 6);
        joints.update(q);
        forwardPass(qd);
        backwardPass(qd, momentum, coriolisTransposedTimesQd, gravityTorque, friction);
    }

    /** Velocities and gravity into each body's frame: w_j = R^T w_i + qd z, v_j = R^T (v_i + w_i x P) + qd z (prismatic). */
    private void forwardPass(final double[] qd)
    {
        for (int j = 0; j < model.bodyCount; j++)
        {
            final int i = model.parent[j];
            final int s = 6 * j;
            final int r = 9 * j;
            if (i < 0)
            {
                Vec3.multiplyTransposed(joints.rotation, r, root, 6, gravityAcceleration, 3 * j);
                SpatialAlgebra.set(velocity, s, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
            }
            else
            {
                Vec3.multiplyTransposed(joints.rotation, r, gravityAcceleration, 3 * i, gravityAcceleration, 3 * j);
                Vec3.cross(velocity, 6 * i + 3, joints.position, 3 * j, scratch, 0);
                Vec3.add(velocity, 6 * i, scratch, 0);
                Vec3.multiplyTransposed(joints.rotation, r, scratch, 0, velocity, s);
                Vec3.multiplyTransposed(joints.rotation, r, velocity, 6 * i + 3, velocity, s + 3);
            }
            final int k = model.coordinate[j];
            if (k >= 0)
            {
                velocity[s + (model.sigma[j] == CompiledModel.REVOLUTE ? 5 : 2)] += qd[k];
            }
        }
    }

    /**
     * Subtree momentum, mass and first moment, each carried into the parent's frame (a force
     * transform: L' = R L, N' = R N + P x L'; h' = R h + m P), and the joint terms read in the body's
     * frame where S is z: p = z . N (z . L prismatic), C^T qd = (v x S) . h, g = S . (m a0, h x a0).
     */
    private void backwardPass(final double[] qd, final double[] momentum, final double[] coriolisTransposedTimesQd,
        final double[] gravityTorque, final double[] friction)
    {
        final int count = model.bodyCount;
        for (int j = 0; j < count; j++)
        {
            SpatialAlgebra.inertiaTimes(model.mass[j], model.firstMoment, 3 * j, model.inertia, 9 * j, velocity, 6 * j,
                compositeMomentum, 6 * j);
        }
        System.arraycopy(model.mass, 0, compositeMass, 0, count);
        System.arraycopy(model.firstMoment, 0, compositeFirstMoment, 0, 3 * count);
        for (int j = count - 1; j >= 0; j--)
        {
            final int k = model.coordinate[j];
            if (k >= 0)
            {
                jointTerms(j, k, qd[k], momentum, coriolisTransposedTimesQd, gravityTorque, friction);
            }
            final int i = model.parent[j];
            if (i >= 0)
            {
                carryToParent(j, i);
            }
        }
    }

    private void jointTerms(final int j, final int k, final double rate, final double[] momentum,
        final double[] coriolisTransposedTimesQd, final double[] gravityTorque, final double[] friction)
    {
        final int s = 6 * j;
        final double[] h = compositeMomentum;
        final double[] v = velocity;
        final int a = 3 * j;
        final double ax = gravityAcceleration[a];
        final double ay = gravityAcceleration[a + 1];
        final double az = gravityAcceleration[a + 2];
        if (model.sigma[j] == CompiledModel.REVOLUTE)
        {
            // v x S for S = (0, z): (v x z, w x z) = ((vy, -vx, 0), (wy, -wx, 0))
            momentum[k] = h[s + 5] + model.rotorInertia[k] * rate;
            coriolisTransposedTimesQd[k] = h[s] * v[s + 1] - h[s + 1] * v[s] + h[s + 3] * v[s + 4] - h[s + 4] * v[s + 3];
            final double hx = compositeFirstMoment[a];
            final double hy = compositeFirstMoment[a + 1];
            gravityTorque[k] = hx * ay - hy * ax;
        }
        else
        {
            // v x S for S = (z, 0): (w x z, 0) = ((wy, -wx, 0), 0)
            momentum[k] = h[s + 2] + model.rotorInertia[k] * rate;
            coriolisTransposedTimesQd[k] = h[s] * v[s + 4] - h[s + 1] * v[s + 3];
            gravityTorque[k] = compositeMass[j] * az;
        }
        friction[k] = model.friction(k, rate, true);
    }

    private void carryToParent(final int j, final int i)
    {
        final int r = 9 * j;
        final int s = 6 * j;
        final int t = 3 * j;
        Vec3.multiply(joints.rotation, r, compositeMomentum, s, scratch, 0);
        Vec3.multiply(joints.rotation, r, compositeMomentum, s + 3, scratch, 3);
        Vec3.addCross(joints.position, t, scratch, 0, scratch, 3);
        for (int c = 0; c < 6; c++)
        {
            compositeMomentum[6 * i + c] += scratch[c];
        }
        Vec3.multiply(joints.rotation, r, compositeFirstMoment, t, scratch, 0);
        final double m = compositeMass[j];
        for (int c = 0; c < 3; c++)
        {
            compositeFirstMoment[3 * i + c] += scratch[c] + m * joints.position[t + c];
        }
        compositeMass[i] += m;
    }
}
