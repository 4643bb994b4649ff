package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.core.dynamics.BaseFramePoses;
import org.nectl.core.dynamics.AppliedLoads;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.identification.ExcitationTrajectory;
import org.nectl.core.identification.Payloads;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;
import org.nectl.core.model.Transforms;
import org.nectl.core.runtime.CollisionSettings;
import org.nectl.core.runtime.ControllerMode;
import org.nectl.core.runtime.CycleSettings;
import org.nectl.core.runtime.Faults;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmAdapter;
import org.nectl.hw.SimulatedArmConfig;
import org.nectl.hw.SimulationMode;
import org.nectl.hw.mujoco.MujocoPlant;
import org.nectl.hw.mujoco.MujocoScene;
import org.nectl.service.cli.NectlCommand;
import org.nectl.service.planner.DemoTrajectory;
import org.nectl.service.planner.JointTrajectory;
import org.nectl.transport.sbe.ControllerEventKind;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.ControllerState;

/**
 * The momentum observer and the collision reflexes of the running service against MuJoCo, an
 * engine independent of nectl's dynamics, with contacts: lockstep over the real hardware link
 * (Aeron, SBE) with the simulated Panda on the MuJoCo plant, judged from the telemetry, the
 * controller events and what MuJoCo reports (contacts, first substep in contact, peak normal force).
 */
class MujocoContactServiceTest
{
    private static final Path PANDA_FILE = Path.of("../config/robots/panda.yaml");
    private static final double PERIOD_S = ServiceRig.PERIOD_NS * 1e-9;
    private static final int DOF = 7;
    /**
     * Per joint, N m: the Panda's description has no friction, so free motion leaves only the
     * integration error in tau_ext (below 1e-4 N m on MuJoCo); a sixth of the thresholds used on
     * nectl's plant (CollisionServiceTest) for a contact detected within 5 ms.
     */
    private static final double[] THRESHOLD = {1, 1, 1, 1, 0.5, 0.5, 0.5};
    /** Substeps of MuJoCo's RK4 per period (SimulatedArmConfig's default). */
    private static final int SUBSTEPS = 4;
    /** Flange point in link7's frame, m (MuJoCo fuses the fixed flange into link7). */
    private static final double[] FLANGE_IN_LINK7 = {0.0, 0.0, 0.107};
    private static final long DETECTION_BOUND_NS = 5_000_000L;
    /** The obstacle run: offsets of the move's end from the ready pose, rad, and its duration. */
    private static final double[] TARGET_OFFSET = {0.4, -0.3, 0.4, -0.3, 0.4, -0.3, 0.4};
    private static final double MOVE_S = 2.0;
    private static final int SETTLE_STEPS = 200;
    private static final int AFTER_CONTACT_STEPS = 1_000;
    private static final double OBSTACLE_RADIUS_M = 0.05;
    private static final double FLANGE_SPHERE_RADIUS_M = 0.04;
    /** Fraction of the path at which the flange's origin would be at the obstacle's centre. */
    private static final double OBSTACLE_AT = 0.6;
    /** The payload's excitation: period, s, and amplitude, rad. */
    private static final double EXCITATION_S = 5.0;
    private static final double EXCITATION_RAD = 0.3;
    /** Periods a trajectory may take, slowed down by the loop's time scaling, before the test gives up. */
    private static final long MAX_TRAJECTORY_STEPS = 12_000;

    @TempDir
    Path scratch;

    @BeforeAll
    static void mujoco()
    {
        MujocoRequired.check();
    }

    @Test
    void tenDemoTrajectoriesWithoutContactRaiseNoDetectionOnMujoco()
    {
        final double[] startQ = DemoTrajectory.startPose(ServiceRig.PANDA);
        final int moves = 10;
        final double durationS = 1.5;
        final double[] largest = new double[DOF];
        try (MujocoPlant plant = MujocoPlant.open(PANDA_FILE, ServiceRig.PANDA, MujocoScene.EMPTY);
            ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings().withCollision(collision(CollisionSettings.Reaction.STOP))))
        {
            final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, armConfig(startQ), plant);
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.stepTo(0, arm, adapter);
            assertTrue(rig.planner.enable(ControllerKind.COMPUTED_TORQUE).accepted(), "enable acknowledged");
            rig.awaitApplied(1);
            long step = 200;
            rig.stepTo(step, arm, adapter);
            final SplittableRandom rnd = new SplittableRandom(22);
            final StringBuilder amplitudes = new StringBuilder();
            for (int move = 0; move < moves; move++)
            {
                final double amplitude = rnd.nextDouble(0.05, 0.15);
                amplitudes.append(String.format(Locale.ROOT, " %.3f", amplitude));
                assertTrue(rig.planner.sendTrajectory(DemoTrajectory.move(ServiceRig.PANDA, startQ, amplitude, durationS)).accepted(),
                    "move " + move + " acknowledged");
                rig.awaitApplied(2 + move);
                step = stepUntilCompleted(rig, arm, adapter, step, move + 1);
            }
            for (final TelemetryRecorder.Sample sample : rig.telemetry.samples)
            {
                for (int j = 0; j < DOF; j++)
                {
                    largest[j] = Math.max(largest[j], Math.abs(sample.values().externalTorque()[j]));
                }
            }
            final StringBuilder report = new StringBuilder(String.format(Locale.ROOT,
                "MuJoCo plant, %d demo trajectories of %.1f s (amplitudes%s rad): largest |tau_ext| per joint, N m (threshold):",
                moves, durationS, amplitudes));
            for (int j = 0; j < DOF; j++)
            {
                report.append(String.format(Locale.ROOT, " %.2e (%.1f)", largest[j], THRESHOLD[j]));
            }
            System.out.println(report);
            assertEquals(moves, rig.service.loop().completedTrajectories(), Faults.describe(rig.service.loop().faults()));
            assertEquals(0, rig.telemetry.collisions.size(), report.toString());
            assertEquals(0, rig.service.loop().faults(), Faults.describe(rig.service.loop().faults()));
            for (int j = 0; j < DOF; j++)
            {
                assertTrue(largest[j] < 0.1 * THRESHOLD[j], report.toString());
            }
        }
    }

    @Test
    void aWrenchAppliedByMujocoIsEstimatedAsTheJointTorquesOfTheWrenchWithTheObserversTimeConstant() throws IOException
    {
        final int start = 300;
        final double[] forceN = {30.0, -20.0, 34.0};
        final Path sceneFile = scratch.resolve("wrench.yaml");
        Files.writeString(sceneFile, String.format(Locale.ROOT, """
            wrench:
              link: link7
              point: [%s, %s, %s]
              force: [%s, %s, %s]
              torque: [0, 0, 0]
              start: %s
              duration: 100
              ramp: 0
            """, FLANGE_IN_LINK7[0], FLANGE_IN_LINK7[1], FLANGE_IN_LINK7[2], forceN[0], forceN[1], forceN[2], start * PERIOD_S),
            StandardCharsets.UTF_8);
        try (MujocoPlant plant = MujocoPlant.open(PANDA_FILE, ServiceRig.PANDA, MujocoScene.load(sceneFile));
            ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings()))
        {
            final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, armConfig(ServiceRig.READY), plant);
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.stepTo(0, arm, adapter);
            assertTrue(rig.planner.enable(ControllerKind.COMPUTED_TORQUE).accepted(), "enable acknowledged");
            rig.awaitApplied(1);
            rig.stepTo(start + 400, arm, adapter);
            final List<TelemetryRecorder.Sample> samples = rig.telemetry.samples;
            final double before = largestAbs(samples.get(start).values().externalTorque());
            final TelemetryRecorder.Sample settled = samples.get(start + 400);
            final double[] expected = jointTorquesOfAWorldForceOnTheFlange(settled.values().q(), forceN);
            final int joint = largest(expected);
            final double scale = Math.abs(expected[joint]);
            double worst = 0.0;
            for (int j = 0; j < DOF; j++)
            {
                worst = Math.max(worst, Math.abs(settled.values().externalTorque()[j] - expected[j]) / scale);
            }
            int reached = start;
            while (samples.get(reached).values().externalTorque()[joint] / expected[joint] < 1.0 - Math.exp(-1.0))
            {
                reached++;
            }
            final double timeConstantS = (reached - start) * PERIOD_S;
            System.out.printf(Locale.ROOT, "MuJoCo plant, held Panda, %.1f N on the flange (scene wrench): |tau_ext| before %.1e N m;"
                + " after 0.4 s off J^T F by %.2e of its largest entry (%.2f N m, joint %d); 63 %% reached after %.1f ms"
                + " (1/K_O = %.1f ms)%n", Math.sqrt(forceN[0] * forceN[0] + forceN[1] * forceN[1] + forceN[2] * forceN[2]), before,
                worst, scale, joint + 1, timeConstantS * 1e3, 1e3 / CollisionSettings.DEFAULT_GAIN);
            assertTrue(before < 0.01, "estimate before the wrench " + before + " N m");
            assertTrue(worst <= 0.02, "estimate off J^T F by " + worst + " of its largest entry");
            assertEquals(1.0 / CollisionSettings.DEFAULT_GAIN, timeConstantS, 2.5e-3, "time constant");
            assertEquals(ControllerMode.ENABLED, rig.service.loop().mode());
        }
    }

    @Test
    void anObstacleInThePathIsDetectedWithinFiveMillisecondsOfMujocosFirstContactAndEachReactionCompletes() throws IOException
    {
        final Path sceneFile = obstacleScene();
        final ContactRun free = contactRun(sceneFile, null);
        final ContactRun stop = contactRun(sceneFile, CollisionSettings.Reaction.STOP);
        final ContactRun hold = contactRun(sceneFile, CollisionSettings.Reaction.HOLD);
        final ContactRun retract = contactRun(sceneFile, CollisionSettings.Reaction.RETRACT);
        System.out.printf(Locale.ROOT, "MuJoCo plant, sphere in the flange's path: first contact at %.2f ms;"
            + " peak contact force without detection %.0f N (at the end: %d contacts, %.0f N)%n",
            free.contactNs * 1e-6, free.peakForceN, free.contactsAtEnd, free.forceAtEndN);
        for (final ContactRun run : List.of(stop, hold, retract))
        {
            System.out.printf(Locale.ROOT, "  %s: COLLISION %.2f ms after the first contact (joint %d, tau_ext %.2f N m; %d events),"
                + " peak contact force %.0f N, at the end %d contacts, %.1f N, mode %s, largest |qd| %.1e rad/s%n",
                run.reaction, (run.collision.timestampNs() - run.contactNs) * 1e-6, run.collision.joint() + 1,
                run.collision.externalTorque(), run.events, run.peakForceN, run.contactsAtEnd, run.forceAtEndN, run.mode, run.speedAtEnd);
        }
        assertTrue(free.contactNs > 0 && free.collision == null, "contact without detection when nothing is monitored");
        for (final ContactRun run : List.of(stop, hold, retract))
        {
            assertEquals(free.contactNs, run.contactNs, "same first contact: the observer changes nothing before it");
            final long delayNs = run.collision.timestampNs() - run.contactNs;
            assertTrue(delayNs >= 0 && delayNs <= DETECTION_BOUND_NS, run.reaction + " detected " + delayNs + " ns after the contact");
            assertEquals(ControllerState.TRACKING, run.collision.state());
            assertTrue(run.peakForceN < free.peakForceN, run.reaction + " peak " + run.peakForceN + " N, without " + free.peakForceN);
        }
        assertEquals(ControllerMode.FAULT, stop.mode, "category 1 stop completed: FAULT, drives off");
        assertEquals(Faults.COLLISION, stop.faults);
        for (final ContactRun run : List.of(hold, retract))
        {
            assertEquals(ControllerMode.HOLD, run.mode, run.reaction + " completed: holding");
            assertEquals(0, run.faults, Faults.describe(run.faults));
            assertTrue(run.speedAtEnd < 1e-3, run.reaction + " at rest: " + run.speedAtEnd + " rad/s");
        }
        assertTrue(retract.forceAtEndN < hold.forceAtEndN, "retract leaves less force on the obstacle than hold: "
            + retract.forceAtEndN + " N, " + hold.forceAtEndN + " N");
    }

    @Test
    void aPayloadOnTheFlangeInMujocoIsIdentifiedByNectlIdentifyPayloadAndSettingItCutsTheTrackingError() throws IOException
    {
        final double massKg = 1.5;
        final double[] comM = {0.05, 0.0, 0.0};
        final Path sceneFile = scratch.resolve("payload.yaml");
        Files.writeString(sceneFile, String.format(Locale.ROOT, "payload: {link: flange, mass: %s, com: [%s, %s, %s]}%n", massKg,
            comM[0], comM[1], comM[2]), StandardCharsets.UTF_8);
        final ExcitationTrajectory excitation = new ExcitationTrajectory(ServiceRig.READY, EXCITATION_S, EXCITATION_RAD, 1);
        final Path recording = scratch.resolve("excitation.csv");
        final double before = excitationTrackingRms(sceneFile, ServiceRig.PANDA, excitation, recording);
        final String report = identifyPayload(recording);
        final double mass = Double.parseDouble(field(report, "mass (\\S+) kg"));
        final double[] centre = new double[3];
        final String[] parts = field(report, "centre of mass \\[([^]]+)\\]").split(",");
        double centreError = 0.0;
        for (int i = 0; i < 3; i++)
        {
            centre[i] = Double.parseDouble(parts[i].trim());
            centreError += (centre[i] - comM[i]) * (centre[i] - comM[i]);
        }
        centreError = Math.sqrt(centreError);
        final int flange = ServiceRig.PANDA.bodyIndex("flange");
        final RobotModel identified = Payloads.withPayload(ServiceRig.PANDA, flange, InertialParameters.ofCentreOfMass(mass, centre,
            new double[] {1e-3, 0, 0, 0, 1e-3, 0, 0, 0, 1e-3}));
        final double after = excitationTrackingRms(sceneFile, identified, excitation, scratch.resolve("after.csv"));
        System.out.printf(Locale.ROOT, "MuJoCo plant, %.1f kg at %.0f cm on the flange, %.0f s excitation of +-%.1f rad:"
            + " nectl identify payload --recording: %.4f kg (%.2f %% off), centre of mass [%.5f, %.5f, %.5f] m (%.2f mm off);"
            + " tracking RMS over the joints %.3e rad without the payload in the model, %.3e rad with the identified one%n%s",
            massKg, comM[0] * 100, EXCITATION_S, EXCITATION_RAD, mass, 100 * (mass - massKg) / massKg, centre[0], centre[1], centre[2],
            centreError * 1e3, before, after, report);
        assertEquals(massKg, mass, 0.03 * massKg, report);
        assertTrue(centreError <= 0.005, "centre of mass off by " + centreError + " m\n" + report);
        assertTrue(after < 0.5 * before, "tracking RMS " + before + " -> " + after + " rad");
    }

    /**
     * Tracks the excitation on MuJoCo's Panda with the scene's payload, the service running with the
     * controller model given, and writes the telemetry as the columns of nectl monitor --csv that
     * nectl identify payload reads.
     *
     * @return the RMS tracking error over the joints, rad.
     */
    private static double excitationTrackingRms(final Path sceneFile, final RobotModel controllerModel,
        final ExcitationTrajectory excitation, final Path csv) throws IOException
    {
        final double[][] rows = excitation.waypoints(0.02);
        final double[] times = new double[rows.length];
        final double[][] q = new double[rows.length][];
        for (int p = 0; p < rows.length; p++)
        {
            times[p] = rows[p][0];
            q[p] = Arrays.copyOfRange(rows[p], 1, 1 + DOF);
        }
        final ServiceSettings defaults = ServiceSettings.defaults(controllerModel, ServiceRig.PERIOD_NS,
            new InetSocketAddress("127.0.0.1", 0));
        final ServiceSettings rigDefaults = ServiceRig.heldLockstepSettings();
        final ServiceSettings settings = new ServiceSettings(controllerModel, rigDefaults.cycle(), LoopMode.LOCKSTEP,
            defaults.loopThread(), defaults.aeron(), defaults.link(), defaults.planner(), rigDefaults.telemetry(), defaults.law(),
            defaults.safety()).withLockstepLiveness(rigDefaults.lockstepLivenessNs());
        try (MujocoPlant plant = MujocoPlant.open(PANDA_FILE, ServiceRig.PANDA, MujocoScene.load(sceneFile));
            ServiceRig rig = new ServiceRig(settings))
        {
            final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, armConfig(ServiceRig.READY), plant);
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.trackInLockstep(arm, adapter, ControllerKind.COMPUTED_TORQUE, JointTrajectory.fromPositions(times, q), SETTLE_STEPS,
                SETTLE_STEPS + Math.round(times[times.length - 1] / PERIOD_S));
            stepUntilCompleted(rig, arm, adapter, arm.stepCount(), 1);
            final ControlLoop loop = rig.service.loop();
            assertEquals(1, loop.cycle().completedTrajectories(), "excitation completed");
            assertEquals(0, loop.faults(), () -> Faults.describe(loop.faults()));
            final StringBuilder text = new StringBuilder("timestampNs,tickCount,state");
            for (final String column : List.of("q", "qd", "tauCommand"))
            {
                for (int j = 1; j <= DOF; j++)
                {
                    text.append(',').append(column).append(j);
                }
            }
            text.append('\n');
            for (final TelemetryRecorder.Sample sample : rig.telemetry.samples)
            {
                text.append(sample.timestampNs()).append(',').append(sample.tickCount()).append(',').append(sample.state().name());
                for (final double[] values : List.of(sample.values().q(), sample.qd(), sample.tauCommand()))
                {
                    for (final double value : values)
                    {
                        text.append(',').append(value);
                    }
                }
                text.append('\n');
            }
            Files.writeString(csv, text.toString(), StandardCharsets.UTF_8);
            double sum = 0.0;
            for (int j = 0; j < DOF; j++)
            {
                sum += loop.cycle().trackingRms(j) * loop.cycle().trackingRms(j);
            }
            return Math.sqrt(sum / DOF);
        }
    }

    /**
     * Steps on in lockstep until the loop has completed {@code count} trajectories (a trajectory
     * that would exceed the torque limits is slowed down by the loop's time scaling), then 50 more.
     *
     * @return the step reached.
     */
    private static long stepUntilCompleted(final ServiceRig rig, final SimulatedArm arm, final SimulatedArmAdapter adapter,
        final long from, final long count)
    {
        long step = from;
        while (rig.service.loop().completedTrajectories() < count)
        {
            assertTrue(step - from < MAX_TRAJECTORY_STEPS, "trajectory " + count + " not completed after " + MAX_TRAJECTORY_STEPS
                + " periods: " + Faults.describe(rig.service.loop().faults()));
            step += 50;
            rig.stepTo(step, arm, adapter);
        }
        step += 50;
        rig.stepTo(step, arm, adapter);
        return step;
    }

    /** Runs {@code nectl identify payload --recording} on the flange. @return what it printed. */
    private static String identifyPayload(final Path recording)
    {
        final PrintStream original = System.out;
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        final int status;
        try (PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8))
        {
            System.setOut(capture);
            status = NectlCommand.newCommandLine().execute("identify", "payload", "--model", PANDA_FILE.toString(), "--link", "flange",
                "--recording", recording.toString());
        }
        finally
        {
            System.setOut(original);
        }
        final String out = captured.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, out);
        return out;
    }

    private static String field(final String text, final String regex)
    {
        final Matcher matcher = Pattern.compile(regex).matcher(text);
        assertTrue(matcher.find(), "no '" + regex + "' in:\n" + text);
        return matcher.group(1);
    }

    /** What one run into the obstacle gave. */
    private record ContactRun(CollisionSettings.Reaction reaction, long contactNs, TelemetryRecorder.Collision collision, int events,
        double peakForceN, int contactsAtEnd, double forceAtEndN, ControllerMode mode, int faults, double speedAtEnd)
    {
    }

    /**
     * A sphere centred where the flange's origin passes {@value #OBSTACLE_AT} of the way through the
     * move, a collision sphere on the flange; their surfaces meet earlier on the path.
     */
    private Path obstacleScene() throws IOException
    {
        // Every joint follows the same blend between the two poses: the path is this straight line in joint space.
        final double[] q = ServiceRig.READY.clone();
        for (int j = 0; j < DOF; j++)
        {
            q[j] += OBSTACLE_AT * TARGET_OFFSET[j];
        }
        final double[] centre = flangePosition(q);
        final Path file = scratch.resolve("obstacle.yaml");
        Files.writeString(file, String.format(Locale.ROOT, """
            obstacles:
              - {shape: sphere, radius: %s, position: [%.6f, %.6f, %.6f]}
            arm:
              - {link: flange, shape: sphere, radius: %s}
            """, OBSTACLE_RADIUS_M, centre[0], centre[1], centre[2], FLANGE_SPHERE_RADIUS_M), StandardCharsets.UTF_8);
        return file;
    }

    private static JointTrajectory obstacleMove()
    {
        final double[] to = ServiceRig.READY.clone();
        for (int j = 0; j < DOF; j++)
        {
            to[j] += TARGET_OFFSET[j];
        }
        return JointTrajectory.fromPositions(new double[] {0.0, MOVE_S}, new double[][] {ServiceRig.READY.clone(), to});
    }

    /**
     * Tracks the move into the obstacle one period at a time, watching MuJoCo's contacts.
     *
     * @param reaction the configured reaction, or null for the observer without thresholds.
     */
    private static ContactRun contactRun(final Path sceneFile, final CollisionSettings.Reaction reaction)
    {
        final ServiceSettings settings = reaction == null ? ServiceRig.heldLockstepSettings()
            : ServiceRig.heldLockstepSettings().withCollision(collision(reaction));
        try (MujocoPlant plant = MujocoPlant.open(PANDA_FILE, ServiceRig.PANDA, MujocoScene.load(sceneFile));
            ServiceRig rig = new ServiceRig(settings))
        {
            final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, armConfig(ServiceRig.READY), plant);
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.stepTo(0, arm, adapter);
            assertTrue(rig.planner.enable(ControllerKind.COMPUTED_TORQUE).accepted(), "enable acknowledged");
            rig.awaitApplied(1);
            rig.stepTo(SETTLE_STEPS, arm, adapter);
            assertTrue(rig.planner.sendTrajectory(obstacleMove()).accepted(), "move acknowledged");
            rig.awaitApplied(2);
            long contactNs = -1;
            double peakForceN = 0.0;
            long step = SETTLE_STEPS;
            final long lastStep = SETTLE_STEPS + Math.round(MOVE_S / PERIOD_S);
            long end = lastStep;
            while (step < end)
            {
                step++;
                rig.stepTo(step, arm, adapter);
                peakForceN = Math.max(peakForceN, plant.peakContactForceN());
                if (contactNs < 0 && plant.firstContactSubstep() >= 0)
                {
                    // The period (step - 1, step] ms; its substep s spans [s, s + 1] quarters of it.
                    contactNs = (step - 1) * ServiceRig.PERIOD_NS + plant.firstContactSubstep() * ServiceRig.PERIOD_NS / SUBSTEPS;
                    end = Math.min(lastStep, step + AFTER_CONTACT_STEPS);
                }
            }
            assertTrue(contactNs > 0, "the flange never touched the obstacle");
            double speed = 0.0;
            for (final double v : rig.telemetry.last().qd())
            {
                speed = Math.max(speed, Math.abs(v));
            }
            final TelemetryRecorder.Collision collision = rig.telemetry.collisions.isEmpty() ? null : rig.telemetry.collisions.get(0);
            if (reaction != null)
            {
                assertNotNull(collision, reaction + ": a COLLISION event");
            }
            else
            {
                assertNull(collision, "nothing monitored, nothing detected");
            }
            return new ContactRun(reaction, contactNs, collision, rig.telemetry.collisions.size(), peakForceN, plant.contactCount(), plant.peakContactForceN(),
                rig.service.loop().mode(), rig.service.loop().faults(), speed);
        }
    }

    private static SimulatedArmConfig armConfig(final double[] initialQ)
    {
        return new SimulatedArmConfig(ServiceRig.PANDA).periodNs(ServiceRig.PERIOD_NS).initialQ(initialQ);
    }

    private static CollisionSettings collision(final CollisionSettings.Reaction reaction)
    {
        return new CollisionSettings(CycleSettings.filled(DOF, CollisionSettings.DEFAULT_GAIN), true, THRESHOLD, reaction,
            reaction == CollisionSettings.Reaction.RETRACT ? 0.01 : 0.0);
    }

    /**
     * J^T F of a base-frame force on the flange at rest: inverse dynamics without it minus with it,
     * the force expressed in link7's frame at the flange point (moment p x f about link7's origin).
     */
    private static double[] jointTorquesOfAWorldForceOnTheFlange(final double[] q, final double[] forceN)
    {
        final RobotModel model = ServiceRig.PANDA;
        final int link7 = model.bodyIndex("link7");
        final CompiledModel compiled = CompiledModel.of(model);
        final BaseFramePoses poses = new BaseFramePoses(compiled);
        poses.compute(q);
        final double[] f = new double[3];
        poses.toBody(link7, forceN, f);
        final double[] p = FLANGE_IN_LINK7;
        final InverseDynamics rnea = new InverseDynamics(compiled);
        final AppliedLoads loads = new AppliedLoads(compiled);
        final double[] zero = new double[DOF];
        final double[] without = new double[DOF];
        final double[] with = new double[DOF];
        rnea.compute(q, zero, zero, loads, without);
        loads.bodyWrench(link7, f[0], f[1], f[2], p[1] * f[2] - p[2] * f[1], p[2] * f[0] - p[0] * f[2], p[0] * f[1] - p[1] * f[0]);
        rnea.compute(q, zero, zero, loads, with);
        for (int j = 0; j < DOF; j++)
        {
            without[j] -= with[j];
        }
        return without;
    }

    /**
     * The flange's origin in the base frame: the placements and joint rotations about z composed
     * down the tree; its rotation checked against {@link BaseFramePoses}.
     */
    private static double[] flangePosition(final double[] q)
    {
        final RobotModel model = ServiceRig.PANDA;
        final int bodies = model.bodyCount();
        final double[][] rotation = new double[bodies][];
        final double[][] origin = new double[bodies][];
        for (int b = 0; b < bodies; b++)
        {
            final int parent = model.parent(b);
            final double[] parentRotation = parent < 0 ? Transforms.identity() : rotation[parent];
            final double[] parentOrigin = parent < 0 ? new double[3] : origin[parent];
            final double[] offset = Transforms.apply(parentRotation, model.placementTranslation(b));
            origin[b] = new double[] {parentOrigin[0] + offset[0], parentOrigin[1] + offset[1], parentOrigin[2] + offset[2]};
            final double angle = model.jointType(b) == JointType.REVOLUTE ? q[model.coordinateOfBody(b)] : 0.0;
            rotation[b] = Transforms.multiply(Transforms.multiply(parentRotation, model.placementRotation(b)), Transforms.rotZ(angle));
        }
        final int flange = model.bodyIndex("flange");
        final BaseFramePoses poses = new BaseFramePoses(CompiledModel.of(model));
        poses.compute(q);
        final double[] x = {1.0, 0.0, 0.0};
        final double[] inFlange = new double[3];
        poses.toBody(flange, x, inFlange);
        final double[] mine = Transforms.apply(Transforms.transpose(rotation[flange]), x);
        for (int i = 0; i < 3; i++)
        {
            assertEquals(inFlange[i], mine[i], 1e-9, "flange rotation as BaseFramePoses has it");
        }
        return origin[flange];
    }

    private static double largestAbs(final double[] values)
    {
        return Math.abs(values[largest(values)]);
    }

    private static int largest(final double[] values)
    {
        int best = 0;
        for (int j = 1; j < values.length; j++)
        {
            best = Math.abs(values[j]) > Math.abs(values[best]) ? j : best;
        }
        return best;
    }
}
