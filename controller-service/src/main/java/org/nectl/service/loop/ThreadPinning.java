package org.nectl.service.loop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Pins the calling thread to one CPU with {@code taskset}, found through /proc/thread-self. Done
 * once when the control loop starts, off the hot path. Not real-time safe.
 */
final class ThreadPinning
{
    private ThreadPinning()
    {
    }

    /**
     * @param cpu CPU index, or negative for no pinning.
     * @return a sentence saying whether pinning succeeded and why not.
     */
    static String pinCurrentThread(final int cpu)
    {
        if (cpu < 0)
        {
            return "control loop not pinned (no core configured)";
        }
        try
        {
            final Path self = Files.readSymbolicLink(Path.of("/proc/thread-self"));
            final String tid = self.getFileName().toString();
            final Process taskset = new ProcessBuilder("taskset", "-pc", Integer.toString(cpu), tid)
                .redirectErrorStream(true).start();
            final String output = new String(taskset.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
            if (!taskset.waitFor(5, TimeUnit.SECONDS))
            {
                taskset.destroyForcibly();
                return "control loop not pinned: taskset did not answer";
            }
            return taskset.exitValue() == 0
                ? "control loop pinned to CPU " + cpu + " (thread " + tid + ")"
                : "control loop not pinned to CPU " + cpu + ": " + output;
        }
        catch (final IOException | UnsupportedOperationException e)
        {
            return "control loop not pinned: " + e.getMessage();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            return "control loop not pinned: interrupted";
        }
    }
}
