package org.nectl.core.runtime;

/**
 * Supervisor fault bits reported by {@link ControlCycle#faults()}; any bit puts the controller in
 * {@link ControllerMode#FAULT}.
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

    private Faults()
    {
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
        final String[] names = {
            "heartbeat timeout", "state missing", "non-finite state", "position limit", "velocity limit",
            "torque limit", "emergency stop", "adapter fault", "non-finite command"};
        final StringBuilder text = new StringBuilder();
        for (int bit = 0; bit < names.length; bit++)
        {
            if ((faults & (1 << bit)) != 0)
            {
                text.append(text.length() == 0 ? "" : ", ").append(names[bit]);
            }
        }
        return text.toString();
    }
}
