package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.nectl.config.ElasticDescriptions;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.simulation.MixedTrackingRun;

class MixedElasticStudyTest
{
    static final Path MODEL = Path.of("../config/robots/mixed-elastic-3dof.yaml");
    static final double[] END_EFFECTOR = {0.3, 0.0, 0.0};
    /** RMS tracking errors reported by Hua, Poursina, Sanfilippo (§V), rad. */
    private static final double[] PAPER_RMS = {0.0026819, 0.003619, 0.052678};
    private static final double[] PAPER_RMS_PAYLOAD = {0.0026903, 0.0061066, 0.052422};

    private final ElasticRobotModel model = ElasticDescriptions.load(MODEL);

    @Test
    void trackingErrorIsWithinThePapersRmsWithoutPayload()
    {
        final MixedTrackingRun.Result result = MixedElasticStudy.run(model, END_EFFECTOR, false);
        report("no payload", result);
        assertEquals(0, result.failure(), "run failed after " + result.ticks() + " ticks");
        for (int k = 0; k < 3; k++)
        {
            assertTrue(result.rmsRad()[k] <= PAPER_RMS[k], "joint " + (k + 1) + ": RMS " + result.rmsRad()[k]);
        }
    }

    @Test
    void trackingErrorIsWithinThePapersRmsWithPayload()
    {
        final MixedTrackingRun.Result result = MixedElasticStudy.run(model, END_EFFECTOR, true);
        report("payload", result);
        assertEquals(0, result.failure(), "run failed after " + result.ticks() + " ticks");
        for (int k = 0; k < 3; k++)
        {
            assertTrue(result.rmsRad()[k] <= PAPER_RMS_PAYLOAD[k], "joint " + (k + 1) + ": RMS " + result.rmsRad()[k]);
        }
    }

    /**
     * The digital controller holds each command for a period, so V2 of eq. (51) may rise within a
     * period by the sample-and-hold error; in continuous time (42), (52) forbid any rise. The largest
     * one-period rise must therefore shrink in proportion to the period: measured 4.17 J at 1 ms,
     * 1.03 J at 0.25 ms (0.256 J at 62.5 us), from V2(0) = 406.6 J, while V2 decays by 5 decades in 2 s.
     */
    @Test
    void lyapunovFunctionRisesOnlyBySampleAndHoldErrorThatVanishesWithThePeriod()
    {
        final MixedTrackingRun.Result coarse = MixedElasticStudy.run(model, model, END_EFFECTOR, false,
            1_000_000L, MixedElasticStudy.GAINS, 2.0);
        final MixedTrackingRun.Result fine = MixedElasticStudy.run(model, model, END_EFFECTOR, false,
            250_000L, MixedElasticStudy.GAINS, 2.0);
        report("V2 at 1 ms", coarse);
        report("V2 at 0.25 ms", fine);
        assertEquals(0, coarse.failure() + fine.failure());
        for (final MixedTrackingRun.Result r : new MixedTrackingRun.Result[] {coarse, fine})
        {
            assertTrue(r.lyapunovEndJoules() <= 1e-5 * r.lyapunovStartJoules(),
                "V2 " + r.lyapunovStartJoules() + " -> " + r.lyapunovEndJoules() + " J");
            assertTrue(r.lyapunovLargestRiseJoules() <= 0.02 * r.lyapunovStartJoules(),
                "largest rise " + r.lyapunovLargestRiseJoules() + " J of " + r.lyapunovStartJoules());
        }
        final double ratio = fine.lyapunovLargestRiseJoules() / coarse.lyapunovLargestRiseJoules();
        assertTrue(ratio <= 0.3, "largest rise at a quarter of the period: ratio " + ratio);
    }

    static void report(final String what, final MixedTrackingRun.Result r)
    {
        System.out.printf("%s: rms %s max %s settled max %s rate %s V2 %.6g -> %.6g largest rise %.3e clips %s %s ticks %d failure %d%n", what,
            Arrays.toString(r.rmsRad()), Arrays.toString(r.maxAbsRad()), Arrays.toString(r.maxAbsSettledRad()),
            Arrays.toString(r.maxTorqueRateNmPerS()),
            r.lyapunovStartJoules(), r.lyapunovEndJoules(), r.lyapunovLargestRiseJoules(), Arrays.toString(r.torqueClips()),
            Arrays.toString(r.rateClips()), r.ticks(), r.failure());
    }
}
