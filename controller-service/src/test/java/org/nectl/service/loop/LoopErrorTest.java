package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.nectl.core.runtime.ControllerMode;
import org.nectl.core.runtime.Faults;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmAdapter;
import org.nectl.hw.SimulationMode;
import org.nectl.service.planner.CommandResult;
import org.nectl.transport.sbe.ControllerEventKind;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.ControllerState;
import org.nectl.transport.sbe.EventCommand;
import org.nectl.transport.sbe.RejectReason;

/** The control loop's error path: a Throwable inside a tick while the arm is held. */
class LoopErrorTest
{
    /** The tick that throws: the one that reads JointState {@code FAILING_TICK - 1}. */
    private static final long FAILING_TICK = 150;

    /**
     * Lockstep (so the failing tick is exact), the simulated arm in this JVM stepped by the test,
     * enabled and holding; then tick {@value #FAILING_TICK} throws. Asserted: the error is caught
     * and counted and the loop ticks on; FAULT with LOOP_ERROR and the transition ENABLED to FAULT
     * in the event stream at the failing tick; the simulated drives unpowered with the brakes
     * engaged from the next period (the loop's brake command answers the state the failing tick
     * read) and reporting so in their JointState; the service's listener run once; every later
     * command but EStop refused by the gateway with CONTROLLER_UNAVAILABLE.
     */
    @Test
    void anExceptionInATickBrakesTheArmLatchesLoopErrorAndTheGatewayRefusesCommands()
    {
        final RuntimeException injected = new IllegalStateException("injected failure in a tick");
        final TickStage failing = tickCount ->
        {
            if (tickCount == FAILING_TICK)
            {
                throw injected;
            }
        };
        try (ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings(), failing))
        {
            final ControlLoop loop = rig.service.loop();
            final AtomicInteger listenerRuns = new AtomicInteger();
            rig.service.onLoopError(listenerRuns::incrementAndGet);
            final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, ServiceRig.armConfig());
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.stepTo(0, arm, adapter);
            assertTrue(rig.planner.enable(ControllerKind.PD_GRAVITY).accepted(), "enable acknowledged");
            rig.awaitApplied(1);
            rig.stepTo(FAILING_TICK - 2, arm, adapter);
            assertTrue(arm.drivesEnabled(), "drives powered before the failure");
            assertEquals(ControllerMode.ENABLED, loop.mode());
            ServiceRig.await(() ->
            {
                adapter.doWork();
                rig.telemetry.poll();
                return loop.loopErrorCount() > 0 && arm.stepCount() >= FAILING_TICK + 20;
            }, "the failure caught and the simulator stepped on");
            assertEquals(1, loop.loopErrorCount(), "one failure, counted once");
            assertSame(injected, loop.firstError());
            assertEquals(ControllerMode.FAULT, loop.mode());
            assertTrue((loop.faults() & Faults.LOOP_ERROR) != 0, Faults.describe(loop.faults()));
            assertTrue(loop.tickCount() > FAILING_TICK + 10, "the loop ticks on after the error: " + loop.tickCount());
            assertEquals(1, listenerRuns.get(), "the service's listener runs once");
            assertFalse(arm.drivesEnabled(), "drives unpowered, brakes engaged");
            ServiceRig.await(() -> !loop.drivesReportEnabled(), "the JointState reporting the drives unpowered");

            final CommandResult enable = rig.planner.enable(ControllerKind.PD_GRAVITY);
            assertEquals(RejectReason.CONTROLLER_UNAVAILABLE, enable.reason(), enable.describe());
            final CommandResult reset = rig.planner.reset();
            assertEquals(RejectReason.CONTROLLER_UNAVAILABLE, reset.reason(), reset.describe());
            assertTrue(rig.planner.eStop().accepted(), "an emergency stop is always forwarded");
            assertEquals(2, rig.service.gateway().rejectCount(RejectReason.CONTROLLER_UNAVAILABLE));

            ServiceRig.await(() ->
            {
                rig.telemetry.poll();
                return rig.telemetry.firstEvent(ControllerEventKind.FAULT, 0L) != null
                    && rig.telemetry.firstEvent(ControllerEventKind.MODE_TRANSITION, 0L) != null
                    && rig.telemetry.events.size() >= 3;
            }, "the FAULT and the transition in the event stream");
            final TelemetryRecorder.Event fault = rig.telemetry.firstEvent(ControllerEventKind.FAULT, 0L);
            assertEquals(Faults.LOOP_ERROR, fault.newFaults(), Faults.describe(fault.newFaults()));
            assertEquals(EventCommand.NONE, fault.command());
            assertEquals(ControllerState.ENABLED, fault.fromState());
            assertEquals(ControllerState.FAULT, fault.toState());
            assertEquals(FAILING_TICK, fault.tickCount(), "the event carries the failing tick");
            assertEquals((FAILING_TICK - 1) * ServiceRig.PERIOD_NS, fault.timestampNs(), "and its simulated time");
            final TelemetryRecorder.Event transition = rig.telemetry.events.get(2);
            assertEquals(ControllerEventKind.MODE_TRANSITION, transition.kind());
            assertEquals(ControllerState.FAULT, transition.toState());
        }
    }
}
