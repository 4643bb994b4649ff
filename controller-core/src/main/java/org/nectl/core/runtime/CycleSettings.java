package org.nectl.core.runtime;

/**
 * Settings of a {@link ControlCycle}. Immutable.
 *
 * @param periodNs control period, ns.
 * @param kp proportional gains per coordinate (computed torque: 1/s^2; PD: N m/rad).
 * @param kd derivative gains per coordinate (computed torque: 1/s; PD: N m s/rad).
 * @param pdKp proportional gains of the PD + gravity law, N m/rad (N/m).
 * @param pdKd derivative gains of the PD + gravity law, N m s/rad (N s/m).
 * @param gravity gravity vector in the base frame, m/s^2.
 * @param heartbeatTimeoutNs longest tolerated adapter heartbeat age while the drives are powered.
 * @param maxMissingStates consecutive ticks without a new JointState tolerated while powered.
 * @param commandTimeoutNs longest gap between streamed setpoints before the controller holds.
 * @param positionMargin tolerance beyond the position limits before faulting, rad or m.
 * @param maxSaturatedTicks consecutive ticks a joint may sit at its torque limit before faulting.
 * @param frictionFeedforward add the model's joint friction to the computed-torque command.
 */
public record CycleSettings(
    long periodNs,
    double[] kp,
    double[] kd,
    double[] pdKp,
    double[] pdKd,
    double[] gravity,
    long heartbeatTimeoutNs,
    int maxMissingStates,
    long commandTimeoutNs,
    double positionMargin,
    int maxSaturatedTicks,
    boolean frictionFeedforward)
{
    /**
     * Defaults for a rigid arm at the given period: computed-torque gains for a 10 Hz, critically
     * damped error law, PD gains 100 N m/rad and 10 N m s/rad, 50 ms heartbeat timeout, 2 missing
     * states (FAULT within 3 periods of the last state), 100 ms command timeout, 0.05 rad margin, 200 ms of saturation.
     *
     * @param dof number of coordinates.
     * @param periodNs control period, ns.
     * @return the settings.
     */
    public static CycleSettings defaults(final int dof, final long periodNs)
    {
        final double omega = 2.0 * Math.PI * 10.0;
        return new CycleSettings(
            periodNs,
            filled(dof, omega * omega),
            filled(dof, 2.0 * omega),
            filled(dof, 100.0),
            filled(dof, 10.0),
            new double[] {0.0, 0.0, -9.81},
            50_000_000L,
            2,
            100_000_000L,
            0.05,
            (int)Math.max(1, 200_000_000L / periodNs),
            true);
    }

    /**
     * @param heartbeatTimeout longest tolerated heartbeat age, ns.
     * @param missingStates consecutive ticks without a new JointState tolerated.
     * @return a copy with these supervision tolerances.
     */
    public CycleSettings withSupervision(final long heartbeatTimeout, final int missingStates)
    {
        return new CycleSettings(periodNs, kp, kd, pdKp, pdKd, gravity, heartbeatTimeout, missingStates,
            commandTimeoutNs, positionMargin, maxSaturatedTicks, frictionFeedforward);
    }

    /**
     * @param dof length.
     * @param value every element.
     * @return a filled array.
     */
    public static double[] filled(final int dof, final double value)
    {
        final double[] a = new double[dof];
        java.util.Arrays.fill(a, value);
        return a;
    }
}
