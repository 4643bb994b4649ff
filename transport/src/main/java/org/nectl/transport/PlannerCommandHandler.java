package org.nectl.transport;

import org.nectl.transport.sbe.EStopDecoder;
import org.nectl.transport.sbe.ModeRequestDecoder;
import org.nectl.transport.sbe.PayloadCommandDecoder;
import org.nectl.transport.sbe.StreamSetpointDecoder;
import org.nectl.transport.sbe.TrajectorySegmentDecoder;

/**
 * Receives validated planner commands on the control loop thread, from
 * {@link PlannerCommandQueue#drain}. Each decoder is valid only during the call and is already
 * checked: joint counts equal the robot's, numbers finite and within limits, chunks in order.
 * Implementations must be real-time safe.
 */
public interface PlannerCommandHandler
{
    /** @param segment one chunk of a trajectory segment; chunk 0 starts a new segment. */
    void onTrajectorySegment(TrajectorySegmentDecoder segment);

    /** @param setpoint one streamed reference sample. */
    void onStreamSetpoint(StreamSetpointDecoder setpoint);

    /** @param request a mode transition request. */
    void onModeRequest(ModeRequestDecoder request);

    /** @param stop an emergency stop. */
    void onEStop(EStopDecoder stop);

    /**
     * @param payload a payload to set (mass 0: clear) on a link, checked finite and physical; handlers
     *     that serve no controller (test recorders) may leave it unhandled.
     */
    default void onPayload(final PayloadCommandDecoder payload)
    {
        throw new UnsupportedOperationException("this handler takes no payload commands");
    }
}
