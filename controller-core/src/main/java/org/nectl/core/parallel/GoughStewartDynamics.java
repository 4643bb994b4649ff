package org.nectl.core.parallel;

import java.util.Arrays;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.decomposition.lu.LUDecompositionAlt_DDRM;
import org.ejml.dense.row.linsol.lu.LinearSolverLu_DDRM;
import org.nectl.core.closedloop.FlatVectors;
import org.nectl.core.closedloop.TreeDynamics;
import org.nectl.core.dynamics.CompiledModel;

/**
 * Inverse and direct dynamics of a {@link GoughStewartModel} by Khalil's parallel-robot method
 * (Khalil, "Dynamic modeling of robots using recursive Newton-Euler techniques", ICINCO 2010, eqs.
 * 59-66): the platform's Newton-Euler wrench F_p (eq. 9, about the platform origin), each leg's
 * joint forces Gamma_i from the tree algorithm at the leg motion given by the legs' inverse
 * kinematics, and {@code Gamma = J_p^T [F_p + sum J_vi^T J_i^-T Gamma_i]} (eq. 66) with
 * {@code J_vi = [I  -hat(P_i)]} (eq. 65), J_i the leg Jacobian from (theta1, theta2, L) to the
 * velocity of B_i (eq. 63), and J_p^-1 the rows {@code [u_i^T, (P_i x u_i)^T]} (u_i the unit leg
 * vector), solved rather than inverted. The direct model writes eq. 66 as
 * {@code J_p^-T Gamma = W_A Vdot_p + w_0}: w_0 the wrench of the inverse model at zero platform
 * acceleration, and W_A the platform's spatial inertia about its origin plus, per leg,
 * {@code J_vi^T J_i^-T A_i J_i^-1 J_vi} with A_i the leg's block of the leg tree's mass matrix (the
 * platform accelerations enter the legs' forces only through {@code A_i qdd_i}); one 6 x 6 solve.
 *
 * <p>Platform motion is in the base frame: origin position p, axes R (row-major), twist
 * {@code (v, omega)} (linear velocity of the platform origin first, as Khalil orders screws) and its
 * rate {@code (vdot, omegadot)}. Not thread safe; every method but the constructor is real-time safe
 * (allocates nothing). Results are codes: false when a leg or J_p is singular.
 */
public final class GoughStewartDynamics
{
    private static final int N = GoughStewartModel.LEGS;
    /** Smallest |det J_i| / L^2 accepted for a leg Jacobian (the leg along its first U axis). */
    private static final double LEG_SINGULAR = 1e-9;

    private final double[] base;
    private final double[] attach;
    private final double[] firstAxis;
    private final double mass;
    private final double[] firstMoment;
    private final double[] inertia;
    private final TreeDynamics legs;
    /** Gravity in the base frame, m/s^2: the platform's, the same as the legs'. */
    private final double[] gravity = new double[3];

    /** Leg tree state (theta1, theta2, L) per leg, and its joint forces. */
    private final double[] q = new double[3 * N];
    private final double[] qd = new double[3 * N];
    private final double[] qdd = new double[3 * N];
    private final double[] tau = new double[3 * N];
    /** Per leg: rows of J_i^-1 (9), P_i (3), u_i (3), L_i. */
    private final double[] legInverse = new double[9 * N];
    private final double[] lever = new double[3 * N];
    private final double[] unit = new double[3 * N];
    private final double[] length = new double[N];
    private final double[] wrench = new double[6];
    private final double[] platformWrench = new double[6];
    private final double[] t = new double[30];
    private final DMatrixRMaj inverseJacobianTransposed = new DMatrixRMaj(6, 6);
    private final DMatrixRMaj rhs = new DMatrixRMaj(6, 1);
    private final DMatrixRMaj solution = new DMatrixRMaj(6, 1);
    private final LUDecompositionAlt_DDRM decomposition = new LUDecompositionAlt_DDRM();
    private final LinearSolverLu_DDRM solver = new LinearSolverLu_DDRM(decomposition);
    /** W_A, the platform and legs' inertia seen as a wrench per platform acceleration, row-major 6 x 6. */
    private final DMatrixRMaj cartesianMass = new DMatrixRMaj(6, 6);
    private final LUDecompositionAlt_DDRM massDecomposition = new LUDecompositionAlt_DDRM();
    private final LinearSolverLu_DDRM massSolver = new LinearSolverLu_DDRM(massDecomposition);
    private final double[] zeroRate = new double[6];
    private final double[] bias = new double[6];
    /** The leg tree's mass matrix, row-major 18 x 18; its 3 x 3 diagonal blocks are the legs'. */
    private final double[] legMass = new double[9 * N * N];
    /** Per leg: K = J_i^-T A_i J_i^-1 (9), then X = K J_vi (3 x 6, 18). */
    private final double[] legTerms = new double[27];

    /**
     * Not real-time safe: allocates the workspace.
     *
     * @param model the platform.
     * @param legs {@code model.legs()} compiled, shared with every other user of the legs; its gravity
     *     is the platform's and the legs' until {@link #gravity(double, double, double)} overrides it.
     * @throws IllegalArgumentException if {@code legs} was not compiled from {@code model.legs()}.
     */
    public GoughStewartDynamics(final GoughStewartModel model, final CompiledModel legs)
    {
        if (legs.robot() != model.legs())
        {
            throw new IllegalArgumentException("the compiled model " + legs.robot().name()
                + " is not the legs of the platform " + model.name());
        }
        base = model.basePoints();
        attach = model.platformPoints();
        firstAxis = new double[9 * N];
        for (int i = 0; i < N; i++)
        {
            System.arraycopy(model.firstAxisPlacement(i), 0, firstAxis, 9 * i, 9);
        }
        mass = model.platform().mass();
        firstMoment = model.platform().firstMoment();
        inertia = model.platform().inertiaAtOrigin();
        this.legs = new TreeDynamics(legs);
        for (int axis = 0; axis < 3; axis++)
        {
            gravity[axis] = this.legs.gravity(axis);
        }
        decomposition.setExpectedMaxSize(6, 6);
        massDecomposition.setExpectedMaxSize(6, 6);
    }

    /**
     * Overrides the compiled legs' gravity in the base frame, for the platform and the legs. Real-time safe.
     *
     * @param gx x, m/s^2.
     * @param gy y, m/s^2.
     * @param gz z, m/s^2.
     */
    public void gravity(final double gx, final double gy, final double gz)
    {
        gravity[0] = gx;
        gravity[1] = gy;
        gravity[2] = gz;
        legs.gravity(gx, gy, gz);
    }

    /**
     * Switches the legs' joint friction (their tree's Coulomb and viscous friction, actuators
     * included) on or off (default on). Real-time safe.
     *
     * @param enabled true to include friction.
     */
    public void jointFriction(final boolean enabled)
    {
        legs.jointFriction(enabled);
    }

    /**
     * Actuator forces for a platform motion (eq. 66). Real-time safe.
     *
     * @param position platform origin, m.
     * @param rotation platform axes, 9 row-major.
     * @param twist (v, omega), m/s and rad/s.
     * @param twistRate (vdot, omegadot), m/s^2 and rad/s^2.
     * @param forces output: the six actuator forces, N, positive extending.
     * @return false if a leg or J_p is singular.
     */
    public boolean inverseDynamics(
        final double[] position, final double[] rotation, final double[] twist, final double[] twistRate,
        final double[] forces)
    {
        if (!legMotion(position, rotation, twist, twistRate))
        {
            return false;
        }
        legs.inverseDynamics(q, qd, qdd, tau);
        platformNewtonEuler(rotation, twist, twistRate);
        totalWrench(wrench);
        return solveActuatorForces(wrench, forces);
    }

    /** F_p plus every leg's J_vi^T J_i^-T Gamma_i, about the platform origin, base frame (eq. 66's bracket). */
    private void totalWrench(final double[] out)
    {
        System.arraycopy(platformWrench, 0, out, 0, 6);
        for (int i = 0; i < N; i++)
        {
            // f_i = J_i^-T Gamma_i, then J_vi^T f_i = (f_i, P_i x f_i) (eq. 65).
            for (int e = 0; e < 3; e++)
            {
                t[e] = legInverse[9 * i + e] * tau[3 * i] + legInverse[9 * i + 3 + e] * tau[3 * i + 1]
                    + legInverse[9 * i + 6 + e] * tau[3 * i + 2];
            }
            FlatVectors.cross(lever, 3 * i, t, 0, t, 3);
            for (int e = 0; e < 3; e++)
            {
                out[e] += t[e];
                out[3 + e] += t[3 + e];
            }
        }
    }

    /**
     * Platform acceleration under given actuator forces: {@code W_A Vdot = J_p^-T Gamma - w_0}.
     * Real-time safe; one leg-tree Newton-Euler pass and one leg-tree mass matrix.
     *
     * @param position platform origin, m.
     * @param rotation platform axes, 9 row-major.
     * @param twist (v, omega).
     * @param forces the six actuator forces, N.
     * @param twistRate output (vdot, omegadot).
     * @return false if a leg or W_A is singular.
     */
    public boolean forwardDynamics(
        final double[] position, final double[] rotation, final double[] twist, final double[] forces,
        final double[] twistRate)
    {
        if (!legMotion(position, rotation, twist, zeroRate))
        {
            return false;
        }
        legs.inverseDynamics(q, qd, qdd, tau);
        platformNewtonEuler(rotation, twist, zeroRate);
        totalWrench(bias);
        legs.massMatrix(q, legMass);
        platformInertia(rotation);
        for (int i = 0; i < N; i++)
        {
            addLegInertia(i);
        }
        // J_p^-T Gamma: the actuator forces as a wrench, sum of Gamma_i (u_i, P_i x u_i).
        for (int r = 0; r < 6; r++)
        {
            rhs.data[r] = -bias[r];
        }
        for (int i = 0; i < N; i++)
        {
            FlatVectors.cross(lever, 3 * i, unit, 3 * i, t, 0);
            for (int e = 0; e < 3; e++)
            {
                rhs.data[e] += forces[i] * unit[3 * i + e];
                rhs.data[3 + e] += forces[i] * t[e];
            }
        }
        if (!massSolver.setA(cartesianMass))
        {
            return false;
        }
        massSolver.solve(rhs, solution);
        System.arraycopy(solution.data, 0, twistRate, 0, 6);
        return true;
    }

    /**
     * W_A := the platform's spatial inertia about its origin, base frame:
     * {@code [[m I, -hat(MS)], [hat(MS), J]]} with MS = R MS_p and J = R J_p R^T.
     */
    private void platformInertia(final double[] rotation)
    {
        final double[] w = cartesianMass.data;
        Arrays.fill(w, 0.0);
        for (int e = 0; e < 3; e++)
        {
            t[e] = rotation[3 * e] * firstMoment[0] + rotation[3 * e + 1] * firstMoment[1] + rotation[3 * e + 2] * firstMoment[2];
            w[7 * e] = mass;
        }
        // hat(MS) in the lower left, -hat(MS) in the upper right.
        final double mx = t[0];
        final double my = t[1];
        final double mz = t[2];
        w[6 * 3 + 1] = -mz;
        w[6 * 3 + 2] = my;
        w[6 * 4] = mz;
        w[6 * 4 + 2] = -mx;
        w[6 * 5] = -my;
        w[6 * 5 + 1] = mx;
        for (int r = 0; r < 3; r++)
        {
            for (int c = 0; c < 3; c++)
            {
                w[6 * r + 3 + c] = -w[6 * (3 + r) + c];
            }
        }
        for (int c = 0; c < 3; c++)
        {
            t[3] = c == 0 ? 1.0 : 0.0;
            t[4] = c == 1 ? 1.0 : 0.0;
            t[5] = c == 2 ? 1.0 : 0.0;
            rotatedInertiaTimes(rotation, t, 3, t, 6);
            for (int r = 0; r < 3; r++)
            {
                w[6 * (3 + r) + 3 + c] = t[6 + r];
            }
        }
    }

    /** W_A += J_vi^T J_i^-T A_i J_i^-1 J_vi, J_vi = [I, -hat(P_i)] (eq. 65). */
    private void addLegInertia(final int leg)
    {
        final double[] k = legTerms;
        final int f = 9 * leg;
        final int o = 3 * leg;
        final int n = 3 * N;
        // K = J_i^-T A_i J_i^-1, with J_i^-1's rows at legInverse[f + 3 row].
        for (int a = 0; a < 3; a++)
        {
            for (int b = 0; b < 3; b++)
            {
                double sum = 0.0;
                for (int r = 0; r < 3; r++)
                {
                    for (int c = 0; c < 3; c++)
                    {
                        sum += legInverse[f + 3 * r + a] * legMass[(o + r) * n + o + c] * legInverse[f + 3 * c + b];
                    }
                }
                k[3 * a + b] = sum;
            }
        }
        // X = K J_vi: columns K e_c, then K (e_c x P).
        final double px = lever[o];
        final double py = lever[o + 1];
        final double pz = lever[o + 2];
        for (int r = 0; r < 3; r++)
        {
            final double k0 = k[3 * r];
            final double k1 = k[3 * r + 1];
            final double k2 = k[3 * r + 2];
            k[9 + 6 * r] = k0;
            k[9 + 6 * r + 1] = k1;
            k[9 + 6 * r + 2] = k2;
            // e_x x P = (0, -pz, py), e_y x P = (pz, 0, -px), e_z x P = (-py, px, 0).
            k[9 + 6 * r + 3] = -k1 * pz + k2 * py;
            k[9 + 6 * r + 4] = k0 * pz - k2 * px;
            k[9 + 6 * r + 5] = -k0 * py + k1 * px;
        }
        // W_A += [X; P x X] column by column.
        final double[] w = cartesianMass.data;
        for (int c = 0; c < 6; c++)
        {
            final double x0 = k[9 + c];
            final double x1 = k[15 + c];
            final double x2 = k[21 + c];
            w[c] += x0;
            w[6 + c] += x1;
            w[12 + c] += x2;
            w[18 + c] += py * x2 - pz * x1;
            w[24 + c] += pz * x0 - px * x2;
            w[30 + c] += px * x1 - py * x0;
        }
    }

    /** @return leg tree positions (theta1, theta2, L per leg) of the last call, the array itself. */
    public double[] legPositions()
    {
        return q;
    }

    /** @return leg tree velocities of the last call, the array itself. */
    public double[] legVelocities()
    {
        return qd;
    }

    /** @return leg tree accelerations of the last call, the array itself. */
    public double[] legAccelerations()
    {
        return qdd;
    }

    /** @return leg tree joint forces Gamma_i of the last inverse dynamics, the array itself. */
    public double[] legForces()
    {
        return tau;
    }

    /** @return the platform's Newton-Euler wrench F_p (force, moment about its origin, base frame) of the last call. */
    public double[] platformWrench()
    {
        return platformWrench;
    }

    /**
     * Leg inverse kinematics: (theta1, theta2, L), their rates and accelerations for each leg.
     *
     * @return false if a leg Jacobian is singular.
     */
    private boolean legMotion(
        final double[] position, final double[] rotation, final double[] twist, final double[] twistRate)
    {
        for (int i = 0; i < N; i++)
        {
            final int o = 3 * i;
            // P_i = R b_i; r = p + P_i - A_i; u = r / L.
            for (int e = 0; e < 3; e++)
            {
                lever[o + e] = rotation[3 * e] * attach[o] + rotation[3 * e + 1] * attach[o + 1]
                    + rotation[3 * e + 2] * attach[o + 2];
                t[e] = position[e] + lever[o + e] - base[o + e];
            }
            final double l = Math.sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
            length[i] = l;
            for (int e = 0; e < 3; e++)
            {
                unit[o + e] = t[e] / l;
            }
            // u in frame 1 is (sin t2 cos t1, sin t2 sin t1, -cos t2).
            final int f = 9 * i;
            final double ux = firstAxis[f] * unit[o] + firstAxis[f + 3] * unit[o + 1] + firstAxis[f + 6] * unit[o + 2];
            final double uy = firstAxis[f + 1] * unit[o] + firstAxis[f + 4] * unit[o + 1] + firstAxis[f + 7] * unit[o + 2];
            final double uz = firstAxis[f + 2] * unit[o] + firstAxis[f + 5] * unit[o + 1] + firstAxis[f + 8] * unit[o + 2];
            final double theta1 = Math.atan2(uy, ux);
            q[o] = theta1;
            q[o + 1] = Math.acos(Math.max(-1.0, Math.min(1.0, -uz)));
            q[o + 2] = l;
            // z1 (t[3..5]) and z2 = P1 (sin t1, -cos t1, 0) (t[6..8]), base frame.
            final double s1 = Math.sin(theta1);
            final double c1 = Math.cos(theta1);
            for (int e = 0; e < 3; e++)
            {
                t[3 + e] = firstAxis[f + 3 * e + 2];
                t[6 + e] = firstAxis[f + 3 * e] * s1 - firstAxis[f + 3 * e + 1] * c1;
            }
            // J_i columns: z1 x r, z2 x r, u (eq. 63); rows of J_i^-1 from the adjugate.
            FlatVectors.cross(t, 3, t, 0, t, 9);
            FlatVectors.cross(t, 6, t, 0, t, 12);
            FlatVectors.cross(t, 12, unit, o, t, 15);
            final double det = t[9] * t[15] + t[10] * t[16] + t[11] * t[17];
            if (!(Math.abs(det) > LEG_SINGULAR * l * l))
            {
                return false;
            }
            FlatVectors.cross(unit, o, t, 9, t, 18);
            FlatVectors.cross(t, 9, t, 12, t, 21);
            for (int e = 0; e < 3; e++)
            {
                legInverse[f + e] = t[15 + e] / det;
                legInverse[f + 3 + e] = t[18 + e] / det;
                legInverse[f + 6 + e] = t[21 + e] / det;
            }
            // v_B = v + omega x P_i, a_B = vdot + omegadot x P_i + omega x (omega x P_i).
            FlatVectors.cross(twist, 3, lever, o, t, 9);
            FlatVectors.cross(twist, 3, t, 9, t, 12);
            FlatVectors.cross(twistRate, 3, lever, o, t, 15);
            for (int e = 0; e < 3; e++)
            {
                t[9 + e] += twist[e];
                t[12 + e] += twistRate[e] + t[15 + e];
            }
            for (int k = 0; k < 3; k++)
            {
                qd[o + k] = dot(legInverse, f + 3 * k, t, 9);
            }
            // Velocity-product acceleration of B_i: omegadot2 x r + omega2 x (omega2 x r) + 2 Ldot omega2 x u,
            // omega2 = t1dot z1 + t2dot z2, omegadot2 = t1dot t2dot z1 x z2.
            for (int e = 0; e < 3; e++)
            {
                t[18 + e] = qd[o] * t[3 + e] + qd[o + 1] * t[6 + e];
            }
            FlatVectors.cross(t, 3, t, 6, t, 21);
            for (int e = 0; e < 3; e++)
            {
                t[21 + e] *= qd[o] * qd[o + 1];
            }
            FlatVectors.cross(t, 21, t, 0, t, 24);
            FlatVectors.cross(t, 18, t, 0, t, 27);
            FlatVectors.cross(t, 18, t, 27, t, 27);
            for (int e = 0; e < 3; e++)
            {
                t[12 + e] -= t[24 + e] + t[27 + e];
            }
            FlatVectors.cross(t, 18, unit, o, t, 24);
            for (int e = 0; e < 3; e++)
            {
                t[12 + e] -= 2.0 * qd[o + 2] * t[24 + e];
            }
            for (int k = 0; k < 3; k++)
            {
                qdd[o + k] = dot(legInverse, f + 3 * k, t, 12);
            }
        }
        return true;
    }

    /**
     * F_p about the platform origin, base frame (eq. 9 with the base acceleration -g): F = M (vdot - g)
     * + omegadot x MS + omega x (omega x MS), M = J omegadot + omega x (J omega) + MS x (vdot - g).
     */
    private void platformNewtonEuler(final double[] rotation, final double[] twist, final double[] twistRate)
    {
        // MS and J in the base frame: R MS, R J R^T.
        for (int e = 0; e < 3; e++)
        {
            t[e] = rotation[3 * e] * firstMoment[0] + rotation[3 * e + 1] * firstMoment[1]
                + rotation[3 * e + 2] * firstMoment[2];
            t[3 + e] = twistRate[e] - gravity[e];
        }
        FlatVectors.cross(twistRate, 3, t, 0, t, 6);
        FlatVectors.cross(twist, 3, t, 0, t, 9);
        FlatVectors.cross(twist, 3, t, 9, t, 9);
        for (int e = 0; e < 3; e++)
        {
            platformWrench[e] = mass * t[3 + e] + t[6 + e] + t[9 + e];
        }
        // J omega and J omegadot with J = R J_p R^T: R (J_p (R^T w)).
        rotatedInertiaTimes(rotation, twist, 3, t, 12);
        rotatedInertiaTimes(rotation, twistRate, 3, t, 15);
        FlatVectors.cross(twist, 3, t, 12, t, 18);
        FlatVectors.cross(t, 0, t, 3, t, 21);
        for (int e = 0; e < 3; e++)
        {
            platformWrench[3 + e] = t[15 + e] + t[18 + e] + t[21 + e];
        }
    }

    /** out = R J R^T w. */
    private void rotatedInertiaTimes(
        final double[] rotation, final double[] w, final int wi, final double[] out, final int oi)
    {
        final double x = rotation[0] * w[wi] + rotation[3] * w[wi + 1] + rotation[6] * w[wi + 2];
        final double y = rotation[1] * w[wi] + rotation[4] * w[wi + 1] + rotation[7] * w[wi + 2];
        final double z = rotation[2] * w[wi] + rotation[5] * w[wi + 1] + rotation[8] * w[wi + 2];
        final double jx = inertia[0] * x + inertia[1] * y + inertia[2] * z;
        final double jy = inertia[3] * x + inertia[4] * y + inertia[5] * z;
        final double jz = inertia[6] * x + inertia[7] * y + inertia[8] * z;
        for (int e = 0; e < 3; e++)
        {
            out[oi + e] = rotation[3 * e] * jx + rotation[3 * e + 1] * jy + rotation[3 * e + 2] * jz;
        }
    }

    /** Gamma = J_p^T W, solved as (J_p^-1)^T Gamma = W, J_p^-1's rows [u_i^T, (P_i x u_i)^T]. */
    private boolean solveActuatorForces(final double[] w, final double[] forces)
    {
        for (int i = 0; i < N; i++)
        {
            FlatVectors.cross(lever, 3 * i, unit, 3 * i, t, 0);
            for (int e = 0; e < 3; e++)
            {
                inverseJacobianTransposed.data[6 * e + i] = unit[3 * i + e];
                inverseJacobianTransposed.data[6 * (3 + e) + i] = t[e];
            }
        }
        System.arraycopy(w, 0, rhs.data, 0, 6);
        if (!solver.setA(inverseJacobianTransposed))
        {
            return false;
        }
        solver.solve(rhs, solution);
        System.arraycopy(solution.data, 0, forces, 0, 6);
        return true;
    }

    private static double dot(final double[] a, final int ai, final double[] b, final int bi)
    {
        return a[ai] * b[bi] + a[ai + 1] * b[bi + 1] + a[ai + 2] * b[bi + 2];
    }
}
