package org.nectl.core.parallel;

import org.nectl.core.control.LawDynamics;
import org.nectl.core.dynamics.CompiledModel;

/**
 * {@link LawDynamics} of a {@link GoughStewartModel} in its leg lengths by the platform's own inverse
 * dynamic model (Khalil, "Dynamic modeling of robots using recursive Newton-Euler techniques", ICINCO
 * 2010, eqs. 59-66, {@link GoughStewartDynamics}) instead of the projection of its closed chain
 * ({@link GoughStewartClosedChain}); the two agree to 1e-9. The leg lengths give the platform pose by
 * forward kinematics ({@link GoughStewartKinematics}, Newton from the previous solution, from home if
 * that fails); the leg rates and accelerations give the platform twist and its rate through the
 * leg-rate Jacobian: {@code J_p^-1 V = Ldot}, {@code J_p^-1 Vdot = Lddot - b} with b the leg
 * accelerations of the twist at zero twist rate (the velocity-product terms of d/dt J_p^-1 V);
 * then eq. 66 gives the actuator forces.
 *
 * <p>The forces' time derivative along a motion is the central difference of the forces over
 * +/- {@link #RATE_STEP_S} of the motion's Taylor expansion to the jerk, as for the projected
 * dynamics: an analytic rate would need the platform's jerk, the time derivatives of J_p and of every
 * leg's Jacobian, and the legs' jerk-propagating Newton-Euler derivative, while the difference costs
 * two more inverse models, each with one Newton iteration from the current pose moved to second order
 * in h, and one more step so that Newton's 1e-12 m tolerance, divided by 2h, does not show in the
 * rate. Its error is O(h^2): the rate integrated over a 0.1 s motion gives the forces' change to
 * within 1.7e-8 of their size, and it equals the projection's rate to 7e-9 of the forces per second
 * (GoughStewartLawDynamicsTest).
 *
 * <p>Answers false where the legs cannot be reached (forward kinematics does not converge from the
 * previous pose nor from home), at a parallel singularity (J_p^-1's LU pivot ratio below
 * {@link GoughStewartKinematics#SINGULAR_PIVOT_RATIO}) or where a leg's universal joint is singular.
 * Not thread safe; every method but the constructor is real-time safe (allocates nothing).
 */
public final class GoughStewartLawDynamics implements LawDynamics
{
    /** Half the time span of the central difference that gives the force rate, s. */
    public static final double RATE_STEP_S = 1e-4;

    private static final int N = GoughStewartModel.LEGS;

    private final GoughStewartKinematics kinematics;
    private final GoughStewartDynamics dynamics;
    private final double[] homePosition;
    private final double[] homeRotation;
    /** Platform pose of the last leg lengths solved, base frame: Newton's starting point. */
    private final double[] position;
    private final double[] rotation;
    /** Platform twist and its rate of the last evaluation, base frame. */
    private final double[] twist = new double[6];
    private final double[] twistRate = new double[6];
    private final double[] shiftedPosition = new double[3];
    private final double[] shiftedRotation = new double[9];
    /** The platform's displacement over +h and -h, to start Newton near the shifted poses. */
    private final double[] displacementAfter = new double[6];
    private final double[] displacementBefore = new double[6];
    private final double[] zeroTwistRate = new double[6];
    private final double[] correction = new double[6];
    private final double[] velocityProduct = new double[N];
    private final double[] lengthScratch = new double[N];
    private final double[] rateScratch = new double[N];
    private final double[] zero = new double[N];
    private final double[] qA = new double[N];
    private final double[] qdA = new double[N];
    private final double[] qddA = new double[N];
    private final double[] tauAfter = new double[N];

    /**
     * Not real-time safe: allocates the workspace.
     *
     * @param model the platform.
     * @param legs {@code model.legs()} compiled under the gravity of the laws, shared by every
     *     instance on that platform.
     * @throws IllegalArgumentException if {@code legs} was not compiled from {@code model.legs()}.
     */
    public GoughStewartLawDynamics(final GoughStewartModel model, final CompiledModel legs)
    {
        kinematics = new GoughStewartKinematics(model);
        dynamics = new GoughStewartDynamics(model, legs);
        homePosition = model.homePosition();
        homeRotation = model.homeRotation();
        position = model.homePosition();
        rotation = model.homeRotation();
    }

    @Override
    public int dof()
    {
        return N;
    }

    /** The legs' joint friction (the legs' tree, actuators included); the shipped platforms have none. */
    @Override
    public void jointFriction(final boolean enabled)
    {
        dynamics.jointFriction(enabled);
    }

    @Override
    public boolean inverseDynamics(final double[] q, final double[] qd, final double[] qdd, final double[] tau)
    {
        return solve(q, position, rotation) && forcesAtSolution(position, rotation, qd, qdd, tau);
    }

    @Override
    public boolean torqueAndRate(
        final double[] q, final double[] qd, final double[] qdd, final double[] qddd, final double[] tau, final double[] tauRate)
    {
        if (!inverseDynamics(q, qd, qdd, tau))
        {
            return false;
        }
        // Newton starts at the platform's pose moved to second order in h, a few 1e-13 m from the
        // shifted solution: often within the tolerance, at most one iteration away.
        final double h = RATE_STEP_S;
        for (int k = 0; k < 6; k++)
        {
            displacementAfter[k] = h * (twist[k] + h / 2.0 * twistRate[k]);
            displacementBefore[k] = -h * (twist[k] - h / 2.0 * twistRate[k]);
        }
        if (!shiftedForces(q, qd, qdd, qddd, h, displacementAfter, tauAfter))
        {
            return false;
        }
        System.arraycopy(tauAfter, 0, tauRate, 0, N);
        if (!shiftedForces(q, qd, qdd, qddd, -h, displacementBefore, tauAfter))
        {
            return false;
        }
        for (int i = 0; i < N; i++)
        {
            tauRate[i] = (tauRate[i] - tauAfter[i]) / (2.0 * h);
        }
        return true;
    }

    @Override
    public boolean gravityTorques(final double[] q, final double[] tau)
    {
        return inverseDynamics(q, zero, zero, tau);
    }

    /** @return the platform origin of the last leg lengths solved, base frame, m; the array itself, do not modify. */
    public double[] platformPosition()
    {
        return position;
    }

    /** @return the platform axes of the last leg lengths solved, 9 row-major; the array itself, do not modify. */
    public double[] platformRotation()
    {
        return rotation;
    }

    /**
     * Forces at time h along the motion's Taylor expansion to the jerk, Newton from the current pose
     * moved by the given displacement (dp, dphi).
     */
    private boolean shiftedForces(final double[] q, final double[] qd, final double[] qdd, final double[] qddd,
        final double h, final double[] displacement, final double[] tau)
    {
        for (int i = 0; i < N; i++)
        {
            qA[i] = q[i] + h * (qd[i] + h / 2.0 * (qdd[i] + h / 3.0 * qddd[i]));
            qdA[i] = qd[i] + h * (qdd[i] + h / 2.0 * qddd[i]);
            qddA[i] = qdd[i] + h * qddd[i];
        }
        System.arraycopy(position, 0, shiftedPosition, 0, 3);
        System.arraycopy(rotation, 0, shiftedRotation, 0, 9);
        kinematics.applyTwist(displacement, shiftedPosition, shiftedRotation);
        if (!solve(qA, shiftedPosition, shiftedRotation))
        {
            return false;
        }
        polish(qA, shiftedPosition, shiftedRotation);
        return forcesAtSolution(shiftedPosition, shiftedRotation, qdA, qddA, tau);
    }

    /**
     * One more Newton step at a solution: Newton stops within 1e-12 m of the leg lengths, which the
     * difference quotient would divide by 2h; the step takes it to rounding.
     */
    private void polish(final double[] lengths, final double[] p, final double[] r)
    {
        kinematics.inverse(p, r, lengthScratch);
        for (int i = 0; i < N; i++)
        {
            rateScratch[i] = lengths[i] - lengthScratch[i];
        }
        kinematics.solveAtSolution(rateScratch, correction);
        kinematics.applyTwist(correction, p, r);
    }

    /** Forward kinematics from the pose passed in, from home if that fails. */
    private boolean solve(final double[] lengths, final double[] p, final double[] r)
    {
        for (int i = 0; i < N; i++)
        {
            if (!Double.isFinite(lengths[i]))
            {
                return false;
            }
        }
        if (kinematics.forward(lengths, p, r) == GoughStewartKinematics.CONVERGED)
        {
            return true;
        }
        System.arraycopy(homePosition, 0, p, 0, 3);
        System.arraycopy(homeRotation, 0, r, 0, 9);
        return kinematics.forward(lengths, p, r) == GoughStewartKinematics.CONVERGED;
    }

    /**
     * Platform twist and its rate from the leg rates and accelerations at the pose forward kinematics
     * has just solved (its J_p^-1 factors), then eq. 66.
     */
    private boolean forcesAtSolution(final double[] p, final double[] r, final double[] qd, final double[] qdd,
        final double[] tau)
    {
        kinematics.solveAtSolution(qd, twist);
        // Lddot = J_p^-1 Vdot + b: b is what inverse kinematics gives at zero twist rate.
        kinematics.inverse(p, r, twist, zeroTwistRate, lengthScratch, rateScratch, velocityProduct);
        for (int i = 0; i < N; i++)
        {
            velocityProduct[i] = qdd[i] - velocityProduct[i];
        }
        kinematics.solveAtSolution(velocityProduct, twistRate);
        return dynamics.inverseDynamics(p, r, twist, twistRate, tau);
    }
}
