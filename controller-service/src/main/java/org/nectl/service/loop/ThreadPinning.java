package org.nectl.service.loop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Places the calling thread as a {@link ThreadPlacement} says: pinned with {@code taskset} and
 * given a SCHED_FIFO priority with {@code chrt}, both addressed to the thread's id from
 * /proc/thread-self. Done once when a thread starts, off the hot path. Not real-time safe.
 */
public final class ThreadPinning
{
    private static final Path RT_RUNTIME = Path.of("/proc/sys/kernel/sched_rt_runtime_us");

    private ThreadPinning()
    {
    }

    /**
     * @param placement where the calling thread should run.
     * @param what the thread's role, for the sentences returned (e.g. "control loop").
     * @return sentences saying what was done and, where it failed, why.
     */
    public static String placeCurrentThread(final ThreadPlacement placement, final String what)
    {
        final String tid;
        try
        {
            tid = Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
        }
        catch (final IOException | UnsupportedOperationException e)
        {
            return placement.equals(ThreadPlacement.NONE) ? what + " not pinned, default scheduling"
                : what + " not placed: no /proc/thread-self (" + e.getMessage() + ")";
        }
        final String pinned = placement.cpu() < 0 ? what + " not pinned (no core configured)"
            : run(List.of("taskset", "-pc", Integer.toString(placement.cpu()), tid),
                what + " pinned to CPU " + placement.cpu() + " (thread " + tid + ")",
                what + " not pinned to CPU " + placement.cpu());
        if (placement.fifoPriority() == 0)
        {
            return pinned + "; default scheduling";
        }
        return pinned + "; " + run(List.of("chrt", "-f", "-p", Integer.toString(placement.fifoPriority()), tid),
            "SCHED_FIFO priority " + placement.fifoPriority() + " set" + throttlingNote(),
            "SCHED_FIFO priority " + placement.fifoPriority() + " not set (needs CAP_SYS_NICE or root)");
    }

    /**
     * A spinning SCHED_FIFO thread is stopped for the rest of every second once it has used
     * sched_rt_runtime_us of it (50 ms a second at the kernel default): worse than no priority.
     */
    private static String throttlingNote()
    {
        try
        {
            final String runtime = String.join("", Files.readAllLines(RT_RUNTIME, StandardCharsets.US_ASCII)).trim();
            return "-1".equals(runtime) ? " (real-time throttling off)"
                : " (warning: real-time throttling is on, sched_rt_runtime_us = " + runtime
                    + ": a spinning loop is stopped for the rest of each second; see docs/DEPLOYMENT.md)";
        }
        catch (final IOException e)
        {
            return "";
        }
    }

    private static String run(final List<String> command, final String success, final String failure)
    {
        try
        {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!process.waitFor(5, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                return failure + ": " + command.get(0) + " did not answer";
            }
            return process.exitValue() == 0 ? success : failure + ": " + output;
        }
        catch (final IOException e)
        {
            return failure + ": " + e.getMessage();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            return failure + ": interrupted";
        }
    }
}
