package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.config.RobotDescriptions;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.MassMatrix;
import org.nectl.core.model.RobotModel;
import org.nectl.core.runtime.CycleSettings;

/** The default PD damping keeps the sampled velocity loop stable with a state two periods old. */
final class DefaultDampingTest
{
    private static final long PERIOD_NS = 1_000_000L;

    @Test
    void pandaWristDampingIsCappedAndEveryJointStaysBelowTheTwoPeriodBound()
    {
        final RobotModel panda = RobotDescriptions.load(Path.of("../config/robots/panda.yaml"));
        final CycleSettings settings = ServiceSettings.sampledDampingDefaults(panda, PERIOD_NS);
        final int n = panda.dof();
        // M_77 = 0.0049 kg m^2 at every pose: the flat default of 10 would give kd T / M_77 = 2.04.
        assertEquals(ServiceSettings.MAX_DAMPING_RATIO * 0.0049, settings.pdKd()[6] * 1e-3, 1e-4);
        final MassMatrix massMatrix = new MassMatrix(CompiledModel.of(panda));
        final double[] m = new double[n * n];
        final double[] q = new double[n];
        final SplittableRandom random = new SplittableRandom(7);
        for (int pose = 0; pose < 2_000; pose++)
        {
            for (int j = 0; j < n; j++)
            {
                final double low = Math.max(panda.limits(j).positionMin(), -Math.PI);
                final double high = Math.min(panda.limits(j).positionMax(), Math.PI);
                q[j] = low + (high - low) * random.nextDouble();
            }
            massMatrix.compute(q, m);
            for (int j = 0; j < n; j++)
            {
                final double a = settings.pdKd()[j] * 1e-3 / m[j * n + j];
                // Poses other than the ones the cap was sampled on: below the bound 0.618, not only below 0.45.
                assertTrue(a < 0.618, "joint " + j + ": kd T / M_jj = " + a);
                assertTrue(settings.pdKd()[j] <= 10.0, "never above the flat default");
            }
        }
    }
}
