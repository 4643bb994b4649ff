package org.nectl.core.mobile;

import org.nectl.core.dynamics.AppliedLoads;
import org.nectl.core.dynamics.BaseMotion;
import org.nectl.core.dynamics.CholeskySolver;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.MassMatrix;

/**
 * Forward dynamics of a tree on a carried base with prescribed motion:
 * M(q) qdd = tau - h(q, qd; base), where h is {@link CarriedBaseInverseDynamics} at qdd = 0 (bias,
 * gravity through the base's specific force, the base's inertial forces, friction) and M(q) the
 * fixed-base joint-space inertia, which the base's motion does not change (Khalil, "Dynamic modeling
 * of robots using recursive Newton-Euler techniques", ICINCO 2010, eq. 83, second row, with the
 * base acceleration given). Solved by Cholesky; O(n^3), fine for simulated arms.
 *
 * <p>Not thread safe. {@link #compute} is real-time safe.
 */
public final class CarriedBaseForwardDynamics
{
    private final MassMatrix massMatrix;
    private final CarriedBaseInverseDynamics bias;
    private final CholeskySolver solver;
    private final double[] zeros;

    /**
     * Not real-time safe: allocates the workspace.
     *
     * @param model the compiled robot.
     */
    public CarriedBaseForwardDynamics(final CompiledModel model)
    {
        massMatrix = new MassMatrix(model);
        bias = new CarriedBaseInverseDynamics(model);
        solver = new CholeskySolver(model.dof());
        zeros = new double[model.dof()];
    }

    /**
     * Switches Coulomb and viscous joint friction on or off (default on).
     *
     * @param enabled true to resist motion with Fs sign(qd) + Fv qd.
     */
    public void jointFriction(final boolean enabled)
    {
        bias.jointFriction(enabled);
    }

    /**
     * Computes the joint accelerations relative to the base. Real-time safe.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities, rad/s or m/s.
     * @param tau applied joint torques or forces, N m or N.
     * @param loads external wrenches on the bodies (world-fixed ones in base coordinates); gravity unused.
     * @param base the base's motion.
     * @param qdd output joint accelerations, rad/s^2 or m/s^2.
     * @return false if M(q) is not positive definite, qdd then unchanged.
     */
    public boolean compute(final double[] q, final double[] qd, final double[] tau, final AppliedLoads loads,
        final BaseMotion base, final double[] qdd)
    {
        massMatrix.compute(q, solver.matrix());
        final double[] net = solver.rhs();
        bias.compute(q, qd, zeros, loads, base, net);
        for (int k = 0; k < tau.length; k++)
        {
            net[k] = tau[k] - net[k];
        }
        if (!solver.solve())
        {
            return false;
        }
        System.arraycopy(solver.solution(), 0, qdd, 0, qdd.length);
        return true;
    }
}
