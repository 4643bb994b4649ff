package org.nectl.core.simulation;

import java.util.Arrays;

import org.nectl.core.dynamics.BaseFramePoses;
import org.nectl.core.dynamics.BaseMotion;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.elastic.RecursiveMixedForwardDynamics;
import org.nectl.core.elastic.UnifiedBodies;
import org.nectl.core.mobile.BaseMotionProfile;

/**
 * Closed-loop simulation of an arm with mixed rigid and elastic joints: the state (q, theta, qd,
 * theta_d) is advanced over one control period under motor torques held constant during the period
 * (zero-order hold), by a fixed number of substeps of the classical fourth-order Runge-Kutta method
 * (Kutta, 1901) with the recursive forward dynamics of {@link RecursiveMixedForwardDynamics} (Khalil
 * 2010 §6.2 on the unified rigid bodies of Hua, Poursina, Sanfilippo, "Dynamic Modelling of Mixed
 * Rigid-Flexible Joint Robotic Manipulator Using Recursive Newton-Euler Formulation"; motors on any
 * link, passive joints included). Like {@link ArmSimulator}, simulated time is a whole number of periods,
 * so the same inputs give bit-identical states on every run.
 *
 * <p>Commands are per joint coordinate: the motor torque of a rigid joint, or the motor torque of an
 * elastic joint (reflected, see {@link org.nectl.core.elastic.Motor}). A load fixed in the base frame
 * (e.g. a payload's weight) can act at a point of a body; it is re-expressed in the body frame at
 * every Runge-Kutta stage.
 *
 * <p>The base may be carried along a prescribed profile ({@link #baseMotion(BaseMotionProfile)}): its
 * motion at each Runge-Kutta stage's time is the root's motion of the forward dynamics, its specific
 * force replacing gravity, as {@link ArmSimulator} does for a rigid arm.
 *
 * <p>Not thread safe: one instance per thread. {@link #step}, {@link #stepBraked}, {@link #command}
 * and the state accessors are real-time safe.
 */
public final class MixedArmSimulator
{
    private final RecursiveMixedForwardDynamics forwardDynamics;
    private final BaseFramePoses poses;
    private final ElasticRobotModel model;
    private final int dof;
    private final int elastic;
    private final int size;
    private final long periodNs;
    private final int substeps;
    private final double substepS;
    /** State x = (q, theta, qd, thetad), 2 (dof + elastic) entries. */
    private final double[] state;
    private final double[] stage;
    private final double[] rate;
    private final double[] sum;
    private final double[] jointTorque;
    private final double[] motorTorque;
    private final double[] q;
    private final double[] theta;
    private final double[] qd;
    private final double[] thetad;
    private final double[] qdd;
    private final double[] thetadd;
    private final double[] loadForceBase = new double[3];
    private final double[] loadPoint = new double[3];
    private final double[] bodyForce = new double[3];
    private int loadBody = -1;
    private long stepCount;
    /** The carried base's prescribed motion, or null for a fixed base. */
    private BaseMotionProfile baseProfile;
    /** The base's motion at the current stage, or null for a fixed base. */
    private BaseMotion stageBase;
    private final BaseMotion baseMotion = new BaseMotion();
    private final double[] gravity = {0.0, 0.0, -9.81};

    /**
     * Not real-time safe: allocates the state and the workspace. Starts at rest at q = theta = 0,
     * zero torque, gravity (0, 0, -9.81), friction on, no load.
     *
     * @param bodies the robot's unified bodies, shared with the caller's other mixed algorithms on it.
     * @param periodNs control period one {@link #step} integrates, ns, positive.
     * @param substeps Runge-Kutta steps per period, at least 1.
     */
    public MixedArmSimulator(final UnifiedBodies bodies, final long periodNs, final int substeps)
    {
        final ElasticRobotModel model = bodies.robot();
        if (periodNs <= 0 || substeps < 1)
        {
            throw new IllegalArgumentException("period " + periodNs + " ns must be positive and substeps "
                + substeps + " at least 1");
        }
        this.model = model;
        forwardDynamics = new RecursiveMixedForwardDynamics(bodies);
        poses = new BaseFramePoses(CompiledModel.of(model.links()));
        dof = model.dof();
        elastic = model.elasticCount();
        size = dof + elastic;
        this.periodNs = periodNs;
        this.substeps = substeps;
        substepS = periodNs * 1e-9 / substeps;
        state = new double[2 * size];
        stage = new double[2 * size];
        rate = new double[2 * size];
        sum = new double[2 * size];
        jointTorque = new double[dof];
        motorTorque = new double[elastic];
        q = new double[dof];
        theta = new double[elastic];
        qd = new double[dof];
        thetad = new double[elastic];
        qdd = new double[dof];
        thetadd = new double[elastic];
    }

    /**
     * Sets the gravity vector (default 0, 0, -9.81). Real-time safe.
     *
     * @param gx x component in the base frame, m/s^2.
     * @param gy y component in the base frame, m/s^2.
     * @param gz z component in the base frame, m/s^2.
     */
    public void gravity(final double gx, final double gy, final double gz)
    {
        forwardDynamics.gravity(gx, gy, gz);
        gravity[0] = gx;
        gravity[1] = gy;
        gravity[2] = gz;
    }

    /**
     * Puts the arm on a carried base moving along a prescribed profile (null: a fixed base, the
     * default), evaluated at each Runge-Kutta stage's time, simulated time 0 being the profile's
     * start (class comment). Not real-time safe.
     *
     * @param profile the base's motion, or null.
     */
    public void baseMotion(final BaseMotionProfile profile)
    {
        baseProfile = profile;
        stageBase = profile == null ? null : baseMotion;
    }

    /**
     * The base's motion at simulated time t (a fixed base: at rest under the set gravity). Real-time safe.
     *
     * @param timeS simulated time, s.
     * @param out receives the motion.
     */
    public void baseMotionAt(final double timeS, final BaseMotion out)
    {
        if (baseProfile == null)
        {
            out.atRest(gravity);
        }
        else
        {
            baseProfile.at(timeS, gravity, out);
        }
    }

    /**
     * Switches link-side and motor-side friction on or off (default on). Real-time safe.
     *
     * @param enabled true to resist motion with the model's friction.
     */
    public void friction(final boolean enabled)
    {
        forwardDynamics.friction(enabled);
    }

    /**
     * Applies a force fixed in the base frame at a point fixed in a link, until changed (one such
     * load at a time). Real-time safe.
     *
     * @param body link body index.
     * @param pointInBody point of application, m, body frame.
     * @param forceInBase force, N, base frame.
     */
    public void baseFrameLoad(final int body, final double[] pointInBody, final double[] forceInBase)
    {
        loadBody = body;
        System.arraycopy(pointInBody, 0, loadPoint, 0, 3);
        System.arraycopy(forceInBase, 0, loadForceBase, 0, 3);
    }

    /**
     * Sets the state and restarts simulated time at 0; the command is kept. Real-time safe.
     *
     * @param positions q by coordinate.
     * @param motorPositions theta by elastic index (reflected).
     * @param velocities qd by coordinate.
     * @param motorVelocities thetad by elastic index.
     */
    public void reset(final double[] positions, final double[] motorPositions, final double[] velocities,
        final double[] motorVelocities)
    {
        System.arraycopy(positions, 0, state, 0, dof);
        System.arraycopy(motorPositions, 0, state, dof, elastic);
        System.arraycopy(velocities, 0, state, size, dof);
        System.arraycopy(motorVelocities, 0, state, size + dof, elastic);
        stepCount = 0;
    }

    /**
     * Sets the motor torques applied from now on. Real-time safe.
     *
     * @param commandNm per joint coordinate: rigid joint motor torque, or elastic joint motor torque, N m (N).
     */
    public void command(final double[] commandNm)
    {
        for (int k = 0; k < dof; k++)
        {
            final int e = model.elasticIndex(k);
            if (e >= 0)
            {
                motorTorque[e] = commandNm[k];
                jointTorque[k] = 0.0;
            }
            else
            {
                jointTorque[k] = commandNm[k];
            }
        }
    }

    /**
     * Integrates one control period. Real-time safe: allocates nothing.
     *
     * @return {@link ArmSimulator#STEP_OK}, {@link ArmSimulator#STEP_SINGULAR} (an articulated inertia
     *     not positive; the state is that of the last good substep) or {@link ArmSimulator#STEP_NON_FINITE}.
     */
    public int step()
    {
        if (!allFinite(jointTorque) || !allFinite(motorTorque))
        {
            return ArmSimulator.STEP_NON_FINITE;
        }
        for (int s = 0; s < substeps; s++)
        {
            if (!rungeKuttaStep(timeNs() * 1e-9 + s * substepS))
            {
                return allFinite(state) ? ArmSimulator.STEP_SINGULAR : ArmSimulator.STEP_NON_FINITE;
            }
        }
        stepCount++;
        return allFinite(state) ? ArmSimulator.STEP_OK : ArmSimulator.STEP_NON_FINITE;
    }

    /**
     * Advances simulated time by one period with every link and motor held by its brake: the
     * velocities become zero and the positions stay. Real-time safe.
     */
    public void stepBraked()
    {
        Arrays.fill(state, size, 2 * size, 0.0);
        stepCount++;
    }

    /** One classical Runge-Kutta step of length h from a time, s; false if the dynamics failed at a stage. */
    private boolean rungeKuttaStep(final double startS)
    {
        final double h = substepS;
        if (!derivative(state, startS))
        {
            return false;
        }
        for (int i = 0; i < state.length; i++)
        {
            sum[i] = rate[i];
            stage[i] = state[i] + 0.5 * h * rate[i];
        }
        for (int k = 2; k <= 3; k++)
        {
            if (!derivative(stage, startS + 0.5 * h))
            {
                return false;
            }
            final double c = k == 2 ? 0.5 * h : h;
            for (int i = 0; i < state.length; i++)
            {
                sum[i] += 2.0 * rate[i];
                stage[i] = state[i] + c * rate[i];
            }
        }
        if (!derivative(stage, startS + h))
        {
            return false;
        }
        for (int i = 0; i < state.length; i++)
        {
            state[i] += h / 6.0 * (sum[i] + rate[i]);
        }
        return true;
    }

    /** rate = dx/dt at x = (q, theta, qd, thetad) and a time, s; false if the forward dynamics failed. */
    private boolean derivative(final double[] x, final double timeS)
    {
        System.arraycopy(x, 0, q, 0, dof);
        System.arraycopy(x, dof, theta, 0, elastic);
        System.arraycopy(x, size, qd, 0, dof);
        System.arraycopy(x, size + dof, thetad, 0, elastic);
        applyLoad();
        if (stageBase != null)
        {
            baseProfile.at(timeS, gravity, stageBase);
        }
        if (!forwardDynamics.compute(q, theta, qd, thetad, jointTorque, motorTorque, stageBase, qdd, thetadd))
        {
            return false;
        }
        System.arraycopy(x, size, rate, 0, size);
        System.arraycopy(qdd, 0, rate, size, dof);
        System.arraycopy(thetadd, 0, rate, size + dof, elastic);
        return true;
    }

    /** The base-frame load as a body-frame wrench about the body origin: (R^T f, p x R^T f). */
    private void applyLoad()
    {
        if (loadBody < 0)
        {
            return;
        }
        poses.compute(q);
        poses.toBody(loadBody, loadForceBase, bodyForce);
        final double fx = bodyForce[0];
        final double fy = bodyForce[1];
        final double fz = bodyForce[2];
        final double px = loadPoint[0];
        final double py = loadPoint[1];
        final double pz = loadPoint[2];
        forwardDynamics.externalWrench(loadBody, fx, fy, fz, py * fz - pz * fy, pz * fx - px * fz, px * fy - py * fx);
    }

    /** @param out receives q by coordinate. Real-time safe. */
    public void positions(final double[] out)
    {
        System.arraycopy(state, 0, out, 0, dof);
    }

    /** @param out receives theta by elastic index. Real-time safe. */
    public void motorPositions(final double[] out)
    {
        System.arraycopy(state, dof, out, 0, elastic);
    }

    /** @param out receives qd by coordinate. Real-time safe. */
    public void velocities(final double[] out)
    {
        System.arraycopy(state, size, out, 0, dof);
    }

    /** @param out receives thetad by elastic index. Real-time safe. */
    public void motorVelocities(final double[] out)
    {
        System.arraycopy(state, size + dof, out, 0, elastic);
    }

    /** @return simulated time since the last {@link #reset}, ns: exactly steps times the period. */
    public long timeNs()
    {
        return stepCount * periodNs;
    }

    /** @return periods integrated or braked since the last {@link #reset}. */
    public long stepCount()
    {
        return stepCount;
    }

    /** @return number of elastic joints (motor coordinates theta). */
    public int elasticCount()
    {
        return elastic;
    }

    private static boolean allFinite(final double[] values)
    {
        for (final double v : values)
        {
            if (!Double.isFinite(v))
            {
                return false;
            }
        }
        return true;
    }
}
