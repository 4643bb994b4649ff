package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;
import org.nectl.core.runtime.ControllerMode;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmAdapter;
import org.nectl.hw.SimulationMode;
import org.nectl.service.cli.NectlProcess;
import org.nectl.transport.ServiceCounters;
import org.nectl.transport.sbe.RejectReason;

/**
 * The service's counters in the CnC file, read by {@code nectl stat} in another JVM while the
 * service runs: the values equal the service's own accessors once the counters agent has copied
 * them.
 */
final class ServiceCountersTest
{
    private static final Pattern LINE = Pattern.compile("^\\s*\\d+:\\s+([\\d,]+) - nectl: (\\S+)$");
    private static final int STEPS = 300;

    @Test
    void nectlStatInAnotherProcessReadsTheCountersOfARunningService() throws Exception
    {
        try (ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings()))
        {
            final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, ServiceRig.armConfig());
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.stepTo(STEPS, arm, adapter);
            sendTruncatedDatagram(rig.service.plannerAddress());
            ServiceRig.await(() -> rig.service.gateway().rejectCount(RejectReason.TRUNCATED) == 1, "the truncated datagram counted");
            final CountersReader reader = rig.client.aeron().countersReader();
            ServiceRig.await(() -> value(reader, "ticks") == STEPS + 1 && value(reader, "planner_rejects_truncated") == 1,
                "counters copied into the CnC file");

            final Process stat = new ProcessBuilder(NectlProcess.command("stat", "--aeron-dir", rig.service.aeronDirectory()))
                .redirectErrorStream(true).start();
            final String output = new String(stat.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(stat.waitFor(60, TimeUnit.SECONDS), "nectl stat ended");
            assertEquals(0, stat.exitValue(), output);
            final Map<String, Long> printed = new HashMap<>();
            for (final String line : output.split("\n"))
            {
                final Matcher m = LINE.matcher(line);
                if (m.matches())
                {
                    printed.put(m.group(2), Long.parseLong(m.group(1).replace(",", "")));
                }
            }
            assertEquals(rig.service.counters().size(), printed.size(), "every counter printed once:\n" + output);
            assertEquals(STEPS + 1L, printed.get("ticks"), output);
            assertEquals(1L, printed.get("planner_rejects_truncated"), output);
            assertEquals(STEPS + 1L, printed.get("joint_states_received"), output);
            assertEquals(rig.service.loop().telemetrySampleCount(), printed.get("telemetry_samples"), output);
            assertEquals(0L, printed.get("telemetry_ring_full_drops"), output);
            assertEquals(0L, printed.get("planner_replies_unsent"), output);
            assertEquals(0L, printed.get("loop_command_queue_full"), output);
            assertEquals((long)ControllerMode.IDLE.ordinal(), printed.get("mode"), output);
        }
    }

    /** Counter value by name, or -1 when absent. */
    private static long value(final CountersReader reader, final String name)
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

    private static void sendTruncatedDatagram(final InetSocketAddress gateway) throws IOException
    {
        try (DatagramChannel channel = DatagramChannel.open())
        {
            channel.send(ByteBuffer.wrap(new byte[] {1, 2, 3}), gateway);
        }
    }
}
