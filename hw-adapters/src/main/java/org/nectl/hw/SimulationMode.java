package org.nectl.hw;

/** How the simulated arm's time advances (docs/ADAPTERS.md, "Simulated arm"). */
public enum SimulationMode
{
    /** Integrates on the wall clock, one control period per period of wall time; JointState every period. */
    REALTIME,
    /**
     * Advances exactly one control period per MotorCommand that acknowledges the latest JointState;
     * timestamps are simulated time; deterministic and as fast as the controller answers.
     */
    LOCKSTEP
}
