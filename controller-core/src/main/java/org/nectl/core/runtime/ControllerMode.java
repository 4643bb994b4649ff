package org.nectl.core.runtime;

/**
 * The controller's life-cycle state, each tied to what the drives, the brakes and the torque do
 * (docs/ARCHITECTURE.md, "Supervisor"). The declaration order is the wire order of the
 * ControllerState enum (docs/PROTOCOL.md).
 */
public enum ControllerMode
{
    /** Drives disabled, brakes engaged, no torque. Left by ENABLE. */
    IDLE(false),
    /** Drives powered, brakes released, holding the pose measured at enable with gravity compensation. */
    ENABLED(true),
    /** Drives powered, brakes released, following a trajectory or streamed setpoints. */
    TRACKING(true),
    /** Drives powered, brakes released, holding the last reference with gravity compensation. */
    HOLD(true),
    /** Fault latched: drives disabled, brakes engaged, no torque. Left only by an operator reset, to IDLE. */
    FAULT(false),
    /**
     * Fault or emergency stop latched, stop category 1 or 2 under way: drives powered, brakes released,
     * decelerating to standstill within the configured stop time under the torque and torque-rate limits.
     */
    STOPPING(true),
    /**
     * Fault latched after a category-2 stop: drives powered, brakes released, holding the stop pose with
     * gravity compensation. An operator reset goes to ENABLED (still holding), DISABLE to FAULT.
     */
    STANDSTILL(true),
    /** Emergency stop latched: drives disabled, brakes engaged, no torque. Left only by an operator reset, to IDLE. */
    ESTOP(false);

    private final boolean powered;

    ControllerMode(final boolean powered)
    {
        this.powered = powered;
    }

    /** @return true if the drives are powered and torque is commanded in this state. Real-time safe. */
    public boolean drivesPowered()
    {
        return powered;
    }

    /** @return true if a fault or an emergency stop is latched in this state, so only a reset leaves it. */
    public boolean latched()
    {
        return this == FAULT || this == STOPPING || this == STANDSTILL || this == ESTOP;
    }
}
