package org.nectl.core.mobile;

import java.util.Arrays;

import org.nectl.core.model.RobotModel;

/**
 * Integrates a free-floating robot under given joint torques by the classical fourth-order
 * Runge-Kutta method: state (base pose, base twist, q, qd) in the convention of {@link BasePose},
 * accelerations from {@link FreeBaseForwardDynamics}. The quaternion is integrated as four
 * numbers (q-dot = q (0, omega) / 2) and normalised after each step, which moves it by the
 * method's own O(dt^5) error. Not thread safe. {@link #step} is real-time safe.
 */
public final class FloatingBaseSimulator
{
    private static final double[] WEIGHTS = {1.0, 2.0, 2.0, 1.0};
    private static final double[] STAGE_FRACTIONS = {0.5, 0.5, 1.0};

    private final FreeBaseForwardDynamics dynamics;
    private final double[] gravity;
    private final int dof;
    private final int size;
    /** The state: pose (7), twist (6), q (n), qd (n). */
    private final double[] state;
    private final double[] stage;
    private final double[] rate;
    private final double[] sum;
    private final double[] pose = new double[BasePose.POSE_SIZE];
    private final double[] twist = new double[BasePose.TWIST_SIZE];
    private final double[] poseRate = new double[BasePose.POSE_SIZE];
    private final double[] baseAcceleration = new double[BasePose.TWIST_SIZE];
    private final double[] rotation = new double[9];
    private final double[] q;
    private final double[] qd;
    private final double[] qdd;

    /**
     * Not real-time safe: allocates the state.
     *
     * @param model a robot with a floating base.
     * @param dynamics its direct dynamics (friction as switched there).
     * @param gravity the world's gravity, world frame, m/s^2, 3 values (copied).
     */
    public FloatingBaseSimulator(final RobotModel model, final FreeBaseForwardDynamics dynamics, final double[] gravity)
    {
        this.dynamics = dynamics;
        this.gravity = gravity.clone();
        dof = model.dof();
        size = 13 + 2 * dof;
        state = new double[size];
        stage = new double[size];
        rate = new double[size];
        sum = new double[size];
        q = new double[dof];
        qd = new double[dof];
        qdd = new double[dof];
        state[3] = 1.0;
    }

    /**
     * Sets the state.
     *
     * @param basePose position and unit quaternion.
     * @param baseTwist twist, base coordinates.
     * @param jointPositions q.
     * @param jointVelocities qd.
     */
    public void reset(final double[] basePose, final double[] baseTwist, final double[] jointPositions,
        final double[] jointVelocities)
    {
        System.arraycopy(basePose, 0, state, 0, 7);
        System.arraycopy(baseTwist, 0, state, 7, 6);
        System.arraycopy(jointPositions, 0, state, 13, dof);
        System.arraycopy(jointVelocities, 0, state, 13 + dof, dof);
    }

    /**
     * Advances the state by one step at constant joint torques.
     *
     * @param dt step, s.
     * @param tau joint torques or forces held over the step.
     * @return false if the dynamics failed (massless parts); the state is then unchanged.
     */
    public boolean step(final double dt, final double[] tau)
    {
        System.arraycopy(state, 0, stage, 0, size);
        Arrays.fill(sum, 0.0);
        for (int s = 0; s < 4; s++)
        {
            if (!derivative(stage, tau))
            {
                return false;
            }
            for (int i = 0; i < size; i++)
            {
                sum[i] += WEIGHTS[s] * rate[i];
                if (s < 3)
                {
                    stage[i] = state[i] + STAGE_FRACTIONS[s] * dt * rate[i];
                }
            }
        }
        for (int i = 0; i < size; i++)
        {
            state[i] += dt / 6.0 * sum[i];
        }
        final double norm = Math.sqrt(state[3] * state[3] + state[4] * state[4] + state[5] * state[5] + state[6] * state[6]);
        for (int i = 3; i < 7; i++)
        {
            state[i] /= norm;
        }
        return true;
    }

    private boolean derivative(final double[] x, final double[] tau)
    {
        System.arraycopy(x, 0, pose, 0, 7);
        System.arraycopy(x, 7, twist, 0, 6);
        System.arraycopy(x, 13, q, 0, dof);
        System.arraycopy(x, 13 + dof, qd, 0, dof);
        if (!dynamics.compute(pose, twist, q, qd, tau, gravity, baseAcceleration, qdd))
        {
            return false;
        }
        BasePose.rate(pose, twist, rotation, poseRate);
        System.arraycopy(poseRate, 0, rate, 0, 7);
        System.arraycopy(baseAcceleration, 0, rate, 7, 6);
        System.arraycopy(qd, 0, rate, 13, dof);
        System.arraycopy(qdd, 0, rate, 13 + dof, dof);
        return true;
    }

    /** @param out receives the base pose (7 values). */
    public void basePose(final double[] out)
    {
        System.arraycopy(state, 0, out, 0, 7);
    }

    /** @param out receives the base twist (6 values). */
    public void baseTwist(final double[] out)
    {
        System.arraycopy(state, 7, out, 0, 6);
    }

    /** @param out receives q. */
    public void jointPositions(final double[] out)
    {
        System.arraycopy(state, 13, out, 0, dof);
    }

    /** @param out receives qd. */
    public void jointVelocities(final double[] out)
    {
        System.arraycopy(state, 13 + dof, out, 0, dof);
    }
}
