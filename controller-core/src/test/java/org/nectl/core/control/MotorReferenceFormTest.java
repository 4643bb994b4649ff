package org.nectl.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.elastic.MotorReference;
import org.nectl.core.elastic.UnifiedBodies;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomElasticRobots;
import org.nectl.core.testing.RandomRobots;
import org.nectl.core.testing.UndampedElasticRobots;

/**
 * The two forms of Hua, Poursina and Sanfilippo's eq. 43 in {@link MixedInverseDynamicsController}:
 * theta_d = q_d + tau / K along the reference (default) and theta_d = q + tau_qc / K with the
 * measured q and the load law's torque (as printed). On the reference they are the same equation.
 */
class MotorReferenceFormTest
{
    /** Relative to max(1, |command|): two formulations of the same torque, rounding only. */
    private static final double TOLERANCE = 1e-9;

    @Test
    void bothFormsCommandTheSameTorquesOnTheReference()
    {
        double worst = 0.0;
        int robots = 0;
        for (long seed = 1; seed <= 100; seed++)
        {
            final ElasticRobotModel model = UndampedElasticRobots.robot(seed, false);
            if (RandomElasticRobots.elasticRotorOutboardOfElasticJoint(model))
            {
                // There the reference form gives the rotor the link's motion (MotorReference's comment).
                continue;
            }
            robots++;
            final SplittableRandom rnd = new SplittableRandom(seed);
            final double[][] reference = reference(rnd, model.dof());
            final int ne = model.elasticCount();
            final double[] theta = new double[ne];
            final double[] thetad = new double[ne];
            final MotorReference motorReference = new MotorReference(UnifiedBodies.of(model));
            motorReference.compute(reference, theta, thetad, new double[ne]);
            final double[] alongReference = command(model, MotorReference.Form.ALONG_REFERENCE, reference, theta, thetad);
            final double[] controlLaw = command(model, MotorReference.Form.CONTROL_LAW, reference, theta, thetad);
            for (int k = 0; k < model.dof(); k++)
            {
                final double error = Math.abs(alongReference[k] - controlLaw[k]) / Math.max(1.0, Math.abs(alongReference[k]));
                assertTrue(error <= TOLERANCE, "seed " + seed + " joint " + k + ": " + alongReference[k] + " vs "
                    + controlLaw[k]);
                worst = Math.max(worst, error);
            }
        }
        assertTrue(robots >= 20, "robots compared: " + robots);
        System.out.printf("eq. 43 along the reference vs as printed, on the reference, %d robots: worst %.2e%n", robots,
            worst);
    }

    @Test
    void theFormsDifferOffTheReferenceAndTheControlLawFormAllocatesNothing()
    {
        final ElasticRobotModel model = UndampedElasticRobots.robot(3, false);
        final SplittableRandom rnd = new SplittableRandom(3);
        final double[][] reference = reference(rnd, model.dof());
        final double[] q = RandomRobots.vector(rnd, model.dof(), Math.PI);
        final double[] qd = RandomRobots.vector(rnd, model.dof(), 2.0);
        final double[] theta = RandomRobots.vector(rnd, model.elasticCount(), Math.PI);
        final double[] thetad = RandomRobots.vector(rnd, model.elasticCount(), 2.0);
        final MixedInverseDynamicsController along = controller(model, MotorReference.Form.ALONG_REFERENCE);
        final MixedInverseDynamicsController printed = controller(model, MotorReference.Form.CONTROL_LAW);
        final double[] a = new double[model.dof()];
        final double[] b = new double[model.dof()];
        assertEquals(ControlStatus.OK, along.compute(q, theta, qd, thetad, reference, a));
        assertEquals(ControlStatus.OK, printed.compute(q, theta, qd, thetad, reference, b));
        final int k = model.coordinateOfElastic(0);
        assertTrue(Math.abs(a[k] - b[k]) > 1e-3, "elastic joint " + k + ": " + a[k] + " vs " + b[k]);
        final long bytes = AllocationMeter.bytesAllocated(() -> printed.compute(q, theta, qd, thetad, reference, b),
            20_000, 100_000);
        assertEquals(0L, bytes, "bytes allocated over 100000 ticks");
    }

    private static double[] command(final ElasticRobotModel model, final MotorReference.Form form,
        final double[][] reference, final double[] theta, final double[] thetad)
    {
        final double[] out = new double[model.dof()];
        assertEquals(ControlStatus.OK, controller(model, form).compute(reference[0], theta, reference[1], thetad, reference,
            out));
        return out;
    }

    private static MixedInverseDynamicsController controller(final ElasticRobotModel model, final MotorReference.Form form)
    {
        final int n = model.dof();
        final int ne = model.elasticCount();
        final double[] unlimited = filled(n, Double.POSITIVE_INFINITY);
        final MixedInverseDynamicsController c = new MixedInverseDynamicsController(UnifiedBodies.of(model), filled(n, 400.0),
            filled(n, 40.0), filled(ne, 30.0), filled(ne, 3.0), new TorqueLimiter(unlimited, unlimited, 1_000_000L));
        c.motorReferenceForm(form);
        return c;
    }

    private static double[][] reference(final SplittableRandom rnd, final int n)
    {
        final double[][] reference = new double[5][];
        final double[] scale = {Math.PI, 2.0, 3.0, 5.0, 10.0};
        for (int d = 0; d < 5; d++)
        {
            reference[d] = RandomRobots.vector(rnd, n, scale[d]);
        }
        return reference;
    }

    private static double[] filled(final int n, final double value)
    {
        final double[] v = new double[n];
        Arrays.fill(v, value);
        return v;
    }
}
