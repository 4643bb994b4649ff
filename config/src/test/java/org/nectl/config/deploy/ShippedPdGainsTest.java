package org.nectl.config.deploy;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.MassMatrix;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.RobotModel;
import org.nectl.core.runtime.CycleSettings;

/**
 * The PD + gravity gains of every shipped deployment suit its robot and period. Unlike computed
 * torque, whose gains act on the decoupled error and are checked when the file is read, PD gains are
 * torques, so their effect depends on the joint-space inertia M(q). Each joint is taken alone, with
 * its diagonal inertia M_jj(q), at seeded random poses inside the position limits.
 */
final class ShippedPdGainsTest
{
    private static final long SEED = 20_261_122L;
    private static final int POSES = 2_000;

    /**
     * Velocity loop: torque -kd qd computed from the state one period old and held for one period
     * gives qd[k+1] = qd[k] - a qd[k-1], a = kd T / M_jj; z^2 - z + a has both roots inside the unit
     * circle iff 0 &lt; a &lt; 1. Requiring a &lt; 1 keeps the loop stable even with a period of transport delay.
     */
    @Test
    void pdDampingKeepsEverySampledVelocityLoopStableWithOnePeriodOfDelay() throws IOException
    {
        forEveryJointAndPose((file, j, mjj, s, periodS) ->
        {
            final double a = s.pdKd()[j] * periodS / mjj;
            return a < 1.0 ? null : file + " joint " + j + ": kd T / M_jj = " + a + " >= 1 (M_jj = " + mjj + ")";
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
            final MassMatrix massMatrix = new MassMatrix(model);
            final double[] m = new double[n * n];
            final double[] q = new double[n];
            for (int pose = 0; pose < POSES; pose++)
            {
                randomPose(model, random, q);
                massMatrix.compute(q, m);
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

    /** One joint's rule: null when it holds, else the failure message. */
    @FunctionalInterface
    private interface JointRule
    {
        String check(Path file, int joint, double mjj, CycleSettings settings, double periodS);
    }
}
