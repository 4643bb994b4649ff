package org.nectl.core.closedloop;

import java.util.function.Supplier;

import org.nectl.core.control.LawDynamics;

/**
 * A closed-loop robot's dynamics in its active coordinates by a model of its own, which the control
 * laws use in place of the projection of its equivalent tree ({@link ClosedLoopLawDynamics}): a
 * Gough-Stewart platform's inverse dynamic model (Khalil 2010 eqs. 59-66) costs a fraction of the
 * loops' Newton solve and the projection. It gives the same forces as the projection of the
 * {@link ClosedLoopModel} that carries it, in the same active-joint order.
 */
@FunctionalInterface
public interface DedicatedLawDynamics
{
    /**
     * Compiles the robot's own model once, under the given gravity. Not real-time safe.
     *
     * @param gravity gravity in the base frame, m/s^2, 3 components.
     * @return a source of new dynamics in the active coordinates, one instance per user (each
     *     allocates its workspace, not real-time safe), all sharing that compiled model.
     */
    Supplier<LawDynamics> compile(double[] gravity);
}
