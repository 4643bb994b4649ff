package org.nectl.core.dynamics;

/**
 * Forward dynamics qdd = FD(q, qd, tau, external wrenches) of a tree in O(n) by the recursive
 * Newton-Euler direct dynamic model of Khalil, "Dynamic modeling of robots using recursive
 * Newton-Euler techniques", ICINCO 2010, §3.3.2 (eqs. 32-44), which is Featherstone's
 * articulated-body algorithm ("Rigid Body Dynamics Algorithms", 2008, §7.3, Table 7.1). Every
 * quantity is expressed in the base frame about its origin, so the screw transforms iT_j of
 * eqs. (39)-(43) are the identity and articulated inertias add without transformation.
 * Correspondence with Khalil's symbols: J*_j = articulated inertia, H_j = S^T J*_j S + Ia_j
 * (eq. 36), K_j = J*_j - J*_j S H_j^-1 S^T J*_j (eq. 37), -beta*_j = articulated bias wrench,
 * gamma_j = S_j-dot qd_j (eq. 34 in spatial form).
 *
 * <p>It inverts exactly the joint model of the inverse dynamics (Khalil 2010, eq. 31):
 * tau = S^T f + Ia qdd + Fs sign(qd) + Fv qd, by driving the articulated bodies with
 * tau - Fs sign(qd) - Fv qd (eq. 44) and adding Ia to H_j. Gravity, external wrench and friction
 * conventions are those of {@link InverseDynamics}.
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} is real-time safe.
 */
public final class RecursiveForwardDynamics
{
    private static final int PACKED = ArticulatedInertia.PACKED;

    private final BaseFrameBodies bodies;
    /** The model's gravity and no wrench, for calls without loads. */
    private final AppliedLoads noLoads;
    /** The base's spatial acceleration (-g, 0), base frame, set from each call's loads. */
    private final double[] baseAcceleration = new double[6];
    private boolean friction = true;
    /** Articulated inertia J*_i, base frame, packed as {@link ArticulatedInertia} holds it, 21 per body. */
    private final double[] articulatedInertia;
    /** Articulated bias wrench (-beta*_i), base frame, 6 per body. */
    private final double[] biasWrench;
    /** gamma_i = S_i-dot qd_i = (v_i x S_i) qd_i, base frame, 6 per body (zero for fixed joints). */
    private final double[] velocityProduct;
    /** U_i = J*_i S_i, 6 per body. */
    private final double[] projected;
    /** 1 / H_i per body (eq. 36). */
    private final double[] inverseH;
    /** tau_i - S_i . biasWrench_i per body. */
    private final double[] drive;
    /** Spatial acceleration a_i, base frame, 6 per body. */
    private final double[] acceleration;
    private final double[] scratch = new double[6];

    /**
     * Not real-time safe: allocates the workspace, sized from the model.
     */
    public RecursiveForwardDynamics(final CompiledModel model)
    {
        bodies = new BaseFrameBodies(model);
        final int n = bodies.bodyCount;
        noLoads = new AppliedLoads(model);
        articulatedInertia = new double[PACKED * n];
        biasWrench = new double[6 * n];
        velocityProduct = new double[6 * n];
        projected = new double[6 * n];
        inverseH = new double[n];
        drive = new double[n];
        acceleration = new double[6 * n];
    }

    /**
     * Switches Coulomb and viscous joint friction, Fs sign(qd) + Fv qd subtracted from the applied
     * torques, on or off (default on); rotor inertia is always included. Real-time safe.
     */
    public void jointFriction(final boolean enabled)
    {
        friction = enabled;
    }

    /**
     * {@link #compute(double[], double[], double[], AppliedLoads, BaseMotion, double[])} on a fixed
     * base under the model's gravity and no external wrench. Real-time safe: allocates nothing.
     */
    public boolean compute(final double[] q, final double[] qd, final double[] tau, final double[] qdd)
    {
        return compute(q, qd, tau, noLoads, qdd);
    }

    /**
     * {@link #compute(double[], double[], double[], AppliedLoads, BaseMotion, double[])} on a fixed
     * base under the loads. Real-time safe: allocates nothing.
     */
    public boolean compute(final double[] q, final double[] qd, final double[] tau, final AppliedLoads loads, final double[] qdd)
    {
        return compute(q, qd, tau, loads, null, qdd);
    }

    /**
     * Computes the joint accelerations qdd (rad/s^2 or m/s^2) from q, qd (rad, rad/s or m, m/s) and
     * the applied joint torques or forces tau (N m or N), by coordinate, relative to a carried
     * (moving) base: the base's measured angular velocity is the root's velocity and its angular
     * acceleration and specific force the root's acceleration (Khalil 2010, §7.1), in the inertial
     * frame that coincides with the base frame and moves with the base origin at this instant. The
     * base's motion is in base coordinates, null for a fixed base under the loads' gravity (a carried
     * base does not use it); world-fixed loads are in base coordinates. Real-time safe: allocates nothing.
     *
     * @return true on success; false if some H_j is not positive (massless end of a chain without
     *     rotor inertia), qdd then undefined.
     */
    public boolean compute(final double[] q, final double[] qd, final double[] tau, final AppliedLoads loads,
        final BaseMotion base, final double[] qdd)
    {
        NewtonEulerPasses.rootMotion(loads, base, bodies.baseVelocity, 3, baseAcceleration, 3, baseAcceleration, 0);
        bodies.placements(q);
        for (int i = 0; i < bodies.bodyCount; i++)
        {
            firstForward(i, qd, loads);
        }
        boolean solvable = true;
        for (int i = bodies.bodyCount - 1; i >= 0; i--)
        {
            final int k = bodies.coordinate[i];
            solvable &= k < 0 ? transmitFixed(i) : articulate(i, k, tau[k] - bodies.model.friction(k, qd[k], friction));
        }
        for (int i = 0; i < bodies.bodyCount; i++)
        {
            secondForward(i, qdd);
        }
        return solvable;
    }

    /**
     * After {@link BaseFrameBodies#placements}: body i's v_i = v_parent + S_i qd_i
     * ({@link BaseFrameBodies#velocity}), then gamma_i = (v_i x S_i) qd_i, -beta_i = v_i x* J_i v_i
     * - f_ext,i and J*_i = J_i (eqs. 33-35).
     */
    private void firstForward(final int i, final double[] qd, final AppliedLoads loads)
    {
        final int s = 6 * i;
        bodies.velocity(i, qd);
        // gamma = S-dot qd (eq. 34)
        final int k = bodies.coordinate[i];
        final double rate = k >= 0 ? qd[k] : 0.0;
        for (int c = 0; c < 6; c++)
        {
            velocityProduct[s + c] = bodies.axisRate[s + c] * rate;
        }
        // -beta = v x* (J v) - f_ext (eq. 35)
        bodies.inertiaTimes(i, bodies.velocity, s, scratch, 0);
        SpatialAlgebra.crossForce(bodies.velocity, s, scratch, 0, biasWrench, s);
        if (loads.any())
        {
            loads.subtractInBase(i, bodies.rotation, bodies.position, scratch, biasWrench, s);
        }
        // J_i (eq. 11) as the start of J*_i
        ArticulatedInertia.ofBody(bodies.mass[i], bodies.firstMoment, 3 * i, bodies.inertia, 9 * i, articulatedInertia, PACKED * i);
    }

    /**
     * Body i through its joint k: U = J* S, H = S^T U + Ia (eq. 36), and into the parent
     * J* - U U^T / H (eq. 37) and -beta* + J* gamma + U (tau - S . (-beta*) - U . gamma) / H
     * (eq. 38 with K gamma expanded).
     *
     * @return H > 0.
     */
    private boolean articulate(final int i, final int k, final double jointTorque)
    {
        final int s = 6 * i;
        final int a = PACKED * i;
        final double[] axis = bodies.axis;
        final double[] u = projected;
        final double[] bias = biasWrench;
        // U = J* S and H = S . U + Ia (eq. 36); J* gamma beside U, from the same read of J*
        ArticulatedInertia.times(articulatedInertia, a, axis, velocityProduct, s, u, s, scratch, 0);
        final double h = SpatialAlgebra.dot6(axis, s, u, s) + bodies.model.rotorInertia[k];
        final double inv = 1.0 / h;
        final double d = jointTorque - SpatialAlgebra.dot6(axis, s, bias, s);
        inverseH[i] = inv;
        drive[i] = d;
        final int p = bodies.parent[i];
        if (p >= 0)
        {
            // -beta*_p += -beta* + J* gamma + U (d - U . gamma) / H (eq. 38), J*_p += J* - U U^T / H (eq. 37)
            final double w = (d - SpatialAlgebra.dot6(u, s, velocityProduct, s)) * inv;
            for (int c = 0; c < 6; c++)
            {
                bias[6 * p + c] += bias[s + c] + scratch[c] + u[s + c] * w;
            }
            ArticulatedInertia.addReduced(articulatedInertia, a, u, s, inv, PACKED * p);
        }
        return h > 0.0;
    }

    /** A fixed joint transmits J* and -beta* unchanged (eqs. 39, 40 with no joint freedom). */
    private boolean transmitFixed(final int i)
    {
        final int p = bodies.parent[i];
        if (p >= 0)
        {
            BaseFrameBodies.addInto(articulatedInertia, PACKED * i, articulatedInertia, PACKED * p, PACKED);
            BaseFrameBodies.addInto(biasWrench, 6 * i, biasWrench, 6 * p, 6);
        }
        return true;
    }

    /** a_i = a_parent + gamma_i + S_i qdd_i with qdd_i = (tau_i - S . (-beta*) - U . (a_parent + gamma_i)) / H_i (eqs. 41, 43). */
    private void secondForward(final int i, final double[] qdd)
    {
        final int s = 6 * i;
        final int p = bodies.parent[i];
        final double[] a = acceleration;
        System.arraycopy(p < 0 ? baseAcceleration : a, p < 0 ? 0 : 6 * p, a, s, 6);
        BaseFrameBodies.addInto(velocityProduct, s, a, s, 6);
        final int k = bodies.coordinate[i];
        if (k >= 0)
        {
            final double accel = (drive[i] - SpatialAlgebra.dot6(projected, s, a, s)) * inverseH[i];
            qdd[k] = accel;
            for (int c = 0; c < 6; c++)
            {
                a[s + c] += bodies.axis[s + c] * accel;
            }
        }
    }
}
