package org.nectl.bench;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.nectl.transport.AdapterLink;
import org.nectl.transport.AeronConfig;
import org.nectl.transport.AeronTransport;
import org.nectl.transport.ControllerLink;
import org.nectl.transport.JointStateSample;
import org.nectl.transport.LinkConfig;
import org.nectl.transport.MotorCommandSample;
import org.nectl.transport.Wire;
import org.nectl.transport.sbe.DriveMode;
import org.nectl.transport.sbe.JointStateEncoder;
import org.nectl.transport.sbe.MotorCommandEncoder;

/**
 * Adapter to controller latency over the hardware link (Aeron IPC), measured the way Aeron's
 * Ping/Pong samples measure it: the adapter side publishes a JointState stamped with
 * {@code System.nanoTime()} on the real {@link AdapterLink}; a controller thread busy-spins on the
 * real {@link ControllerLink}, answers each state at once with a MotorCommand carrying its sequence;
 * the adapter busy-spins for that command and records the round-trip time in an HdrHistogram. One
 * message is in flight at a time. One-way latency is reported as RTT / 2: the two directions use
 * the same mechanism (a {@code tryClaim} into a shared-memory log, a poll on the other side), but the
 * JointState is 1160 bytes and the MotorCommand 291, so the halves are not exactly equal.
 *
 * <p>An embedded media driver runs in a fresh, unique directory (deleted on close); it manages the
 * IPC log buffers but is not on the data path. Warm-up round trips (JIT compilation, page faults)
 * are measured into a histogram that is then discarded.
 *
 * <p>Not real-time safe as a whole (set-up, printing); the measured loops allocate nothing. Run with
 * {@code java -cp benchmarks/target/benchmarks.jar org.nectl.bench.HardwareLinkLatency [messages=N]
 * [warmup=N] [joints=N]}, or {@code scripts/latency.sh}.
 */
public final class HardwareLinkLatency
{
    private static final long HIGHEST_TRACKABLE_NS = TimeUnit.SECONDS.toNanos(10);
    private static final int SIGNIFICANT_DIGITS = 3;

    private final AdapterLink adapter;
    private final ControllerLink controller;
    private final JointStateSample state;
    private final MotorCommandSample command;
    private volatile boolean running = true;

    private HardwareLinkLatency(final AeronTransport transport, final int jointCount)
    {
        adapter = new AdapterLink(transport.aeron(), LinkConfig.ipcDefaults(), jointCount);
        controller = new ControllerLink(transport.aeron(), LinkConfig.ipcDefaults(), jointCount);
        state = new JointStateSample(jointCount);
        command = new MotorCommandSample(jointCount);
        for (int k = 0; k < jointCount; k++)
        {
            state.q()[k] = 0.1 * k;
        }
    }

    /**
     * Measures round trips over the hardware link of {@code transport}. Not real-time safe.
     *
     * @param transport a connected Aeron client (and driver).
     * @param jointCount joints per message.
     * @param warmupMessages round trips run first and discarded.
     * @param messages round trips measured.
     * @return the round-trip times, ns.
     */
    public static Histogram measureRoundTrips(final AeronTransport transport, final int jointCount, final int warmupMessages,
        final int messages)
    {
        final HardwareLinkLatency harness = new HardwareLinkLatency(transport, jointCount);
        final Thread pong = new Thread(harness::answerStates, "nectl-latency-controller");
        pong.setDaemon(true);
        try
        {
            pong.start();
            while (!harness.adapter.isConnected() || !harness.controller.isConnected())
            {
                Thread.onSpinWait();
            }
            final Histogram histogram = new Histogram(HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS);
            harness.roundTrips(histogram, 0, warmupMessages);
            histogram.reset();
            harness.roundTrips(histogram, warmupMessages, messages);
            return histogram;
        }
        finally
        {
            harness.running = false;
            joinQuietly(pong);
            harness.adapter.close();
            harness.controller.close();
        }
    }

    /** Adapter side: one JointState out, spin until the MotorCommand answering it arrives. */
    private void roundTrips(final Histogram histogram, final long firstSequence, final int count)
    {
        final MotorCommandSample reply = new MotorCommandSample(state.jointCount());
        for (long sequence = firstSequence; sequence < firstSequence + count; sequence++)
        {
            final long sentNs = System.nanoTime();
            state.sequence(sequence).timestampNs(sentNs);
            while (adapter.publishJointState(state) < 0)
            {
                Thread.onSpinWait();
            }
            while (adapter.pollMotorCommand(reply) == 0 || reply.jointStateSequence() != sequence)
            {
                Thread.onSpinWait();
            }
            histogram.recordValue(System.nanoTime() - sentNs);
        }
    }

    /** Controller side: busy-spins on JointState and answers each with a MotorCommand at once. */
    private void answerStates()
    {
        final JointStateSample received = new JointStateSample(state.jointCount());
        command.mode(DriveMode.TORQUE).enable(true);
        while (running)
        {
            if (controller.pollJointState(received) > 0)
            {
                command.sequence(received.sequence()).jointStateSequence(received.sequence()).timestampNs(received.timestampNs());
                while (controller.publishMotorCommand(command) < 0 && running)
                {
                    Thread.onSpinWait();
                }
            }
            else
            {
                Thread.onSpinWait();
            }
        }
    }

    private static void joinQuietly(final Thread thread)
    {
        try
        {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Prints round-trip and one-way (RTT / 2) percentiles in microseconds. Not real-time safe.
     *
     * @param roundTripsNs measured round trips, ns.
     * @param out where to print.
     */
    public static void report(final Histogram roundTripsNs, final PrintStream out)
    {
        out.printf(Locale.ROOT, "%-8s %12s %14s%n", "", "RTT us", "one-way us");
        for (final double percentile : new double[] {50.0, 90.0, 99.0, 99.9, 99.99})
        {
            final long rttNs = roundTripsNs.getValueAtPercentile(percentile);
            out.printf(Locale.ROOT, "%-8s %12.3f %14.3f%n", "p" + trim(percentile), rttNs / 1e3, rttNs / 2e3);
        }
        out.printf(Locale.ROOT, "%-8s %12.3f %14.3f%n", "max", roundTripsNs.getMaxValue() / 1e3, roundTripsNs.getMaxValue() / 2e3);
        out.printf(Locale.ROOT, "%-8s %12.3f %14.3f%n", "mean", roundTripsNs.getMean() / 1e3, roundTripsNs.getMean() / 2e3);
    }

    private static String trim(final double percentile)
    {
        return percentile == Math.rint(percentile) ? Long.toString((long)percentile) : Double.toString(percentile);
    }

    /**
     * @param args {@code messages=N} (default 1000000), {@code warmup=N} (default 200000),
     *     {@code joints=N} (default 7).
     */
    public static void main(final String[] args)
    {
        int messages = 1_000_000;
        int warmup = 200_000;
        int joints = 7;
        for (final String arg : args)
        {
            final String[] pair = arg.split("=", 2);
            final int value = Integer.parseInt(pair.length == 2 ? pair[1] : "");
            switch (pair[0])
            {
                case "messages" -> messages = value;
                case "warmup" -> warmup = value;
                case "joints" -> joints = value;
                default -> throw new IllegalArgumentException("unknown argument '" + arg + "'; use messages=N warmup=N joints=N");
            }
        }
        try (AeronTransport transport = AeronTransport.launch(AeronConfig.embeddedDefaults()))
        {
            System.out.printf(Locale.ROOT, "Hardware link latency over Aeron IPC (embedded driver %s)%n", transport.aeronDirectory());
            System.out.printf(Locale.ROOT, "JointState %d B adapter -> controller, MotorCommand %d B back, %d joints; "
                    + "%d warm-up + %d measured round trips, one in flight, busy-spin both ends%n",
                Wire.HEADER_LENGTH + JointStateEncoder.BLOCK_LENGTH, Wire.HEADER_LENGTH + MotorCommandEncoder.BLOCK_LENGTH, joints,
                warmup, messages);
            final Histogram roundTrips = measureRoundTrips(transport, joints, warmup, messages);
            report(roundTrips, System.out);
        }
    }
}
