package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.core.runtime.Faults;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmAdapter;
import org.nectl.hw.SimulationMode;
import org.nectl.transport.FlightRecorderConfig;
import org.nectl.transport.RecordingArchive;
import org.nectl.transport.Wire;
import org.nectl.transport.sbe.ControllerEventDecoder;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.MessageHeaderDecoder;
import org.nectl.transport.sbe.TelemetryDecoder;

/**
 * The flight recorder in a lockstep service: every tick recorded (contiguous tick numbers), the
 * replay of the recording bit-identical to the live stream (telemetry every tick), the controller
 * events with it, and the emergency stop's fault marked with its position.
 */
final class FlightRecorderServiceTest
{
    /** Ticks run: 3 s at 1 kHz, the emergency stop at 1.5 s. */
    private static final int STEPS = 3_000;
    private static final int ESTOP_STEP = 1_500;

    @TempDir
    Path temp;

    @Test
    void recordsEveryTickAndReplaysItBitForBitWithTheFaultMarked()
    {
        final Path directory = temp.resolve("recordings");
        final FlightRecorderConfig recording = new FlightRecorderConfig(directory, 1L << 30, 3_600_000L,
            FlightRecorderConfig.TERM_LENGTH, 1011);
        final List<TelemetryRecorder.Sample> live;
        final List<TelemetryRecorder.Event> liveEvents;
        final long recordingId;
        final ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings(), recording);
        try
        {
            final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, ServiceRig.armConfig());
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.stepTo(0, arm, adapter);
            assertTrue(rig.planner.enable(ControllerKind.COMPUTED_TORQUE).accepted(), "enable acknowledged");
            rig.awaitApplied(1);
            rig.stepTo(ESTOP_STEP, arm, adapter);
            assertTrue(rig.planner.eStop().accepted(), "emergency stop acknowledged");
            rig.awaitApplied(2);
            rig.stepTo(STEPS, arm, adapter);
            recordingId = rig.service.recorder().recordingId();
            live = rig.telemetry.samples;
            liveEvents = rig.telemetry.events;
        }
        finally
        {
            // The service drains the full-rate rings into the archive as it closes.
            rig.close();
        }
        assertEquals(0L, rig.service.loop().recordDropCount(), "full-rate samples dropped");
        assertEquals(0L, rig.service.recorder().errorCount(), "recorder errors: " + rig.service.recorder().firstError());

        final List<RecordingArchive.Recording> recordings = RecordingArchive.list(directory);
        assertEquals(1, recordings.size(), "one recording per service run");
        final RecordingArchive.Recording only = recordings.get(0);
        assertEquals(recordingId, only.id());
        assertTrue(only.stopPosition() > 0 && only.stopTimestampMs() >= only.startTimestampMs(), only.toString());
        assertEquals(1, only.faultMarks().size(), "the emergency stop marked: " + only.faultMarks());
        final String[] mark = only.faultMarks().get(0).split(",");
        assertEquals(Faults.EMERGENCY_STOP, Integer.parseInt(mark[3]), "newFaults of the mark");

        final List<Long> replayedCrcs = new ArrayList<>();
        final List<Long> replayedTicks = new ArrayList<>();
        final List<Long> replayedEvents = new ArrayList<>();
        final long[] faultEventPosition = {-1};
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final TelemetryDecoder telemetry = new TelemetryDecoder();
        final ControllerEventDecoder event = new ControllerEventDecoder();
        final CRC32C crc = new CRC32C();
        final long messages;
        try (RecordingArchive archive = RecordingArchive.open(directory))
        {
            messages = archive.replay(recordingId, (buffer, offset, length, position) ->
            {
                header.wrap(buffer, offset);
                if (header.templateId() == TelemetryDecoder.TEMPLATE_ID)
                {
                    telemetry.wrapAndApplyHeader(buffer, offset, header);
                    replayedTicks.add(telemetry.tickCount());
                    final byte[] bytes = new byte[Wire.HEADER_LENGTH + TelemetryDecoder.BLOCK_LENGTH];
                    buffer.getBytes(offset, bytes);
                    crc.reset();
                    crc.update(bytes);
                    replayedCrcs.add(crc.getValue());
                }
                else if (header.templateId() == ControllerEventDecoder.TEMPLATE_ID)
                {
                    event.wrapAndApplyHeader(buffer, offset, header);
                    replayedEvents.add(event.sequence());
                    if (event.newFaults() != 0)
                    {
                        faultEventPosition[0] = position;
                    }
                }
            });
        }
        assertEquals(STEPS + 1, replayedTicks.size(), "one recorded sample per tick");
        for (int i = 0; i < replayedTicks.size(); i++)
        {
            assertEquals(i + 1L, replayedTicks.get(i), "contiguous tick numbers at sample " + i);
        }
        assertEquals(live.size(), replayedCrcs.size(), "live samples");
        for (int i = 0; i < live.size(); i++)
        {
            assertEquals(live.get(i).rawCrc(), replayedCrcs.get(i), "sample of tick " + (i + 1) + " replayed bit for bit");
        }
        assertArrayEquals(liveEvents.stream().mapToLong(TelemetryRecorder.Event::sequence).toArray(),
            replayedEvents.stream().mapToLong(Long::longValue).toArray(), "the same controller events");
        assertEquals(Long.parseLong(mark[0]), faultEventPosition[0], "the mark holds the fault event's position");
        assertEquals(replayedTicks.size() + replayedEvents.size(), messages);
    }
}
