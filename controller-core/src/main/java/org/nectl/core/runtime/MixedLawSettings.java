package org.nectl.core.runtime;

import org.nectl.core.elastic.ElasticRobotModel;

/**
 * The robot with its drives and the gains of {@link ControlLaw#MIXED_ELASTIC}
 * ({@link org.nectl.core.control.MixedInverseDynamicsController}). Immutable by convention: the
 * arrays are not copied.
 *
 * @param model the robot with motors and elastic joints; its links are the cycle's model.
 * @param kpQ K_Pq per link coordinate, N m/rad (N/m), &gt; 0.
 * @param kdQ K_Dq per link coordinate, N m s/rad (N s/m), &gt; 0.
 * @param kpTheta K_Ptheta per elastic joint (elastic index), N m/rad, &gt; 0.
 * @param kdTheta K_Dtheta per elastic joint, N m s/rad, &gt; 0.
 */
public record MixedLawSettings(ElasticRobotModel model, double[] kpQ, double[] kdQ, double[] kpTheta, double[] kdTheta)
{
    /** Default K_Pq, N m/rad: with {@link #DEFAULT_KD_Q}, Lambda_q = 20 1/s. */
    public static final double DEFAULT_KP_Q = 2000.0;
    /** Default K_Dq, N m s/rad. */
    public static final double DEFAULT_KD_Q = 100.0;
    /** Default K_Ptheta, N m/rad: with {@link #DEFAULT_KD_THETA}, Lambda_theta = 10 1/s. */
    public static final double DEFAULT_KP_THETA = 20.0;
    /** Default K_Dtheta, N m s/rad. */
    public static final double DEFAULT_KD_THETA = 2.0;

    /**
     * @param model the robot with its drives (rigid: the law is unavailable).
     * @return the default gains on every joint.
     */
    public static MixedLawSettings defaults(final ElasticRobotModel model)
    {
        final int dof = model.dof();
        final int elastic = model.elasticCount();
        return new MixedLawSettings(model, CycleSettings.filled(dof, DEFAULT_KP_Q), CycleSettings.filled(dof, DEFAULT_KD_Q),
            CycleSettings.filled(elastic, DEFAULT_KP_THETA), CycleSettings.filled(elastic, DEFAULT_KD_THETA));
    }

    /** @return true if the robot has elastic joints, so that {@link ControlLaw#MIXED_ELASTIC} can run. */
    public boolean available()
    {
        return model.elasticCount() > 0 && model.passiveCount() == 0;
    }
}
