package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.identification.Payloads;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.RobotModel;
import org.nectl.core.runtime.ControllerMode;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmAdapter;
import org.nectl.hw.SimulatedArmConfig;
import org.nectl.hw.SimulationMode;
import org.nectl.service.planner.CommandResult;
import org.nectl.service.planner.JointTrajectory;
import org.nectl.transport.sbe.ControllerEventKind;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.ControllerState;
import org.nectl.transport.sbe.EventCommand;
import org.nectl.transport.sbe.RejectReason;

/**
 * A PayloadCommand on the whole service, lockstep with the simulated Panda carrying a payload its
 * controller does not know: the holding error before and after, the ramp seen in the telemetry, the
 * loop's events, the states that refuse it and the gateway's rejections.
 */
class PayloadServiceTest
{
    private static final int DOF = 7;
    private static final int FLANGE = 255;
    private static final double MASS_KG = 1.5;
    private static final double[] COM_M = {0.05, 0.0, 0.0};
    private static final double[] POINT = new double[6];
    private static final long RAMP_NS = 500_000_000L;
    private static final double MOVE_S = 1.5;
    private static final int MOVE_TICKS = 1500;
    private static final int RAMP_TICKS = 500;
    private static final int COMMAND_STEP = 1000;
    /** Largest change of any joint's command from one tick to the next during the ramp, N·m. */
    private static final double TORQUE_STEP_BOUND_NM = 0.05;

    @Test
    void anUnmodelledPayloadSetWhileHoldingIsRampedInAndRemovesTheHoldingError()
    {
        final RobotModel loaded = Payloads.withPayload(ServiceRig.PANDA, flange(),
            InertialParameters.ofCentreOfMass(MASS_KG, COM_M, new double[9]));
        final SimulatedArm arm = new SimulatedArm(loaded, new SimulatedArmConfig(loaded).periodNs(ServiceRig.PERIOD_NS)
            .initialQ(ServiceRig.READY));
        try (ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings()))
        {
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.stepTo(0, arm, adapter);
            assertTrue(rig.planner.enable(ControllerKind.COMPUTED_TORQUE).accepted(), "enable acknowledged");
            rig.awaitApplied(1);
            rig.stepTo(COMMAND_STEP, arm, adapter);
            final double before = largestError(rig.telemetry.samples.get(COMMAND_STEP));
            final CommandResult set = rig.planner.setPayload(FLANGE, MASS_KG, COM_M, POINT, RAMP_NS);
            assertTrue(set.accepted(), set.describe());
            rig.awaitApplied(2);
            rig.stepTo(COMMAND_STEP + RAMP_TICKS + 1500, arm, adapter);

            final TelemetryRecorder.Event started = rig.telemetry.firstEvent(ControllerEventKind.PAYLOAD_CHANGE_STARTED, 0);
            final TelemetryRecorder.Event changed = rig.telemetry.firstEvent(ControllerEventKind.PAYLOAD_CHANGED, 0);
            assertNotNull(started, "PAYLOAD_CHANGE_STARTED; preparer: " + rig.service.lastTrajectoryRejection());
            assertNotNull(changed, "PAYLOAD_CHANGED");
            assertEquals(EventCommand.PAYLOAD, started.command());
            assertEquals(ControllerState.ENABLED, started.fromState());
            assertEquals(RAMP_TICKS, changed.tickCount() - started.tickCount(), "the ramp's ticks");

            final List<TelemetryRecorder.Sample> samples = rig.telemetry.samples;
            final int first = (int)started.tickCount();
            double largestStep = 0.0;
            double largestStepBefore = 0.0;
            double totalChange = 0.0;
            for (int t = 1; t < samples.size(); t++)
            {
                final double[] now = samples.get(t).tauCommand();
                final double[] previous = samples.get(t - 1).tauCommand();
                for (int j = 0; j < DOF; j++)
                {
                    final double step = Math.abs(now[j] - previous[j]);
                    if (t > first && t <= first + RAMP_TICKS + 1)
                    {
                        largestStep = Math.max(largestStep, step);
                    }
                    else if (t > 100 && t <= first)
                    {
                        largestStepBefore = Math.max(largestStepBefore, step);
                    }
                }
            }
            // What switching at once would step the law's model torque by: the payload's gravity torque.
            totalChange = largestEntry(payloadGravity(loaded, samples.get(first).values().q()));
            final double after = largestError(rig.telemetry.last());
            System.out.printf("held Panda, 1.5 kg 5 cm off the flange unmodelled: largest holding error %.3e rad before,"
                + " %.3e rad 1.5 s after the 0.5 s ramp; the payload's gravity torque up to %.3f N m, the command's change at most %.4f N m"
                + " per tick (%.1e before it); PAYLOAD_CHANGED %d ticks after PAYLOAD_CHANGE_STARTED%n",
                before, after, totalChange, largestStep, largestStepBefore, changed.tickCount() - started.tickCount());
            assertTrue(before > 1e-3, "the unmodelled payload pulls the arm off: " + before + " rad");
            assertTrue(after < before / 100.0, "holding error after " + after + " rad, before " + before + " rad");
            assertTrue(largestStep <= totalChange / 100.0, "the model change is spread over the ramp: " + largestStep + " N m");
            assertTrue(largestStep <= TORQUE_STEP_BOUND_NM, "largest command step " + largestStep + " N m per tick");
            assertEquals(ControllerMode.ENABLED, rig.service.loop().mode());
            assertEquals(0, rig.service.loop().faults());
        }
    }

    @Test
    void trackingRmsFallsByMoreThanAHundredfoldOnceThePayloadIsSetBetweenMoves()
    {
        final RobotModel loaded = Payloads.withPayload(ServiceRig.PANDA, flange(),
            InertialParameters.ofCentreOfMass(MASS_KG, COM_M, new double[9]));
        final SimulatedArm arm = new SimulatedArm(loaded, new SimulatedArmConfig(loaded).periodNs(ServiceRig.PERIOD_NS)
            .initialQ(ServiceRig.READY));
        final double[] out = ServiceRig.READY.clone();
        for (int j = 0; j < DOF; j++)
        {
            out[j] += j % 2 == 0 ? 0.3 : -0.2;
        }
        try (ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings()))
        {
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.trackInLockstep(arm, adapter, ControllerKind.COMPUTED_TORQUE, JointTrajectory.fromPositions(
                new double[] {0.0, MOVE_S}, new double[][] {ServiceRig.READY.clone(), out}), 300, 300 + MOVE_TICKS + 200);
            final double before = worstJointRms(rig.telemetry.samples, 300, 300 + MOVE_TICKS);
            final ControllerMode afterMove = rig.service.loop().mode();
            assertTrue(rig.setPayload(MASS_KG, COM_M, POINT, 200_000_000L).accepted(), "payload acknowledged");
            rig.awaitApplied(3);
            final int back = 300 + MOVE_TICKS + 700;
            rig.stepTo(back, arm, adapter);
            assertNotNull(rig.telemetry.firstEvent(ControllerEventKind.PAYLOAD_CHANGED, 0), "ramp ended");
            assertTrue(rig.planner.sendTrajectory(JointTrajectory.fromPositions(new double[] {0.0, MOVE_S},
                new double[][] {out, ServiceRig.READY.clone()})).accepted(), "move back acknowledged");
            rig.awaitApplied(4);
            assertEquals(ControllerMode.TRACKING, rig.service.loop().mode(), rig.service.lastTrajectoryRejection());
            rig.stepTo(back + MOVE_TICKS + 200, arm, adapter);
            final double after = worstJointRms(rig.telemetry.samples, back, back + MOVE_TICKS);
            System.out.printf("Panda, 1.5 kg 5 cm off the flange: %.1f s move out with the payload unmodelled, worst joint"
                + " tracking RMS %.3e rad; payload set in %s (0.2 s ramp); the move back %.3e rad%n", MOVE_S, before, afterMove,
                after);
            assertTrue(after < before / 100.0, "tracking RMS " + after + " rad after, " + before + " rad before");
            assertEquals(0, rig.service.loop().faults());
        }
    }

    @Test
    void aPayloadIsRefusedAfterAnEmergencyStopAndInvalidPayloadsAreRejectedByTheGateway()
    {
        final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, ServiceRig.armConfig());
        try (ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings()))
        {
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.stepTo(0, arm, adapter);
            assertRejected(rig.setPayload(-0.1, COM_M, POINT, RAMP_NS), RejectReason.LIMIT_EXCEEDED, 0);
            assertRejected(rig.setPayload(20.5, COM_M, POINT, RAMP_NS), RejectReason.LIMIT_EXCEEDED, 0);
            assertRejected(rig.setPayload(Double.NaN, COM_M, POINT, RAMP_NS), RejectReason.NON_FINITE, 0);
            assertRejected(rig.setPayload(1.0, new double[] {0.0, Double.POSITIVE_INFINITY, 0.0}, POINT, RAMP_NS),
                RejectReason.NON_FINITE, 2);
            assertRejected(rig.setPayload(1.0, new double[] {0.8, 0.8, 0.0}, POINT, RAMP_NS), RejectReason.LIMIT_EXCEEDED, 1);
            assertRejected(rig.setPayload(1.0, COM_M, new double[] {-1e-3, 0, 0, 1e-3, 0, 1e-3}, RAMP_NS),
                RejectReason.INVALID_FIELD, 4);
            // Principal moments 1, 1, 3 (·10⁻³): positive, but 3 > 1 + 1 breaks the triangle inequality.
            assertRejected(rig.setPayload(1.0, COM_M, new double[] {1e-3, 0, 0, 1e-3, 0, 3e-3}, RAMP_NS),
                RejectReason.INVALID_FIELD, 4);
            // Diagonal 2, 2, 2 with products 1.5: eigenvalues 5, 0.5, 0.5, the triangle inequality fails.
            assertRejected(rig.setPayload(1.0, COM_M, new double[] {2e-3, 1.5e-3, 1.5e-3, 2e-3, 1.5e-3, 2e-3}, RAMP_NS),
                RejectReason.INVALID_FIELD, 4);
            assertRejected(rig.setPayload(0.0, COM_M, POINT, RAMP_NS), RejectReason.INVALID_FIELD, 1);
            assertRejected(rig.setPayload(1.0, COM_M, POINT, 1_000_000L), RejectReason.LIMIT_EXCEEDED, 10);
            assertEquals(0, rig.service.loop().appliedCommandCount(), "nothing rejected reached the loop");

            assertTrue(rig.planner.eStop().accepted(), "estop acknowledged");
            rig.awaitApplied(1);
            assertTrue(rig.setPayload(MASS_KG, COM_M, POINT, RAMP_NS).accepted(), "valid payload acknowledged");
            rig.awaitApplied(2);
            final CommandResult link = rig.planner.setPayload(40, MASS_KG, COM_M, POINT, RAMP_NS);
            assertTrue(link.accepted(), "the gateway leaves the link to the preparer");
            rig.awaitApplied(3);
            ServiceRig.await(() ->
            {
                rig.telemetry.poll();
                return rig.telemetry.events.stream().filter(e -> e.command() == EventCommand.PAYLOAD).count() >= 2;
            }, "two PAYLOAD events");
            final List<TelemetryRecorder.Event> refusals = rig.telemetry.events.stream()
                .filter(e -> e.command() == EventCommand.PAYLOAD).toList();
            assertEquals(ControllerEventKind.COMMAND_REJECTED, refusals.get(0).kind());
            assertEquals(ControllerState.ESTOP, refusals.get(0).fromState());
            assertEquals(1, refusals.get(0).rejectCode(), "not allowed in ESTOP");
            assertEquals(ControllerEventKind.COMMAND_REJECTED, refusals.get(1).kind());
            assertEquals(PreparedCommand.REFUSED_WHEN_PREPARED, refusals.get(1).rejectCode(), "no link 40 in the Panda");
            assertNull(rig.telemetry.firstEvent(ControllerEventKind.PAYLOAD_CHANGE_STARTED, 0));
        }
    }

    private static void assertRejected(final CommandResult result, final RejectReason reason, final int field)
    {
        assertEquals(CommandResult.Outcome.REJECTED, result.outcome(), result.describe());
        assertEquals(reason, result.reason(), result.describe());
        assertEquals(field, result.jointIndex(), "field of " + result.describe());
    }

    private static double worstJointRms(final List<TelemetryRecorder.Sample> samples, final int from, final int to)
    {
        double worst = 0.0;
        for (int j = 0; j < DOF; j++)
        {
            double sum = 0.0;
            for (int t = from; t < to; t++)
            {
                final double e = samples.get(t).values().trackingError()[j];
                sum += e * e;
            }
            worst = Math.max(worst, Math.sqrt(sum / (to - from)));
        }
        return worst;
    }

    private static double largestError(final TelemetryRecorder.Sample sample)
    {
        double largest = 0.0;
        for (int j = 0; j < DOF; j++)
        {
            largest = Math.max(largest, Math.abs(sample.values().trackingError()[j]));
        }
        return largest;
    }

    private static double[] payloadGravity(final RobotModel loaded, final double[] q)
    {
        final double[] zero = new double[DOF];
        final double[] with = new double[DOF];
        final double[] without = new double[DOF];
        new InverseDynamics(CompiledModel.of(loaded)).compute(q, zero, zero, with);
        new InverseDynamics(CompiledModel.of(ServiceRig.PANDA)).compute(q, zero, zero, without);
        for (int j = 0; j < DOF; j++)
        {
            with[j] -= without[j];
        }
        return with;
    }

    private static double largestEntry(final double[] values)
    {
        double largest = 0.0;
        for (final double v : values)
        {
            largest = Math.max(largest, Math.abs(v));
        }
        return largest;
    }

    private static int flange()
    {
        return ServiceRig.PANDA.bodyIndex("flange");
    }
}
