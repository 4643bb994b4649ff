package org.nectl.service.fuzz;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

import org.nectl.transport.PlannerGateway;
import org.nectl.transport.sbe.RejectReason;

/**
 * What a {@link PlannerFuzzer} run sent and what the gateway answered, per {@link FuzzCase} and
 * reject reason, with every departure from the protocol recorded as a problem. Not thread safe.
 */
public final class FuzzReport
{
    private static final int MAX_PROBLEMS = 20;
    private static final int CASES = FuzzCase.values().length;

    private final long[] sent = new long[CASES];
    private final long[] acked = new long[CASES];
    private final long[][] rejected = new long[CASES][PlannerGateway.REJECT_COUNTER_COUNT];
    private final List<String> problems = new ArrayList<>();
    private long problemCount;
    private long unanswered;
    private long lateStale;
    private long strangerReplies;
    private long elapsedNs;

    void countSent(final FuzzCase c)
    {
        sent[c.ordinal()]++;
    }

    void countAck(final FuzzCase c, final long index)
    {
        acked[c.ordinal()]++;
        if (c != FuzzCase.VALID)
        {
            problem("datagram " + index + " (" + c + ") was acknowledged");
        }
    }

    void countReject(final FuzzCase c, final RejectReason reason, final long index, final boolean late)
    {
        rejected[c.ordinal()][reason.value()]++;
        if (late && reason == RejectReason.STALE && c != FuzzCase.STALE)
        {
            lateStale++;
        }
        else if (!c.allows(reason))
        {
            problem("datagram " + index + " (" + c + ") rejected as " + reason
                + (c == FuzzCase.VALID ? "" : ", expected " + c.expected()));
        }
    }

    void countUnanswered(final FuzzCase c, final long index)
    {
        unanswered++;
        problem("datagram " + index + " (" + c + ") got no reply");
    }

    void countStrangerReplies(final long count)
    {
        strangerReplies = count;
        if (count > 0)
        {
            problem(count + " replies reached the disallowed source");
        }
    }

    void recordElapsedNs(final long ns)
    {
        elapsedNs = ns;
    }

    private void problem(final String what)
    {
        problemCount++;
        if (problems.size() < MAX_PROBLEMS)
        {
            problems.add(what);
        }
    }

    /** @return datagrams sent of {@code c}. */
    public long sent(final FuzzCase c)
    {
        return sent[c.ordinal()];
    }

    /** @return datagrams sent, all cases. */
    public long sentTotal()
    {
        long total = 0;
        for (final long n : sent)
        {
            total += n;
        }
        return total;
    }

    /** @return acknowledgements received for datagrams of {@code c}. */
    public long acked(final FuzzCase c)
    {
        return acked[c.ordinal()];
    }

    /** @return rejections of datagrams of {@code c} with {@code reason}. */
    public long rejected(final FuzzCase c, final RejectReason reason)
    {
        return rejected[c.ordinal()][reason.value()];
    }

    /**
     * @return per RejectReason value, the rejections the gateway must have counted: the replies
     *     received plus the unanswered datagrams from the disallowed source.
     */
    public long[] expectedRejectCounts()
    {
        final long[] counts = new long[PlannerGateway.REJECT_COUNTER_COUNT];
        for (int c = 0; c < CASES; c++)
        {
            for (int r = 0; r < counts.length; r++)
            {
                counts[r] += rejected[c][r];
            }
        }
        counts[RejectReason.DISALLOWED_SOURCE.value()] += sent(FuzzCase.DISALLOWED_SOURCE);
        return counts;
    }

    /**
     * @return datagrams rejected as STALE, rightly, because the host delayed them beyond the time
     *     window between stamping and the reply (a sign of an overloaded host, not a problem).
     */
    public long lateStale()
    {
        return lateStale;
    }

    /** @return datagrams that got no reply although their source is allowed. */
    public long unanswered()
    {
        return unanswered;
    }

    /** @return replies received by the disallowed source (must be 0). */
    public long strangerReplies()
    {
        return strangerReplies;
    }

    /** @return departures from the protocol: acks of invalid datagrams, wrong or missing replies. */
    public long problemCount()
    {
        return problemCount;
    }

    /** @return the first problems, described. */
    public List<String> problems()
    {
        return Collections.unmodifiableList(problems);
    }

    /** @return wall time of the run, ns. */
    public long elapsedNs()
    {
        return elapsedNs;
    }

    /** @return a table: per case, datagrams sent, acked and rejected by reason; then the totals and problems. */
    public String table()
    {
        final StringBuilder text = new StringBuilder(String.format(Locale.ROOT, "%-20s %9s %7s  %s%n", "case", "sent", "acked",
            "rejected by reason"));
        for (final FuzzCase c : FuzzCase.values())
        {
            final StringBuilder reasons = new StringBuilder();
            for (int r = 0; r < PlannerGateway.REJECT_COUNTER_COUNT; r++)
            {
                if (rejected[c.ordinal()][r] > 0)
                {
                    reasons.append(RejectReason.get((short)r)).append(' ').append(rejected[c.ordinal()][r]).append("  ");
                }
            }
            if (c == FuzzCase.DISALLOWED_SOURCE)
            {
                reasons.append("(no reply expected; ").append(strangerReplies).append(" received)");
            }
            text.append(String.format(Locale.ROOT, "%-20s %9d %7d  %s%n", c, sent[c.ordinal()], acked[c.ordinal()], reasons));
        }
        text.append(String.format(Locale.ROOT,
            "total %d datagrams in %.1f s (%.0f per s), unanswered %d, stale after a delay beyond the window %d, problems %d%n",
            sentTotal(), elapsedNs / 1e9, sentTotal() / Math.max(1e-9, elapsedNs / 1e9), unanswered, lateStale, problemCount));
        for (final String p : problems)
        {
            text.append("  problem: ").append(p).append('\n');
        }
        return text.toString();
    }
}
