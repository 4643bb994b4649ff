package org.nectl.service.loop;

/** How the control loop decides when to tick. */
public enum LoopMode
{
    /** Tick on the wall clock at the fixed period. */
    REALTIME,
    /** Tick once per new JointState, on the simulator's clock (deterministic, faster than real time). */
    LOCKSTEP
}
