package org.nectl.core.dynamics;

/**
 * Forward dynamics qdd = M(q)^-1 (tau - h(q, qd)) (Khalil, "Dynamic modeling of robots using
 * recursive Newton-Euler techniques", ICINCO 2010, eq. 8 and §3.3.1) with M from
 * {@link MassMatrix}, h from {@link BiasForces} and the solve M = L L^T by {@link CholeskySolver}.
 * O(n^3) in the number of joints, against O(n) for {@link RecursiveForwardDynamics}; kept as the
 * second, independent formulation and for small robots where the dense solve is cheap. Gravity,
 * external wrench and friction conventions are those of {@link InverseDynamics}.
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} is real-time safe.
 */
public final class CholeskyForwardDynamics
{
    private final MassMatrix massMatrix;
    private final BiasForces biasForces;
    private final CholeskySolver solver;
    /** The model's gravity and no wrench, for calls without loads. */
    private final AppliedLoads noLoads;

    /**
     * Not real-time safe: allocates the workspace and the decomposition, sized from the model.
     */
    public CholeskyForwardDynamics(final CompiledModel model)
    {
        massMatrix = new MassMatrix(model);
        biasForces = new BiasForces(model);
        solver = new CholeskySolver(model.dof());
        noLoads = new AppliedLoads(model);
    }

    /** Joint friction on or off, as {@link BiasForces#jointFriction}; rotor inertia is always included. */
    public void jointFriction(final boolean enabled)
    {
        biasForces.jointFriction(enabled);
    }

    /**
     * Computes the joint accelerations under the model's gravity, no wrench. Real-time safe:
     * allocates nothing.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities, rad/s or m/s.
     * @param tau applied joint torques or forces by coordinate, N m or N.
     * @param qdd output joint accelerations, rad/s^2 or m/s^2.
     * @return true on success; false if M(q) is not positive definite, qdd then unchanged.
     */
    public boolean compute(final double[] q, final double[] qd, final double[] tau, final double[] qdd)
    {
        return compute(q, qd, tau, noLoads, qdd);
    }

    /** As {@link #compute(double[], double[], double[], double[])} under the given gravity and external wrenches. */
    public boolean compute(final double[] q, final double[] qd, final double[] tau, final AppliedLoads loads, final double[] qdd)
    {
        massMatrix.compute(q, solver.matrix());
        final double[] netTorque = solver.rhs();
        biasForces.compute(q, qd, loads, netTorque);
        for (int k = 0; k < tau.length; k++)
        {
            netTorque[k] = tau[k] - netTorque[k];
        }
        if (!solver.solve())
        {
            return false;
        }
        System.arraycopy(solver.solution(), 0, qdd, 0, qdd.length);
        return true;
    }
}
