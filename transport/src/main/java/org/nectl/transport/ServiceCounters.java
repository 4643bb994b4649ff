package org.nectl.transport;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

import io.aeron.Aeron;
import io.aeron.Counter;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;

/**
 * The service's counters in the media driver's CnC file, where Aeron keeps its own system
 * counters: each is allocated by the Aeron client in the driver's CountersManager with type
 * {@link #TYPE_ID} and the label {@code nectl: NAME}, so {@code nectl stat} (or Aeron's
 * {@code AeronStat}) reads them from another process by mapping the CnC file, without touching the
 * service. The values come from the thread-safe accessors of the loop, gateway and agents; this
 * agent copies them into the CnC at most once per {@link #UPDATE_INTERVAL_NS}, so the control loop
 * never writes into the CnC itself.
 *
 * <p>An Agrona {@link Agent} for a non-real-time thread. Not thread safe: one thread registers and
 * runs it.
 */
public final class ServiceCounters implements Agent
{
    /** Counter type id of every nectl counter; Aeron's own types are below 1000. */
    public static final int TYPE_ID = 3001;
    /** Label prefix of every nectl counter. */
    public static final String LABEL_PREFIX = "nectl: ";
    /** Longest time between two copies into the CnC file, ns. */
    public static final long UPDATE_INTERVAL_NS = 1_000_000L;

    private final Aeron aeron;
    private final List<Counter> counters = new ArrayList<>();
    private final List<LongSupplier> sources = new ArrayList<>();
    private long lastUpdateNs;
    private volatile boolean released;

    /**
     * Not real-time safe.
     *
     * @param aeron connected client whose media driver holds the counters.
     */
    public ServiceCounters(final Aeron aeron)
    {
        this.aeron = aeron;
    }

    /**
     * Allocates one counter in the CnC file. Not real-time safe.
     *
     * @param name counter name, snake case, unique in the service.
     * @param source the value, read on this agent's thread.
     * @return this.
     */
    public ServiceCounters add(final String name, final LongSupplier source)
    {
        final Counter counter = aeron.addCounter(TYPE_ID, LABEL_PREFIX + name);
        counters.add(counter);
        sources.add(source);
        counter.setRelease(source.getAsLong());
        return this;
    }

    /** @return counters allocated. */
    public int size()
    {
        return counters.size();
    }

    @Override
    public int doWork()
    {
        if (released || anyClosed())
        {
            // The client closed them after losing its driver: it unmaps the CnC once this is seen.
            released = true;
            return 0;
        }
        final long nowNs = System.nanoTime();
        if (nowNs - lastUpdateNs < UPDATE_INTERVAL_NS)
        {
            return 0;
        }
        lastUpdateNs = nowNs;
        update();
        return 1;
    }

    /** Copies every value into the CnC file now; on this agent's thread, not once {@link #released}. */
    public void update()
    {
        for (int i = 0; i < counters.size(); i++)
        {
            final Counter counter = counters.get(i);
            if (!counter.isClosed())
            {
                counter.setRelease(sources.get(i).getAsLong());
            }
        }
    }

    /**
     * @return true once this agent has seen its counters closed (the client lost its driver) and no
     *     longer writes them. Any thread.
     */
    public boolean released()
    {
        return released;
    }

    private boolean anyClosed()
    {
        for (int i = 0; i < counters.size(); i++)
        {
            if (counters.get(i).isClosed())
            {
                return true;
            }
        }
        return false;
    }

    @Override
    public String roleName()
    {
        return "service-counters";
    }

    /** Frees the counters in the driver. */
    @Override
    public void onClose()
    {
        CloseHelper.quietCloseAll(counters);
    }
}
