package org.nectl.core.dynamics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.nectl.core.dynamics.DynamicsAssertions.assertClose;

import java.util.SplittableRandom;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.decomposition.eig.SymmetricQRAlgorithmDecomposition_DDRM;
import org.junit.jupiter.api.Test;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointActuation;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;

/**
 * The mass matrix against oracles that share none of its code: symmetry and positive
 * definiteness, kinetic energy from finite-difference body twists, and M qdd + h against the
 * recursive Newton-Euler inverse dynamics.
 */
final class MassMatrixTest
{
    private static final int ROBOTS = 200;

    @Test
    void massMatrixIsSymmetricPositiveDefiniteOnRandomTrees()
    {
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final RobotModel model = RandomRobots.any(seed);
            final int n = model.dof();
            final double[] q = RandomRobots.vector(new SplittableRandom(seed), n, Math.PI);
            final double[] m = new double[n * n];
            new MassMatrix(CompiledModel.of(model)).compute(q, m);
            for (int i = 0; i < n; i++)
            {
                for (int j = 0; j < n; j++)
                {
                    assertEquals(m[i * n + j], m[j * n + i], 0.0, "seed " + seed + ": M not symmetric at " + i + "," + j);
                }
            }
            final SymmetricQRAlgorithmDecomposition_DDRM eig = new SymmetricQRAlgorithmDecomposition_DDRM(false);
            assertTrue(eig.decompose(DMatrixRMaj.wrap(n, n, m.clone())), "seed " + seed);
            for (int k = 0; k < n; k++)
            {
                final double lambda = eig.getEigenvalue(k).real;
                assertTrue(lambda > 0.0, "seed " + seed + ": eigenvalue " + lambda + " of M is not positive");
            }
        }
    }

    /**
     * 1/2 qd^T M qd = sum over bodies of 1/2 V^T J V + 1/2 sum Ia qd^2, with body twists V from
     * fourth-order differences of composed poses: truncation ~1e-16, rounding ~1e-12, so 1e-9
     * relative to the energy holds with margin.
     */
    @Test
    void kineticEnergyEqualsSumOfBodyKineticEnergies()
    {
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final RobotModel model = RandomRobots.any(seed);
            final int n = model.dof();
            final PolynomialMotion s = new PolynomialMotion(new SplittableRandom(seed * 17 + 3), n);
            final double[] m = new double[n * n];
            new MassMatrix(CompiledModel.of(model)).compute(s.q, m);
            double fromMatrix = 0.0;
            for (int i = 0; i < n; i++)
            {
                for (int j = 0; j < n; j++)
                {
                    fromMatrix += 0.5 * s.qd[i] * m[i * n + j] * s.qd[j];
                }
            }
            final double direct = kineticEnergy(model, s.q, s.qd);
            assertClose(new double[] {direct}, new double[] {fromMatrix}, 1e-9, "seed " + seed + ": kinetic energy");
        }
    }

    /**
     * M qdd + h equals the inverse dynamics (gravity, friction, external wrenches), d tau/d qdd = M
     * and M = M^T, to 1e-12 relative to max(1, max |tau|) ({@link DynamicsIdentities}): exact in
     * exact arithmetic, a dozen bodies accumulate rounding of a few 1e-15 of the scale.
     */
    @Test
    void massMatrixTimesAccelerationPlusBiasEqualsInverseDynamics()
    {
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final double d = DynamicsIdentities.massMatrixDiscrepancy(RandomRobots.any(seed), seed);
            assertTrue(d <= 1e-12, "seed " + seed + ": mass-matrix discrepancy " + d);
        }
    }

    /**
     * Modified Denavit-Hartenberg placements, Rot(x, alpha) with alpha a multiple of pi/2 (as
     * written, and as "pi/2" evaluates: cos 6.1e-17), which take the signed-permutation steps,
     * mixed with random placements, which take the general ones, and massless fixed bodies, some
     * of them leaves whose composite is never carried: M qdd + h against the inverse
     * dynamics to the same 1e-12 as above, and symmetry.
     */
    @Test
    void denavitHartenbergPlacementsGiveTheSameMassMatrix()
    {
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final RobotModel model = denavitHartenbergTree(seed);
            final double d = DynamicsIdentities.massMatrixDiscrepancy(model, seed);
            assertTrue(d <= 1e-12, "seed " + seed + ": mass-matrix discrepancy " + d);
            final int n = model.dof();
            final double[] m = new double[n * n];
            new MassMatrix(CompiledModel.of(model)).compute(RandomRobots.vector(new SplittableRandom(seed), n, Math.PI), m);
            for (int i = 0; i < n; i++)
            {
                for (int j = 0; j < n; j++)
                {
                    assertEquals(m[i * n + j], m[j * n + i], 0.0, "seed " + seed + ": M not symmetric at " + i + "," + j);
                }
            }
        }
    }

    @Test
    void massMatrixAllocatesNothingPerCall()
    {
        final RobotModel model = RandomRobots.robot(5, 12, true, RandomRobots.Joints.ALL, true);
        final MassMatrix massMatrix = new MassMatrix(CompiledModel.of(model));
        final double[] q = RandomRobots.vector(new SplittableRandom(5), model.dof(), Math.PI);
        final double[] m = new double[model.dof() * model.dof()];
        assertEquals(0L, AllocationMeter.bytesAllocated(() -> massMatrix.compute(q, m), 20_000, 10_000),
            "seed 5: bytes allocated over 10000 calls");
    }

    /** 1-12 bodies, chain or tree, every joint kind, some massless fixed bodies; most placements Rot(x, k pi/2), a few random. */
    private static RobotModel denavitHartenbergTree(final long seed)
    {
        final SplittableRandom rnd = new SplittableRandom(seed * 31 + 7);
        final int bodies = rnd.nextInt(1, 13);
        final boolean branched = rnd.nextBoolean();
        final RobotModel.Builder builder = RobotModel.builder("dh-" + seed);
        final JointType[] types = {JointType.REVOLUTE, JointType.REVOLUTE, JointType.PRISMATIC, JointType.FIXED};
        for (int i = 0; i < bodies; i++)
        {
            final int parent = branched ? rnd.nextInt(-1, i) : i - 1;
            final double[] rotation;
            final int kind = rnd.nextInt(6);
            if (kind == 5)
            {
                rotation = RandomRobots.randomRotation(rnd);
            }
            else
            {
                final double alpha = kind == 4 ? Math.PI / 2 : kind * Math.PI / 2;
                final double c = kind < 4 ? Math.rint(Math.cos(alpha)) : Math.cos(alpha);
                final double sn = kind < 4 ? Math.rint(Math.sin(alpha)) : Math.sin(alpha);
                rotation = new double[] {1, 0, 0, 0, c, -sn, 0, sn, c};
            }
            final double[] translation = {rnd.nextDouble(-0.5, 0.5), rnd.nextDouble(-0.5, 0.5), rnd.nextDouble(-0.5, 0.5)};
            final JointType type = i == 0 ? JointType.REVOLUTE : types[rnd.nextInt(types.length)];
            // a fixed body is massless half the time (a flange), which M's pass skips when its subtree is
            final InertialParameters inertia = type == JointType.FIXED && rnd.nextBoolean()
                ? InertialParameters.ofFirstMoment(0.0, new double[3], new double[9]) : RandomRobots.randomInertia(rnd);
            final int b = builder.addBody("link" + i, "joint" + i, parent, type, rotation, translation, inertia);
            if (type.isMovable())
            {
                builder.actuation(b, new JointActuation(rnd.nextDouble(0.0, 0.5), 0.0, 0.0));
            }
        }
        return builder.build();
    }

    static double kineticEnergy(final RobotModel model, final double[] q, final double[] qd)
    {
        final double[][] twists = CompositionKinematics.bodyTwists(model, q, qd);
        double energy = 0.0;
        for (int i = 0; i < model.bodyCount(); i++)
        {
            final InertialParameters p = model.inertialParameters(i);
            final double[] w = {twists[i][0], twists[i][1], twists[i][2]};
            final double[] v = {twists[i][3], twists[i][4], twists[i][5]};
            final double[] ms = p.firstMoment();
            final double[] j = p.inertiaAtOrigin();
            double rotational = 0.0;
            for (int r = 0; r < 3; r++)
            {
                for (int c = 0; c < 3; c++)
                {
                    rotational += w[r] * j[3 * r + c] * w[c];
                }
            }
            // v . (w x MS): the coupling term of Khalil's 6x6 inertia (ICINCO 2010, eq. 11).
            final double coupling = v[0] * (w[1] * ms[2] - w[2] * ms[1]) + v[1] * (w[2] * ms[0] - w[0] * ms[2])
                + v[2] * (w[0] * ms[1] - w[1] * ms[0]);
            energy += 0.5 * p.mass() * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + coupling + 0.5 * rotational;
        }
        for (int k = 0; k < model.dof(); k++)
        {
            energy += 0.5 * model.actuation(k).rotorInertia() * qd[k] * qd[k];
        }
        return energy;
    }
}
