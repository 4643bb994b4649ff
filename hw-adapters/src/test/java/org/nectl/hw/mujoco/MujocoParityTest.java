package org.nectl.hw.mujoco;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.config.ElasticDescriptions;
import org.nectl.config.RobotDescriptions;
import org.nectl.config.urdf.RandomUrdf;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.model.RobotModel;

/**
 * nectl's inverse dynamics, mass matrix and forward dynamics equal MuJoCo's (mj_inverse, mj_fullM,
 * mj_forward's qacc) on every shipped rigid robot description and on seeded random URDFs (branched
 * trees, revolute, continuous, prismatic and fixed joints, arbitrary axes, inertials with their own
 * rotation, joint damping and friction), each model loaded by MuJoCo's own URDF importer.
 *
 * <p>Same gravity; MuJoCo's constraints off (its Coulomb friction is a constraint, not a force law;
 * contacts and limits are constraints too) and, for the rigid-body identities, its passive forces
 * off with nectl's joint friction off; rotor inertia as armature in both. Then joint damping on
 * both sides: MuJoCo's damping force equals nectl's viscous friction, nectl's Coulomb term
 * Fs sign(qd) taken out.
 *
 * <p>Tolerances: MuJoCo stores each body's inertia in its principal axes (a diagonal and a
 * quaternion from an iterative eigen-decomposition of the URDF's full tensor, done in the model
 * compiler), and its own quaternion-based kinematics; both round differently from nectl's rotation
 * matrices. Torques and the mass matrix agree to {@value #TOLERANCE} relative to their size; the
 * accelerations, which solve with M, to {@value #TOLERANCE} times the condition number estimate
 * (the largest over the smallest diagonal element of M).
 */
class MujocoParityTest
{
    private static final double TOLERANCE = 1e-7;
    private static final int STATES = 10;
    private static final int RANDOM_ROBOTS = 40;

    /** Largest relative difference seen per quantity, printed after the tests (target/surefire-reports). */
    private static final Map<String, Double> LARGEST_RELATIVE_ERROR = new ConcurrentSkipListMap<>();

    @TempDir
    Path scratch;

    @AfterAll
    static void report()
    {
        LARGEST_RELATIVE_ERROR.forEach((what, error) -> System.out.printf(Locale.ROOT, "parity with MuJoCo: %s: largest relative "
            + "difference %.2e%n", what, error));
    }

    @BeforeAll
    static void mujoco()
    {
        MujocoRequired.check();
    }

    @Test
    void everyShippedRigidDescriptionHasMujocosTorquesMassMatrixAndAccelerations() throws IOException
    {
        final Path robots = Path.of(System.getProperty("nectl.robots.dir", "../config/robots"));
        final List<String> checked = new ArrayList<>();
        try (Stream<Path> files = Files.list(robots))
        {
            for (final Path file : files.sorted().toList())
            {
                final String name = file.getFileName().toString();
                if (!name.endsWith(".urdf") && !name.endsWith(".yaml"))
                {
                    continue;
                }
                final ElasticRobotModel robot = ElasticDescriptions.load(file);
                // MuJoCo reads a floating base as a free joint (six more coordinates); this parity is fixed-base.
                if (robot.elasticCount() > 0 || robot.links().floatingBase())
                {
                    continue;
                }
                compare(name, file, robot.links(), name.hashCode());
                checked.add(name);
            }
        }
        assertTrue(checked.contains("panda.urdf") && checked.contains("torso-two-arms.urdf") && checked.size() >= 8,
            "shipped descriptions compared: " + checked);
    }

    @Test
    void randomUrdfRobotsHaveMujocosTorquesMassMatrixAndAccelerations() throws IOException
    {
        for (long seed = 1; seed <= RANDOM_ROBOTS; seed++)
        {
            final Path file = scratch.resolve("random" + seed + ".urdf");
            Files.writeString(file, RandomUrdf.generate(seed), StandardCharsets.UTF_8);
            final RobotModel model = RobotDescriptions.load(file);
            if (model.dof() > 0)
            {
                compare("random URDF seed " + seed, file, model, seed);
            }
        }
    }

    private static void compare(final String what, final Path file, final RobotModel model, final long seed)
    {
        final int n = model.dof();
        final SplittableRandom rnd = new SplittableRandom(seed);
        final NectlDynamics rigid = new NectlDynamics(model, false);
        final NectlDynamics damped = new NectlDynamics(model, true);
        final double[] gravity = {0.0, 0.0, -9.81};
        try (MujocoPlant plant = MujocoPlant.open(file, model, MujocoScene.EMPTY))
        {
            final double[] q = new double[n];
            final double[] qd = new double[n];
            final double[] qdd = new double[n];
            final double[] tauNectl = new double[n];
            final double[] tauMujoco = new double[n];
            final double[] massNectl = new double[n * n];
            final double[] massMujoco = new double[n * n];
            final double[] qddNectl = new double[n];
            final double[] qddMujoco = new double[n];
            for (int state = 0; state < STATES; state++)
            {
                for (int k = 0; k < n; k++)
                {
                    q[k] = rnd.nextDouble(-1.5, 1.5);
                    qd[k] = rnd.nextDouble(-2, 2);
                    qdd[k] = rnd.nextDouble(-5, 5);
                }
                final String where = String.format(Locale.ROOT, "%s, state %d (seed %d)", what, state, seed);
                plant.options(1_000_000L, 1, gravity, MujocoPlant.DISABLE_CONSTRAINTS | MujocoPlant.DISABLE_PASSIVE, model);

                rigid.inverseDynamics(q, qd, qdd, tauNectl);
                plant.inverseDynamics(q, qd, qdd, tauMujoco);
                assertClose(tauNectl, tauMujoco, TOLERANCE, where + ": inverse dynamics");

                rigid.massMatrix(q, massNectl);
                plant.massMatrix(q, massMujoco);
                assertClose(massNectl, massMujoco, TOLERANCE, where + ": mass matrix");

                final boolean solved = rigid.forwardDynamics(q, qd, tauNectl, qddNectl);
                plant.forwardDynamics(q, qd, tauNectl, qddMujoco);
                if (solved)
                {
                    assertClose(qddNectl, qddMujoco, TOLERANCE * conditionEstimate(massNectl, n), where + ": forward dynamics");
                }

                plant.options(1_000_000L, 1, gravity, MujocoPlant.DISABLE_CONSTRAINTS, model);
                damped.inverseDynamics(q, qd, qdd, tauNectl);
                for (int k = 0; k < n; k++)
                {
                    tauNectl[k] -= damped.coulombFriction(k, qd[k]);
                }
                plant.inverseDynamics(q, qd, qdd, tauMujoco);
                assertClose(tauNectl, tauMujoco, TOLERANCE, where + ": inverse dynamics with joint damping");
            }
        }
    }

    private static double conditionEstimate(final double[] m, final int n)
    {
        double largest = 0.0;
        double smallest = Double.POSITIVE_INFINITY;
        for (int k = 0; k < n; k++)
        {
            largest = Math.max(largest, m[k * n + k]);
            smallest = Math.min(smallest, m[k * n + k]);
        }
        return Math.max(1.0, largest / smallest);
    }

    private static void assertClose(final double[] expected, final double[] actual, final double relative, final String what)
    {
        double scale = 0.0;
        double error = 0.0;
        for (int i = 0; i < expected.length; i++)
        {
            scale = Math.max(scale, Math.abs(expected[i]));
            error = Math.max(error, Math.abs(expected[i] - actual[i]));
        }
        LARGEST_RELATIVE_ERROR.merge(what.substring(what.lastIndexOf(": ") + 2), error / Math.max(scale, 1e-300), Math::max);
        final double bound = relative * Math.max(scale, 1e-6);
        assertTrue(error <= bound, String.format(Locale.ROOT, "%s: nectl and MuJoCo differ by %.3e (bound %.3e, largest element %.3e)%n"
            + "nectl:  %s%nMuJoCo: %s", what, error, bound, scale, Arrays.toString(expected), Arrays.toString(actual)));
    }
}
