package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;

import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;
import org.nectl.core.mobile.ShipMotion;
import org.nectl.core.runtime.CarriedBaseSettings;
import org.nectl.core.runtime.ControlCycle;
import org.nectl.core.runtime.ControllerMode;
import org.nectl.core.runtime.Faults;
import org.nectl.hw.FaultKind;
import org.nectl.hw.InjectedFault;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmAdapter;
import org.nectl.hw.SimulationMode;
import org.nectl.transport.ServiceCounters;
import org.nectl.transport.sbe.ControllerEventKind;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.ControllerState;
import org.nectl.transport.sbe.EventCommand;

/**
 * A carried deployment whose base motion stops arriving, lockstep through the whole service with the
 * simulated Panda on a ship's deck: the IMU fails while the arm is powered (BASE_MOTION_LOST once the
 * held block is older than its maximum age, a category 1 stop), and an arm whose JointStates never
 * carried a base block is not enabled.
 */
class BaseMotionLossServiceTest
{
    private static final ShipMotion SHIP = new ShipMotion(Math.toRadians(10), 0.2, 0.0, 0.0, 0.5, 0.1);
    private static final long LOSS_STEP = 300;
    private static final int MAX_AGE_PERIODS = CarriedBaseSettings.DEFAULT_MAX_AGE_PERIODS;

    @Test
    void anImuLostWhileEnabledStopsTheArmOnTheFirstTickItsMotionIsOlderThanTheMaximumAge()
    {
        final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, ServiceRig.armConfig().baseMotion(SHIP)
            .fault(new InjectedFault(FaultKind.IMU_LOSS, LOSS_STEP * ServiceRig.PERIOD_NS, -1, 0.0)));
        try (ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings().withCarriedBase(true)))
        {
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.stepTo(0, arm, adapter);
            assertTrue(rig.planner.enable(ControllerKind.COMPUTED_TORQUE).accepted(), "enable acknowledged");
            rig.awaitApplied(1);
            assertEquals(ControllerMode.ENABLED, rig.service.loop().mode());
            rig.stepTo(LOSS_STEP + 400, arm, adapter);
            final TelemetryRecorder.Sample detected = rig.telemetry.samples.stream()
                .filter(s -> s.faults() != 0).findFirst().orElseThrow();
            final long lastValid = LOSS_STEP - 1;
            System.out.printf(Locale.ROOT, "IMU lost at JointState %d: %s on the tick reading JointState %d (%d ms after the last"
                + " valid block), %s then; finally %s%n", LOSS_STEP, Faults.describe((int)detected.faults()),
                detected.jointStateSequence(), (detected.timestampNs() - lastValid * ServiceRig.PERIOD_NS) / 1_000_000L,
                detected.state(), rig.service.loop().mode());
            assertEquals(Faults.BASE_MOTION_LOST, detected.faults(), "the only fault");
            assertEquals(lastValid + MAX_AGE_PERIODS + 1, detected.jointStateSequence(),
                "the first tick whose held block is more than " + MAX_AGE_PERIODS + " periods old");
            assertEquals(ControllerState.STOPPING, detected.state(), "category 1: a controlled stop on the trusted joint state");
            final TelemetryRecorder.Event fault = rig.awaitEvent(ControllerEventKind.FAULT, e -> true);
            assertEquals(Faults.BASE_MOTION_LOST, fault.newFaults());
            assertEquals(detected.tickCount(), fault.tickCount(), "the FAULT event names the detecting tick");
            assertEquals(EventCommand.NONE, fault.command());
            final TelemetryRecorder.Sample last = rig.telemetry.last();
            assertEquals(ControllerState.FAULT, last.state(), "stopped, then braked");
            assertEquals(0.0, last.maxAbsTauCommand(), "zero torque once braked");
            assertEquals(Faults.BASE_MOTION_LOST, rig.service.loop().faults(), Faults.describe(rig.service.loop().faults()));
            final long states = last.jointStateSequence() + 1;
            assertEquals(LOSS_STEP, last.values().baseBlockValidCount(), "Telemetry: JointStates 0 to 299 carried a valid block");
            assertEquals(states - LOSS_STEP, last.values().baseBlockMissingCount(), "Telemetry: none from 300 on");
            assertEquals(0L, last.values().baseBlockInvalidCount());
            final CountersReader counters = rig.client.aeron().countersReader();
            ServiceRig.await(() -> counter(counters, "base_blocks_missing") == states - LOSS_STEP, "counters copied into the CnC file");
            assertEquals(LOSS_STEP, counter(counters, "base_blocks_valid"), "nectl stat's base_blocks_valid");
            assertEquals(0L, counter(counters, "base_blocks_invalid"), "nectl stat's base_blocks_invalid");

            assertTrue(rig.planner.reset().accepted(), "reset acknowledged");
            rig.awaitApplied(2);
            assertEquals(ControllerMode.IDLE, rig.service.loop().mode());
            assertTrue(rig.planner.enable(ControllerKind.COMPUTED_TORQUE).accepted(), "enable acknowledged");
            rig.awaitApplied(3);
            final TelemetryRecorder.Event refused = rig.awaitEvent(ControllerEventKind.COMMAND_REJECTED,
                e -> e.command() == EventCommand.ENABLE);
            assertEquals(ControlCycle.REJECTED_NO_STATE, refused.rejectCode(), "no base motion within its maximum age");
            assertEquals(ControllerMode.IDLE, rig.service.loop().mode());
        }
    }

    @Test
    void aCarriedDeploymentWhoseStatesCarryNoBaseBlockIsNotEnabled()
    {
        final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, ServiceRig.armConfig());
        try (ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings().withCarriedBase(true)))
        {
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.stepTo(10, arm, adapter);
            assertTrue(rig.planner.enable(ControllerKind.COMPUTED_TORQUE).accepted(), "enable acknowledged");
            rig.awaitApplied(1);
            final TelemetryRecorder.Event refused = rig.awaitEvent(ControllerEventKind.COMMAND_REJECTED,
                e -> e.command() == EventCommand.ENABLE);
            assertEquals(ControlCycle.REJECTED_NO_STATE, refused.rejectCode());
            rig.stepTo(20, arm, adapter);
            assertEquals(ControllerMode.IDLE, rig.service.loop().mode(), "not enabled");
            assertEquals(0, rig.service.loop().faults(), "no fault with the drives off: " + Faults.describe(rig.service.loop().faults()));
        }
    }

    @Test
    void aFixedDeploymentEnablesWithoutBaseBlocks()
    {
        final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, ServiceRig.armConfig());
        try (ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings()))
        {
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.stepTo(0, arm, adapter);
            assertTrue(rig.planner.enable(ControllerKind.COMPUTED_TORQUE).accepted(), "enable acknowledged");
            rig.awaitApplied(1);
            rig.stepTo(2L * MAX_AGE_PERIODS, arm, adapter);
            assertEquals(ControllerMode.ENABLED, rig.service.loop().mode(), Faults.describe(rig.service.loop().faults()));
            assertEquals(-1L, counter(rig.client.aeron().countersReader(), "base_blocks_missing"), "no base counters for a fixed base");
        }
    }

    /** Counter value by name in the CnC file, or -1 when absent. */
    private static long counter(final CountersReader reader, final String name)
    {
        final long[] found = {-1};
        reader.forEach((value, id, label) ->
        {
            if (reader.getCounterTypeId(id) == ServiceCounters.TYPE_ID && label.equals(ServiceCounters.LABEL_PREFIX + name))
            {
                found[0] = value;
            }
        });
        return found[0];
    }
}
