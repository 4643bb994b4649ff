package org.nectl.core.dynamics;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.decomposition.chol.CholeskyDecompositionInner_DDRM;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.RandomRobots;

/**
 * The identities that tie the mass matrix, bias, Coriolis matrix, forward dynamics and
 * inverse-dynamics derivatives to {@link InverseDynamics}, each measured on one robot in one
 * seeded random situation: state from {@link PolynomialMotion} (|qd| >= 0.2, so differences never
 * cross qd = 0 where Coulomb friction jumps), gravity up to 15 m/s^2 per axis, an external wrench
 * (components up to 20 N, N m) on every body, friction on or off by the seed. Shared with the tests
 * of other modules (shipped robots) through the test-jar.
 *
 * <p>Every result is a discrepancy as {@link FormulationCrossCheck#discrepancy}: max |a - b| over
 * max(1, max |a|), a being the reference, i.e. relative to the reference's scale (N m, N, rad/s^2,
 * kg m^2) and absolute below 1.
 */
public final class DynamicsIdentities
{
    /**
     * Step of the 4th-order central differences: truncation ~h^4 |tau^(5)| / 30 and rounding
     * ~1e-16 |tau| / h are both ~1e-12 of the torque scale.
     */
    public static final double STEP = 1e-3;

    private DynamicsIdentities()
    {
    }

    /**
     * @return the largest discrepancy of tau, d tau/d q, d tau/d qd, d tau/d qdd of
     *     {@link InverseDynamicsDerivatives} from the inverse dynamics and its central differences.
     */
    public static double derivativeDiscrepancy(final RobotModel model, final long seed)
    {
        final Situation s = new Situation(model, seed);
        final int n = model.dof();
        final InverseDynamicsDerivatives derivatives = new InverseDynamicsDerivatives(s.compiled);
        derivatives.jointFriction(s.friction);
        final double[] tau = new double[n];
        final double[] dq = new double[n * n];
        final double[] dqd = new double[n * n];
        final double[] dqdd = new double[n * n];
        derivatives.compute(s.state.q, s.state.qd, s.state.qdd, s.loads, tau, dq, dqd, dqdd);
        final double[] expected = new double[n];
        s.rnea.compute(s.state.q, s.state.qd, s.state.qdd, s.loads, expected);
        double worst = FormulationCrossCheck.discrepancy(expected, tau);
        worst = Math.max(worst, FormulationCrossCheck.discrepancy(CentralDifferences.jacobian(
            (x, out) -> s.rnea.compute(x, s.state.qd, s.state.qdd, s.loads, out), s.state.q, n, STEP), dq));
        worst = Math.max(worst, FormulationCrossCheck.discrepancy(CentralDifferences.jacobian(
            (x, out) -> s.rnea.compute(s.state.q, x, s.state.qdd, s.loads, out), s.state.qd, n, STEP), dqd));
        return Math.max(worst, FormulationCrossCheck.discrepancy(CentralDifferences.jacobian(
            (x, out) -> s.rnea.compute(s.state.q, s.state.qd, x, s.loads, out), s.state.qdd, n, STEP), dqdd));
    }

    /**
     * @return the largest discrepancy, over every body, of the reaction wrench of
     *     {@link InverseDynamicsDerivatives} and of its derivatives from the inverse dynamics' reaction
     *     wrench and its central differences.
     */
    public static double reactionDerivativeDiscrepancy(final RobotModel model, final long seed)
    {
        final Situation s = new Situation(model, seed);
        final int n = model.dof();
        final InverseDynamicsDerivatives derivatives = new InverseDynamicsDerivatives(s.compiled);
        derivatives.jointFriction(s.friction);
        derivatives.compute(s.state.q, s.state.qd, s.state.qdd, s.loads, new double[n], new double[n * n],
            new double[n * n], new double[n * n]);
        final double[] tau = new double[n];
        s.rnea.compute(s.state.q, s.state.qd, s.state.qdd, s.loads, tau);
        final double[] wrench = new double[6];
        final double[] expected = new double[6];
        final double[] dq = new double[6 * n];
        final double[] dqd = new double[6 * n];
        final double[] dqdd = new double[6 * n];
        double worst = 0.0;
        for (int body = 0; body < model.bodyCount(); body++)
        {
            final int b = body;
            s.rnea.compute(s.state.q, s.state.qd, s.state.qdd, s.loads, tau);
            s.rnea.reactionWrench(b, expected);
            derivatives.reactionWrench(b, wrench);
            worst = Math.max(worst, FormulationCrossCheck.discrepancy(expected, wrench));
            derivatives.reactionWrenchDerivatives(b, dq, dqd, dqdd);
            worst = Math.max(worst, FormulationCrossCheck.discrepancy(CentralDifferences.jacobian(
                (x, out) -> s.reaction(b, x, s.state.qd, s.state.qdd, out), s.state.q, 6, STEP), dq));
            worst = Math.max(worst, FormulationCrossCheck.discrepancy(CentralDifferences.jacobian(
                (x, out) -> s.reaction(b, s.state.q, x, s.state.qdd, out), s.state.qd, 6, STEP), dqd));
            worst = Math.max(worst, FormulationCrossCheck.discrepancy(CentralDifferences.jacobian(
                (x, out) -> s.reaction(b, s.state.q, s.state.qd, x, out), s.state.qdd, 6, STEP), dqdd));
        }
        return worst;
    }

    /**
     * @return the largest discrepancy of M qdd + h (MassMatrix, BiasForces) from the inverse dynamics,
     *     of d tau/d qdd from M, and of M from M^T; positive infinity if M is not positive definite.
     */
    public static double massMatrixDiscrepancy(final RobotModel model, final long seed)
    {
        final Situation s = new Situation(model, seed);
        final int n = model.dof();
        final BiasForces bias = new BiasForces(s.compiled);
        bias.jointFriction(s.friction);
        final double[] m = new double[n * n];
        new MassMatrix(s.compiled).compute(s.state.q, m);
        final double[] actual = new double[n];
        bias.compute(s.state.q, s.state.qd, s.loads, actual);
        final double[] transposed = new double[n * n];
        for (int i = 0; i < n; i++)
        {
            for (int j = 0; j < n; j++)
            {
                actual[i] += m[i * n + j] * s.state.qdd[j];
                transposed[j * n + i] = m[i * n + j];
            }
        }
        final double[] expected = new double[n];
        s.rnea.compute(s.state.q, s.state.qd, s.state.qdd, s.loads, expected);
        final double[] dqdd = new double[n * n];
        final InverseDynamicsDerivatives derivatives = new InverseDynamicsDerivatives(s.compiled);
        derivatives.compute(s.state.q, s.state.qd, s.state.qdd, new double[n], new double[n * n], new double[n * n], dqdd);
        if (!new CholeskyDecompositionInner_DDRM(true).decompose(DMatrixRMaj.wrap(n, n, m.clone())))
        {
            return Double.POSITIVE_INFINITY;
        }
        return Math.max(FormulationCrossCheck.discrepancy(expected, actual),
            Math.max(FormulationCrossCheck.discrepancy(m, dqdd), FormulationCrossCheck.discrepancy(m, transposed)));
    }

    /**
     * @return |(M-dot - 2C) + (M-dot - 2C)^T| over max(1, max |M-dot|), M-dot by central differences
     *     of M(q(t)) along the state's motion, C from {@link CoriolisMatrix}.
     */
    public static double coriolisSkewDiscrepancy(final RobotModel model, final long seed)
    {
        final PolynomialMotion state = new PolynomialMotion(new SplittableRandom(seed), model.dof());
        final int n = model.dof();
        final CompiledModel compiled = CompiledModel.of(model);
        final MassMatrix massMatrix = new MassMatrix(compiled);
        final double[] massRate = CentralDifferences.jacobian((t, out) ->
        {
            state.at(t[0]);
            massMatrix.compute(state.q, out);
        }, new double[1], n * n, STEP);
        state.at(0.0);
        final double[] c = new double[n * n];
        new CoriolisMatrix(compiled).compute(state.q, state.qd, c);
        final double[] symmetricPart = new double[n * n];
        for (int i = 0; i < n; i++)
        {
            for (int j = 0; j < n; j++)
            {
                symmetricPart[i * n + j] = massRate[i * n + j] - 2 * c[i * n + j] + massRate[j * n + i] - 2 * c[j * n + i];
            }
        }
        return maxAbs(symmetricPart) / Math.max(1.0, maxAbs(massRate));
    }

    /**
     * On one seed in four the robot is at rest (qd = 0, where sign(0) = 0 must hold both ways).
     *
     * @return the largest discrepancy of FD(ID(qdd)) from qdd for {@link RecursiveForwardDynamics}
     *     and {@link CholeskyForwardDynamics}, and between the two; positive infinity if either
     *     reports failure.
     */
    public static double forwardDynamicsDiscrepancy(final RobotModel model, final long seed)
    {
        final Situation s = new Situation(model, seed);
        final int n = model.dof();
        if (seed % 4 == 0)
        {
            Arrays.fill(s.state.qd, 0.0);
        }
        final RecursiveForwardDynamics recursive = new RecursiveForwardDynamics(s.compiled);
        final CholeskyForwardDynamics cholesky = new CholeskyForwardDynamics(s.compiled);
        recursive.jointFriction(s.friction);
        cholesky.jointFriction(s.friction);
        final double[] tau = new double[n];
        s.rnea.compute(s.state.q, s.state.qd, s.state.qdd, s.loads, tau);
        final double[] byRecursion = new double[n];
        final double[] byCholesky = new double[n];
        if (!recursive.compute(s.state.q, s.state.qd, tau, s.loads, byRecursion)
            || !cholesky.compute(s.state.q, s.state.qd, tau, s.loads, byCholesky))
        {
            return Double.POSITIVE_INFINITY;
        }
        return Math.max(FormulationCrossCheck.discrepancy(byCholesky, byRecursion),
            Math.max(FormulationCrossCheck.discrepancy(s.state.qdd, byRecursion),
                FormulationCrossCheck.discrepancy(s.state.qdd, byCholesky)));
    }

    private static double maxAbs(final double[] v)
    {
        double m = 0.0;
        for (final double x : v)
        {
            m = Math.max(m, Math.abs(x));
        }
        return m;
    }

    /** One seeded random situation and the inverse dynamics set up for it. */
    private static final class Situation
    {
        /** The robot, compiled once for every algorithm the identity compares. */
        final CompiledModel compiled;
        final PolynomialMotion state;
        final InverseDynamics rnea;
        /** Gravity and a body-fixed wrench on every body, passed to every algorithm. */
        final AppliedLoads loads;
        final boolean friction;
        private final double[] tau;

        Situation(final RobotModel model, final long seed)
        {
            final SplittableRandom rnd = new SplittableRandom(seed);
            state = new PolynomialMotion(rnd, model.dof());
            final double[] gravity = RandomRobots.vector(rnd, 3, 15);
            compiled = CompiledModel.of(model);
            loads = new AppliedLoads(compiled).gravity(gravity[0], gravity[1], gravity[2]);
            for (int i = 0; i < model.bodyCount(); i++)
            {
                final double[] e = RandomRobots.vector(rnd, 6, 20);
                loads.bodyWrench(i, e[0], e[1], e[2], e[3], e[4], e[5]);
            }
            friction = rnd.nextBoolean();
            tau = new double[model.dof()];
            rnea = new InverseDynamics(compiled);
            rnea.jointFriction(friction);
        }

        void reaction(final int body, final double[] q, final double[] qd, final double[] qdd, final double[] out)
        {
            rnea.compute(q, qd, qdd, loads, tau);
            rnea.reactionWrench(body, out);
        }
    }
}
