package org.nectl.core.runtime;

/**
 * The controller's life-cycle state, each tied to what the drives do.
 */
public enum ControllerMode
{
    /** Drives disabled, no torque. */
    IDLE,
    /** Drives powered, holding the pose measured at enable, with gravity compensation. */
    ENABLED,
    /** Drives powered, following a trajectory or streamed setpoints. */
    TRACKING,
    /** Drives powered, holding the last reference with gravity compensation. */
    HOLD,
    /** Supervisor fault: zero torque and drives disabled until the service is reset. */
    FAULT
}
