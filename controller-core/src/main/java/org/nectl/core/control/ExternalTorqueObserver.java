package org.nectl.core.control;

import java.util.Arrays;

import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.GeneralizedMomentum;

/**
 * Estimates the joint torques of external forces by the generalized-momentum observer of De Luca
 * et al. ("Collision detection and safe reaction with the DLR-III lightweight manipulator arm", IROS
 * 2006, eq. 5): r = K_O (p(t) - integral_0^t (tau - tau_f + C^T qd - g + r) ds - p(0)), p = M(q) qd.
 * With the model exact, r-dot = K_O (tau_ext - r): each r_j follows the external torque of its joint
 * as a first-order lag with time constant 1/K_O,j, from measured q and qd alone (no acceleration),
 * and is zero in free motion whatever the speed.
 *
 * <p>Friction: tau_f is the model's Fs sign(qd) + Fv qd when {@code modelFriction} is on (the plant's
 * friction is then not read as external torque); off, every friction torque appears in r. Whatever
 * the model misses (friction, payload, inertia errors) appears in r as well: detection thresholds
 * must sit above the r seen in normal motion (docs/SAFETY.md).
 *
 * <p>Discretisation at period T (tick k, state (q_k, qd_k), torque tau_{k-1} applied over the period
 * before it): the integral grows by T (tau_{k-1} + (beta_{k-1} + beta_k) / 2 + r_{k-1}) with
 * beta = C^T qd - g - tau_f, trapezoidal in the state terms, rectangular in the held torque. The
 * discrete lag has pole 1 - K_O T, time constant -T / ln(1 - K_O T) (19.5 ms for K_O = 50/s at
 * 1 ms, against 20 ms continuous); stable for K_O T < 1, which the constructor checks.
 *
 * <p>Not thread safe. Every method but the constructor is real-time safe: no allocation.
 */
public final class ExternalTorqueObserver
{
    private final int dof;
    private final double periodS;
    private final double[] gain;
    private final boolean modelFriction;
    /** p, C^T qd, g and tau_f under the compiled model's gravity. */
    private final GeneralizedMomentum terms;
    private final double[] momentum;
    private final double[] coriolisTransposedTimesQd;
    private final double[] gravityTorque;
    private final double[] friction;
    /** beta = C^T qd - g - tau_f at the previous update. */
    private final double[] previousBeta;
    /** p(0) + the integral so far: the momentum the model predicts without external torque. */
    private final double[] predictedMomentum;
    private final double[] residual;
    private boolean started;

    /**
     * Not real-time safe: allocates the workspace.
     *
     * @param model the compiled robot, its gravity the one g is taken under: share the control law's.
     * @param gainPerSecond K_O per coordinate, 1/s, each in (0, 1/period).
     * @param periodNs update period, ns.
     * @param modelFriction true to take the model's joint friction out of the estimate.
     * @throws IllegalArgumentException if a gain is out of range or of the wrong count.
     */
    public ExternalTorqueObserver(
        final CompiledModel model, final double[] gainPerSecond, final long periodNs, final boolean modelFriction)
    {
        dof = model.dof();
        if (gainPerSecond.length != dof)
        {
            throw new IllegalArgumentException("need " + dof + " observer gains, got " + gainPerSecond.length);
        }
        periodS = periodNs * 1e-9;
        for (int j = 0; j < dof; j++)
        {
            if (!(gainPerSecond[j] > 0.0 && gainPerSecond[j] * periodS < 1.0))
            {
                throw new IllegalArgumentException("observer gain of joint " + j + " is " + gainPerSecond[j]
                    + " 1/s; it must be > 0 and below 1/period = " + 1.0 / periodS + " 1/s");
            }
        }
        gain = gainPerSecond.clone();
        this.modelFriction = modelFriction;
        terms = new GeneralizedMomentum(model);
        momentum = new double[dof];
        coriolisTransposedTimesQd = new double[dof];
        gravityTorque = new double[dof];
        friction = new double[dof];
        previousBeta = new double[dof];
        predictedMomentum = new double[dof];
        residual = new double[dof];
    }

    /**
     * Restarts the observer: the next {@link #update} takes its state as p(0) and reports zero.
     * Call it whenever the torque the observer would integrate is not the one acting (drives
     * unpowered, brakes holding). Real-time safe.
     */
    public void restart()
    {
        started = false;
        Arrays.fill(residual, 0.0);
    }

    /**
     * One observer step. Real-time safe.
     *
     * @param q measured positions now, rad or m.
     * @param qd measured velocities now, rad/s or m/s.
     * @param tauApplied the joint torques applied over the period that ended now, N m or N.
     */
    public void update(final double[] q, final double[] qd, final double[] tauApplied)
    {
        update(q, qd, tauApplied, 1);
    }

    /**
     * One observer step after one or more periods without a state (a late or lost sample). Real-time safe.
     *
     * @param q measured positions now, rad or m.
     * @param qd measured velocities now, rad/s or m/s.
     * @param tauApplied the mean joint torques applied since the last update, N m or N.
     * @param periods periods since the last update, at least 1.
     */
    public void update(final double[] q, final double[] qd, final double[] tauApplied, final int periods)
    {
        final double elapsedS = periods * periodS;
        terms.compute(q, qd, momentum, coriolisTransposedTimesQd, gravityTorque, friction);
        if (!started)
        {
            started = true;
            for (int j = 0; j < dof; j++)
            {
                previousBeta[j] = beta(j);
                predictedMomentum[j] = momentum[j];
                residual[j] = 0.0;
            }
            return;
        }
        for (int j = 0; j < dof; j++)
        {
            final double beta = beta(j);
            predictedMomentum[j] += elapsedS * (tauApplied[j] + 0.5 * (previousBeta[j] + beta) + residual[j]);
            previousBeta[j] = beta;
            residual[j] = gain[j] * (momentum[j] - predictedMomentum[j]);
        }
    }

    private double beta(final int j)
    {
        return coriolisTransposedTimesQd[j] - gravityTorque[j] - (modelFriction ? friction[j] : 0.0);
    }

    /** @return the estimate r of the external joint torques after the last update, N m or N; zero after a restart. */
    public double[] externalTorque()
    {
        return residual;
    }

    /**
     * @param joint coordinate.
     * @return the discrete time constant of that joint's estimate, -T / ln(1 - K_O T), s.
     */
    public double timeConstantS(final int joint)
    {
        return -periodS / Math.log1p(-gain[joint] * periodS);
    }
}
