package org.nectl.core.mobile;

import java.util.Arrays;

import org.nectl.core.dynamics.BaseFrameTree;
import org.nectl.core.dynamics.CholeskySolver;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.SpatialAlgebra;
import org.nectl.core.model.RobotModel;

/**
 * Direct dynamics of a free-floating tree by the articulated-body recursion with a free root
 * (Khalil, "Dynamic modeling of robots using recursive Newton-Euler techniques", ICINCO 2010, §7.3,
 * eqs. 101-112; Featherstone, "Rigid Body Dynamics Algorithms", 2008, §9.4, floating-base ABA):
 * given the base pose and twist, q, qd and the joint torques, the base acceleration and qdd.
 * Base state in the convention of {@link BasePose}; no external wrench acts.
 *
 * <p>In base coordinates about the base origin ({@link BaseFrameTree}), where the screw transforms
 * jT_i of the paper are the identity; symbols as the paper's, with the accumulations the printed
 * eqs. 105 and 108 lost restored and the bias wrench's sign as derived (the paper's beta* is -p here):
 * <pre>
 *   forward  (101-102):  v_j = v_i + S_j qd_j,  gamma_j = (v_j x S_j) qd_j,  J*_j = J_j,  p_j = v_j x* (J_j v_j)
 *   backward (103-108):  U_j = J*_j S_j,  H_j = S_j^T U_j + Ia_j,  u_j = tau_j - Fs sign(qd_j) - Fv qd_j - S_j^T p_j,
 *                        J*_i += J*_j - U_j U_j^T / H_j,   p_i += p_j + J*_j gamma_j + U_j (u_j - U_j^T gamma_j) / H_j
 *                        down to the base, i = 0, with J*_0 starting at J_b and p_0 at v_0 x* (J_b v_0)
 *   base     (109):      J*_0 a'_0 = -p_0
 *   forward  (110-112):  qdd_j = (u_j - U_j^T (a'_i + gamma_j)) / H_j,  a'_j = a'_i + gamma_j + S_j qdd_j
 * </pre>
 * Gravity: every spatial acceleration is taken relative to the uniform field (g_0, 0), g_0 = 0R_w g,
 * so a'_j = a_j - (g_0, 0) and the base acceleration is a'_0 + (g_0, 0). A fixed joint passes J*
 * and p to its parent unchanged. Not thread safe. Every method is real-time safe except the constructor.
 */
public final class FreeBaseForwardDynamics
{
    private static final int SQUARE = 36;

    private final BaseFrameTree tree;
    private final CholeskySolver solver = new CholeskySolver(6);
    private final double[] rotation = new double[9];
    /** J*_j, full 6x6 row-major per body. */
    private final double[] articulatedInertia;
    /** p_j, the articulated bias wrench, 6 per body. */
    private final double[] bias;
    /** gamma_j, 6 per body. */
    private final double[] velocityProduct;
    /** U_j, 6 per body. */
    private final double[] projected;
    private final double[] inverseH;
    private final double[] drive;
    /** a'_j, 6 per body. */
    private final double[] acceleration;
    private final double[] rootBias = new double[6];
    private final double[] scratch = new double[6];
    private boolean friction = true;

    /**
     * Not real-time safe: allocates the workspace.
     *
     * @param model the compiled robot, with a floating base ({@link RobotModel#floatingBase()}); its gravity
     *     is not used (each call gives the world's).
     * @throws IllegalArgumentException for a fixed base.
     */
    public FreeBaseForwardDynamics(final CompiledModel model)
    {
        tree = new BaseFrameTree(model);
        final int n = tree.bodyCount();
        articulatedInertia = new double[SQUARE * n];
        bias = new double[6 * n];
        velocityProduct = new double[6 * n];
        projected = new double[6 * n];
        inverseH = new double[n];
        drive = new double[n];
        acceleration = new double[6 * n];
    }

    /**
     * Switches Coulomb and viscous joint friction on or off (default on).
     *
     * @param enabled true to subtract Fs sign(qd) + Fv qd from the applied torques.
     */
    public void jointFriction(final boolean enabled)
    {
        friction = enabled;
    }

    /**
     * @param pose base position and quaternion ({@link BasePose}); only the orientation is used (gravity).
     * @param twist base twist, base coordinates.
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities, rad/s or m/s.
     * @param tau applied joint torques or forces, N m or N.
     * @param gravity the world's gravity, world frame, m/s^2, 3 values.
     * @param baseAcceleration receives the base acceleration, 6 values ({@link BasePose}).
     * @param qdd receives the joint accelerations, rad/s^2 or m/s^2.
     * @return false if some H_j or J*_0 is not positive (massless parts); the outputs are then undefined.
     */
    public boolean compute(final double[] pose, final double[] twist, final double[] q, final double[] qd,
        final double[] tau, final double[] gravity, final double[] baseAcceleration, final double[] qdd)
    {
        tree.place(q);
        tree.velocities(twist, qd);
        final double[] root = solver.matrix();
        Arrays.fill(root, 0.0);
        tree.addInertia(-1, root, 0);
        tree.inertiaTimes(-1, twist, 0, scratch, 0);
        SpatialAlgebra.crossForce(twist, 0, scratch, 0, rootBias, 0);
        for (int j = 0; j < tree.bodyCount(); j++)
        {
            firstForward(j, qd);
        }
        boolean solvable = true;
        for (int j = tree.bodyCount() - 1; j >= 0; j--)
        {
            solvable &= backward(j, tau, qd, root);
        }
        final double[] rhs = solver.rhs();
        for (int k = 0; k < 6; k++)
        {
            rhs[k] = -rootBias[k];
        }
        if (!solvable || !solver.solve())
        {
            return false;
        }
        final double[] relative = solver.solution();
        for (int j = 0; j < tree.bodyCount(); j++)
        {
            secondForward(j, relative, qdd);
        }
        BasePose.rotation(pose, rotation);
        for (int r = 0; r < 3; r++)
        {
            baseAcceleration[r] = relative[r]
                + rotation[r] * gravity[0] + rotation[3 + r] * gravity[1] + rotation[6 + r] * gravity[2];
            baseAcceleration[3 + r] = relative[3 + r];
        }
        return true;
    }

    /** gamma_j, J*_j = J_j and p_j = v_j x* (J_j v_j) (eqs. 101-102). */
    private void firstForward(final int j, final double[] qd)
    {
        final int s = 6 * j;
        final int k = tree.coordinate(j);
        if (k < 0)
        {
            Arrays.fill(velocityProduct, s, s + 6, 0.0);
        }
        else
        {
            final double[] axisRate = tree.axisRate();
            for (int c = 0; c < 6; c++)
            {
                velocityProduct[s + c] = axisRate[s + c] * qd[k];
            }
        }
        Arrays.fill(articulatedInertia, SQUARE * j, SQUARE * (j + 1), 0.0);
        tree.addInertia(j, articulatedInertia, SQUARE * j);
        tree.inertiaTimes(j, tree.velocity(), s, scratch, 0);
        SpatialAlgebra.crossForce(tree.velocity(), s, scratch, 0, bias, s);
    }

    /** Body j through its joint into its parent, or into the base (eqs. 103-108). */
    private boolean backward(final int j, final double[] tau, final double[] qd, final double[] root)
    {
        final int s = 6 * j;
        final int a = SQUARE * j;
        final int p = tree.parent(j);
        final double[] parentInertia = p < 0 ? root : articulatedInertia;
        final int pa = p < 0 ? 0 : SQUARE * p;
        final double[] parentBias = p < 0 ? rootBias : bias;
        final int pb = p < 0 ? 0 : 6 * p;
        final double[] inertia = articulatedInertia;
        final double[] g = velocityProduct;
        final int k = tree.coordinate(j);
        if (k < 0)
        {
            for (int c = 0; c < SQUARE; c++)
            {
                parentInertia[pa + c] += inertia[a + c];
            }
            for (int c = 0; c < 6; c++)
            {
                parentBias[pb + c] += bias[s + c];
            }
            return true;
        }
        final double[] axis = tree.axis();
        final double[] u = projected;
        double h = 0.0;
        double sp = 0.0;
        double ug = 0.0;
        for (int r = 0; r < 6; r++)
        {
            double sum = 0.0;
            for (int c = 0; c < 6; c++)
            {
                sum += inertia[a + 6 * r + c] * axis[s + c];
            }
            u[s + r] = sum;
            h += axis[s + r] * sum;
            sp += axis[s + r] * bias[s + r];
            ug += sum * g[s + r];
        }
        h += tree.rotorInertia(k);
        final double applied = tau[k] - tree.friction(k, qd[k], friction);
        final double d = applied - sp;
        final double inv = 1.0 / h;
        inverseH[j] = inv;
        drive[j] = d;
        final double w = (d - ug) * inv;
        for (int r = 0; r < 6; r++)
        {
            double jg = 0.0;
            for (int c = 0; c < 6; c++)
            {
                jg += inertia[a + 6 * r + c] * g[s + c];
                parentInertia[pa + 6 * r + c] += inertia[a + 6 * r + c] - u[s + r] * u[s + c] * inv;
            }
            parentBias[pb + r] += bias[s + r] + jg + u[s + r] * w;
        }
        return h > 0.0;
    }

    /** qdd_j and a'_j from the parent's (eqs. 110-112); the base's is a'_0. */
    private void secondForward(final int j, final double[] base, final double[] qdd)
    {
        final int s = 6 * j;
        final int p = tree.parent(j);
        final double[] from = p < 0 ? base : acceleration;
        final int f = p < 0 ? 0 : 6 * p;
        for (int c = 0; c < 6; c++)
        {
            acceleration[s + c] = from[f + c] + velocityProduct[s + c];
        }
        final int k = tree.coordinate(j);
        if (k >= 0)
        {
            double ux = 0.0;
            for (int c = 0; c < 6; c++)
            {
                ux += projected[s + c] * acceleration[s + c];
            }
            final double accel = (drive[j] - ux) * inverseH[j];
            qdd[k] = accel;
            final double[] axis = tree.axis();
            for (int c = 0; c < 6; c++)
            {
                acceleration[s + c] += axis[s + c] * accel;
            }
        }
    }
}
