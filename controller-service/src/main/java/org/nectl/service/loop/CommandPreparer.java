package org.nectl.service.loop;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import org.agrona.concurrent.Agent;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;
import org.nectl.core.control.JointWaypoints;
import org.nectl.core.control.TrajectorySampler;
import org.nectl.core.identification.Payloads;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.RobotModel;
import org.nectl.core.runtime.ControlCycle;
import org.nectl.core.runtime.ControlLaw;
import org.nectl.transport.PlannerCommandHandler;
import org.nectl.transport.PlannerCommandQueue;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.EStopDecoder;
import org.nectl.transport.sbe.ModeRequestDecoder;
import org.nectl.transport.sbe.ModeRequestKind;
import org.nectl.transport.sbe.PayloadCommandDecoder;
import org.nectl.transport.sbe.StreamSetpointDecoder;
import org.nectl.transport.sbe.TrajectorySegmentDecoder;

/**
 * Turns validated planner commands from the gateway into {@link PreparedCommand}s for the control
 * loop: assembles trajectory chunks and builds the jerk-continuous {@link TrajectorySampler} here,
 * off the real-time thread, where allocating and rejecting are allowed.
 *
 * <p>An Agrona agent for a non-real-time thread. Not real-time safe. Counters readable from any thread.
 */
final class CommandPreparer implements Agent, PlannerCommandHandler
{
    private static final int COMMANDS_PER_DUTY_CYCLE = 16;
    /** PayloadCommand.link of the last link (the flange); SBE's null value of uint8. */
    private static final short FLANGE_LINK = 255;

    private final RobotModel model;
    private final boolean elastic;
    private final PlannerCommandQueue gatewayQueue;
    private final OneToOneConcurrentArrayQueue<PreparedCommand> loopQueue;
    private final Function<RobotModel, ControlCycle.PreparedModel> modelPreparer;
    private final AtomicLong trajectoryRejectCount = new AtomicLong();
    private final AtomicLong loopQueueFullCount = new AtomicLong();
    private final int dof;
    private double[] segmentTimesS;
    private double[][] segmentPositions;
    private int segmentWaypoints;
    private long segmentId = -1;
    private volatile String lastRejection = "";

    CommandPreparer(
        final RobotModel model, final boolean elastic, final PlannerCommandQueue gatewayQueue,
        final OneToOneConcurrentArrayQueue<PreparedCommand> loopQueue,
        final Function<RobotModel, ControlCycle.PreparedModel> modelPreparer)
    {
        this.modelPreparer = modelPreparer;
        this.model = model;
        this.elastic = elastic;
        this.gatewayQueue = gatewayQueue;
        this.loopQueue = loopQueue;
        this.dof = model.dof();
    }

    @Override
    public int doWork()
    {
        return gatewayQueue.drain(this, COMMANDS_PER_DUTY_CYCLE);
    }

    @Override
    public String roleName()
    {
        return "command-preparer";
    }

    @Override
    public void onTrajectorySegment(final TrajectorySegmentDecoder segment)
    {
        if (segment.chunkIndex() == 0)
        {
            segmentId = segment.segmentId();
            segmentTimesS = new double[0];
            segmentPositions = new double[0][];
            segmentWaypoints = 0;
        }
        else if (segment.segmentId() != segmentId)
        {
            reject("trajectory segment " + segment.segmentId() + " chunk " + segment.chunkIndex() + " without its chunk 0");
            return;
        }
        for (final TrajectorySegmentDecoder.WaypointsDecoder waypoint : segment.waypoints())
        {
            appendWaypoint(waypoint);
        }
        if (segment.chunkIndex() == segment.chunkCount() - 1)
        {
            finishSegment();
        }
    }

    private void appendWaypoint(final TrajectorySegmentDecoder.WaypointsDecoder waypoint)
    {
        if (segmentWaypoints == segmentTimesS.length)
        {
            final int capacity = Math.max(8, 2 * segmentWaypoints);
            segmentTimesS = java.util.Arrays.copyOf(segmentTimesS, capacity);
            segmentPositions = java.util.Arrays.copyOf(segmentPositions, capacity);
        }
        segmentTimesS[segmentWaypoints] = waypoint.timeFromStartNs() * 1e-9;
        final double[] q = new double[dof];
        int j = 0;
        for (final TrajectorySegmentDecoder.WaypointsDecoder.JointsDecoder joint : waypoint.joints())
        {
            q[j++] = joint.q();
        }
        segmentPositions[segmentWaypoints++] = q;
    }

    private void finishSegment()
    {
        final double[] times = java.util.Arrays.copyOf(segmentTimesS, segmentWaypoints);
        final double[][] positions = java.util.Arrays.copyOf(segmentPositions, segmentWaypoints);
        segmentId = -1;
        try
        {
            offer(PreparedCommand.trajectory(new TrajectorySampler(model, new JointWaypoints(times, positions))));
        }
        catch (final IllegalArgumentException e)
        {
            reject(e.getMessage());
            offer(PreparedCommand.refused(PreparedCommand.Kind.TRAJECTORY, PreparedCommand.REFUSED_WHEN_PREPARED));
        }
    }

    @Override
    public void onStreamSetpoint(final StreamSetpointDecoder setpoint)
    {
        final double[] q = new double[dof];
        final double[] qd = new double[dof];
        final double[] qdd = new double[dof];
        final double[] qddd = new double[dof];
        int j = 0;
        for (final StreamSetpointDecoder.JointsDecoder joint : setpoint.joints())
        {
            q[j] = joint.q();
            qd[j] = joint.qd();
            qdd[j] = joint.qdd();
            qddd[j] = joint.qddd();
            j++;
        }
        offer(PreparedCommand.setpoint(q, qd, qdd, qddd));
    }

    @Override
    public void onModeRequest(final ModeRequestDecoder request)
    {
        final PreparedCommand.Kind kind = kind(request.request());
        if (kind == null)
        {
            reject("unknown mode request " + request.request());
            return;
        }
        if (request.controller() == ControllerKind.MIXED_ELASTIC && !elastic)
        {
            // Prepare phase of a controller switch: a law this service cannot run never reaches the
            // loop, which only reports the refusal.
            reject("control law MIXED_ELASTIC needs a robot with elastic joints; " + model.name() + " has none");
            offer(PreparedCommand.refused(kind, ControlCycle.REJECTED_LAW));
            return;
        }
        offer(PreparedCommand.mode(kind, law(request.controller())));
    }

    private static PreparedCommand.Kind kind(final ModeRequestKind request)
    {
        switch (request)
        {
            case ENABLE:
                return PreparedCommand.Kind.ENABLE;
            case DISABLE:
                return PreparedCommand.Kind.DISABLE;
            case HOLD:
                return PreparedCommand.Kind.HOLD;
            case RESET:
                return PreparedCommand.Kind.RESET;
            default:
                return null;
        }
    }

    @Override
    public void onEStop(final EStopDecoder stop)
    {
        offer(PreparedCommand.mode(PreparedCommand.Kind.EMERGENCY_STOP, null));
    }

    /**
     * Prepare phase of a payload change: the model is the description's plus this payload (a payload
     * replaces the previous one; mass 0 gives the description's own model back), its laws and
     * observer are built here, and the loop only ramps to them.
     */
    @Override
    public void onPayload(final PayloadCommandDecoder payload)
    {
        final int link = payload.link() == FLANGE_LINK ? model.bodyCount() - 1 : payload.link();
        if (link >= model.bodyCount())
        {
            reject("payload link " + payload.link() + " not in " + model.name() + " (" + model.bodyCount()
                + " links; 255 is the last)");
            offer(PreparedCommand.refused(PreparedCommand.Kind.PAYLOAD, PreparedCommand.REFUSED_WHEN_PREPARED));
            return;
        }
        try
        {
            final RobotModel loaded = payload.mass() == 0.0 ? model : Payloads.withPayload(model, link, inertia(payload));
            offer(PreparedCommand.payload(modelPreparer.apply(loaded), payload.rampNs()));
        }
        catch (final IllegalArgumentException e)
        {
            reject("payload: " + e.getMessage());
            offer(PreparedCommand.refused(PreparedCommand.Kind.PAYLOAD, PreparedCommand.REFUSED_WHEN_PREPARED));
        }
    }

    private static InertialParameters inertia(final PayloadCommandDecoder p)
    {
        final double[] com = {p.comX(), p.comY(), p.comZ()};
        final double[] inertia = {
            p.ixx(), p.ixy(), p.ixz(),
            p.ixy(), p.iyy(), p.iyz(),
            p.ixz(), p.iyz(), p.izz()};
        return InertialParameters.ofCentreOfMass(p.mass(), com, inertia);
    }

    private static ControlLaw law(final ControllerKind kind)
    {
        switch (kind)
        {
            case COMPUTED_TORQUE:
                return ControlLaw.COMPUTED_TORQUE;
            case PD_GRAVITY:
                return ControlLaw.PD_GRAVITY;
            case MIXED_ELASTIC:
                return ControlLaw.MIXED_ELASTIC;
            default:
                return null;
        }
    }

    private void offer(final PreparedCommand command)
    {
        if (!loopQueue.offer(command))
        {
            loopQueueFullCount.incrementAndGet();
        }
    }

    private void reject(final String reason)
    {
        trajectoryRejectCount.incrementAndGet();
        lastRejection = reason;
    }

    /** @return trajectories and mode requests refused when prepared (e.g. a limit violated between waypoints). */
    long trajectoryRejectCount()
    {
        return trajectoryRejectCount.get();
    }

    /** @return commands dropped because the loop's queue was full. */
    long loopQueueFullCount()
    {
        return loopQueueFullCount.get();
    }

    /** @return the reason of the last refused trajectory or mode request, or "". */
    String lastRejection()
    {
        return lastRejection;
    }
}
