package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.nectl.config.ElasticDescriptions;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.elastic.MotorReference;
import org.nectl.core.simulation.MixedTrackingRun;

/**
 * The paper's tracking scenario (Hua, Poursina, Sanfilippo, §V) under both forms of eq. 43: the
 * motor reference along the reference (default) and as printed, from the measured q and the load
 * law's torque. Measured (docs/CONTROL.md): the printed form halves joint 3's RMS error but its
 * elastic motor's command changes about 15 times faster.
 */
class MotorReferenceFormStudyTest
{
    private static final double[] PAPER_RMS = {0.0026819, 0.003619, 0.052678};
    private static final double[] PAPER_RMS_PAYLOAD = {0.0026903, 0.0061066, 0.052422};

    private final ElasticRobotModel model = ElasticDescriptions.load(MixedElasticStudyTest.MODEL);

    @Test
    void thePrintedFormTracksTheElasticJointCloserAtAFarHigherMotorTorqueRate()
    {
        for (final boolean payload : new boolean[] {false, true})
        {
            final MixedTrackingRun.Result along = run(MotorReference.Form.ALONG_REFERENCE, payload);
            final MixedTrackingRun.Result printed = run(MotorReference.Form.CONTROL_LAW, payload);
            final double[] paper = payload ? PAPER_RMS_PAYLOAD : PAPER_RMS;
            for (int k = 0; k < 3; k++)
            {
                assertTrue(along.rmsRad()[k] <= paper[k], "along the reference, joint " + (k + 1) + ": " + along.rmsRad()[k]);
                assertTrue(printed.rmsRad()[k] <= paper[k], "as printed, joint " + (k + 1) + ": " + printed.rmsRad()[k]);
            }
            assertTrue(printed.rmsRad()[2] < 0.6 * along.rmsRad()[2],
                "joint 3 RMS " + printed.rmsRad()[2] + " vs " + along.rmsRad()[2]);
            final double rateRatio = printed.maxTorqueRateNmPerS()[2] / along.maxTorqueRateNmPerS()[2];
            assertTrue(rateRatio >= 5.0, "elastic motor's largest torque rate ratio " + rateRatio);
        }
    }

    private MixedTrackingRun.Result run(final MotorReference.Form form, final boolean payload)
    {
        final MixedTrackingRun.Result r = MixedElasticStudy.run(model, model, MixedElasticStudyTest.END_EFFECTOR, payload,
            MixedElasticStudy.PERIOD_NS, MixedElasticStudy.GAINS, MixedElasticStudy.DURATION_S, form);
        MixedElasticStudyTest.report(form + (payload ? " payload" : " no payload"), r);
        assertEquals(0, r.failure(), form + ": run failed after " + r.ticks() + " ticks");
        return r;
    }
}
