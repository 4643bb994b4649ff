package org.nectl.hw;

import java.util.Arrays;

import org.nectl.core.closedloop.ActiveJoints;
import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.dynamics.BaseMotion;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.model.RobotModel;
import org.nectl.core.simulation.ArmSimulator;
import org.nectl.hw.mujoco.MujocoPlant;
import org.nectl.transport.JointStateSample;
import org.nectl.transport.sbe.DriveMode;
import org.nectl.transport.sbe.JointStateStatusEncoder;

/**
 * A simulated torque-controlled arm: rigid-body physics ({@link ArmSimulator}), or for a robot with
 * elastic joints mixed rigid/elastic physics ({@link org.nectl.core.simulation.MixedArmSimulator}), or
 * MuJoCo's physics with contacts ({@link MujocoPlant})
 * whose drives command the motor side and whose motor encoders report theta, theta-dot; motor drives with
 * command latency and torque saturation, joint encoders with quantisation and noise, and injected
 * faults (docs/ADAPTERS.md, "Simulated arm"). Time advances only by {@link #step}, one control
 * period at a time, so the arm is deterministic: the same configuration and commands give
 * bit-identical samples.
 *
 * <p>The drives apply, per period, the command that arrived {@code latencyPeriods} periods before:
 * disabled drives hold the joints with their brakes (fail-safe brakes, as on most arms), BRAKE
 * does the same, ZERO_TORQUE lets the arm move freely, TORQUE applies tau clamped to the torque
 * limits. A tripped watchdog overrides TORQUE with zero torque at once, bypassing the latency
 * (braked joints stay braked); the watchdog's brake override engages the brakes the same way. A non-finite torque is refused by the drive (zero torque, counted).
 *
 * <p>Not thread safe: owned by the adapter thread. {@link #command}, {@link #step} and
 * {@link #sample} are real-time safe.
 */
public final class SimulatedArm
{
    /**
     * Why an arm on MuJoCo refuses the configuration's external wrenches: MuJoCo applies the wrench
     * of its scene file instead.
     */
    public static final String MUJOCO_WRENCH_REFUSAL = "an external wrench on the MuJoCo plant is declared in its scene file "
        + "(section wrench: link, point, force, torque, start, duration, ramp; docs/ADAPTERS.md); --external-wrench applies to "
        + "nectl's own physics only";

    private final int dof;
    private final long periodNs;
    private final ArmPhysics physics;
    private final CommandDelayLine delayLine;
    private final SimulatedEncoders encoders;
    private final FaultSchedule faults;
    private final double[] torqueLimitNm;
    private final double[] commandTauNm;
    private final double[] appliedTauNm;
    private final double[] trueQ;
    private final double[] trueQd;
    private final double[] trueTheta;
    private final double[] trueThetaDot;
    private DriveMode commandMode = DriveMode.ZERO_TORQUE;
    private boolean commandEnable;
    private boolean watchdogTripped;
    private boolean watchdogBraked;
    private boolean drivesEnabled;
    private boolean driveFault;
    private boolean disabled;
    private long saturationCount;
    private long refusedCommandCount;
    /** True if the base moves along a profile: each sample carries the base's motion (an IMU at the base origin). */
    private final boolean carried;
    private final BaseMotion base = new BaseMotion();
    private final SimulatedImu imu;

    /**
     * Builds the arm at rest at the configured initial positions, drives disabled, time 0, and
     * takes the first encoder sample. Not real-time safe.
     *
     * @param model the simulated robot, rigid.
     * @param config settings, copied.
     */
    public SimulatedArm(final RobotModel model, final SimulatedArmConfig config)
    {
        this(ElasticRobotModel.rigid(model), config);
    }

    /**
     * Builds the arm at rest at the configured initial positions (for elastic joints with the springs
     * holding the static load), drives disabled, time 0, and takes the first encoder sample. Not
     * real-time safe.
     *
     * @param robot the simulated robot with its drives; rigid physics if it has no elastic joints.
     * @param config settings, copied.
     */
    public SimulatedArm(final ElasticRobotModel robot, final SimulatedArmConfig config)
    {
        this(robot.links(), config, robot.elasticCount() > 0 ? new ElasticArmPhysics(robot, checkedElastic(robot, config))
            : new RigidArmPhysics(CompiledModel.of(robot.links()), checked(robot.links(), config)));
    }

    /**
     * Builds a rigid arm as {@link #SimulatedArm(ElasticRobotModel, SimulatedArmConfig)} does, on a
     * robot the caller has compiled and shares with its other algorithms. Not real-time safe.
     *
     * @param model the simulated robot, rigid, compiled under any gravity (the configuration's is used).
     * @param config settings, copied.
     */
    public SimulatedArm(final CompiledModel model, final SimulatedArmConfig config)
    {
        this(model.robot(), config, new RigidArmPhysics(model, checked(model.robot(), config)));
    }

    /**
     * Builds the arm on MuJoCo's physics (rigid joints, contacts with the plant's scene): the plant
     * gets the configuration's period, substeps and gravity and is put at rest at the initial
     * positions, drives disabled, time 0. The arm uses the plant from then on; its owner closes it
     * after the arm's last step. Not real-time safe.
     *
     * @param model nectl's model of the plant's robot.
     * @param config settings, copied; without external wrenches (MuJoCo's come from the plant's scene).
     * @param plant the MuJoCo plant of the same robot.
     * @throws IllegalArgumentException if the configuration has external wrenches.
     */
    public SimulatedArm(final RobotModel model, final SimulatedArmConfig config, final MujocoPlant plant)
    {
        this(model, config, new MujocoArmPhysics(model, plant, checkedMujoco(model, config)));
    }

    /**
     * Builds a closed-loop robot's arm in its active joints ({@link ClosedLoopArmPhysics}: the closed
     * chain's direct dynamics, the passive joints re-solved by Newton at every Runge-Kutta stage), at
     * rest at the configured initial active positions, drives disabled, time 0. Drives, encoders,
     * latency and faults are those of the active joints. Not real-time safe.
     *
     * @param model the closed-loop robot.
     * @param config settings for its active joints ({@link ActiveJoints#of}), copied; no external wrenches.
     * @throws IllegalArgumentException if the initial positions do not close the loops, or the
     *     configuration has external wrenches.
     */
    public SimulatedArm(final ClosedLoopModel model, final SimulatedArmConfig config)
    {
        this(ActiveJoints.of(model), config, new ClosedLoopArmPhysics(model, checkedClosedLoop(model, config)));
    }

    private static SimulatedArmConfig checkedClosedLoop(final ClosedLoopModel model, final SimulatedArmConfig config)
    {
        if (!config.externalWrenches().isEmpty())
        {
            throw new IllegalArgumentException("an external wrench needs a tree robot; " + model.tree().name()
                + " is a closed-loop robot");
        }
        if (config.baseMotion().isPresent())
        {
            throw new IllegalArgumentException("a moving base needs a tree robot; " + model.tree().name()
                + " is a closed-loop robot");
        }
        if (config.dof() != model.activeCount())
        {
            throw new IllegalArgumentException("configuration for " + config.dof() + " joints, "
                + model.tree().name() + " has " + model.activeCount() + " active joints");
        }
        return config;
    }

    private SimulatedArm(final RobotModel model, final SimulatedArmConfig config, final ArmPhysics physics)
    {
        dof = model.dof();
        periodNs = config.periodNs();
        this.physics = physics;
        carried = config.baseMotion().isPresent();
        delayLine = new CommandDelayLine(dof, config.latencyPeriods());
        faults = new FaultSchedule(config.faults(), periodNs);
        encoders = new SimulatedEncoders(model, config, faults);
        torqueLimitNm = config.torqueLimitNm();
        commandTauNm = new double[dof];
        appliedTauNm = new double[dof];
        trueQ = config.initialQ();
        trueQd = new double[dof];
        trueTheta = new double[dof];
        trueThetaDot = new double[dof];
        physics.motorPositions(trueTheta);
        physics.motorVelocities(trueThetaDot);
        encoders.sample(0, trueQ, trueQd);
        imu = new SimulatedImu(config);
        sampleImu(true);
    }

    private static SimulatedArmConfig checkedElastic(final ElasticRobotModel robot, final SimulatedArmConfig config)
    {
        if (!config.externalWrenches().isEmpty())
        {
            throw new IllegalArgumentException("an external wrench needs a rigid robot; " + robot.links().name() + " has elastic joints");
        }
        return checked(robot.links(), config);
    }

    private static SimulatedArmConfig checkedMujoco(final RobotModel model, final SimulatedArmConfig config)
    {
        // Two sources of applied wrenches on one plant would be ambiguous in frame and timing; MuJoCo's is the scene's.
        if (!config.externalWrenches().isEmpty())
        {
            throw new IllegalArgumentException(MUJOCO_WRENCH_REFUSAL);
        }
        if (config.baseMotion().isPresent())
        {
            throw new IllegalArgumentException("a moving base (--base-motion) is simulated by nectl's own physics only, not MuJoCo's");
        }
        return checked(model, config);
    }

    private static SimulatedArmConfig checked(final RobotModel model, final SimulatedArmConfig config)
    {
        if (config.dof() != model.dof())
        {
            throw new IllegalArgumentException("configuration for " + config.dof() + " joints, model has " + model.dof());
        }
        return config;
    }

    /** @return number of joints. */
    public int dof()
    {
        return dof;
    }

    /** @return control period, ns. */
    public long periodNs()
    {
        return periodNs;
    }

    /**
     * Hands the drives a new command, which they apply from the period {@code latencyPeriods} after
     * the next {@link #step} starts and hold until another arrives. Real-time safe.
     *
     * @param tauNm effort per joint, N m or N: the link-side torque of a rigid joint, the motor torque
     *     (reflected to the link side) of an elastic joint; copied.
     * @param mode what the drives do with tau.
     * @param enable false: drives unpowered, brakes engaged.
     */
    public void command(final double[] tauNm, final DriveMode mode, final boolean enable)
    {
        System.arraycopy(tauNm, 0, commandTauNm, 0, dof);
        commandMode = mode;
        commandEnable = enable;
    }

    /**
     * Sets the watchdog override: while tripped the drives apply zero torque, whatever the command.
     * Real-time safe.
     *
     * @param tripped true when the adapter watchdog has tripped.
     */
    public void watchdogTripped(final boolean tripped)
    {
        watchdogTripped = tripped;
    }

    /**
     * Sets the watchdog's brake override: while set the drives are unpowered and the brakes engaged,
     * whatever the command, bypassing the latency. Real-time safe.
     *
     * @param braked true once the adapter watchdog's brake timeout has passed.
     */
    public void watchdogBraked(final boolean braked)
    {
        watchdogBraked = braked;
    }

    /**
     * Unpowers the drives and engages the brakes for good, from the next {@link #step}, bypassing
     * the command latency: what the adapter does when it has lost its controller. Real-time safe.
     */
    public void disableDrives()
    {
        disabled = true;
    }

    /**
     * @return the drivesEnabled status bit of the last period: the drives powered and applying the
     *     command (false while braked, faulted or overridden by the tripped watchdog).
     */
    public boolean drivesEnabled()
    {
        return drivesEnabled;
    }

    /**
     * Integrates one control period under the drives' torques, advances time by the period and
     * samples the encoders. After a physics failure (forward dynamics singular or state not
     * finite) the drives report a fault and the joints stay braked. Real-time safe.
     *
     * @return {@link ArmSimulator#STEP_OK} or the failure code of the period.
     */
    public int step()
    {
        final int slot = delayLine.advance(commandTauNm, commandMode, commandEnable);
        int result = ArmSimulator.STEP_OK;
        if (driveFault || disabled || watchdogBraked || isBraked(slot))
        {
            drivesEnabled = false;
            physics.stepBraked();
        }
        else
        {
            drivesEnabled = !watchdogTripped;
            applyTorques(slot);
            physics.command(appliedTauNm);
            result = physics.step();
            if (result != ArmSimulator.STEP_OK)
            {
                driveFault = true;
                physics.stepBraked();
            }
        }
        physics.positions(trueQ);
        physics.velocities(trueQd);
        physics.motorPositions(trueTheta);
        physics.motorVelocities(trueThetaDot);
        encoders.sample(physics.stepCount(), trueQ, trueQd);
        sampleImu(false);
        return result;
    }

    /** One IMU sample per period, like the encoders', so its noise depends only on the seed and the period count. */
    private void sampleImu(final boolean first)
    {
        if (carried)
        {
            physics.baseMotion(base);
            imu.sample(base, first);
        }
    }

    /**
     * Fills the measured part of a JointState from the latest encoder sample: q, qd, for elastic
     * joints the motor encoders' theta, theta-dot (exact, NaN where the joint's encoder failed) and
     * the elastic mask, and the status bits (simulated, drivesEnabled, watchdogTripped, driveFault);
     * sequence and timestamp are the adapter's. Real-time safe.
     *
     * @param out the sample to fill.
     */
    public void sample(final JointStateSample out)
    {
        encoders.read(out.q(), out.qd());
        final int elasticMask = physics.elasticMask();
        for (int k = 0; k < dof; k++)
        {
            final boolean elastic = (elasticMask & (1 << k)) != 0;
            out.theta()[k] = elastic ? (Double.isNaN(out.q()[k]) ? Double.NaN : trueTheta[k]) : 0.0;
            out.thetaDot()[k] = elastic ? trueThetaDot[k] : 0.0;
        }
        short bits = JointStateStatusEncoder.simulated((short)0, true);
        bits = JointStateStatusEncoder.drivesEnabled(bits, drivesEnabled);
        bits = JointStateStatusEncoder.watchdogTripped(bits, watchdogTripped);
        bits = JointStateStatusEncoder.driveFault(bits, driveFault);
        out.statusBits(bits).elasticMask(elasticMask);
        final boolean imuWorks = carried && !faults.active(physics.stepCount(), FaultKind.IMU_LOSS);
        out.baseMotionValid(imuWorks);
        if (imuWorks)
        {
            imu.measured().toBlock(out.baseMotion());
        }
        else
        {
            Arrays.fill(out.baseMotion(), 0.0);
        }
    }

    /**
     * @return the largest loop-closure residual of a closed-loop robot's true positions, m or rad;
     *     0 for a tree. Real-time safe.
     */
    public double closureResidual()
    {
        return physics.closureResidual();
    }

    /**
     * The true positions of every joint of a closed-loop robot's equivalent tree, passive ones
     * included (the JointState carries the active joints only). Real-time safe.
     *
     * @param out receives the tree positions in tree order; untouched for a tree robot.
     */
    public void trueTreePositions(final double[] out)
    {
        physics.treePositions(out);
    }

    /** @return periods integrated since start. */
    public long stepCount()
    {
        return physics.stepCount();
    }

    /** @return simulated time since start, ns: {@code stepCount * periodNs}. */
    public long timeNs()
    {
        return physics.timeNs();
    }

    /** @return true once a STALL fault is due: the adapter must stop communicating. */
    public boolean stalled()
    {
        return faults.active(physics.stepCount(), FaultKind.STALL);
    }

    /** @return true once a CRASH fault is due: the adapter process must die. */
    public boolean crashed()
    {
        return faults.active(physics.stepCount(), FaultKind.CRASH);
    }

    /** @return true after a physics failure: drives faulted and braked for good. */
    public boolean driveFault()
    {
        return driveFault;
    }

    /** @return periods in which at least one drive clamped its torque to the limit. */
    public long saturationCount()
    {
        return saturationCount;
    }

    /** @return periods in which a drive refused a non-finite torque. */
    public long refusedCommandCount()
    {
        return refusedCommandCount;
    }

    /** @param out receives the true (unmeasured) joint positions, rad or m. Real-time safe. */
    public void truePositions(final double[] out)
    {
        System.arraycopy(trueQ, 0, out, 0, dof);
    }

    /** @param out receives the true joint velocities, rad/s or m/s. Real-time safe. */
    public void trueVelocities(final double[] out)
    {
        System.arraycopy(trueQd, 0, out, 0, dof);
    }

    /** @param out receives the true motor positions by coordinate (0 for rigid joints), rad or m. Real-time safe. */
    public void trueMotorPositions(final double[] out)
    {
        System.arraycopy(trueTheta, 0, out, 0, dof);
    }

    /** @param out receives the torques the drives applied in the last period, N m or N. Real-time safe. */
    public void appliedTorques(final double[] out)
    {
        System.arraycopy(appliedTauNm, 0, out, 0, dof);
    }

    private boolean isBraked(final int slot)
    {
        return !delayLine.enable(slot) || delayLine.mode(slot) == DriveMode.BRAKE;
    }

    private void applyTorques(final int slot)
    {
        final boolean torqueMode = !watchdogTripped && delayLine.mode(slot) == DriveMode.TORQUE;
        boolean saturated = false;
        boolean refused = false;
        for (int k = 0; k < dof; k++)
        {
            final double tau = torqueMode ? delayLine.tauNm(slot, k) : 0.0;
            if (!Double.isFinite(tau))
            {
                refused = true;
                appliedTauNm[k] = 0.0;
                continue;
            }
            final double limit = torqueLimitNm[k];
            appliedTauNm[k] = Math.max(-limit, Math.min(limit, tau));
            saturated |= appliedTauNm[k] != tau;
        }
        saturationCount += saturated ? 1 : 0;
        refusedCommandCount += refused ? 1 : 0;
    }
}
