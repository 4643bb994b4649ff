package org.nectl.hw;

import org.agrona.concurrent.Agent;
import org.nectl.transport.sbe.AdapterState;

/**
 * The contract between a hardware adapter and the nectl controller (docs/ADAPTERS.md). An adapter
 * owns the device I/O of one arm and speaks to the controller only over the hardware link
 * ({@link org.nectl.transport.AdapterLink}, Aeron IPC):
 * <ul>
 * <li><b>publishes</b> JointState (stream 1001) at the encoder rate, sequence +1 per encoder sample,
 *     timestamp = the time the encoders were sampled, status bits describing the drives;</li>
 * <li><b>publishes</b> AdapterHeartbeat (stream 1003) at a fixed rate, independent of JointState, with
 *     the newest MotorCommand sequence received and the adapter state;</li>
 * <li><b>subscribes</b> to MotorCommand (stream 1002) and applies the newest one to the drives;</li>
 * <li><b>guarantees</b> its own watchdog ({@link AdapterWatchdog}): no MotorCommand for the watchdog
 *     timeout drives the motors to zero torque and sets the {@code watchdogTripped} status bit and
 *     the WATCHDOG_TRIPPED state, whatever the controller does; and every torque is clamped to the
 *     drive's limit at the drive, so no command can exceed what the actuator is rated for.</li>
 * </ul>
 *
 * <p>An adapter is an Agrona {@link Agent}: {@link #doWork} does a bounded amount of work without
 * blocking and returns how much it did, so it runs under any idle strategy. Not thread safe: one
 * thread runs an adapter.
 */
public interface HardwareAdapter extends Agent
{
    /** @return the adapter life cycle state, as sent in the heartbeat. */
    AdapterState state();
}
