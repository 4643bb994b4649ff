package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.AppliedLoads;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.runtime.CollisionSettings;
import org.nectl.core.runtime.ControllerMode;
import org.nectl.core.runtime.CycleSettings;
import org.nectl.core.runtime.Faults;
import org.nectl.hw.AppliedWrench;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmAdapter;
import org.nectl.hw.SimulationMode;
import org.nectl.service.planner.JointTrajectory;
import org.nectl.transport.sbe.ControllerEventKind;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.ControllerState;

/**
 * The momentum observer and the collision reflexes on the whole service, lockstep with the simulated
 * Panda (`nectl sim`'s arm, in process), judged from the telemetry and the controller events alone:
 * a wrench applied on the flange by the simulator ({@link AppliedWrench}, `nectl sim --external-wrench`)
 * is estimated as J^T F, random moves without contact raise nothing, and a push while tracking raises
 * a COLLISION event followed by the configured reaction.
 */
class CollisionServiceTest
{
    private static final double PERIOD_S = ServiceRig.PERIOD_NS * 1e-9;
    private static final int DOF = 7;
    /** Per joint, N m: the Panda's model has no friction, so only the integration error enters (below 0.01 N m). */
    private static final double[] THRESHOLD = {6, 6, 6, 6, 3, 3, 3};
    /** A 50 N push on the flange's origin, flange frame. */
    private static final double[] PUSH = {30.0, -20.0, 34.0, 0.0, 0.0, 0.0};
    private static final int PUSH_STEP = 600;

    @Test
    void aWrenchOnTheFlangeWhileHoldingIsEstimatedAsTheJointTorquesOfTheWrenchWithTheObserversTimeConstant()
    {
        final int start = 300;
        final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, ServiceRig.armConfig()
            .externalWrench(new AppliedWrench(flange(), PUSH, start * ServiceRig.PERIOD_NS, 10 * start * ServiceRig.PERIOD_NS)));
        try (ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings()))
        {
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.stepTo(0, arm, adapter);
            assertTrue(rig.planner.enable(ControllerKind.COMPUTED_TORQUE).accepted(), "enable acknowledged");
            rig.awaitApplied(1);
            rig.stepTo(start + 400, arm, adapter);
            final List<TelemetryRecorder.Sample> samples = rig.telemetry.samples;
            double before = 0.0;
            for (final double r : samples.get(start).values().externalTorque())
            {
                before = Math.max(before, Math.abs(r));
            }
            final TelemetryRecorder.Sample settled = samples.get(start + 400);
            final double[] expected = jointTorquesOfThePush(settled.values().q());
            final int joint = largest(expected);
            final double scale = Math.abs(expected[joint]);
            double worst = 0.0;
            for (int j = 0; j < DOF; j++)
            {
                worst = Math.max(worst, Math.abs(settled.values().externalTorque()[j] - expected[j]) / scale);
            }
            int reached = start;
            while (samples.get(reached).values().externalTorque()[joint] / expected[joint] < 1.0 - Math.exp(-1.0))
            {
                reached++;
            }
            final double timeConstantS = (reached - start) * PERIOD_S;
            System.out.printf("held Panda, flange wrench: |tau_ext| before %.1e N m; after 0.4 s off J^T F by %.2e of its"
                + " largest entry (%.2f N m, joint %d); 63 %% reached after %.1f ms (1/K_O = 20 ms)%n",
                before, worst, scale, joint, timeConstantS * 1e3);
            assertTrue(before < 0.01, "estimate before the wrench " + before + " N m");
            assertTrue(worst <= 0.02, "estimate off J^T F by " + worst + " of its largest entry");
            assertEquals(1.0 / CollisionSettings.DEFAULT_GAIN, timeConstantS, 2.5e-3, "time constant");
            assertEquals(0, rig.telemetry.collisions.size(), "no thresholds configured: nothing detected");
            assertEquals(ControllerMode.ENABLED, rig.service.loop().mode());
        }
    }

    @Test
    void randomMovesWithoutContactRaiseNoDetection()
    {
        final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, ServiceRig.armConfig());
        try (ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings().withCollision(collision(
            CollisionSettings.Reaction.STOP))))
        {
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.stepTo(0, arm, adapter);
            assertTrue(rig.planner.enable(ControllerKind.COMPUTED_TORQUE).accepted(), "enable acknowledged");
            rig.awaitApplied(1);
            long step = 100;
            rig.stepTo(step, arm, adapter);
            double[] from = ServiceRig.READY.clone();
            final SplittableRandom rnd = new SplittableRandom(22);
            for (int move = 0; move < 4; move++)
            {
                final double[] to = from.clone();
                for (int j = 0; j < DOF; j++)
                {
                    to[j] = ServiceRig.READY[j] + rnd.nextDouble(-0.5, 0.5);
                }
                assertTrue(rig.planner.sendTrajectory(JointTrajectory.fromPositions(new double[] {0.0, 1.2},
                    new double[][] {from, to})).accepted(), "move " + move + " acknowledged");
                rig.awaitApplied(2 + move);
                step += 1400;
                rig.stepTo(step, arm, adapter);
                from = to;
            }
            double largest = 0.0;
            for (final TelemetryRecorder.Sample sample : rig.telemetry.samples)
            {
                for (final double r : sample.values().externalTorque())
                {
                    largest = Math.max(largest, Math.abs(r));
                }
            }
            System.out.printf("four random 1.2 s moves of the Panda: largest |tau_ext| %.2e N m, thresholds 3-6 N m%n", largest);
            assertEquals(4, rig.service.loop().completedTrajectories(), Faults.describe(rig.service.loop().faults()));
            assertEquals(0, rig.telemetry.collisions.size());
            assertEquals(0, rig.service.loop().faults(), Faults.describe(rig.service.loop().faults()));
            assertTrue(largest < 0.1, "largest |tau_ext| " + largest + " N m");
        }
    }

    @Test
    void aPushWhileTrackingRaisesACollisionEventAndTheCategoryOneStop()
    {
        try (ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings().withCollision(collision(
            CollisionSettings.Reaction.STOP))))
        {
            final TelemetryRecorder.Collision collision = pushWhileTracking(rig);
            final List<TelemetryRecorder.Event> events = rig.telemetry.events;
            final TelemetryRecorder.Event fault = rig.telemetry.firstEvent(ControllerEventKind.FAULT, 0);
            assertNotNull(fault, "a FAULT event");
            assertEquals(Faults.COLLISION, fault.newFaults());
            assertEquals(collision.timestampNs(), fault.timestampNs(), "the fault at the tick of the detection");
            final TelemetryRecorder.Event stopping = rig.telemetry.firstEvent(ControllerEventKind.MODE_TRANSITION, fault.timestampNs());
            assertEquals(ControllerState.STOPPING, stopping.toState());
            assertEquals(ControllerState.FAULT, events.get(events.size() - 1).toState(), "category 1 ends in FAULT");
            final long stopNs = events.get(events.size() - 1).timestampNs() - fault.timestampNs();
            System.out.printf("stop reaction: STOPPING at the detection tick, FAULT (drives off) %.0f ms later%n", stopNs * 1e-6);
            assertEquals(ControllerMode.FAULT, rig.service.loop().mode());
        }
    }

    @Test
    void theHoldReflexHoldsWhereThePushFoundTheArmWithoutAFault()
    {
        try (ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings().withCollision(collision(
            CollisionSettings.Reaction.HOLD))))
        {
            final TelemetryRecorder.Collision collision = pushWhileTracking(rig);
            final TelemetryRecorder.Event hold = rig.telemetry.firstEvent(ControllerEventKind.MODE_TRANSITION, collision.timestampNs());
            assertEquals(ControllerState.TRACKING, hold.fromState());
            assertEquals(ControllerState.HOLD, hold.toState());
            assertEquals(collision.timestampNs(), hold.timestampNs(), "HOLD at the tick of the detection");
            assertNull(rig.telemetry.firstEvent(ControllerEventKind.FAULT, 0), "no fault");
            final TelemetryRecorder.Sample last = rig.telemetry.last();
            double speed = 0.0;
            for (final double v : last.qd())
            {
                speed = Math.max(speed, Math.abs(v));
            }
            System.out.printf("hold reflex: HOLD at the detection tick, largest |qd| 0.5 s later %.1e rad/s%n", speed);
            assertTrue(speed < 1e-3, "at rest while holding against the push: " + speed + " rad/s");
            assertEquals(ControllerMode.HOLD, rig.service.loop().mode());
        }
    }

    /**
     * Enables, starts a 2 s move, and has the simulator push the flange from step {@value #PUSH_STEP}
     * on; runs 0.5 s past the push. @return the one COLLISION event, checked to follow the push within
     *     -tau ln(1 - threshold / |J^T F|) (8 ms for joint 2) plus two periods.
     */
    private static TelemetryRecorder.Collision pushWhileTracking(final ServiceRig rig)
    {
        final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, ServiceRig.armConfig().externalWrench(
            new AppliedWrench(flange(), PUSH, PUSH_STEP * ServiceRig.PERIOD_NS, 10 * PUSH_STEP * ServiceRig.PERIOD_NS)));
        final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
        final double[] to = ServiceRig.READY.clone();
        for (int j = 0; j < DOF; j++)
        {
            to[j] += j % 2 == 0 ? 0.4 : -0.3;
        }
        rig.trackInLockstep(arm, adapter, ControllerKind.COMPUTED_TORQUE,
            JointTrajectory.fromPositions(new double[] {0.0, 2.0}, new double[][] {ServiceRig.READY.clone(), to}), 300,
            PUSH_STEP + 500);
        assertEquals(1, rig.telemetry.collisions.size(), "one COLLISION event");
        final TelemetryRecorder.Collision collision = rig.telemetry.collisions.get(0);
        final long delayNs = collision.timestampNs() - PUSH_STEP * ServiceRig.PERIOD_NS;
        System.out.printf("push on the flange while tracking: COLLISION %.1f ms after the push began, joint %d, tau_ext %.2f N m"
            + " (threshold %.0f)%n", delayNs * 1e-6, collision.joint(), collision.externalTorque(), THRESHOLD[collision.joint()]);
        assertEquals(ControllerState.TRACKING, collision.state());
        assertTrue(delayNs > 0 && delayNs <= 12_000_000L, "detected " + delayNs + " ns after the push");
        assertTrue(Math.abs(collision.externalTorque()) > THRESHOLD[collision.joint()]);
        return collision;
    }

    private static CollisionSettings collision(final CollisionSettings.Reaction reaction)
    {
        return new CollisionSettings(CycleSettings.filled(DOF, CollisionSettings.DEFAULT_GAIN), true, THRESHOLD, reaction, 0.0);
    }

    private static int flange()
    {
        return ServiceRig.PANDA.bodyIndex("flange");
    }

    /** J^T F at rest: inverse dynamics without the push minus with it. */
    private static double[] jointTorquesOfThePush(final double[] q)
    {
        final CompiledModel compiled = CompiledModel.of(ServiceRig.PANDA);
        final InverseDynamics rnea = new InverseDynamics(compiled);
        final AppliedLoads loads = new AppliedLoads(compiled);
        final double[] zero = new double[DOF];
        final double[] without = new double[DOF];
        final double[] with = new double[DOF];
        rnea.compute(q, zero, zero, loads, without);
        loads.bodyWrench(flange(), PUSH[0], PUSH[1], PUSH[2], PUSH[3], PUSH[4], PUSH[5]);
        rnea.compute(q, zero, zero, loads, with);
        for (int j = 0; j < DOF; j++)
        {
            without[j] -= with[j];
        }
        return without;
    }

    private static int largest(final double[] values)
    {
        int best = 0;
        for (int j = 1; j < values.length; j++)
        {
            best = Math.abs(values[j]) > Math.abs(values[best]) ? j : best;
        }
        return best;
    }
}
