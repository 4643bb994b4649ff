package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.nectl.config.deploy.DeploymentConfigs;
import org.nectl.core.model.JointLimits;
import org.nectl.core.runtime.ControllerMode;
import org.nectl.core.runtime.Faults;
import org.nectl.core.runtime.SafetySettings;
import org.nectl.hw.FaultKind;
import org.nectl.hw.InjectedFault;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmAdapter;
import org.nectl.hw.SimulationMode;
import org.nectl.service.planner.JointTrajectory;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.ControllerState;
import org.nectl.transport.sbe.EventCommand;

/**
 * Stop categories and the operator reset on the whole service, in lockstep with the simulated
 * Panda, with the safety settings of the shipped {@code config/deploy/lockstep-panda.yaml}: EStops
 * and resets travel as real UDP datagrams through the gateway; every tick's torque and velocity
 * are read from the telemetry (one sample per tick).
 */
class StopServiceTest
{
    private static final SafetySettings SHIPPED = DeploymentConfigs.load(Path.of("../config/deploy/lockstep-panda.yaml"))
        .safetySettings();
    private static final int SETTLE_STEPS = 300;
    /** The fast move: every joint from the ready pose, rest to rest in 2 s, peak velocity at 1 s. */
    private static final double MOVE_S = 2.0;
    private static final double[] MOVE_RAD = {1.89, 1.89, 1.89, 1.89, 2.27, 1.5, -2.27};
    private static final double PERIOD_S = ServiceRig.PERIOD_NS * 1e-9;

    /**
     * EStop of category 1 at the peak of a 2 s move whose peak velocity is 95 % of the velocity limit
     * on joints 1-5 and 7: STOPPING from the next tick, ESTOP once every |qd| is at most the
     * standstill velocity, within the configured 600 ms; while the drives are powered (the last
     * TRACKING tick to the last STOPPING tick) every |tau| is within the model's effort limit and
     * every |tau(k) - tau(k-1)| / T within its effort-rate limit (1e-9 relative for the float
     * rounding of the limiter's step). Then a RESET datagram leaves ESTOP for IDLE.
     */
    @Test
    void aCategoryOneEmergencyStopFromFullSpeedStandsThePandaStillWithinTheConfiguredTimeUnderTheTorqueLimits()
    {
        try (ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings().withSafety(SHIPPED)))
        {
            final ControlLoop loop = rig.service.loop();
            final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, ServiceRig.armConfig());
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.stepTo(0, arm, adapter);
            assertTrue(rig.planner.enable(ControllerKind.COMPUTED_TORQUE).accepted(), "enable acknowledged");
            rig.awaitApplied(1);
            rig.stepTo(SETTLE_STEPS, arm, adapter);
            assertTrue(rig.planner.sendTrajectory(fastMove()).accepted(), "trajectory acknowledged");
            rig.awaitApplied(2);
            assertEquals(ControllerMode.TRACKING, loop.mode(), "rejected: " + rig.service.lastTrajectoryRejection());
            final int peakStep = SETTLE_STEPS + (int)Math.round(MOVE_S / 2 / PERIOD_S);
            rig.stepTo(peakStep, arm, adapter);
            assertTrue(rig.planner.eStop().accepted(), "EStop acknowledged");
            rig.awaitApplied(3);
            assertEquals(ControllerMode.STOPPING, loop.mode(), Faults.describe(loop.faults()));
            rig.stepTo(peakStep + (int)(SHIPPED.stopTimeNs() / ServiceRig.PERIOD_NS) + 50, arm, adapter);

            final List<TelemetryRecorder.Sample> samples = rig.telemetry.samples;
            final int lastTracking = peakStep;
            assertEquals(ControllerState.TRACKING, samples.get(lastTracking).state());
            assertEquals(ControllerState.STOPPING, samples.get(lastTracking + 1).state(), "STOPPING from the tick after the EStop");
            int estop = lastTracking + 1;
            while (samples.get(estop).state() == ControllerState.STOPPING)
            {
                estop++;
            }
            assertEquals(ControllerState.ESTOP, samples.get(estop).state(), Faults.describe(loop.faults()));
            final double stopS = (estop - lastTracking) * PERIOD_S;
            final double[] speed = velocityFraction(samples.get(lastTracking).qd());
            final double[] peaks = torquePeaks(samples, lastTracking, estop);
            System.out.printf(Locale.ROOT, "category 1 EStop on the simulated Panda from %s of the velocity limits: standstill in %.0f ms"
                + " (configured %d ms); peak |tau| / limit %.3f, peak |dtau/dt| %.0f N m/s (limit %.0f); |qd| at ESTOP %.2e rad/s%n",
                format(speed), stopS * 1e3, SHIPPED.stopTimeNs() / 1_000_000, peaks[0], peaks[1],
                ServiceRig.PANDA.limits(0).effortRateMax(), maxAbs(samples.get(estop).qd()));
            for (int j = 0; j < speed.length; j++)
            {
                assertTrue(j == 5 || speed[j] > 0.9, "joint " + j + " at " + speed[j] + " of its velocity limit");
            }
            assertTrue(stopS <= SHIPPED.stopTimeNs() * 1e-9, "standstill after " + stopS + " s");
            assertTrue(maxAbs(samples.get(estop).qd()) <= SHIPPED.standstillVelocity());
            assertTrue(peaks[0] <= 1.0, "peak |tau| / effort limit " + peaks[0]);
            assertTrue(peaks[1] <= ServiceRig.PANDA.limits(0).effortRateMax() * (1 + 1e-9), "peak |dtau/dt| " + peaks[1]);
            assertEquals(0.0, maxAbs(samples.get(estop).tauCommand()), "drives disabled, brakes engaged");
            assertEquals(Faults.EMERGENCY_STOP, loop.faults());
            assertEquals(Faults.EMERGENCY_STOP, samples.get(lastTracking + 1).faults(), "latched in telemetry from the first STOPPING tick");
            // The events of a category 1 EStop in TRACKING (docs/PROTOCOL.md, "ControllerEvent"): through STOPPING to ESTOP.
            assertEquals(List.of("STOP TRACKING -> STOPPING ESTOP", "FAULT TRACKING -> STOPPING ESTOP",
                "MODE_TRANSITION TRACKING -> STOPPING ESTOP", "MODE_TRANSITION STOPPING -> ESTOP NONE"),
                rig.telemetry.events.stream().filter(e -> e.command() == EventCommand.ESTOP || e.fromState() == ControllerState.STOPPING)
                    .map(e -> e.kind() + " " + e.fromState() + " -> " + e.toState() + " " + e.command()).toList());

            assertTrue(rig.planner.reset().accepted(), "RESET acknowledged");
            rig.awaitApplied(4);
            assertEquals(ControllerMode.IDLE, loop.mode());
            assertEquals(0, loop.faults());
        }
    }

    /**
     * The Panda's encoder on joint 3 jumps by 0.1 rad at 0.5 s: FAULT (state jump, category 0) in
     * the tick of the first corrupted JointState; a RESET datagram takes the service to IDLE, an
     * ENABLE to ENABLED, and the arm is held again with no further fault. A RESET while ENABLED is
     * refused by the loop; a HOLD asking for MIXED_ELASTIC is refused when prepared, off the loop, and
     * the loop only reports that refusal.
     */
    @Test
    void aResetDatagramLeavesFaultAndTheArmCanBeEnabledAgain()
    {
        try (ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings().withSafety(SHIPPED)))
        {
            final ControlLoop loop = rig.service.loop();
            final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, ServiceRig.armConfig()
                .fault(new InjectedFault(FaultKind.JUMP, 500_000_000L, 2, 0.1)));
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.stepTo(0, arm, adapter);
            assertTrue(rig.planner.enable(ControllerKind.COMPUTED_TORQUE).accepted(), "enable acknowledged");
            rig.awaitApplied(1);
            rig.stepTo(700, arm, adapter);
            assertEquals(ControllerMode.FAULT, loop.mode());
            assertEquals(Faults.STATE_JUMP, loop.faults());
            final List<TelemetryRecorder.Sample> samples = rig.telemetry.samples;
            int fault = 0;
            while (samples.get(fault).state() != ControllerState.FAULT)
            {
                fault++;
            }
            assertEquals(500, samples.get(fault).jointStateSequence(), "FAULT in the tick of the first jumped state");
            assertEquals(0.0, maxAbs(samples.get(fault).tauCommand()));
            assertEquals(Faults.STATE_JUMP, samples.get(fault).faults(), "the fault bit in telemetry");

            assertTrue(rig.planner.reset().accepted(), "RESET acknowledged");
            rig.awaitApplied(2);
            assertEquals(ControllerMode.IDLE, loop.mode());
            assertEquals(0, loop.faults());
            assertTrue(rig.planner.enable(ControllerKind.UNCHANGED).accepted());
            rig.awaitApplied(3);
            assertEquals(ControllerMode.ENABLED, loop.mode());
            assertTrue(rig.planner.reset().accepted(), "valid datagram: the gateway acknowledges it");
            rig.awaitApplied(4);
            assertEquals(1, loop.rejectedCommandCount(), "the loop refuses a RESET while ENABLED");
            assertTrue(rig.planner.hold(ControllerKind.MIXED_ELASTIC).accepted(), "valid datagram");
            ServiceRig.await(() -> rig.service.trajectoryRejectCount() == 1, "the preparer refusing MIXED_ELASTIC");
            assertTrue(rig.service.lastTrajectoryRejection().contains("MIXED_ELASTIC"), rig.service.lastTrajectoryRejection());
            rig.awaitApplied(5);
            assertEquals(2, loop.rejectedCommandCount(), "the loop reports the preparer's refusal, a COMMAND_REJECTED event");
            assertEquals(ControllerMode.ENABLED, loop.mode(), "a law the service cannot run never reaches the cycle");
            rig.stepTo(1200, arm, adapter);
            assertEquals(ControllerMode.ENABLED, loop.mode(), Faults.describe(loop.faults()));
            assertEquals(ControllerState.ENABLED, rig.telemetry.last().state());
            assertTrue(maxAbs(rig.telemetry.last().qd()) < 1e-3, "held still: " + maxAbs(rig.telemetry.last().qd()));
        }
    }

    private static JointTrajectory fastMove()
    {
        final double[][] q = {ServiceRig.READY.clone(), ServiceRig.READY.clone()};
        for (int j = 0; j < MOVE_RAD.length; j++)
        {
            q[1][j] += MOVE_RAD[j];
        }
        return JointTrajectory.fromPositions(new double[] {0.0, MOVE_S}, q);
    }

    private static double[] velocityFraction(final double[] qd)
    {
        final double[] fraction = new double[qd.length];
        for (int j = 0; j < qd.length; j++)
        {
            fraction[j] = Math.abs(qd[j]) / ServiceRig.PANDA.limits(j).velocityMax();
        }
        return fraction;
    }

    /** @return {max_j |tau_j| / effortMax_j, max_j |dtau_j/dt|} over ticks from..to-1 (the powered ones), the step into {@code from} included. */
    private static double[] torquePeaks(final List<TelemetryRecorder.Sample> samples, final int from, final int to)
    {
        double torque = 0.0;
        double rate = 0.0;
        for (int i = from; i < to; i++)
        {
            final double[] tau = samples.get(i).tauCommand();
            final double[] previous = samples.get(i - 1).tauCommand();
            for (int j = 0; j < tau.length; j++)
            {
                final JointLimits limits = ServiceRig.PANDA.limits(j);
                torque = Math.max(torque, Math.abs(tau[j]) / limits.effortMax());
                rate = Math.max(rate, Math.abs(tau[j] - previous[j]) / PERIOD_S);
            }
        }
        return new double[] {torque, rate};
    }

    private static double maxAbs(final double[] v)
    {
        double max = 0.0;
        for (final double x : v)
        {
            max = Math.max(max, Math.abs(x));
        }
        return max;
    }

    private static String format(final double[] v)
    {
        final StringBuilder text = new StringBuilder("[");
        for (int j = 0; j < v.length; j++)
        {
            text.append(j == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.2f", v[j]));
        }
        return text.append(']').toString();
    }
}
