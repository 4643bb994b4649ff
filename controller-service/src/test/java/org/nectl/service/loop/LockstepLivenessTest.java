package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.nectl.core.runtime.ControllerMode;
import org.nectl.core.runtime.Faults;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmAdapter;
import org.nectl.hw.SimulationMode;
import org.nectl.transport.sbe.ControllerKind;

/**
 * Lockstep supervision on simulated time: a simulator that stops answering for a while (as one
 * descheduled on a loaded host) is not a fault; one silent for longer than the wall-clock liveness
 * timeout is (STATE_MISSING). The default supervision (heartbeat 50 ms, 2 missing states), which
 * faulted after 100 ms of wall time without a state before.
 */
class LockstepLivenessTest
{
    private static final long LIVENESS_NS = TimeUnit.MILLISECONDS.toNanos(600);
    /** A stall far beyond the heartbeat timeout and the missing-state count, within the liveness timeout. */
    private static final long SHORT_STALL_NS = TimeUnit.MILLISECONDS.toNanos(300);

    @Test
    void aStalledSimulatorIsToleratedUpToTheLivenessTimeoutAndFaultsBeyondIt()
    {
        final ServiceSettings settings = ServiceRig.settings(LoopMode.LOCKSTEP).withLockstepLiveness(LIVENESS_NS);
        try (ServiceRig rig = new ServiceRig(settings))
        {
            final ControlLoop loop = rig.service.loop();
            final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, ServiceRig.armConfig());
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.stepTo(0, arm, adapter);
            assertTrue(rig.planner.enable(ControllerKind.PD_GRAVITY).accepted(), "enable acknowledged");
            rig.awaitApplied(1);
            rig.stepTo(100, arm, adapter);
            assertEquals(ControllerMode.ENABLED, loop.mode());

            final long ticksBefore = loop.tickCount();
            final long stallStartNs = System.nanoTime();
            ServiceRig.await(() -> System.nanoTime() - stallStartNs > SHORT_STALL_NS, "the short stall to pass");
            assertEquals(ticksBefore, loop.tickCount(), "no tick without a state within the liveness timeout");
            assertEquals(ControllerMode.ENABLED, loop.mode(), Faults.describe(loop.faults()));
            rig.stepTo(199, arm, adapter);
            // The last state goes out within this call, so the loop's last tick comes after this time.
            final long[] lastStepNs = new long[1];
            ServiceRig.await(() ->
            {
                lastStepNs[0] = System.nanoTime();
                adapter.doWork();
                return arm.stepCount() == 200;
            }, "state 200 published");
            assertEquals(ControllerMode.ENABLED, loop.mode(), Faults.describe(loop.faults()));
            assertEquals(0, loop.faults(), Faults.describe(loop.faults()));
            assertEquals(0, loop.missingStateCount(), "every tick had a new state");

            ServiceRig.await(() -> loop.mode() == ControllerMode.FAULT, "FAULT once the simulator is silent for longer");
            final long detectedNs = System.nanoTime() - lastStepNs[0];
            System.out.printf(Locale.ROOT, "lockstep: %d ms stall tolerated; silent simulator faulted %.1f ms after its last "
                + "state (liveness timeout %d ms)%n", SHORT_STALL_NS / 1_000_000, detectedNs / 1e6, LIVENESS_NS / 1_000_000);
            assertTrue(detectedNs >= LIVENESS_NS, "not before the liveness timeout: " + detectedNs + " ns");
            assertEquals(Faults.STATE_MISSING, loop.faults(), Faults.describe(loop.faults()));
            assertEquals(ticksBefore + 100 + 1, loop.tickCount(), "one supervision tick latched it");
        }
    }
}
