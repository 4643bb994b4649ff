package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.config.ElasticDescriptions;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.RobotModel;
import org.nectl.core.simulation.MixedTrackingRun;

/**
 * The mixed controller of the study with a wrong model: every link mass and every inertia about the
 * centre of mass off by +-20 % (seeded sign patterns). Measured (10 s, 1 ms): RMS at most
 * [0.00101, 0.00343, 0.0472] rad, still within the paper's nominal figures; largest error after the
 * 2 s transient at most [2.1e-4, 9.5e-4, 3.6e-3] rad (nominal model: [1.6e-5, 6.6e-5, 9.3e-4]). With
 * 30 N m and 1000 N m/s limits the start is rate-limited (joint 2: about 590 torque and 450 rate clips)
 * and the RMS grows to [0.0023, 0.0238, 0.0429] rad, but the settled error stays as small.
 */
class MixedElasticRobustnessTest
{
    /** Bound on the error after the transient, rad: a few times the largest measured. */
    private static final double SETTLED_BOUND_RAD = 0.01;
    private static final double[] PAPER_RMS = {0.0026819, 0.003619, 0.052678};
    private static final double TORQUE_LIMIT_NM = 30.0;
    private static final double RATE_LIMIT_NM_PER_S = 1000.0;
    /** Ticks of the 2 s transient. */
    private static final long TRANSIENT_TICKS = 2000;

    private final ElasticRobotModel plant = ElasticDescriptions.load(MixedElasticStudyTest.MODEL);

    /**
     * The plant's links with each mass and each inertia about the centre of mass scaled by 0.8 or 1.2
     * (seeded), the same motors and springs, and the given limits on every joint.
     */
    static ElasticRobotModel perturbed(final ElasticRobotModel model, final long seed, final JointLimits limits)
    {
        final SplittableRandom rnd = new SplittableRandom(seed);
        final RobotModel links = model.links();
        final RobotModel.Builder b = RobotModel.builder(links.name()).baseName(links.baseName());
        for (int i = 0; i < links.bodyCount(); i++)
        {
            final InertialParameters p = links.inertialParameters(i);
            final double massScale = rnd.nextBoolean() ? 1.2 : 0.8;
            final double inertiaScale = rnd.nextBoolean() ? 1.2 : 0.8;
            final double[] inertia = p.inertiaAtCentreOfMass();
            for (int c = 0; c < 9; c++)
            {
                inertia[c] *= inertiaScale;
            }
            final int body = b.addBody(links.bodyName(i), links.jointName(i), links.parent(i), links.jointType(i),
                links.placementRotation(i), links.placementTranslation(i),
                InertialParameters.ofCentreOfMass(p.mass() * massScale, p.centreOfMass(), inertia));
            final int k = links.coordinateOfBody(i);
            if (k >= 0)
            {
                b.actuation(body, links.actuation(k)).limits(body, limits);
            }
        }
        final List<String> order = new ArrayList<>();
        for (int k = 0; k < links.dof(); k++)
        {
            order.add(links.coordinateName(k));
        }
        final RobotModel wrong = b.coordinateOrder(order).build();
        final ElasticRobotModel.Builder e = ElasticRobotModel.builder(wrong);
        for (int k = 0; k < model.dof(); k++)
        {
            if (model.hasMotor(k))
            {
                e.motor(links.coordinateName(k), model.motor(k));
            }
            if (model.isElastic(k))
            {
                e.elasticity(links.coordinateName(k), model.elasticity(k));
            }
        }
        return e.build();
    }

    @Test
    void mixedControllerStillTracksWithEveryLinkMassAndInertiaTwentyPercentOff()
    {
        for (long seed = 1; seed <= 3; seed++)
        {
            final ElasticRobotModel wrong = perturbed(plant, seed, JointLimits.NONE);
            final MixedTrackingRun.Result r = MixedElasticStudy.run(plant, wrong, MixedElasticStudyTest.END_EFFECTOR, false,
                MixedElasticStudy.PERIOD_NS, MixedElasticStudy.GAINS, MixedElasticStudy.DURATION_S);
            MixedElasticStudyTest.report("+-20 % seed " + seed, r);
            assertEquals(0, r.failure(), "seed " + seed);
            for (int k = 0; k < 3; k++)
            {
                final String where = "seed " + seed + ", joint " + (k + 1) + ": ";
                assertTrue(r.rmsRad()[k] <= PAPER_RMS[k], where + "RMS " + r.rmsRad()[k]);
                assertTrue(r.maxAbsSettledRad()[k] <= SETTLED_BOUND_RAD, where + "settled error " + r.maxAbsSettledRad()[k]);
                assertEquals(0L, r.torqueClips()[k] + r.rateClips()[k], where + "clips without limits");
            }
        }
    }

    @Test
    void withTorqueAndRateLimitsTheWrongModelStillTracksAndTheClipsAreCounted()
    {
        final JointLimits limits = new JointLimits(Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
            Double.POSITIVE_INFINITY, TORQUE_LIMIT_NM, RATE_LIMIT_NM_PER_S);
        for (long seed = 1; seed <= 2; seed++)
        {
            final ElasticRobotModel wrong = perturbed(plant, seed, limits);
            final MixedTrackingRun.Result r = MixedElasticStudy.run(plant, wrong, MixedElasticStudyTest.END_EFFECTOR, false,
                MixedElasticStudy.PERIOD_NS, MixedElasticStudy.GAINS, MixedElasticStudy.DURATION_S);
            MixedElasticStudyTest.report("+-20 % limited seed " + seed, r);
            assertEquals(0, r.failure(), "seed " + seed);
            long clips = 0;
            for (int k = 0; k < 3; k++)
            {
                final String where = "seed " + seed + ", joint " + (k + 1) + ": ";
                assertTrue(r.maxTorqueRateNmPerS()[k] <= RATE_LIMIT_NM_PER_S * (1.0 + 1e-9), where + "rate " + r.maxTorqueRateNmPerS()[k]);
                assertTrue(r.maxAbsSettledRad()[k] <= SETTLED_BOUND_RAD, where + "settled error " + r.maxAbsSettledRad()[k]);
                assertTrue(r.torqueClips()[k] <= TRANSIENT_TICKS && r.rateClips()[k] <= TRANSIENT_TICKS,
                    where + "clipped longer than the transient: " + r.torqueClips()[k] + ", " + r.rateClips()[k]);
                clips += r.rateClips()[k];
            }
            assertTrue(clips > 0, "seed " + seed + ": the start must hit the rate limit");
        }
    }
}
