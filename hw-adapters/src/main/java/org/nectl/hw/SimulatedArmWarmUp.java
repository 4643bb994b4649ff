package org.nectl.hw;

import java.util.function.Function;

import org.nectl.core.closedloop.ActiveJoints;
import org.nectl.core.closedloop.ClosedLoopLawDynamics;
import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.control.LawDynamics;
import org.nectl.core.control.TreeLawDynamics;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.model.RobotModel;
import org.nectl.core.simulation.ArmSimulator;
import org.nectl.transport.JointStateSample;
import org.nectl.transport.sbe.DriveMode;

/**
 * Runs a throwaway copy of a simulated arm with its drives powered, holding itself against
 * gravity, so that the JIT has compiled the powered physics before the real arm goes live. A
 * simulated arm starts braked, and braked periods do not integrate the dynamics: without this, the
 * first periods after the controller's ENABLE run the forward dynamics interpreted, take
 * milliseconds each, and the controller sees no new state for several periods in a row (the
 * STATE_MISSING fault of the 1 kHz soak run, docs/SAFETY.md).
 *
 * <p>The copy shares nothing with the live arm but the model: no faults, no noise, no latency.
 * Not real-time safe; run it before the adapter starts.
 */
public final class SimulatedArmWarmUp
{
    /** Enough powered periods for C2 to compile the step and its forward dynamics (about 10^4 invocations each). */
    public static final int DEFAULT_PERIODS = 20_000;

    private SimulatedArmWarmUp()
    {
    }

    /**
     * Steps a powered copy of the arm, commanding the gravity torque of its current pose each
     * period.
     *
     * @param robot the simulated robot, as given to the live arm.
     * @param config the live arm's settings; only period, substeps, torque limits, initial pose and
     *     gravity are used.
     * @param periods periods to step, at least 1.
     * @return the copy's state at the end is finite: false would mean the physics failed, which the
     *     live arm would report as a drive fault too.
     */
    public static boolean run(final ElasticRobotModel robot, final SimulatedArmConfig config, final int periods)
    {
        if (robot.elasticCount() == 0)
        {
            final double[] g = config.gravity();
            return run(CompiledModel.of(robot.links(), g[0], g[1], g[2]), config, periods);
        }
        return run(robot.links(), config, periods, copy -> new SimulatedArm(robot, copy));
    }

    /**
     * Steps a powered copy of a rigid arm, commanding the gravity torque of its current pose each
     * period; the copy's physics and the holding torques share the caller's compiled robot.
     *
     * @param model the simulated robot, rigid, compiled under the configuration's gravity.
     * @param config the live arm's settings; only period, substeps, torque limits, initial pose and
     *     gravity are used.
     * @param periods periods to step, at least 1.
     * @return the copy's state at the end is finite.
     */
    public static boolean run(final CompiledModel model, final SimulatedArmConfig config, final int periods)
    {
        return run(model.robot(), config, periods, copy -> new SimulatedArm(model, copy), new TreeLawDynamics(model));
    }

    /**
     * Steps a powered copy of an arm built by {@code arms} (e.g. on a MuJoCo plant of its own),
     * commanding the gravity torque of its current pose each period.
     *
     * @param model the simulated robot's links.
     * @param config the live arm's settings; only period, substeps, torque limits, initial pose and
     *     gravity are used.
     * @param periods periods to step, at least 1.
     * @param arms builds the copy from the copy's settings.
     * @return the copy's state at the end is finite.
     */
    public static boolean run(final RobotModel model, final SimulatedArmConfig config, final int periods,
        final Function<SimulatedArmConfig, SimulatedArm> arms)
    {
        final double[] g = config.gravity();
        return run(model, config, periods, arms, new TreeLawDynamics(CompiledModel.of(model, g[0], g[1], g[2])));
    }

    /**
     * Steps a powered copy of a closed-loop robot's arm, commanding the active joints' holding
     * torque (Gamma_c at rest) of its current pose each period.
     *
     * @param model the closed-loop robot, as given to the live arm.
     * @param config the live arm's settings; only period, substeps, torque limits, initial pose and
     *     gravity are used.
     * @param periods periods to step, at least 1.
     * @return the copy's state at the end is finite (the closed-chain physics never failed).
     */
    public static boolean run(final ClosedLoopModel model, final SimulatedArmConfig config, final int periods)
    {
        final double[] g = config.gravity();
        return run(ActiveJoints.of(model), config, periods, copy -> new SimulatedArm(model, copy),
            new ClosedLoopLawDynamics(model, CompiledModel.of(model.tree(), g[0], g[1], g[2])));
    }

    private static boolean run(final RobotModel model, final SimulatedArmConfig config, final int periods,
        final Function<SimulatedArmConfig, SimulatedArm> arms, final LawDynamics gravity)
    {
        if (periods < 1)
        {
            throw new IllegalArgumentException("warm-up periods must be at least 1, got " + periods);
        }
        final double[] g = config.gravity();
        final SimulatedArmConfig copy = new SimulatedArmConfig(model)
            .periodNs(config.periodNs())
            .substeps(config.substeps())
            .torqueLimitNm(config.torqueLimitNm())
            .initialQ(config.initialQ())
            .gravity(g[0], g[1], g[2]);
        final SimulatedArm arm = arms.apply(copy);
        final double[] q = new double[model.dof()];
        final double[] tau = new double[model.dof()];
        final JointStateSample sample = new JointStateSample(model.dof());
        boolean ok = true;
        for (int period = 0; period < periods && ok; period++)
        {
            arm.truePositions(q);
            ok = gravity.gravityTorques(q, tau);
            arm.command(tau, DriveMode.TORQUE, true);
            ok &= arm.step() == ArmSimulator.STEP_OK;
            arm.sample(sample);
        }
        arm.truePositions(q);
        for (final double value : q)
        {
            ok &= Double.isFinite(value);
        }
        return ok;
    }
}
