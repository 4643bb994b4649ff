package org.nectl.config.deploy;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.closedloop.ClosedLoopLawDynamics;
import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.MassMatrix;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.RobotModel;
import org.nectl.core.runtime.CycleSettings;

/**
 * The PD + gravity gains of every shipped deployment suit its robot and period. Unlike computed
 * torque, whose gains act on the decoupled error and are checked when the file is read, PD gains are
 * torques, so their effect depends on the joint-space inertia M(q). Each joint is taken alone, with
 * its diagonal inertia M_jj(q), at seeded random poses inside the position limits. For a closed-loop
 * robot the joints are its active ones and M is A_c = G^T A G, whose columns are Gamma_c at unit
 * accelerations without gravity, at seeded random poses within a tenth of each active joint's range
 * of home (where the loops close).
 */
final class ShippedPdGainsTest
{
    private static final long SEED = 20_261_122L;
    private static final int POSES = 2_000;

    /**
     * Velocity loop: torque -kd qd computed from a state d periods old and held for one period gives
     * qd[k+1] = qd[k] - a qd[k-d], a = kd T / M_jj. With d = 1 (the state of the last period),
     * z^2 - z + a is stable iff 0 &lt; a &lt; 1. In real time the adapter's sample and the loop's tick
     * run on two clocks, so a state is now and then a period late: d = 2, z^3 - z^2 + a, stable iff
     * 0 &lt; a &lt; (sqrt 5 - 1) / 2 = 0.618. The gains must keep that bound, with margin (a &lt; 0.5):
     * at 0.68 on joint 6 the simulated Panda, held in ENABLED at 1 kHz, reached its velocity limit
     * within 3.2 s (a soak run).
     */
    @Test
    void pdDampingKeepsEverySampledVelocityLoopStableWithTwoPeriodsOfDelay() throws IOException
    {
        forEveryJointAndPose((file, j, mjj, s, periodS) ->
        {
            final double a = s.pdKd()[j] * periodS / mjj;
            return a < 0.5 ? null : file + " joint " + j + ": kd T / M_jj = " + a + " >= 0.5 (M_jj = " + mjj + ")";
        });
    }

    /** Position loop: the natural frequency sqrt(kp / M_jj) within one radian per period, the rule for computed torque. */
    @Test
    void pdStiffnessKeepsEveryNaturalFrequencyBelowOneRadianPerPeriod() throws IOException
    {
        forEveryJointAndPose((file, j, mjj, s, periodS) ->
        {
            final double omegaT = Math.sqrt(s.pdKp()[j] / mjj) * periodS;
            return omegaT <= 1.0 ? null : file + " joint " + j + ": sqrt(kp / M_jj) T = " + omegaT + " > 1";
        });
    }

    private static void forEveryJointAndPose(final JointRule rule) throws IOException
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        for (final Path file : TestDeployments.shipped())
        {
            final DeploymentConfig config = DeploymentConfigs.load(file);
            final RobotModel model = config.model();
            final int n = model.dof();
            final MassMatrix massMatrix = new MassMatrix(CompiledModel.of(model));
            final ClosedLoopLawDynamics closedLoop = config.closedLoop()
                .map(c -> new ClosedLoopLawDynamics(c, CompiledModel.of(c.tree(), 0.0, 0.0, 0.0))).orElse(null);
            final double[] home = config.closedLoop().map(ClosedLoopModel::homeActive).orElse(null);
            final double[] m = new double[n * n];
            final double[] q = new double[n];
            for (int pose = 0; pose < POSES; pose++)
            {
                if (closedLoop == null)
                {
                    randomPose(model, random, q);
                    massMatrix.compute(q, m);
                }
                else
                {
                    nearHome(model, home, random, q);
                    assertTrue(projectedMassMatrix(closedLoop, q, m), file + ": the loops do not close at pose " + pose);
                }
                for (int j = 0; j < n; j++)
                {
                    final String problem = rule.check(
                        file.getFileName(), j, m[j * n + j], config.cycleSettings(), config.periodNs() * 1e-9);
                    assertTrue(problem == null, problem + " at pose " + pose + " (seed " + SEED + ")");
                }
            }
        }
    }

    private static void randomPose(final RobotModel model, final SplittableRandom random, final double[] q)
    {
        for (int j = 0; j < q.length; j++)
        {
            final JointLimits limits = model.limits(j);
            final double low = Math.max(limits.positionMin(), -Math.PI);
            final double high = Math.min(limits.positionMax(), Math.PI);
            q[j] = low + (high - low) * random.nextDouble();
        }
    }

    private static void nearHome(final RobotModel model, final double[] home, final SplittableRandom random, final double[] q)
    {
        for (int j = 0; j < q.length; j++)
        {
            final JointLimits limits = model.limits(j);
            final double range = Math.min(limits.positionMax() - limits.positionMin(), 2 * Math.PI);
            q[j] = home[j] + 0.1 * range * (2 * random.nextDouble() - 1);
        }
    }

    /** A_c column by column: Gamma_c(q, 0, e_k) without gravity and friction. */
    private static boolean projectedMassMatrix(final ClosedLoopLawDynamics dynamics, final double[] q, final double[] m)
    {
        final int n = q.length;
        dynamics.jointFriction(false);
        final double[] zero = new double[n];
        final double[] unit = new double[n];
        final double[] column = new double[n];
        for (int k = 0; k < n; k++)
        {
            unit[k] = 1.0;
            final boolean closed = dynamics.inverseDynamics(q, zero, unit, column);
            unit[k] = 0.0;
            if (!closed)
            {
                return false;
            }
            for (int i = 0; i < n; i++)
            {
                m[i * n + k] = column[i];
            }
        }
        return true;
    }

    /** One joint's rule: null when it holds, else the failure message. */
    @FunctionalInterface
    private interface JointRule
    {
        String check(Path file, int joint, double mjj, CycleSettings settings, double periodS);
    }
}
