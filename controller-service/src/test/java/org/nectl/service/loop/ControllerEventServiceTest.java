package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import org.nectl.core.runtime.ControlCycle;
import org.nectl.core.runtime.Faults;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmAdapter;
import org.nectl.hw.SimulationMode;
import org.nectl.service.planner.CommandResult;
import org.nectl.transport.sbe.ControllerEventKind;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.ControllerState;
import org.nectl.transport.sbe.EventCommand;

/**
 * The ControllerEvent stream of the running service in lockstep (so every event's controller time
 * and tick are exact): transitions, stops, faults, refused commands and the operator reset each
 * appear once, in order, with consecutive sequence numbers, including a transition that lasts no
 * tick at all and so never shows in any Telemetry sample. An EStop is category 0 by default: ESTOP
 * at once; ENABLE is refused there; RESET returns to IDLE and the arm can be enabled again.
 */
class ControllerEventServiceTest
{
    private static final long MS = ServiceRig.PERIOD_NS;

    @Test
    void everyTransitionStopFaultAndRefusedCommandIsPublishedWithItsControllerTime()
    {
        try (ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings()))
        {
            final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, ServiceRig.armConfig());
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.stepTo(0, arm, adapter);
            // Enable, disable, enable before the next tick: the IDLE in between lasts no tick.
            assertTrue(rig.planner.enable(ControllerKind.COMPUTED_TORQUE).accepted());
            assertTrue(rig.planner.disable(ControllerKind.UNCHANGED).accepted());
            assertTrue(rig.planner.enable(ControllerKind.UNCHANGED).accepted());
            rig.awaitApplied(3);
            rig.stepTo(50, arm, adapter);
            final double[] far = ServiceRig.READY.clone();
            for (int j = 0; j < far.length; j++)
            {
                far[j] += 0.1;
            }
            final double[] zero = new double[far.length];
            // One command every 10 simulated periods from step 50 on, each applied before the next step.
            final List<Supplier<CommandResult>> commands = List.of(
                () -> rig.planner.sendSetpoint(far, zero, zero, zero),
                () -> rig.planner.hold(ControllerKind.UNCHANGED),
                rig.planner::eStop,
                () -> rig.planner.enable(ControllerKind.UNCHANGED),
                rig.planner::reset,
                () -> rig.planner.enable(ControllerKind.UNCHANGED));
            for (int c = 0; c < commands.size(); c++)
            {
                assertTrue(commands.get(c).get().accepted(), "command " + c + " valid for the gateway");
                rig.awaitApplied(4 + c);
                rig.stepTo(60 + 10 * c, arm, adapter);
            }
            ServiceRig.await(() ->
            {
                rig.telemetry.poll();
                return rig.telemetry.events.size() >= 14;
            }, "14 controller events");

            final ControllerState idle = ControllerState.IDLE;
            final ControllerState enabled = ControllerState.ENABLED;
            final ControllerState hold = ControllerState.HOLD;
            final ControllerState estopped = ControllerState.ESTOP;
            final int estop = Faults.EMERGENCY_STOP;
            final List<TelemetryRecorder.Event> expected = List.of(
                event(1, 0, 1, 0, 0, ControllerEventKind.MODE_TRANSITION, idle, enabled, EventCommand.ENABLE, 0),
                event(2, 0, 1, 0, 0, ControllerEventKind.STOP, enabled, idle, EventCommand.DISABLE, 0),
                event(3, 0, 1, 0, 0, ControllerEventKind.MODE_TRANSITION, enabled, idle, EventCommand.DISABLE, 0),
                event(4, 0, 1, 0, 0, ControllerEventKind.MODE_TRANSITION, idle, enabled, EventCommand.ENABLE, 0),
                event(5, 50 * MS, 51, 0, 0, ControllerEventKind.COMMAND_REJECTED, enabled, enabled, EventCommand.SETPOINT,
                    ControlCycle.REJECTED_DISCONTINUOUS),
                event(6, 60 * MS, 61, 0, 0, ControllerEventKind.STOP, enabled, hold, EventCommand.HOLD, 0),
                event(7, 60 * MS, 61, 0, 0, ControllerEventKind.MODE_TRANSITION, enabled, hold, EventCommand.HOLD, 0),
                event(8, 70 * MS, 71, estop, 0, ControllerEventKind.STOP, hold, estopped, EventCommand.ESTOP, 0),
                event(9, 70 * MS, 71, estop, estop, ControllerEventKind.FAULT, hold, estopped, EventCommand.ESTOP, 0),
                event(10, 70 * MS, 71, estop, 0, ControllerEventKind.MODE_TRANSITION, hold, estopped, EventCommand.ESTOP, 0),
                event(11, 80 * MS, 81, estop, 0, ControllerEventKind.COMMAND_REJECTED, estopped, estopped, EventCommand.ENABLE,
                    ControlCycle.REJECTED_MODE),
                event(12, 90 * MS, 91, 0, 0, ControllerEventKind.RESET, estopped, idle, EventCommand.RESET, 0),
                event(13, 90 * MS, 91, 0, 0, ControllerEventKind.MODE_TRANSITION, estopped, idle, EventCommand.RESET, 0),
                event(14, 100 * MS, 101, 0, 0, ControllerEventKind.MODE_TRANSITION, idle, enabled, EventCommand.ENABLE, 0));
            assertEquals(expected, rig.telemetry.events);
            assertTrue(rig.telemetry.samples.stream().noneMatch(s -> s.tickCount() > 1 && s.tickCount() <= 91 && s.state() == idle),
                "the IDLE between the enables is in no Telemetry sample, only in the events");
            assertEquals(14L, rig.service.loop().eventCount());
            assertEquals(0L, rig.service.loop().droppedEventCount());
        }
    }

    private static TelemetryRecorder.Event event(
        final long sequence, final long timestampNs, final long tick, final int faults, final int newFaults,
        final ControllerEventKind kind, final ControllerState from, final ControllerState to, final EventCommand command,
        final int rejectCode)
    {
        return new TelemetryRecorder.Event(sequence, timestampNs, tick, 0L, faults, newFaults, kind, from, to, command, rejectCode);
    }
}
