package org.nectl.core.runtime;

import java.util.function.Supplier;

import org.nectl.core.closedloop.ClosedLoopLawDynamics;
import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.control.LawDynamics;
import org.nectl.core.control.TreeLawDynamics;
import org.nectl.core.dynamics.CompiledModel;

/**
 * Where a {@link ControlCycle}'s laws take their dynamics from: the compiled tree whose every joint
 * is controlled, a closed-loop robot's dynamics of its own if it carries one (a Gough-Stewart
 * platform's, {@link org.nectl.core.closedloop.DedicatedLawDynamics}), or else its equivalent tree's
 * dynamics projected onto its active joints. Each user (the
 * computed-torque law, the PD law, the trajectory clock) gets an instance of its own, since each
 * sets its own friction and keeps its own workspace; the instances share one compiled model (the
 * controlled tree, the closed-loop robot's equivalent tree, or a Gough-Stewart platform's legs),
 * compiled once here.
 */
final class LawDynamicsSource
{
    private final Supplier<LawDynamics> instances;

    /**
     * @param tree the compiled robot with the cycle's gravity: the controlled joints.
     * @param closedLoop the closed-loop robot whose active joints {@code tree} holds, or null.
     * @param gravity the cycle's gravity in the base frame, m/s^2.
     */
    LawDynamicsSource(final CompiledModel tree, final ClosedLoopModel closedLoop, final double[] gravity)
    {
        if (closedLoop != null && closedLoop.activeCount() != tree.dof())
        {
            throw new IllegalArgumentException("the closed-loop robot has " + closedLoop.activeCount()
                + " active joints, the controlled model " + tree.dof());
        }
        instances = closedLoop == null ? () -> new TreeLawDynamics(tree) : closedLoopInstances(closedLoop, gravity);
    }

    /** @return new dynamics in the controlled coordinates. Not real-time safe. */
    LawDynamics create()
    {
        return instances.get();
    }

    private static Supplier<LawDynamics> closedLoopInstances(final ClosedLoopModel closedLoop, final double[] gravity)
    {
        // A Gough-Stewart platform carries its eqs. 59-66, a fraction of the projection's cost.
        return closedLoop.dedicatedDynamics().map(dedicated -> dedicated.compile(gravity)).orElseGet(() ->
        {
            final CompiledModel tree = CompiledModel.of(closedLoop.tree(), gravity[0], gravity[1], gravity[2]);
            return () -> new ClosedLoopLawDynamics(closedLoop, tree);
        });
    }
}
