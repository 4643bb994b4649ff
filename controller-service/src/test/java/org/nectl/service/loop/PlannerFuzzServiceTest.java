package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.Test;
import org.nectl.core.runtime.ControllerMode;
import org.nectl.core.runtime.Faults;
import org.nectl.hw.AdapterSettings;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulationMode;
import org.nectl.service.fuzz.FuzzCase;
import org.nectl.service.fuzz.FuzzReport;
import org.nectl.service.fuzz.PlannerFuzzer;
import org.nectl.transport.PlannerAuthentication;
import org.nectl.transport.PlannerKeys;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.ControllerState;
import org.nectl.transport.sbe.RejectReason;

/**
 * A running service (embedded media driver, realtime loop, planner gateway, simulated Panda in this
 * JVM; supervision and the adapter watchdog relaxed to 1 s because fuzzer, gateway, loop and
 * simulator share an unpinned 2-core host, see {@link ServiceRig#tolerantRealtimeSettings}) under {@value #DATAGRAMS} fuzzed datagrams from {@link PlannerFuzzer} while tracking: no
 * crash or fault, no invalid datagram acknowledged or forwarded, every exact case rejected with its
 * reason every time (unsigned, bad signature, wrong key, unknown planner, stale, replayed: 100 %
 * AUTHENTICATION_FAILED, STALE, REPLAYED), no reply to the disallowed source 127.0.0.2, every
 * correctly signed probe acknowledged and applied by the loop, and the telemetry's reject counters
 * equal to the replies counted by reason plus the disallowed datagrams.
 */
final class PlannerFuzzServiceTest
{
    private static final long DATAGRAMS = 30_000;
    private static final int PROBE_EVERY = 50;
    private static final int WINDOW = 16;
    private static final long FUZZ_PLANNER_ID = 3;
    private static final long SEED = 0xF0220CA5EL;
    /** Longer than the 2 s default: a probe delayed seconds by the shared host must still be fresh. */
    private static final Duration TIME_WINDOW = Duration.ofSeconds(30);

    @Test
    void fuzzedDatagramsAreAllRejectedByReasonWhileSignedCommandsStillPass() throws Exception
    {
        final PlannerKeys keys = PlannerKeys.generate(new SecureRandom(), ServiceSettings.DEFAULT_PLANNER_ID, FUZZ_PLANNER_ID);
        final PlannerAuthentication authentication = new PlannerAuthentication(keys,
            PlannerAuthentication.loopback(keys).allowedSources(), TIME_WINDOW.toNanos());
        final ServiceSettings settings = ServiceRig.tolerantRealtimeSettings().withPlannerAuthentication(authentication);
        try (ServiceRig rig = new ServiceRig(settings))
        {
            final ControlLoop loop = rig.service.loop();
            final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, ServiceRig.armConfig());
            try (AgentRunner simulator = new AgentRunner(new YieldingIdleStrategy(), Throwable::printStackTrace, null,
                rig.adapter(arm, SimulationMode.REALTIME, new AdapterSettings(1, TimeUnit.SECONDS.toNanos(1), AdapterSettings.defaults()
                    .heartbeatPeriodNs())));
                PlannerFuzzer fuzzer = new PlannerFuzzer(rig.service.plannerAddress(), keys, FUZZ_PLANNER_ID, ServiceRig.PANDA,
                    ServiceRig.READY, InetAddress.getByAddress(new byte[] {127, 0, 0, 2}), Duration.ofSeconds(10), TIME_WINDOW,
                    settings.planner().maxDatagramLength(), SEED))
            {
                AgentRunner.startOnThread(simulator);
                ServiceRig.await(() -> loop.statesSeen() > 10, "JointStates at the loop");
                assertTrue(rig.planner.enable(ControllerKind.COMPUTED_TORQUE).accepted());
                ServiceRig.await(() -> loop.mode() == ControllerMode.ENABLED, "ENABLED");

                final FuzzReport report = fuzzer.run(DATAGRAMS, PROBE_EVERY, WINDOW);
                System.out.print(report.table());

                assertEquals(0, report.problemCount(), "seed " + SEED + ": " + report.problems());
                assertEquals(0, report.lateStale(), "no datagram delayed beyond the " + TIME_WINDOW + " window");
                assertEquals(DATAGRAMS, report.sentTotal());
                for (final FuzzCase c : FuzzCase.values())
                {
                    assertTrue(report.sent(c) > 0, c + " sent, seed " + SEED);
                    if (c != FuzzCase.VALID)
                    {
                        assertEquals(0L, report.acked(c), c + " never acknowledged, seed " + SEED);
                    }
                    if (c.exact() && c != FuzzCase.VALID && c != FuzzCase.DISALLOWED_SOURCE && c != FuzzCase.REPLAY)
                    {
                        assertEquals(report.sent(c), report.rejected(c, c.expected()), c + " always " + c.expected() + ", seed " + SEED);
                    }
                }
                assertEquals(report.sent(FuzzCase.VALID), report.acked(FuzzCase.VALID), "every signed probe accepted during the attack");
                assertEquals(report.sent(FuzzCase.REPLAY), report.rejected(FuzzCase.REPLAY, RejectReason.REPLAYED)
                    + report.rejected(FuzzCase.REPLAY, RejectReason.STALE), "every replay REPLAYED (or STALE if older than the window)");
                assertEquals(0L, report.strangerReplies(), "no reply to the disallowed source");

                final long accepted = 1 + report.acked(FuzzCase.VALID);
                assertEquals(accepted, rig.service.gateway().acceptedCount(), "the gateway accepted the enable and the probes only");
                rig.awaitApplied(accepted);
                final long[] expected = report.expectedRejectCounts();
                ServiceRig.await(() ->
                {
                    rig.telemetry.poll();
                    return rig.telemetry.last() != null && Arrays.equals(expected, rig.telemetry.last().rejectCounts());
                }, "telemetry reject counts equal to the replies by reason plus the disallowed datagrams");
                assertArrayEquals(expected, rig.telemetry.last().rejectCounts());
                assertEquals(accepted, loop.appliedCommandCount(), "nothing else reached the loop");
                assertEquals(0, loop.faults(), Faults.describe(loop.faults()));
                assertTrue(rig.telemetry.samples.stream().anyMatch(sample -> sample.state() == ControllerState.TRACKING),
                    "the loop tracked the probes' setpoints");
                assertTrue(loop.mode() == ControllerMode.TRACKING || loop.mode() == ControllerMode.HOLD,
                    "tracking, or holding once the setpoints stopped: " + loop.mode());
            }
        }
    }
}
