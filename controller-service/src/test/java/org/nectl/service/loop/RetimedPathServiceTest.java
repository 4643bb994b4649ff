package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.core.control.JointWaypoints;
import org.nectl.core.control.ReferenceTimeScaling;
import org.nectl.core.control.TrajectorySampler;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.TorqueDerivative;
import org.nectl.core.model.RobotModel;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmAdapter;
import org.nectl.hw.SimulationMode;
import org.nectl.service.cli.NectlCommand;
import org.nectl.service.planner.JointTrajectory;
import org.nectl.service.planner.TrajectoryCsv;
import org.nectl.transport.TelemetrySample;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.ControllerState;

import picocli.CommandLine;

/**
 * The retimer's result on the whole service: the Panda's path through five waypoints, retimed by
 * {@code nectl optimize --retime --torque-rate-limits --for-service}, read back from the CSV it wrote
 * and sent as one trajectory segment over UDP to the lockstep service with the simulated Panda under
 * computed torque. Judged from the published telemetry: the reference clock never slows (s' = 1 on
 * every tracking tick, the time-scaled tick counter unchanged), the limiter never clips, and the motion
 * takes the planned duration. Time-optimal for the service: along the reference the service itself
 * builds from the CSV (its own sampler), the quantities its time scaling bounds, (|tau| + a |M qd|) /
 * (share x effort limit) and (|tau-dot| + a |d tau-dot / d s-ddot|) / (share x rate limit), stay within 1
 * and one of them comes within 2 % of it.
 */
class RetimedPathServiceTest
{
    private static final double[][] AFTER_READY = {
        {0.5, -0.3, 0.3, -2.0, 0.3, 1.9, 0.5},
        {1.0, 0.0, 0.0, -1.5, 0.0, 1.5, 1.0},
        {0.6, 0.3, -0.4, -1.2, -0.4, 1.2, 0.3},
        {0.0, -0.2, 0.0, -1.8, 0.0, 1.6, 0.0},
    };
    private static final int SETTLE_STEPS = 300;
    private static final double PERIOD_S = ServiceRig.PERIOD_NS * 1e-9;

    @TempDir
    Path directory;

    @Test
    void theRetimedPandaPathIsTrackedWithoutSlowingDownOrClippingAndReachesTheServicesLimits() throws Exception
    {
        final JointTrajectory trajectory = retime();
        final double durationS = trajectory.durationS();
        final double peak = peakServiceRatio(trajectory);
        final List<TelemetryRecorder.Sample> samples;
        final ControlLoop loop;
        try (ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings()))
        {
            loop = rig.service.loop();
            final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, ServiceRig.armConfig());
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.trackInLockstep(arm, adapter, ControllerKind.COMPUTED_TORQUE, trajectory, SETTLE_STEPS,
                SETTLE_STEPS + (long)Math.ceil(durationS / PERIOD_S) + 200);
            samples = List.copyOf(rig.telemetry.samples);
        }
        assertEquals(1, loop.cycle().completedTrajectories(), "trajectory completed");
        long trackingTicks = 0;
        long scaledAtStart = -1;
        long scaledAtEnd = -1;
        long clipsAtStart = -1;
        long clipsAtEnd = -1;
        double slowest = 1.0;
        double worstError = 0.0;
        double worstRate = 0.0;
        long firstClip = -1;
        long clipFlags = 0;
        TelemetrySample previous = null;
        for (final TelemetryRecorder.Sample sample : samples)
        {
            final TelemetrySample v = sample.values();
            if (sample.state() == ControllerState.TRACKING)
            {
                if (scaledAtStart < 0)
                {
                    scaledAtStart = v.timeScaledTickCount();
                    clipsAtStart = v.torqueClipCount() + v.torqueRateClipCount();
                }
                trackingTicks++;
                scaledAtEnd = v.timeScaledTickCount();
                clipsAtEnd = v.torqueClipCount() + v.torqueRateClipCount();
                slowest = Math.min(slowest, v.referenceClockRate());
                if (v.limiterFlags() != 0L && firstClip < 0)
                {
                    firstClip = trackingTicks;
                    clipFlags = v.limiterFlags();
                }
                for (int j = 0; j < v.tauCommand().length; j++)
                {
                    worstError = Math.max(worstError, Math.abs(v.trackingError()[j]));
                    worstRate = Math.max(worstRate, Math.abs(v.tauCommand()[j] - previous.tauCommand()[j]) / PERIOD_S
                        / ServiceRig.PANDA.limits(j).effortRateMax());
                }
            }
            previous = v;
        }
        System.out.printf(Locale.ROOT, "retimed Panda path on the lockstep service: T = %.4f s, %d waypoints, %d ticks tracking, "
            + "%d time-scaled, lowest s' %.6f, clips %d, largest tracking error %.2e rad, largest commanded |dtau/dt| %.3f of "
            + "the limit; along the service's reference the largest time-scaling ratio %.4f; first clip at tracking tick %d "
            + "(flags %x)%n", durationS, trajectory.waypointCount(), trackingTicks, scaledAtEnd - scaledAtStart, slowest,
            clipsAtEnd - clipsAtStart, worstError, worstRate, peak, firstClip, clipFlags);
        assertEquals(0L, scaledAtEnd - scaledAtStart, "ticks the service slowed the reference clock");
        assertEquals(1.0, slowest, "the reference clock rate");
        assertEquals(0L, clipsAtEnd - clipsAtStart, "limiter clips while tracking");
        assertEquals(-1L, firstClip, "the tracking tick of the first clip");
        assertTrue(Math.abs(trackingTicks - durationS / PERIOD_S) <= 2.0, trackingTicks + " ticks for " + durationS + " s");
        assertTrue(peak <= 1.0 && peak >= 0.98, "largest ratio to the service's time-scaling bounds " + peak);
    }

    /** Runs {@code nectl optimize --retime} on the path from the ready pose and reads the CSV it wrote. */
    private JointTrajectory retime() throws Exception
    {
        final StringBuilder text = new StringBuilder("t,q1,q2,q3,q4,q5,q6,q7\n0");
        for (final double q : ServiceRig.READY)
        {
            text.append(',').append(q);
        }
        text.append('\n');
        for (int k = 0; k < AFTER_READY.length; k++)
        {
            text.append(k + 1);
            for (final double q : AFTER_READY[k])
            {
                text.append(',').append(q);
            }
            text.append('\n');
        }
        final Path path = Files.writeString(directory.resolve("path.csv"), text.toString());
        final Path csv = directory.resolve("fast.csv");
        final int status = new CommandLine(new NectlCommand()).execute("optimize", "--model", "../config/robots/panda.yaml",
            "--retime", path.toString(), "--torque-rate-limits", "--for-service", "-o", csv.toString());
        assertEquals(0, status, "nectl optimize --retime");
        return TrajectoryCsv.read(csv);
    }

    /**
     * The largest of the two ratios the time scaling bounds (class comment), at every tick along the
     * reference the service's own sampler makes of the waypoints.
     */
    private static double peakServiceRatio(final JointTrajectory trajectory)
    {
        final RobotModel model = ServiceRig.PANDA;
        final int dof = model.dof();
        final double[] times = new double[trajectory.waypointCount()];
        final double[][] positions = new double[times.length][dof];
        for (int p = 0; p < times.length; p++)
        {
            times[p] = Math.round(trajectory.timeS(p) * 1e9) * 1e-9;
            for (int j = 0; j < dof; j++)
            {
                positions[p][j] = trajectory.q(p, j);
            }
        }
        final TrajectorySampler sampler = new TrajectorySampler(model, new JointWaypoints(times, positions));
        final ReferenceTimeScaling.Settings scaling = ReferenceTimeScaling.Settings.defaults();
        final TorqueDerivative recursion = new TorqueDerivative(CompiledModel.of(model));
        final double[] q = new double[dof];
        final double[] qd = new double[dof];
        final double[] qdd = new double[dof];
        final double[] qddd = new double[dof];
        final double[] snap = new double[dof];
        final double[] tau = new double[dof];
        final double[] tauRate = new double[dof];
        final double[] shiftedTau = new double[dof];
        final double[] shiftedRate = new double[dof];
        double peak = 0.0;
        for (long tick = 0; tick * PERIOD_S <= times[times.length - 1]; tick++)
        {
            final double t = tick * PERIOD_S;
            sampler.sample(t, q, qd, qdd, qddd, snap);
            recursion.compute(q, qd, qdd, qddd, tau, tauRate);
            for (int j = 0; j < dof; j++)
            {
                qddd[j] += 3.0 * qdd[j];
                qdd[j] += qd[j];
            }
            recursion.compute(q, qd, qdd, qddd, shiftedTau, shiftedRate);
            for (int j = 0; j < dof; j++)
            {
                final double a = scaling.accelerationMax();
                final double share = scaling.limitShare();
                final double effort = (Math.abs(tau[j]) + a * Math.abs(shiftedTau[j] - tau[j])) / (share * model.limits(j).effortMax());
                final double rate = (Math.abs(tauRate[j]) + a * Math.abs(shiftedRate[j] - tauRate[j]))
                    / (share * model.limits(j).effortRateMax());
                peak = Math.max(peak, Math.max(effort, rate));
            }
        }
        return peak;
    }
}
