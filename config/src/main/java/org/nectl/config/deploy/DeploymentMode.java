package org.nectl.config.deploy;

/** How the control loop is clocked (key {@code mode}). */
public enum DeploymentMode
{
    /** The loop ticks on the wall clock at the configured period. */
    REALTIME,
    /** The loop ticks once per new joint state; the simulator advances one period per command. */
    LOCKSTEP
}
