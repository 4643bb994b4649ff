package org.nectl.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.nectl.transport.AeronConfig;
import org.nectl.transport.AeronTransport;

/**
 * The latency harness on a real embedded media driver (unique directory): every measured round trip
 * is matched to its own reply and recorded once. No timing is asserted.
 */
final class HardwareLinkLatencyTest
{
    @Test
    void recordsOneRoundTripPerMessageAfterDiscardingTheWarmUp()
    {
        try (AeronTransport transport = AeronTransport.launch(AeronConfig.embeddedDefaults()))
        {
            final Histogram roundTrips = HardwareLinkLatency.measureRoundTrips(transport, 7, 500, 2_000);

            assertEquals(2_000L, roundTrips.getTotalCount());
            assertTrue(roundTrips.getMinValue() > 0, "a round trip takes time: " + roundTrips.getMinValue());
            final ByteArrayOutputStream text = new ByteArrayOutputStream();
            HardwareLinkLatency.report(roundTrips, new PrintStream(text, true, StandardCharsets.UTF_8));
            final String report = text.toString(StandardCharsets.UTF_8);
            assertTrue(report.contains("p99.9 ") && report.contains("max ") && report.contains("one-way us"), report);
        }
    }
}
