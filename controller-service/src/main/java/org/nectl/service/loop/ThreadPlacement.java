package org.nectl.service.loop;

/**
 * Where a latency-critical thread runs: the CPU it is pinned to and its SCHED_FIFO priority.
 * On a control PC the control loop gets an isolated core and a real-time priority so that nothing
 * else the host runs can preempt it (docs/DEPLOYMENT.md, "Real-time host set-up").
 *
 * @param cpu CPU to pin the thread to, or -1 for no pinning.
 * @param fifoPriority SCHED_FIFO priority 1..99, or 0 to keep the default time-sharing policy.
 */
public record ThreadPlacement(int cpu, int fifoPriority)
{
    /** Highest SCHED_FIFO priority Linux accepts. */
    public static final int MAX_FIFO_PRIORITY = 99;

    /** Not pinned, default scheduling. */
    public static final ThreadPlacement NONE = new ThreadPlacement(-1, 0);

    /**
     * @param cpu CPU to pin the thread to, or -1 for no pinning.
     * @param fifoPriority SCHED_FIFO priority 1..99, or 0 to keep the default time-sharing policy.
     */
    public ThreadPlacement
    {
        if (cpu < -1)
        {
            throw new IllegalArgumentException("cpu " + cpu + " is not a CPU index (-1 for none)");
        }
        if (fifoPriority < 0 || fifoPriority > MAX_FIFO_PRIORITY)
        {
            throw new IllegalArgumentException("SCHED_FIFO priority " + fifoPriority + " is outside 0..99 (0 for none)");
        }
    }

    /** @return a copy pinned to {@code newCpu} (-1: not pinned). */
    public ThreadPlacement withCpu(final int newCpu)
    {
        return new ThreadPlacement(newCpu, fifoPriority);
    }

    /** @return a copy with SCHED_FIFO priority {@code priority} (0: default scheduling). */
    public ThreadPlacement withFifoPriority(final int priority)
    {
        return new ThreadPlacement(cpu, priority);
    }
}
