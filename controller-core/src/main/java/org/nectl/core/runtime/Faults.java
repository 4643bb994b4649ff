package org.nectl.core.runtime;

/**
 * Supervisor fault bits reported by {@link ControlCycle#faults()}; any bit latches a fault and stops
 * the arm with the fault's {@link StopCategory} ({@link SafetySettings#category}).
 */
public final class Faults
{
    /** No adapter heartbeat within the heartbeat timeout. */
    public static final int HEARTBEAT_TIMEOUT = 1;
    /** No new JointState for the configured number of consecutive ticks. */
    public static final int STATE_MISSING = 1 << 1;
    /** A measured position or velocity is NaN or infinite. */
    public static final int NON_FINITE_STATE = 1 << 2;
    /** A measured position outside its limits plus margin. */
    public static final int POSITION_LIMIT = 1 << 3;
    /** A measured velocity above its limit. */
    public static final int VELOCITY_LIMIT = 1 << 4;
    /** The torque limiter clipped a joint for too many consecutive ticks. */
    public static final int TORQUE_LIMIT = 1 << 5;
    /** Emergency stop requested. */
    public static final int EMERGENCY_STOP = 1 << 6;
    /** The adapter reports a drive or encoder fault, or its watchdog tripped. */
    public static final int ADAPTER_FAULT = 1 << 7;
    /** The control law produced a non-finite torque. */
    public static final int NON_FINITE_COMMAND = 1 << 8;
    /** A joint moving towards a position limit is closer to it than its braking distance plus margin. */
    public static final int SOFT_POSITION_LIMIT = 1 << 9;
    /** A measured position jumped: it differs from the one integrated from the last state by more than the tolerance. */
    public static final int STATE_JUMP = 1 << 10;
    /** The reference is non-finite or jumped by more than a new reference may start away from the current one. */
    public static final int REFERENCE_DISCONTINUITY = 1 << 11;
    /** A category 1 or 2 stop did not reach standstill within the stop time; escalated to category 0. */
    public static final int STOP_TIMEOUT = 1 << 12;
    /**
     * The hardware link is gone: the Aeron client lost its media driver and closed the link's
     * publications and subscriptions, so neither states nor commands can flow any more.
     */
    public static final int LINK_LOST = 1 << 13;
    /**
     * A control tick threw: the loop's own code failed, so nothing it computes can be trusted; always
     * category 0, latched again after a reset.
     */
    public static final int LOOP_ERROR = 1 << 14;
    /**
     * The service was asked to shut down (SIGTERM, SIGINT) while the drives were powered: the arm is
     * stopped with this bit's category (0 or 1, default 1) before the service exits.
     */
    public static final int SHUTDOWN = 1 << 15;
    /**
     * The momentum observer's external torque estimate of a joint exceeded its threshold and the
     * configured reaction is a stop ({@link CollisionSettings}); default category 1.
     */
    public static final int COLLISION = 1 << 16;
    /**
     * A carried base's measured motion is older than its maximum age (no valid base block in the
     * JointStates for longer than {@link CarriedBaseSettings#maxAgeNs}): the compensation no longer
     * knows what the base does; default category 1, never 2.
     */
    public static final int BASE_MOTION_LOST = 1 << 17;
    /** Number of fault bits. */
    public static final int COUNT = 18;

    /** Fault names as written in the deployment file's {@code safety.stop_category}, by bit number. */
    private static final String[] KEYS = {
        "heartbeat_timeout", "state_missing", "non_finite_state", "position_limit", "velocity_limit",
        "torque_limit", "emergency_stop", "adapter_fault", "non_finite_command", "soft_position_limit",
        "state_jump", "reference_discontinuity", "stop_timeout", "link_lost", "loop_error", "shutdown", "collision",
        "base_motion_lost"};

    private Faults()
    {
    }

    /**
     * @param bit bit number 0..{@link #COUNT}-1.
     * @return the fault's name in snake case, as in deployment files.
     */
    public static String key(final int bit)
    {
        return KEYS[bit];
    }

    /**
     * Not real-time safe (allocates the text).
     *
     * @param faults fault bits.
     * @return the names of the set bits, comma separated, or "none".
     */
    public static String describe(final int faults)
    {
        if (faults == 0)
        {
            return "none";
        }
        final StringBuilder text = new StringBuilder();
        for (int bit = 0; bit < COUNT; bit++)
        {
            if ((faults & (1 << bit)) != 0)
            {
                text.append(text.length() == 0 ? "" : ", ").append(KEYS[bit].replace('_', ' '));
            }
        }
        return text.toString();
    }
}
