package org.nectl.core.control;

import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.GravityTorques;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.dynamics.TorqueDerivative;

/**
 * {@link LawDynamics} of a tree robot, whose every joint is controlled: the recursive Newton-Euler
 * inverse dynamics, its jerk-propagating time derivative and the gravity torques of the compiled
 * model, called directly. Never fails. Not thread safe; every method but the constructor is
 * real-time safe.
 */
public final class TreeLawDynamics implements LawDynamics
{
    private final int dof;
    private final InverseDynamics inverseDynamics;
    private final TorqueDerivative torqueDerivative;
    private final GravityTorques gravityTorques;

    /**
     * Not real-time safe: allocates the algorithms' workspaces.
     *
     * @param model the compiled robot, with the gravity the laws use.
     */
    public TreeLawDynamics(final CompiledModel model)
    {
        dof = model.dof();
        inverseDynamics = new InverseDynamics(model);
        torqueDerivative = new TorqueDerivative(model);
        gravityTorques = new GravityTorques(model);
    }

    @Override
    public int dof()
    {
        return dof;
    }

    @Override
    public void jointFriction(final boolean enabled)
    {
        inverseDynamics.jointFriction(enabled);
        torqueDerivative.jointFriction(enabled);
    }

    @Override
    public boolean inverseDynamics(final double[] q, final double[] qd, final double[] qdd, final double[] tau)
    {
        inverseDynamics.compute(q, qd, qdd, tau);
        return true;
    }

    @Override
    public boolean torqueAndRate(
        final double[] q, final double[] qd, final double[] qdd, final double[] qddd, final double[] tau, final double[] tauRate)
    {
        torqueDerivative.compute(q, qd, qdd, qddd, tau, tauRate);
        return true;
    }

    @Override
    public boolean gravityTorques(final double[] q, final double[] tau)
    {
        gravityTorques.compute(q, tau);
        return true;
    }
}
