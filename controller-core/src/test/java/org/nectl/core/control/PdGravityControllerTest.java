package org.nectl.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.MechanicalEnergy;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.RandomRobots;

class PdGravityControllerTest
{
    @Test
    void torqueIsPdOnTheErrorsPlusTheGradientOfPotentialEnergy()
    {
        double worst = 0.0;
        for (long seed = 1; seed <= 30; seed++)
        {
            // Robots with friction and rotor inertia: neither may leak into the gravity term.
            final RobotModel model = RandomRobots.any(seed);
            final int n = model.dof();
            final SplittableRandom rnd = new SplittableRandom(seed);
            final double[] kp = RandomRobots.vector(rnd, n, 1.0);
            final double[] kd = RandomRobots.vector(rnd, n, 1.0);
            for (int j = 0; j < n; j++)
            {
                kp[j] = 100.0 * Math.abs(kp[j]);
                kd[j] = 10.0 * Math.abs(kd[j]);
            }
            final PdGravityController controller = new PdGravityController(CompiledModel.of(model), kp, kd);
            final double[] q = RandomRobots.vector(rnd, n, 2.0);
            final double[] qd = RandomRobots.vector(rnd, n, 2.0);
            final double[] qDesired = RandomRobots.vector(rnd, n, 2.0);
            final double[] qdDesired = RandomRobots.vector(rnd, n, 2.0);
            final double[] tau = new double[n];
            assertEquals(ControlStatus.OK, controller.compute(q, qd, qDesired, qdDesired, tau));
            final double[] gravity = potentialGradient(model, q);
            for (int j = 0; j < n; j++)
            {
                final double expected = kp[j] * (qDesired[j] - q[j]) + kd[j] * (qdDesired[j] - qd[j]) + gravity[j];
                // Central difference of V (|V| < ~1e3 J) with step 1e-6: truncation ~1e-12 |V'''|,
                // rounding ~eps |V| / 1e-6 ~ 1e-7 N m.
                worst = Math.max(worst, Math.abs(expected - tau[j]));
                assertEquals(expected, tau[j], 1e-6, "seed " + seed + ", joint " + j);
            }
        }
        System.out.println("largest |tau - (PD + dV/dq)|: " + worst + " N m");
    }

    @Test
    void withoutGravityOnlyThePdTermsRemain()
    {
        final RobotModel model = RandomRobots.any(77);
        final int n = model.dof();
        final double[] kp = new double[n];
        final double[] kd = new double[n];
        Arrays.fill(kp, 50.0);
        Arrays.fill(kd, 5.0);
        final PdGravityController controller = new PdGravityController(CompiledModel.of(model, 0.0, 0.0, 0.0), kp, kd);
        final SplittableRandom rnd = new SplittableRandom(77);
        final double[] q = RandomRobots.vector(rnd, n, 2.0);
        final double[] qd = RandomRobots.vector(rnd, n, 2.0);
        final double[] tau = new double[n];
        controller.compute(q, qd, new double[n], new double[n], tau);
        for (int j = 0; j < n; j++)
        {
            assertEquals(-50.0 * q[j] - 5.0 * qd[j], tau[j], 1e-12, "seed 77, joint " + j);
        }
    }

    @Test
    void nonFiniteMeasurementIsReported()
    {
        final CompiledModel model = CompiledModel.of(RandomRobots.robot(3, 3, false, RandomRobots.Joints.REVOLUTE, false));
        final PdGravityController controller = new PdGravityController(model, new double[] {1, 1, 1}, new double[3]);
        final double[] tau = new double[3];
        assertEquals(ControlStatus.NON_FINITE_OUTPUT,
            controller.compute(new double[] {0, Double.NaN, 0}, new double[3], new double[3], new double[3], tau));
        assertEquals(ControlStatus.OK, controller.compute(new double[3], new double[3], new double[3], new double[3], tau));
    }

    @Test
    void rejectsNegativeOrMissingGains()
    {
        final CompiledModel model = CompiledModel.of(RandomRobots.robot(3, 2, false, RandomRobots.Joints.REVOLUTE, false));
        assertThrows(IllegalArgumentException.class,
            () -> new PdGravityController(model, new double[] {1, -1}, new double[2]));
        assertThrows(IllegalArgumentException.class,
            () -> new PdGravityController(model, new double[] {1, 1}, new double[] {0, Double.NaN}));
        assertThrows(IllegalArgumentException.class,
            () -> new PdGravityController(model, new double[] {1}, new double[1]));
    }

    /** dV/dq by central differences of the potential energy, an oracle independent of the recursion. */
    private static double[] potentialGradient(final RobotModel model, final double[] q)
    {
        final MechanicalEnergy energy = new MechanicalEnergy(model);
        final double step = 1e-6;
        final double[] gradient = new double[q.length];
        final double[] shifted = q.clone();
        for (int j = 0; j < q.length; j++)
        {
            shifted[j] = q[j] + step;
            final double up = energy.potentialEnergyJoules(shifted);
            shifted[j] = q[j] - step;
            final double down = energy.potentialEnergyJoules(shifted);
            shifted[j] = q[j];
            gradient[j] = (up - down) / (2 * step);
        }
        return gradient;
    }
}
