package org.nectl.hw;

/** Faults the simulated arm can inject (docs/ADAPTERS.md, "Injectable faults"). */
public enum FaultKind
{
    /** The adapter hangs: no JointState, no heartbeat, MotorCommands unread; the drives' watchdog still acts. */
    STALL,
    /** The adapter process dies on the spot, without closing anything. */
    CRASH,
    /** One encoder fails: its joint's measured position is NaN from then on. */
    NAN,
    /** One encoder slips: its joint's measured position is offset by a constant from then on. */
    JUMP,
    /** The base's IMU fails: a carried arm's JointStates carry no base-motion block from then on. */
    IMU_LOSS
}
