package org.nectl.service.cli;

import org.nectl.core.control.MixedInverseDynamicsController;
import org.nectl.core.control.TorqueLimiter;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.elastic.MotorReference;
import org.nectl.core.elastic.RestingMotorPositions;
import org.nectl.core.elastic.UnifiedBodies;
import org.nectl.core.simulation.MixedArmSimulator;
import org.nectl.core.simulation.MixedTrackingRun;

/**
 * The tracking scenario of Hua, Poursina, Sanfilippo ("Dynamic Modelling of Mixed Rigid-Flexible
 * Joint Robotic Manipulator Using Recursive Newton-Euler Formulation", §V): every joint follows
 * q_d = 0.5 sin(0.5 pi t) for 10 s from q(0) = [0, 0, -0.4363] rad at rest, under the mixed
 * inverse-dynamics controller, optionally with a 3 N downward force at the end effector that the
 * controller does not know.
 *
 * <p>Initial motor state: at rest, each elastic joint's spring holding its link's static load at
 * q(0) (theta = q + tau_static / K), as if the arm had been held there.
 *
 * <p>Gains (chosen, the paper gives none): K_Pq = 2000 N m/rad and K_Dq = 100 N m s/rad on every
 * joint (Lambda_q = 20 1/s), K_Ptheta = 20 N m/rad, K_Dtheta = 2 N m s/rad (Lambda_theta = 10 1/s).
 * Control period 1 ms, 4 Runge-Kutta substeps per period. Not real-time safe (set-up and a whole run).
 */
final class MixedElasticStudy
{
    /** Amplitude of the reference, rad. */
    static final double AMPLITUDE_RAD = 0.5;
    /** Angular frequency of the reference, rad/s. */
    static final double OMEGA_RAD_PER_S = 0.5 * Math.PI;
    /** Initial link positions, rad. */
    static final double[] INITIAL_Q = {0.0, 0.0, -0.4363};
    static final double DURATION_S = 10.0;
    /** Start of the settled part of a run (after the initial error has died out), s. */
    static final double SETTLE_S = 2.0;
    static final long PERIOD_NS = 1_000_000L;
    static final int SUBSTEPS = 4;
    /** Gravity in the base frame, m/s^2 (the simulator's and the controller's default). */
    private static final double[] GRAVITY = {0.0, 0.0, -9.81};
    /** Payload: force in the base frame, N, at the end effector. */
    static final double[] PAYLOAD_FORCE_N = {0.0, 0.0, -3.0};
    /** The study's gains, see the class comment. */
    static final Gains GAINS = new Gains(new double[] {2000.0, 2000.0, 2000.0}, new double[] {100.0, 100.0, 100.0},
        new double[] {20.0}, new double[] {2.0});

    /**
     * Controller gains of eqs. (37)-(49).
     *
     * @param kpQ K_Pq per joint, N m/rad.
     * @param kdQ K_Dq per joint, N m s/rad.
     * @param kpTheta K_Ptheta per elastic joint, N m/rad.
     * @param kdTheta K_Dtheta per elastic joint, N m s/rad.
     */
    record Gains(double[] kpQ, double[] kdQ, double[] kpTheta, double[] kdTheta)
    {
    }

    private MixedElasticStudy()
    {
    }

    /**
     * Runs the scenario with the controller's model equal to the plant's.
     *
     * @param plant the simulated robot.
     * @param endEffectorPoint the end effector in the last body's frame, m.
     * @param payload true to apply {@link #PAYLOAD_FORCE_N} there.
     * @return the measurements.
     */
    static MixedTrackingRun.Result run(final ElasticRobotModel plant, final double[] endEffectorPoint, final boolean payload)
    {
        return run(plant, plant, endEffectorPoint, payload, PERIOD_NS, GAINS, DURATION_S);
    }

    /**
     * Runs the scenario. The controller's torque and torque-rate limits are the joint limits of its
     * model's links.
     *
     * @param plant the simulated robot.
     * @param controllerModel the controller's model of it (same joints and motors).
     * @param endEffectorPoint the end effector in the last body's frame, m.
     * @param payload true to apply {@link #PAYLOAD_FORCE_N} there.
     * @param periodNs control period, ns.
     * @param gains controller gains.
     * @param durationS simulated time, s.
     * @return the measurements.
     */
    static MixedTrackingRun.Result run(final ElasticRobotModel plant, final ElasticRobotModel controllerModel,
        final double[] endEffectorPoint, final boolean payload, final long periodNs, final Gains gains, final double durationS)
    {
        return run(plant, controllerModel, endEffectorPoint, payload, periodNs, gains, durationS,
            MotorReference.Form.ALONG_REFERENCE);
    }

    /**
     * Runs the scenario with the given form of eq. 43, otherwise as
     * {@link #run(ElasticRobotModel, ElasticRobotModel, double[], boolean, long, Gains, double)}.
     *
     * @param plant the simulated robot.
     * @param controllerModel the controller's model of it (same joints and motors).
     * @param endEffectorPoint the end effector in the last body's frame, m.
     * @param payload true to apply {@link #PAYLOAD_FORCE_N} there.
     * @param periodNs control period, ns.
     * @param gains controller gains.
     * @param durationS simulated time, s.
     * @param form where the controller takes theta_d from.
     * @return the measurements.
     */
    static MixedTrackingRun.Result run(final ElasticRobotModel plant, final ElasticRobotModel controllerModel,
        final double[] endEffectorPoint, final boolean payload, final long periodNs, final Gains gains, final double durationS,
        final MotorReference.Form form)
    {
        final UnifiedBodies plantBodies = UnifiedBodies.of(plant);
        final MixedArmSimulator simulator = new MixedArmSimulator(plantBodies, periodNs, SUBSTEPS);
        if (payload)
        {
            simulator.baseFrameLoad(plant.links().bodyCount() - 1, endEffectorPoint, PAYLOAD_FORCE_N);
        }
        final int dof = plant.dof();
        simulator.reset(INITIAL_Q, RestingMotorPositions.compute(plantBodies, INITIAL_Q, GRAVITY), new double[dof], new double[plant.elasticCount()]);
        final MixedInverseDynamicsController controller = new MixedInverseDynamicsController(UnifiedBodies.of(controllerModel),
            gains.kpQ(), gains.kdQ(), gains.kpTheta(), gains.kdTheta(), new TorqueLimiter(controllerModel.links(), periodNs));
        controller.motorReferenceForm(form);
        final long ticks = Math.round(durationS / (periodNs * 1e-9));
        return MixedTrackingRun.run(simulator, controller, MixedElasticStudy::sinusoid, periodNs, ticks,
            Math.round(SETTLE_S / (periodNs * 1e-9)));
    }

    /** q_d = A sin(w t) on every joint and its derivatives up to the 4th. */
    static void sinusoid(final double timeS, final double[][] out)
    {
        final double s = AMPLITUDE_RAD * Math.sin(OMEGA_RAD_PER_S * timeS);
        final double c = AMPLITUDE_RAD * Math.cos(OMEGA_RAD_PER_S * timeS);
        final double w = OMEGA_RAD_PER_S;
        for (int k = 0; k < out[0].length; k++)
        {
            out[0][k] = s;
            out[1][k] = w * c;
            out[2][k] = -w * w * s;
            out[3][k] = -w * w * w * c;
            out[4][k] = w * w * w * w * s;
        }
    }
}
