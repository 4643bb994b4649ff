package org.nectl.core.identification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.control.ComputedTorqueController;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.RobotModel;
import org.nectl.core.simulation.ArmSimulator;
import org.nectl.core.testing.RandomRobots;

/**
 * Payload identification against nectl's own plant: the RK4 simulator carries a payload the
 * controller's model lacks; the regressor is checked against inverse dynamics, and the estimate
 * from a tracked excitation against the payload put in the plant.
 */
final class PayloadIdentificationTest
{
    private static final long PERIOD_NS = 1_000_000L;
    private static final double PERIOD_S = 1e-3;
    private static final int DOF = 7;

    /** Y pi = RNEA(model with payload pi) - RNEA(model), for random valid payloads and random motions. */
    @Test
    void theRegressorTimesTheParametersIsTheTorqueOfThePayloadOnRandomChains()
    {
        for (long seed = 1; seed <= 20; seed++)
        {
            final RobotModel model = RandomRobots.robot(seed, DOF, false, RandomRobots.Joints.MOVABLE, true);
            final SplittableRandom rnd = new SplittableRandom(seed);
            final int body = rnd.nextInt(model.bodyCount());
            final InertialParameters payload = RandomRobots.randomInertia(rnd);
            final double[] q = RandomRobots.vector(rnd, DOF, Math.PI);
            final double[] qd = RandomRobots.vector(rnd, DOF, 2);
            final double[] qdd = RandomRobots.vector(rnd, DOF, 5);
            final PayloadRegressor regressor = new PayloadRegressor(model, body);
            final double[] y = new double[DOF * PayloadRegressor.PARAMETERS];
            final double[] nominal = new double[DOF];
            regressor.compute(q, qd, qdd, y, nominal);
            final double[] expected = new double[DOF];
            new InverseDynamics(CompiledModel.of(Payloads.withPayload(model, body, payload))).compute(q, qd, qdd, expected);
            final double[] pi = Payloads.vector(payload);
            double scale = 1.0;
            double worst = 0.0;
            for (int k = 0; k < DOF; k++)
            {
                double predicted = nominal[k];
                for (int c = 0; c < PayloadRegressor.PARAMETERS; c++)
                {
                    predicted += y[k * PayloadRegressor.PARAMETERS + c] * pi[c];
                }
                scale = Math.max(scale, Math.abs(expected[k]));
                worst = Math.max(worst, Math.abs(predicted - expected[k]));
            }
            assertTrue(worst <= 1e-9 * scale, "seed " + seed + ": Y pi off by " + worst + " N m");
        }
    }

    /**
     * A 1.5 kg payload whose centre of mass is 5 cm off the last link's origin (and 2 cm along it),
     * tracked through a 4 s excitation on three random 7-joint chains: mass within 3 %, centre of
     * mass within 5 mm; tracking with the identified payload in the model beats tracking without it.
     */
    @Test
    void aPayloadOnTheLastLinkIsIdentifiedFromATrackedExcitation()
    {
        for (long seed = 1; seed <= 3; seed++)
        {
            final RobotModel model = RandomRobots.robot(seed, DOF, false, RandomRobots.Joints.REVOLUTE, true);
            final int body = model.bodyCount() - 1;
            final double[] centre = {0.05, 0.0, 0.02};
            final InertialParameters payload = InertialParameters.ofCentreOfMass(1.5, centre,
                new double[] {4e-3, 0, 0, 0, 3e-3, 0, 0, 0, 2e-3});
            final RobotModel plant = Payloads.withPayload(model, body, payload);
            final ExcitationTrajectory excitation = new ExcitationTrajectory(
                RandomRobots.vector(new SplittableRandom(seed), DOF, 1.0), 4.0, 0.6, seed);
            final Run before = track(model, plant, excitation);
            final PayloadIdentification identification = new PayloadIdentification(model, body);
            before.feed(identification);
            final PayloadEstimate estimate = identification.estimate();
            final double[] c = estimate.centreOfMass();
            final double centreError = Math.sqrt(Math.pow(c[0] - centre[0], 2) + Math.pow(c[1] - centre[1], 2)
                + Math.pow(c[2] - centre[2], 2));
            final Run after = track(Payloads.withPayload(model, body, estimate.body()), plant, excitation);
            System.out.printf("seed %d: mass %.4f kg (1.5), centre of mass off by %.2f mm, inertia %s, condition %.3g;"
                + " tracking RMS %.3e rad without the payload, %.3e rad with the estimate%n", seed, estimate.mass(),
                centreError * 1e3, estimate.inertiaIdentified() ? "identified" : "not identified", estimate.conditionNumber(),
                before.rms(), after.rms());
            assertEquals(1.5, estimate.mass(), 0.03 * 1.5, "seed " + seed + "\n" + estimate.report());
            assertTrue(centreError <= 0.005, "seed " + seed + ": centre of mass off by " + centreError + " m\n" + estimate.report());
            assertTrue(after.rms() < before.rms(), "seed " + seed + ": tracking RMS " + after.rms() + " >= " + before.rms());
        }
    }

    /** Computed torque with {@code controllerModel} on a plant of {@code plantModel}, following the excitation once. */
    private static Run track(final RobotModel controllerModel, final RobotModel plantModel, final ExcitationTrajectory excitation)
    {
        final int ticks = (int)Math.round(excitation.periodS() / PERIOD_S);
        final ArmSimulator plant = new ArmSimulator(plantModel, PERIOD_NS, 4);
        final double[] kp = new double[DOF];
        final double[] kd = new double[DOF];
        Arrays.fill(kp, 400.0);
        Arrays.fill(kd, 40.0);
        final ComputedTorqueController controller = new ComputedTorqueController(CompiledModel.of(controllerModel), kp, kd);
        final Run run = new Run(ticks);
        final double[] q = new double[DOF];
        final double[] qd = new double[DOF];
        final double[] qdd = new double[DOF];
        final double[] zero = new double[DOF];
        final double[] scratch = new double[DOF];
        final double[] scratchRate = new double[DOF];
        excitation.sample(0.0, q, qd, qdd);
        plant.reset(q, qd);
        double squares = 0.0;
        for (int k = 0; k <= ticks; k++)
        {
            excitation.sample(k * PERIOD_S, q, qd, qdd);
            plant.positions(run.q[k]);
            plant.velocities(run.qd[k]);
            controller.compute(run.q[k], run.qd[k], q, qd, qdd, zero, run.tau[k], scratch, scratchRate);
            for (int j = 0; j < DOF; j++)
            {
                squares += (q[j] - run.q[k][j]) * (q[j] - run.q[k][j]);
            }
            plant.torque(run.tau[k]);
            assertEquals(ArmSimulator.STEP_OK, plant.step());
        }
        run.rms = Math.sqrt(squares / ((ticks + 1) * DOF));
        return run;
    }

    /** One tracked run: measured q, qd and the torque applied over each following period. */
    private static final class Run
    {
        final double[][] q;
        final double[][] qd;
        final double[][] tau;
        double rms;

        Run(final int ticks)
        {
            q = new double[ticks + 1][DOF];
            qd = new double[ticks + 1][DOF];
            tau = new double[ticks + 1][DOF];
        }

        double rms()
        {
            return rms;
        }

        /**
         * Central differences of qd give the mean acceleration over two periods, across the step of
         * the held torque at the sample: it pairs with the mean of the two torques.
         */
        void feed(final PayloadIdentification identification)
        {
            final double[] qdd = new double[DOF];
            final double[] meanTau = new double[DOF];
            for (int k = 1; k < q.length - 1; k++)
            {
                for (int j = 0; j < DOF; j++)
                {
                    qdd[j] = (qd[k + 1][j] - qd[k - 1][j]) / (2 * PERIOD_S);
                    meanTau[j] = 0.5 * (tau[k - 1][j] + tau[k][j]);
                }
                identification.add(q[k], qd[k], qdd, meanTau);
            }
        }
    }
}
