package org.nectl.core.simulation;

import org.nectl.core.dynamics.AppliedLoads;
import org.nectl.core.dynamics.BaseMotion;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.RecursiveForwardDynamics;
import org.nectl.core.mobile.BaseMotionProfile;
import org.nectl.core.mobile.CarriedBaseForwardDynamics;
import org.nectl.core.model.RobotModel;

/**
 * Closed-loop simulation of a rigid arm in joint space: the state (q, qd) is advanced over one
 * control period under joint torques held constant during the period (zero-order hold, as a drive
 * holds a command until the next one), by a fixed number of substeps of the classical fourth-order
 * Runge-Kutta method (Kutta, "Beitrag zur naeherungsweisen Integration totaler
 * Differentialgleichungen", 1901) on x = (q, qd), dx/dt = (qd, FD(q, qd, tau)), with FD the
 * articulated-body forward dynamics of {@link RecursiveForwardDynamics}. The local error is
 * O(h^5) per substep, so the error over a fixed time shrinks as h^4.
 *
 * <p>Simulated time is kept as a whole number of periods, so it is exact and the same inputs give
 * bit-identical states on every run.
 *
 * <p>Not thread safe: one instance per thread. {@link #step}, {@link #stepBraked}, {@link #torque},
 * {@link #accelerations} and the state accessors are real-time safe.
 */
public final class ArmSimulator
{
    /** {@link #step} result: the period was integrated. */
    public static final int STEP_OK = 0;
    /**
     * {@link #step} result: forward dynamics had no solution (a massless chain end without rotor
     * inertia); the state is that of the last successful substep.
     */
    public static final int STEP_SINGULAR = 1;
    /**
     * {@link #step} result: a non-finite applied torque (the state is then unchanged), or a state
     * that stopped being finite (divergence).
     */
    public static final int STEP_NON_FINITE = 2;

    private final RecursiveForwardDynamics forwardDynamics;
    /** The plant's gravity, passed to the forward dynamics each call. */
    private final AppliedLoads loads;
    private final int dof;
    private final long periodNs;
    private final int substeps;
    private final double substepS;
    private final double[] q;
    private final double[] qd;
    private final double[] tauNm;
    /** Position and velocity of the current Runge-Kutta stage. */
    private final double[] stageQ;
    private final double[] stageQd;
    private final double[] stageQdd;
    /** Weighted sums k1 + 2 k2 + 2 k3 + k4 of the stage derivatives of q and of qd. */
    private final double[] sumQd;
    private final double[] sumQdd;
    private long stepCount;
    /** The carried base's prescribed motion, or null for a fixed base. */
    private BaseMotionProfile baseProfile;
    private CarriedBaseForwardDynamics carriedDynamics;
    private final BaseMotion baseMotion = new BaseMotion();
    /** Gravity, base frame, m/s^2, as the loads give it: what a base at rest feels ({@link #baseMotionAt}). */
    private final double[] gravity = new double[3];
    private final CompiledModel compiled;
    private boolean friction = true;

    /**
     * Not real-time safe: allocates the state and the workspace. Starts at rest at q = 0, time 0,
     * zero torque, gravity (0, 0, -9.81), joint friction on.
     *
     * @param model the robot.
     * @param periodNs control period over which one {@link #step} integrates, ns, positive.
     * @param substeps Runge-Kutta steps per period, at least 1.
     */
    public ArmSimulator(final RobotModel model, final long periodNs, final int substeps)
    {
        this(CompiledModel.of(model), periodNs, substeps);
    }

    /**
     * Not real-time safe: allocates the state and the workspace. Starts at rest at q = 0, time 0,
     * zero torque, under the compiled model's gravity, joint friction on.
     *
     * @param model the compiled robot, shared with the caller's other algorithms on it.
     * @param periodNs control period over which one {@link #step} integrates, ns, positive.
     * @param substeps Runge-Kutta steps per period, at least 1.
     */
    public ArmSimulator(final CompiledModel model, final long periodNs, final int substeps)
    {
        if (periodNs <= 0)
        {
            throw new IllegalArgumentException("period must be positive, got " + periodNs + " ns");
        }
        if (substeps < 1)
        {
            throw new IllegalArgumentException("substeps must be at least 1, got " + substeps);
        }
        compiled = model;
        forwardDynamics = new RecursiveForwardDynamics(compiled);
        loads = new AppliedLoads(compiled);
        for (int axis = 0; axis < 3; axis++)
        {
            gravity[axis] = loads.gravity(axis);
        }
        dof = model.dof();
        this.periodNs = periodNs;
        this.substeps = substeps;
        substepS = periodNs * 1e-9 / substeps;
        q = new double[dof];
        qd = new double[dof];
        tauNm = new double[dof];
        stageQ = new double[dof];
        stageQd = new double[dof];
        stageQdd = new double[dof];
        sumQd = new double[dof];
        sumQdd = new double[dof];
    }

    /** @return number of joint coordinates. */
    public int dof()
    {
        return dof;
    }

    /** @return the control period one {@link #step} integrates, ns. */
    public long periodNs()
    {
        return periodNs;
    }

    /** @return Runge-Kutta substeps per period. */
    public int substeps()
    {
        return substeps;
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
        loads.gravity(gx, gy, gz);
        gravity[0] = gx;
        gravity[1] = gy;
        gravity[2] = gz;
    }

    /**
     * Puts the arm on a carried base moving along a prescribed profile (null: a fixed base, the
     * default); the dynamics become M(q) qdd = tau - h(q, qd; base) ({@link CarriedBaseForwardDynamics})
     * with the base's motion evaluated at each Runge-Kutta stage's time, simulated time 0 being the
     * profile's start. Not real-time safe.
     *
     * @param profile the base's motion, or null.
     */
    public void baseMotion(final BaseMotionProfile profile)
    {
        baseProfile = profile;
        carriedDynamics = profile == null ? null : new CarriedBaseForwardDynamics(compiled);
        if (carriedDynamics != null)
        {
            carriedDynamics.jointFriction(friction);
        }
    }

    /**
     * The base's motion at simulated time t (a fixed base: at rest). Real-time safe.
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
     * Switches the Coulomb and viscous joint friction of the model on or off (default on).
     * Real-time safe.
     *
     * @param enabled true to resist motion with Fs sign(qd) + Fv qd.
     */
    public void jointFriction(final boolean enabled)
    {
        friction = enabled;
        forwardDynamics.jointFriction(enabled);
        if (carriedDynamics != null)
        {
            carriedDynamics.jointFriction(enabled);
        }
    }

    /**
     * Sets the wrench the environment applies ON a body from now on, until changed or cleared (a
     * contact, a push, a payload the controller's model does not have). Real-time safe.
     *
     * @param body body index.
     * @param wrench6 force (N) then moment about the body-frame origin (N m), body frame.
     */
    public void externalWrench(final int body, final double[] wrench6)
    {
        loads.bodyWrench(body, wrench6[0], wrench6[1], wrench6[2], wrench6[3], wrench6[4], wrench6[5]);
    }

    /** Removes every external wrench. Real-time safe. */
    public void clearExternalWrenches()
    {
        loads.clear();
    }

    /**
     * Sets the state and restarts simulated time at 0; the applied torque is kept. Real-time safe.
     *
     * @param positions q by coordinate, rad or m.
     * @param velocities qd by coordinate, rad/s or m/s.
     */
    public void reset(final double[] positions, final double[] velocities)
    {
        System.arraycopy(positions, 0, q, 0, dof);
        System.arraycopy(velocities, 0, qd, 0, dof);
        stepCount = 0;
    }

    /**
     * Sets the joint torques applied from now on, until changed. Real-time safe.
     *
     * @param torquesNm applied joint torques (N m) or forces (N) by coordinate; copied.
     */
    public void torque(final double[] torquesNm)
    {
        System.arraycopy(torquesNm, 0, tauNm, 0, dof);
    }

    /**
     * Integrates one control period under the applied torques and advances simulated time by the
     * period. Real-time safe: allocates nothing.
     *
     * @return {@link #STEP_OK}, {@link #STEP_SINGULAR} or {@link #STEP_NON_FINITE}.
     */
    public int step()
    {
        if (!allFinite(tauNm))
        {
            return STEP_NON_FINITE;
        }
        for (int s = 0; s < substeps; s++)
        {
            if (!rungeKuttaStep(timeNs() * 1e-9 + s * substepS))
            {
                return allFinite(q) && allFinite(qd) ? STEP_SINGULAR : STEP_NON_FINITE;
            }
        }
        stepCount++;
        return allFinite(q) && allFinite(qd) ? STEP_OK : STEP_NON_FINITE;
    }

    /**
     * Advances simulated time by one period with every joint held by its brake: the velocities
     * become zero and the positions stay. Real-time safe.
     */
    public void stepBraked()
    {
        for (int k = 0; k < dof; k++)
        {
            qd[k] = 0.0;
        }
        stepCount++;
    }

    /**
     * Evaluates the forward dynamics at the current state and applied torques. Real-time safe.
     *
     * @param qddOut output joint accelerations by coordinate, rad/s^2 or m/s^2.
     * @return false if the forward dynamics had no solution; qddOut is then undefined.
     */
    public boolean accelerations(final double[] qddOut)
    {
        return accelerations(q, qd, timeNs() * 1e-9, qddOut);
    }

    /** Forward dynamics at a stage point and time: fixed base, or carried with the base's motion then. */
    private boolean accelerations(final double[] positions, final double[] velocities, final double timeS, final double[] qddOut)
    {
        if (baseProfile == null)
        {
            return forwardDynamics.compute(positions, velocities, tauNm, loads, qddOut);
        }
        baseProfile.at(timeS, gravity, baseMotion);
        return carriedDynamics.compute(positions, velocities, tauNm, loads, baseMotion, qddOut);
    }

    /** @param out receives q by coordinate, rad or m. Real-time safe. */
    public void positions(final double[] out)
    {
        System.arraycopy(q, 0, out, 0, dof);
    }

    /** @param out receives qd by coordinate, rad/s or m/s. Real-time safe. */
    public void velocities(final double[] out)
    {
        System.arraycopy(qd, 0, out, 0, dof);
    }

    /** @return periods integrated since the last {@link #reset}. */
    public long stepCount()
    {
        return stepCount;
    }

    /** @return simulated time since the last {@link #reset}, ns: exactly {@code stepCount * periodNs}. */
    public long timeNs()
    {
        return stepCount * periodNs;
    }

    /** One classical Runge-Kutta step of length h on (q, qd) from a time, s; false if FD failed at a stage. */
    private boolean rungeKuttaStep(final double startS)
    {
        final double h = substepS;
        if (!accelerations(q, qd, startS, stageQdd))
        {
            return false;
        }
        firstStage(0.5 * h);
        if (!accelerations(stageQ, stageQd, startS + 0.5 * h, stageQdd))
        {
            return false;
        }
        innerStage(0.5 * h);
        if (!accelerations(stageQ, stageQd, startS + 0.5 * h, stageQdd))
        {
            return false;
        }
        innerStage(h);
        if (!accelerations(stageQ, stageQd, startS + h, stageQdd))
        {
            return false;
        }
        lastStage(h);
        return true;
    }

    /** k1 = (qd, qdd) at the start; the next stage point is x + c k1. */
    private void firstStage(final double c)
    {
        for (int k = 0; k < dof; k++)
        {
            sumQd[k] = qd[k];
            sumQdd[k] = stageQdd[k];
            stageQ[k] = q[k] + c * qd[k];
            stageQd[k] = qd[k] + c * stageQdd[k];
        }
    }

    /** Adds 2 k2 (or 2 k3) evaluated at the current stage point; the next stage point is x + c k. */
    private void innerStage(final double c)
    {
        for (int k = 0; k < dof; k++)
        {
            final double stageVelocity = stageQd[k];
            sumQd[k] += 2.0 * stageVelocity;
            sumQdd[k] += 2.0 * stageQdd[k];
            stageQ[k] = q[k] + c * stageVelocity;
            stageQd[k] = qd[k] + c * stageQdd[k];
        }
    }

    /** Adds k4 and moves the state by h/6 (k1 + 2 k2 + 2 k3 + k4). */
    private void lastStage(final double h)
    {
        final double w = h / 6.0;
        for (int k = 0; k < dof; k++)
        {
            q[k] += w * (sumQd[k] + stageQd[k]);
            qd[k] += w * (sumQdd[k] + stageQdd[k]);
        }
    }

    private boolean allFinite(final double[] values)
    {
        for (int k = 0; k < dof; k++)
        {
            if (!Double.isFinite(values[k]))
            {
                return false;
            }
        }
        return true;
    }
}
