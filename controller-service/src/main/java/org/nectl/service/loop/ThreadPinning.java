package org.nectl.service.loop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Places the calling thread as a {@link ThreadPlacement} says: pinned with {@code taskset} and
 * given a SCHED_FIFO priority with {@code chrt}, both addressed to the thread's id from
 * /proc/thread-self. Done once when a thread starts, off the hot path. Not real-time safe.
 */
public final class ThreadPinning
{
    private static final Path RT_RUNTIME = Path.of("/proc/sys/kernel/sched_rt_runtime_us");
    private static final Path SELF_STATUS = Path.of("/proc/self/status");
    private static final String CPUS_ALLOWED = "Cpus_allowed_list:";

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
            tid = currentThreadId();
        }
        catch (final IOException | UnsupportedOperationException e)
        {
            return placement.equals(ThreadPlacement.NONE) ? what + " not pinned, default scheduling"
                : what + " not placed: no /proc/thread-self (" + e.getMessage() + ")";
        }
        final String pinningFailure = placement.cpu() < 0 ? null : pin(placement.cpu(), tid);
        final String pinned = placement.cpu() < 0 ? what + " not pinned (no core configured)"
            : pinningFailure == null ? what + " pinned to CPU " + placement.cpu() + " (thread " + tid + ")"
            : what + " not pinned to CPU " + placement.cpu() + ": " + pinningFailure;
        if (placement.fifoPriority() == 0)
        {
            return pinned + "; default scheduling";
        }
        final String priorityFailure = prioritise(placement.fifoPriority(), tid);
        return pinned + "; " + (priorityFailure == null
            ? "SCHED_FIFO priority " + placement.fifoPriority() + " set" + throttlingNote()
            : "SCHED_FIFO priority " + placement.fifoPriority() + " not set (needs CAP_SYS_NICE or root): " + priorityFailure);
    }

    /**
     * Checks, before a service starts, that a placement can be applied on this host: the CPU must
     * be one this process may run on (its scheduler affinity, /proc/self/status Cpus_allowed_list)
     * and the placement is applied to a short-lived probe thread, so a missing {@code taskset} or
     * {@code chrt} or a SCHED_FIFO priority the kernel does not grant (it needs root, CAP_SYS_NICE
     * or an RLIMIT_RTPRIO at least the priority) is found at start, not when the loop starts.
     *
     * @param placement the placement to check.
     * @param cpuSetting the name of the CPU setting as the user wrote it, for the reason (e.g. "core").
     * @param prioritySetting the name of the priority setting, likewise.
     * @return why the placement cannot be applied, starting with the setting's name; empty if it can.
     */
    public static Optional<String> refusal(final ThreadPlacement placement, final String cpuSetting, final String prioritySetting)
    {
        if (placement.equals(ThreadPlacement.NONE))
        {
            return Optional.empty();
        }
        final String allowed = allowedCpus();
        if (placement.cpu() >= 0 && !cpuAllowed(placement.cpu(), allowed))
        {
            return Optional.of(cpuSetting + ": CPU " + placement.cpu() + " is not one this process may run on (allowed CPUs: "
                + allowed + ")");
        }
        final String[] failure = new String[2];
        final Thread probe = new Thread(() ->
        {
            try
            {
                final String tid = currentThreadId();
                failure[0] = placement.cpu() < 0 ? null : pin(placement.cpu(), tid);
                failure[1] = placement.fifoPriority() == 0 ? null : prioritise(placement.fifoPriority(), tid);
            }
            catch (final IOException | UnsupportedOperationException e)
            {
                failure[0] = "no /proc/thread-self to address the thread (" + e.getMessage() + ")";
            }
        }, "nectl-placement-probe");
        probe.start();
        try
        {
            probe.join();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            return Optional.of(cpuSetting + ": the placement check was interrupted");
        }
        if (failure[0] != null)
        {
            return Optional.of(cpuSetting + ": cannot pin a thread to CPU " + placement.cpu() + ": " + failure[0]);
        }
        if (failure[1] != null)
        {
            return Optional.of(prioritySetting + ": SCHED_FIFO priority " + placement.fifoPriority() + " refused: " + failure[1]
                + " (needs root, CAP_SYS_NICE or an RLIMIT_RTPRIO of at least " + placement.fifoPriority() + ")");
        }
        return Optional.empty();
    }

    /** @return the CPUs this process may run on, as Linux lists them ("0-3,6"), else 0..availableProcessors-1. */
    private static String allowedCpus()
    {
        try
        {
            for (final String line : Files.readAllLines(SELF_STATUS, StandardCharsets.US_ASCII))
            {
                if (line.startsWith(CPUS_ALLOWED))
                {
                    return line.substring(CPUS_ALLOWED.length()).strip();
                }
            }
        }
        catch (final IOException e)
        {
            // No procfs: the JVM's processor count is the best estimate.
        }
        return "0-" + (Runtime.getRuntime().availableProcessors() - 1);
    }

    private static boolean cpuAllowed(final int cpu, final String list)
    {
        for (final String range : list.split(","))
        {
            final String[] ends = range.strip().split("-");
            final int low = Integer.parseInt(ends[0]);
            final int high = ends.length > 1 ? Integer.parseInt(ends[1]) : low;
            if (cpu >= low && cpu <= high)
            {
                return true;
            }
        }
        return false;
    }

    private static String currentThreadId() throws IOException
    {
        return Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
    }

    /** @return null if the thread is pinned, else why not. */
    private static String pin(final int cpu, final String tid)
    {
        return failure(List.of("taskset", "-pc", Integer.toString(cpu), tid));
    }

    /** @return null if the thread has the SCHED_FIFO priority, else why not. */
    private static String prioritise(final int priority, final String tid)
    {
        return failure(List.of("chrt", "-f", "-p", Integer.toString(priority), tid));
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

    /** @return null if the command succeeded, else its output or why it could not run. */
    private static String failure(final List<String> command)
    {
        try
        {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!process.waitFor(5, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                return command.get(0) + " did not answer";
            }
            return process.exitValue() == 0 ? null : output;
        }
        catch (final IOException e)
        {
            return e.getMessage();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
