package org.nectl.service.loop;

import org.nectl.core.control.TrajectorySampler;
import org.nectl.core.runtime.ControlLaw;

/**
 * A planner command made ready off the control loop (decoded, trajectories built), so that the
 * loop only applies it: the "prepare" half of a two-phase mode switch. Immutable once queued.
 */
final class PreparedCommand
{
    /** What the command asks for. */
    enum Kind
    {
        ENABLE,
        DISABLE,
        HOLD,
        RESET,
        EMERGENCY_STOP,
        TRAJECTORY,
        SETPOINT
    }

    final Kind kind;
    final ControlLaw law;
    final TrajectorySampler trajectory;
    final double[] q;
    final double[] qd;
    final double[] qdd;
    final double[] qddd;

    private PreparedCommand(
        final Kind kind, final ControlLaw law, final TrajectorySampler trajectory,
        final double[] q, final double[] qd, final double[] qdd, final double[] qddd)
    {
        this.kind = kind;
        this.law = law;
        this.trajectory = trajectory;
        this.q = q;
        this.qd = qd;
        this.qdd = qdd;
        this.qddd = qddd;
    }

    static PreparedCommand mode(final Kind kind, final ControlLaw law)
    {
        return new PreparedCommand(kind, law, null, null, null, null, null);
    }

    static PreparedCommand trajectory(final TrajectorySampler trajectory)
    {
        return new PreparedCommand(Kind.TRAJECTORY, null, trajectory, null, null, null, null);
    }

    static PreparedCommand setpoint(final double[] q, final double[] qd, final double[] qdd, final double[] qddd)
    {
        return new PreparedCommand(Kind.SETPOINT, null, null, q, qd, qdd, qddd);
    }
}
