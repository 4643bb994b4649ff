package org.nectl.service.loop;

import org.nectl.core.control.TrajectorySampler;
import org.nectl.core.runtime.ControlCycle;
import org.nectl.core.runtime.ControlLaw;

/**
 * A planner command made ready off the control loop (decoded, trajectories built), so that the
 * loop only applies it: the "prepare" half of a two-phase mode switch. Immutable once queued.
 */
final class PreparedCommand
{
    /**
     * ControllerEvent rejectCode of a segment that could not be prepared (e.g. its interpolant
     * leaves the position or velocity limits between waypoints); codes 1..5 are the loop's own.
     */
    static final int REFUSED_WHEN_PREPARED = 6;

    /** What the command asks for. */
    enum Kind
    {
        ENABLE,
        DISABLE,
        HOLD,
        RESET,
        EMERGENCY_STOP,
        TRAJECTORY,
        SETPOINT,
        PAYLOAD
    }

    final Kind kind;
    final ControlLaw law;
    final TrajectorySampler trajectory;
    final double[] q;
    final double[] qd;
    final double[] qdd;
    final double[] qddd;
    /** PAYLOAD: the laws and observer of the model with the new payload, built off the loop. */
    final ControlCycle.PreparedModel model;
    /** PAYLOAD: ramp duration, ns. */
    final long rampNs;
    /** 0, or the code of a refusal already decided when the command was prepared: the loop only reports it. */
    final int refusal;

    private PreparedCommand(
        final Kind kind, final ControlLaw law, final TrajectorySampler trajectory,
        final double[] q, final double[] qd, final double[] qdd, final double[] qddd)
    {
        this(kind, law, trajectory, q, qd, qdd, qddd, 0);
    }

    private PreparedCommand(
        final Kind kind, final ControlLaw law, final TrajectorySampler trajectory,
        final double[] q, final double[] qd, final double[] qdd, final double[] qddd, final int refusal)
    {
        this(kind, law, trajectory, q, qd, qdd, qddd, refusal, null, 0L);
    }

    private PreparedCommand(
        final Kind kind, final ControlLaw law, final TrajectorySampler trajectory,
        final double[] q, final double[] qd, final double[] qdd, final double[] qddd, final int refusal,
        final ControlCycle.PreparedModel model, final long rampNs)
    {
        this.model = model;
        this.rampNs = rampNs;
        this.refusal = refusal;
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

    /** A command refused while prepared, passed on so that the loop reports the refusal as a ControllerEvent. */
    static PreparedCommand refused(final Kind kind, final int code)
    {
        return new PreparedCommand(kind, null, null, null, null, null, null, code);
    }

    static PreparedCommand payload(final ControlCycle.PreparedModel model, final long rampNs)
    {
        return new PreparedCommand(Kind.PAYLOAD, null, null, null, null, null, null, 0, model, rampNs);
    }

    static PreparedCommand setpoint(final double[] q, final double[] qd, final double[] qdd, final double[] qddd)
    {
        return new PreparedCommand(Kind.SETPOINT, null, null, q, qd, qdd, qddd);
    }
}
