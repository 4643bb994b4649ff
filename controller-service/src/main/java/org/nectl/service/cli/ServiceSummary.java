package org.nectl.service.cli;

import java.util.Locale;

import org.HdrHistogram.Histogram;
import org.nectl.core.runtime.CarriedBaseCompensation;
import org.nectl.core.runtime.ControlCycle;
import org.nectl.core.runtime.Faults;
import org.nectl.service.loop.ControlLoop;
import org.nectl.service.loop.ControllerService;

/** The end-of-run report of a controller service. Not real-time safe: call after the service is closed. */
final class ServiceSummary
{
    private ServiceSummary()
    {
    }

    /**
     * Prints tracking, timing and fault figures.
     *
     * @param service a closed service.
     * @param title first line.
     * @param maxRms largest per-joint RMS tracking error counted as success, rad.
     * @return true if the arm tracked within maxRms and no fault occurred.
     */
    static boolean print(final ControllerService service, final String title, final double maxRms)
    {
        final ControlLoop loop = service.loop();
        final ControlCycle cycle = loop.cycle();
        final Histogram compute = loop.computeHistogram();
        System.out.println();
        System.out.println(title);
        System.out.printf(Locale.ROOT, "  %s%n", loop.pinning());
        System.out.printf(Locale.ROOT, "  ticks %d, tracking ticks %d, trajectories completed %d%n",
            cycle.tickCount(), cycle.trackingTicks(), cycle.completedTrajectories());
        boolean tracked = true;
        final StringBuilder rms = new StringBuilder("  RMS tracking error [rad, m for prismatic joints]:");
        for (int j = 0; j < cycle.trackingError().length; j++)
        {
            rms.append(String.format(Locale.ROOT, " %.3e", cycle.trackingRms(j)));
            tracked &= cycle.trackingRms(j) <= maxRms;
        }
        System.out.println(rms);
        System.out.printf(Locale.ROOT, "  tick compute [us]: p50 %.1f  p99 %.1f  p99.9 %.1f  max %.1f%n",
            compute.getValueAtPercentile(50) / 1e3, compute.getValueAtPercentile(99) / 1e3,
            compute.getValueAtPercentile(99.9) / 1e3, compute.getMaxValue() / 1e3);
        System.out.printf(Locale.ROOT, "  deadline misses %d, overruns %d, ticks without new state %d%n",
            loop.deadlineMissCount(), loop.overrunCount(), loop.missingStateCount());
        System.out.printf(Locale.ROOT, "  motor commands with no drive subscribed %d, command publish failures %d%n",
            loop.unconnectedCommandCount(), loop.publishFailureCount());
        System.out.printf(Locale.ROOT, "  planner datagrams accepted %d, rejected by the gateway %d, refused by the controller %d%n",
            service.gateway().acceptedCount(), totalRejects(service), loop.rejectedCommandCount() + service.trajectoryRejectCount());
        final CarriedBaseCompensation base = cycle.carriedBase();
        final String baseLine = baseLine(base.carried(), base.acceptedCount(), base.missingCount(), base.rejectedCount(),
            base.ignoredCount());
        if (baseLine != null)
        {
            System.out.println(baseLine);
        }
        System.out.printf(Locale.ROOT, "  final state %s, faults %s%n", cycle.mode(), Faults.describe(cycle.faults()));
        System.out.println(result(tracked, cycle.faults(), maxRms));
        return tracked && (cycle.faults() & ~Faults.SHUTDOWN) == 0;
    }

    /**
     * @param carried the deployment declares the base carried.
     * @param taken valid base blocks a carried deployment used.
     * @param missing JointStates of a carried deployment without a base block.
     * @param refused base blocks a carried deployment refused.
     * @param ignored base blocks a fixed deployment received.
     * @return the base-motion line, or null for a fixed base that received no base block.
     */
    static String baseLine(final boolean carried, final long taken, final long missing, final long refused, final long ignored)
    {
        if (carried)
        {
            return String.format(Locale.ROOT, "  base motion blocks (carried arm): taken %d, missing %d, refused %d", taken, missing,
                refused);
        }
        // An adapter on a moving base under a deployment that forgot base.carried: tracking and the
        // collision observer suffer the base's motion, and nothing else would say why.
        return ignored == 0 ? null : String.format(Locale.ROOT, "  base motion blocks: %d received and ignored: the adapter"
            + " reports a moving base, but base.carried is false, so its motion is not compensated (docs/DEPLOYMENT.md, \"base\")",
            ignored);
    }

    /**
     * @param tracked every joint's RMS tracking error within {@code maxRms}.
     * @param faults the latched faults.
     * @param maxRms the RMS limit, rad; infinite for a run that has none.
     * @return the result line, naming what failed.
     */
    static String result(final boolean tracked, final int faults, final double maxRms)
    {
        // A shutdown stop is how a run ends, not a failure.
        final int failures = faults & ~Faults.SHUTDOWN;
        if (tracked && failures == 0)
        {
            return "  result: OK";
        }
        final String fault = failures != 0 ? "fault: " + Faults.describe(failures) : "";
        final String rms = tracked ? "" : String.format(Locale.ROOT, "RMS tracking error above %.3e rad", maxRms);
        return "  result: FAILED (" + fault + (fault.isEmpty() || rms.isEmpty() ? "" : "; ") + rms + ")";
    }

    private static long totalRejects(final ControllerService service)
    {
        final long[] counts = new long[org.nectl.transport.PlannerGateway.REJECT_COUNTER_COUNT];
        service.gateway().copyRejectCounts(counts);
        long total = service.gateway().unavailableRejectCount();
        for (final long c : counts)
        {
            total += c;
        }
        return total;
    }
}
