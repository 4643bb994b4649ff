package org.nectl.core.dynamics;

import java.util.Arrays;

import org.nectl.core.model.RobotModel;

/**
 * Analytic partial derivatives of inverse dynamics, d tau/d q, d tau/d qd and d tau/d qdd, and of
 * the joint reaction wrenches, for trees with revolute, prismatic and fixed joints, with gravity,
 * external wrenches (constant in their body frames) and Khalil's joint terms (ICINCO 2010,
 * eq. 31: d/d qd of Fv qd is Fv; Fs sign(qd) has derivative 0 away from qd = 0; Ia adds to
 * d tau/d qdd).
 *
 * <p><b>Method.</b> The recursive analytic derivatives of Carpentier and Mansard, "Analytical
 * derivatives of rigid body dynamics algorithms", RSS 2018, derived here in base coordinates
 * (about the base origin), rather than the forward-mode sensitivities of Barman's thesis
 * (Oklahoma State, 2020), which push d/d q_k of every link's velocity, acceleration and wrench
 * through the whole recursion once per coordinate: about n Newton-Euler passes, in standard DH on
 * chains. Here one Newton-Euler pass plus subtree sums (composite inertia Ic, composite coupling
 * Bc with B(v, I) psi = I (psi x v) + psi x* (I v) + v x* (I psi)) leave a 6-term dot product
 * per (joint, ancestor) pair. In base coordinates a joint j moves its whole subtree rigidly along
 * S_j, which gives, for a body k that j supports:
 * <pre>
 *   dS_k/dq_j = S_j x S_k,   dv_k/dq_j = S_j x v_k + S_j-dot,
 *   da_k/dq_j = S_j x a_k + S_j-dot x v_k + da_j,   da_j = -S_j x a_j - S_j-dot x v_j,
 *   dv_k/dqd_j = S_j,        da_k/dqd_j = S_j x v_k + 2 S_j-dot,
 * </pre>
 * with S_j-dot = v_j x S_j. Summing the body wrenches f_k = I_k a_k + v_k x* I_k v_k - f_ext,k over
 * a subtree, the rigid part S_j x* F cancels in tau_i = S_i . F_i when j supports i, so
 * <pre>
 *   j supports i:   d tau_i/d q_j  = S_i . (Ic_i da_j + Bc_i S_j-dot)
 *                   d tau_i/d qd_j = S_i . (Bc_i S_j + 2 Ic_i S_j-dot)  (= 2 C_ij)
 *   i supports j:   d tau_i/d q_j  = S_i . (S_j x* F_j + Ic_j da_j + Bc_j S_j-dot)
 *                   d tau_i/d qd_j = S_i . (Bc_j S_j + 2 Ic_j S_j-dot)  (= 2 C_ij)
 *   otherwise 0;    d tau/d qdd = M (composite-rigid-body algorithm).
 * </pre>
 * A reaction wrench F_i seen in body i's own frame loses the rigid term too: its derivatives are
 * the bracketed 6-vectors above, re-expressed in body i's frame. All quantities come from one
 * forward and one backward pass; the cost is O(n d) with small constants. The backward pass forms
 * the subtree sums, tau and every entry in one sweep: per joint i the vectors Ic_i S_i,
 * Bc_i^T S_i, Bc_i S_i + 2 Ic_i S_i-dot and S_i x* F_i + Ic_i da_i + Bc_i S_i-dot are built once
 * and dotted with S_j, S_j-dot and da_j of each ancestor (Ic is symmetric, so M_ij = M_ji and
 * S_i . Ic_i x = x . Ic_i S_i).
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} and the reaction-wrench
 * readers are real-time safe.
 */
public final class InverseDynamicsDerivatives
{
    private final BaseFrameBodies bodies;
    /** The base's spatial acceleration (-g, 0), base frame, set from each call's loads. */
    private final double[] baseAcceleration = new double[6];
    /** Spatial acceleration a_i, base frame, 6 per body. */
    private final double[] acceleration;
    /** Body wrench f_i, then (after the backward sweep) the wrench its parent exerts on it, base frame, about the base origin, 6 per body. */
    private final double[] wrench;
    private boolean friction = true;
    /** da_j = -S_j x a_j - S_j-dot x v_j, base frame, 6 per body. */
    private final double[] accelerationShift;
    /** psi_j = S_j x* F_j + Ic_j da_j + Bc_j S_j-dot: dF_i/dq_j for every i that supports j, base frame, 6 per body. */
    private final double[] subtreeWrenchRate;
    private final double[] scratch = new double[CoriolisMatrix.SCRATCH];
    private final double[] column = new double[12];
    private final double[] shift = new double[6];
    /** Subtree sum of the world-fixed forces F_k, base frame, 3 per body. */
    private final double[] worldForceSum;
    /** Subtree sum of the world-fixed moments M_k, base frame, 3 per body. */
    private final double[] worldMomentSum;
    /** Subtree sum of F_k p_k^T (p_k the base-frame point of F_k), 9 per body, row-major. */
    private final double[] worldSpread;
    /** The model's gravity and no wrench, for calls without loads. */
    private final AppliedLoads noLoads;
    /** The loads of the running or last call. */
    private AppliedLoads loads;

    /**
     * Compiles the model for this instance alone; share one {@link CompiledModel} between
     * algorithms instead where several run on the same robot. Not real-time safe.
     *
     * @param model the robot.
     */
    public InverseDynamicsDerivatives(final RobotModel model)
    {
        this(CompiledModel.of(model));
    }

    /**
     * Not real-time safe: allocates the workspace, sized from the model.
     *
     * @param model the compiled robot.
     */
    public InverseDynamicsDerivatives(final CompiledModel model)
    {
        bodies = new BaseFrameBodies(model);
        acceleration = new double[6 * bodies.bodyCount];
        wrench = new double[6 * bodies.bodyCount];
        accelerationShift = new double[6 * bodies.bodyCount];
        subtreeWrenchRate = new double[6 * bodies.bodyCount];
        worldForceSum = new double[3 * bodies.bodyCount];
        worldMomentSum = new double[3 * bodies.bodyCount];
        worldSpread = new double[9 * bodies.bodyCount];
        noLoads = new AppliedLoads(model);
        loads = noLoads;
    }

    /**
     * Switches Coulomb and viscous joint friction on or off (default on); rotor inertia is always
     * included. Real-time safe.
     *
     * @param enabled true to include Fs sign(qd) + Fv qd in tau and Fv in d tau/d qd.
     */
    public void jointFriction(final boolean enabled)
    {
        friction = enabled;
    }

    /**
     * Computes tau and its partial derivatives. Real-time safe: allocates nothing.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities, rad/s or m/s.
     * @param qdd joint accelerations, rad/s^2 or m/s^2.
     * @param tau output joint torques or forces, as the inverse dynamics, N m or N.
     * @param dtauDq output dof x dof row-major, row i = d tau_i / d q.
     * @param dtauDqd output dof x dof row-major, row i = d tau_i / d qd.
     * @param dtauDqdd output dof x dof row-major, row i = d tau_i / d qdd (= M(q)).
     */
    public void compute(
        final double[] q, final double[] qd, final double[] qdd, final double[] tau,
        final double[] dtauDq, final double[] dtauDqd, final double[] dtauDqdd)
    {
        compute(q, qd, qdd, noLoads, tau, dtauDq, dtauDqd, dtauDqdd);
    }

    /**
     * Computes tau and its partial derivatives under the given loads; a world-fixed load adds its
     * own d tau/d q terms (see the class comment). Real-time safe: allocates nothing.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities, rad/s or m/s.
     * @param qdd joint accelerations, rad/s^2 or m/s^2.
     * @param loads gravity and external wrenches.
     * @param tau output joint torques or forces, as the inverse dynamics, N m or N.
     * @param dtauDq output dof x dof row-major, row i = d tau_i / d q.
     * @param dtauDqd output dof x dof row-major, row i = d tau_i / d qd.
     * @param dtauDqdd output dof x dof row-major, row i = d tau_i / d qdd (= M(q)).
     */
    public void compute(
        final double[] q, final double[] qd, final double[] qdd, final AppliedLoads loads, final double[] tau,
        final double[] dtauDq, final double[] dtauDqd, final double[] dtauDqdd)
    {
        this.loads = loads;
        NewtonEulerPasses.rootMotion(loads, null, bodies.baseVelocity, 3, baseAcceleration, 3, baseAcceleration, 0);
        if (bodies.branched())
        {
            // On a tree most entries couple different branches: one block fill is cheaper than
            // zeroing them one by one; the sweep then writes every coupled entry.
            Arrays.fill(dtauDq, 0, bodies.dof * bodies.dof, 0.0);
            Arrays.fill(dtauDqd, 0, bodies.dof * bodies.dof, 0.0);
            Arrays.fill(dtauDqdd, 0, bodies.dof * bodies.dof, 0.0);
        }
        bodies.placements(q);
        for (int i = 0; i < bodies.bodyCount; i++)
        {
            bodyMotion(i, qd, qdd);
        }
        backwardSweep(qd, qdd, tau, dtauDq, dtauDqd, dtauDqdd);
        if (loads.worldLoads)
        {
            worldLoadTerms(dtauDq);
        }
    }

    /**
     * After {@link #compute}: the wrench the parent exerts on the body through its joint.
     * Real-time safe.
     *
     * @param body body index.
     * @param wrench6 output: force (N) then moment about the body-frame origin (N m), body frame.
     */
    public void reactionWrench(final int body, final double[] wrench6)
    {
        SpatialAlgebra.wrenchToFrame(
            bodies.rotation, 9 * body, bodies.position, 3 * body, wrench, 6 * body, wrench6, 0);
    }

    /**
     * After {@link #compute}: partial derivatives of {@link #reactionWrench} of a body, in that
     * body's frame. Real-time safe.
     *
     * @param body body index.
     * @param dWrenchDq output 6 x dof row-major: row r = d wrench_r / d q.
     * @param dWrenchDqd output 6 x dof row-major: row r = d wrench_r / d qd.
     * @param dWrenchDqdd output 6 x dof row-major: row r = d wrench_r / d qdd.
     */
    public void reactionWrenchDerivatives(
        final int body, final double[] dWrenchDq, final double[] dWrenchDqd, final double[] dWrenchDqdd)
    {
        for (int k = 0; k < bodies.dof; k++)
        {
            final int j = bodies.bodyOfCoordinate[k];
            if (bodies.supports(j, body))
            {
                reactionColumns(body, j);
            }
            else if (bodies.supports(body, j))
            {
                reactionColumns(j, j);
                System.arraycopy(subtreeWrenchRate, 6 * j, column, 0, 6);
            }
            else
            {
                Arrays.fill(column, 0.0);
                Arrays.fill(scratch, 0.0);
            }
            storeColumn(body, column, 0, dWrenchDq, k);
            storeColumn(body, column, 6, dWrenchDqd, k);
            storeColumn(body, scratch, 0, dWrenchDqdd, k);
        }
    }

    /**
     * column[0..5] = Ic_s da_j + Bc_s S_j-dot, column[6..11] = Bc_s S_j + 2 Ic_s S_j-dot and
     * scratch[0..5] = Ic_s S_j, s being the subtree whose wrench moves (base frame).
     */
    private void reactionColumns(final int subtree, final int j)
    {
        final int sj = 6 * j;
        bodies.compositeInertiaTimes(subtree, accelerationShift, sj, column, 0);
        bodies.compositeCouplingTimes(subtree, bodies.axisRate, sj, scratch, 6);
        bodies.compositeCouplingTimes(subtree, bodies.axis, sj, column, 6);
        bodies.compositeInertiaTimes(subtree, bodies.axisRate, sj, scratch, 0);
        for (int c = 0; c < 6; c++)
        {
            column[c] += scratch[6 + c];
            column[6 + c] += 2.0 * scratch[c];
        }
        bodies.compositeInertiaTimes(subtree, bodies.axis, sj, scratch, 0);
        if (loads.worldLoads)
        {
            worldLoadShift(subtree, bodies.axis, sj + 3, shift);
            for (int c = 0; c < 6; c++)
            {
                column[c] += shift[c];
            }
        }
    }

    /**
     * The d tau/d q terms of world-fixed loads, which the rigid-motion argument of the class comment
     * does not cover: a joint j moving subtree s turns a body-fixed wrench with it (S_j x* f), but a
     * world-fixed force F at a body point p only moves its point, d(F, p x F + M)/d q_j =
     * (0, (S_j,w x p + S_j,v) x F) (Barman 2020, eqs. 3.76-3.91, summed over the subtree). The
     * difference adds G_s w_j = (w_j x F_s, w_j tr(Q_s) - Q_s w_j + w_j x M_s) to dF_i/d q_j, with
     * w_j the angular part of S_j, F_s, M_s, Q_s = sum F_k p_k^T subtree sums and s the lower of
     * i, j: d tau_i/d q_j += S_i . G_i w_j for j supporting i, S_i . G_j w_j for i supporting j;
     * the latter also goes into the reaction-wrench rates (subtreeWrenchRate).
     */
    private void worldLoadTerms(final double[] dtauDq)
    {
        final BaseFrameBodies b = bodies;
        final int n = b.dof;
        for (int i = 0; i < b.bodyCount; i++)
        {
            // own F, M and F p^T, p = 0R_i c + 0p_i
            final int t = 3 * i;
            Vec3.multiply(b.rotation, 9 * i, loads.worldPoint, t, scratch, 0);
            Vec3.addScaled(1.0, b.position, t, scratch, 0);
            Vec3.copy(loads.worldForce, t, worldForceSum, t);
            Vec3.copy(loads.worldMoment, t, worldMomentSum, t);
            for (int r = 0; r < 3; r++)
            {
                for (int c = 0; c < 3; c++)
                {
                    worldSpread[9 * i + 3 * r + c] = loads.worldForce[t + r] * scratch[c];
                }
            }
        }
        for (int i = b.bodyCount - 1; i >= 0; i--)
        {
            final int p = b.parent[i];
            if (p >= 0)
            {
                Vec3.add(worldForceSum, 3 * i, worldForceSum, 3 * p);
                Vec3.add(worldMomentSum, 3 * i, worldMomentSum, 3 * p);
                for (int c = 0; c < 9; c++)
                {
                    worldSpread[9 * p + c] += worldSpread[9 * i + c];
                }
            }
            final int ci = b.coordinate[i];
            if (ci < 0)
            {
                continue;
            }
            // G_i w_i, for the ancestors' rows and the reaction rates
            final double[] own = column;
            worldLoadShift(i, b.axis, 6 * i + 3, own);
            for (int c = 0; c < 6; c++)
            {
                subtreeWrenchRate[6 * i + c] += own[c];
            }
            for (int j = i; j >= 0; j = b.parent[j])
            {
                final int cj = b.coordinate[j];
                if (cj < 0)
                {
                    continue;
                }
                // row i: S_i . G_i w_j; row j (j above i): S_j . G_i w_i
                worldLoadShift(i, b.axis, 6 * j + 3, shift);
                dtauDq[ci * n + cj] += SpatialAlgebra.dot6(b.axis, 6 * i, shift, 0);
                if (j != i)
                {
                    dtauDq[cj * n + ci] += SpatialAlgebra.dot6(b.axis, 6 * j, own, 0);
                }
            }
        }
    }

    /**
     * out = G_s w = (w x F_s, w tr(Q_s) - Q_s w + w x M_s), 6 values (see {@link #worldLoadTerms});
     * w is 3 values of {@code axis} at {@code iw}.
     */
    private void worldLoadShift(final int s, final double[] axis, final int iw, final double[] out)
    {
        final double wx = axis[iw];
        final double wy = axis[iw + 1];
        final double wz = axis[iw + 2];
        final int t = 3 * s;
        final int q = 9 * s;
        final double[] f = worldForceSum;
        final double[] m = worldMomentSum;
        final double[] sp = worldSpread;
        final double trace = sp[q] + sp[q + 4] + sp[q + 8];
        out[0] = wy * f[t + 2] - wz * f[t + 1];
        out[1] = wz * f[t] - wx * f[t + 2];
        out[2] = wx * f[t + 1] - wy * f[t];
        out[3] = wx * trace - (sp[q] * wx + sp[q + 1] * wy + sp[q + 2] * wz) + wy * m[t + 2] - wz * m[t + 1];
        out[4] = wy * trace - (sp[q + 3] * wx + sp[q + 4] * wy + sp[q + 5] * wz) + wz * m[t] - wx * m[t + 2];
        out[5] = wz * trace - (sp[q + 6] * wx + sp[q + 7] * wy + sp[q + 8] * wz) + wx * m[t + 1] - wy * m[t];
    }

    /** Re-expresses a base-frame column in the body's frame and stores it as column k of a 6 x dof matrix. */
    private void storeColumn(final int body, final double[] from, final int offset, final double[] out, final int k)
    {
        SpatialAlgebra.wrenchToFrame(bodies.rotation, 9 * body, bodies.position, 3 * body, from, offset, from, offset);
        for (int r = 0; r < 6; r++)
        {
            out[r * bodies.dof + k] = from[offset + r];
        }
    }

    /**
     * Forward, after {@link BaseFrameBodies#placements}: body i's velocity v_i = v_p + S_i qd_i,
     * axis rate S_i-dot = v_i x S_i (the velocity step of {@link BaseFrameBodies#velocity}),
     * acceleration a_i = a_p + S_i qdd_i + S_i-dot qd_i, wrench f_i = I_i a_i + v_i x* I_i v_i - f_ext,i
     * (Featherstone 2008, §5.3, base coordinates; I_i v_i from {@link BaseFrameBodies#coupling}),
     * da_i = -S_i x a_i - S_i-dot x v_i, which every descendant reads, and its own inertia as the
     * start of its subtree sums. On locals, each input read once and each result stored once: the
     * velocity step is repeated here because storing v and S-dot there and reading them back made
     * the derivatives 4-6 % slower on the Panda (docs/PERFORMANCE.md).
     * Over 80 lines on purpose: one body step on locals; shortened (stores through helpers, S-dot and
     * da also for fixed joints) it measured up to 12 % slower on the Panda.
     */
    private void bodyMotion(final int i, final double[] qd, final double[] qdd)
    {
        final BaseFrameBodies b = bodies;
        final int p = b.parent[i];
        final int k = b.coordinate[i];
        final double rate = k >= 0 ? qd[k] : 0.0;
        final double jointAcceleration = k >= 0 ? qdd[k] : 0.0;
        final double[] axis = b.axis;
        final double[] vel = b.velocity;
        final double[] acc = acceleration;
        final int s = 6 * i;
        final double sx = axis[s];
        final double sy = axis[s + 1];
        final double sz = axis[s + 2];
        final double sa = axis[s + 3];
        final double sb = axis[s + 4];
        final double sc = axis[s + 5];
        final double[] from = p < 0 ? b.baseVelocity : vel;
        final int fp = p < 0 ? 0 : 6 * p;
        final double vx = from[fp] + sx * rate;
        final double vy = from[fp + 1] + sy * rate;
        final double vz = from[fp + 2] + sz * rate;
        final double wx = from[fp + 3] + sa * rate;
        final double wy = from[fp + 4] + sb * rate;
        final double wz = from[fp + 5] + sc * rate;
        vel[s] = vx;
        vel[s + 1] = vy;
        vel[s + 2] = vz;
        vel[s + 3] = wx;
        vel[s + 4] = wy;
        vel[s + 5] = wz;
        final double rx;
        final double ry;
        final double rz;
        final double ra;
        final double rb;
        final double rc;
        if (k >= 0)
        {
            // S-dot = v x S, motion cross product (w x S_v + v x S_w, w x S_w); a fixed joint's is 0
            rx = wy * sz - wz * sy + vy * sc - vz * sb;
            ry = wz * sx - wx * sz + vz * sa - vx * sc;
            rz = wx * sy - wy * sx + vx * sb - vy * sa;
            ra = wy * sc - wz * sb;
            rb = wz * sa - wx * sc;
            rc = wx * sb - wy * sa;
            final double[] rate6 = b.axisRate;
            rate6[s] = rx;
            rate6[s + 1] = ry;
            rate6[s + 2] = rz;
            rate6[s + 3] = ra;
            rate6[s + 4] = rb;
            rate6[s + 5] = rc;
        }
        else
        {
            rx = 0.0;
            ry = 0.0;
            rz = 0.0;
            ra = 0.0;
            rb = 0.0;
            rc = 0.0;
        }
        final double[] fromA = p < 0 ? baseAcceleration : acc;
        final double ax = fromA[fp] + sx * jointAcceleration + rx * rate;
        final double ay = fromA[fp + 1] + sy * jointAcceleration + ry * rate;
        final double az = fromA[fp + 2] + sz * jointAcceleration + rz * rate;
        final double aa = fromA[fp + 3] + sa * jointAcceleration + ra * rate;
        final double ab = fromA[fp + 4] + sb * jointAcceleration + rb * rate;
        final double ac = fromA[fp + 5] + sc * jointAcceleration + rc * rate;
        acc[s] = ax;
        acc[s + 1] = ay;
        acc[s + 2] = az;
        acc[s + 3] = aa;
        acc[s + 4] = ab;
        acc[s + 5] = ac;
        if (k >= 0)
        {
            // -(S x a) - (S-dot x v), motion cross products; only joints with a coordinate are read
            final double[] da = accelerationShift;
            da[s] = -(sb * az - sc * ay + sy * ac - sz * ab) - (rb * vz - rc * vy + ry * wz - rz * wy);
            da[s + 1] = -(sc * ax - sa * az + sz * aa - sx * ac) - (rc * vx - ra * vz + rz * wx - rx * wz);
            da[s + 2] = -(sa * ay - sb * ax + sx * ab - sy * aa) - (ra * vy - rb * vx + rx * wy - ry * wx);
            da[s + 3] = -(sb * ac - sc * ab) - (rb * wz - rc * wy);
            da[s + 4] = -(sc * aa - sa * ac) - (rc * wx - ra * wz);
            da[s + 5] = -(sa * ab - sb * aa) - (ra * wy - rb * wx);
        }
        final int t = 3 * i;
        final int r = 9 * i;
        final double m = b.mass[i];
        final double hx = b.firstMoment[t];
        final double hy = b.firstMoment[t + 1];
        final double hz = b.firstMoment[t + 2];
        final double[] o = b.inertia;
        final double o00 = o[r];
        final double o01 = o[r + 1];
        final double o02 = o[r + 2];
        final double o11 = o[r + 4];
        final double o12 = o[r + 5];
        final double o22 = o[r + 8];
        b.compositeMass[i] = m;
        final double[] ch = b.compositeFirstMoment;
        ch[t] = hx;
        ch[t + 1] = hy;
        ch[t + 2] = hz;
        final double[] co = b.compositeInertia;
        co[r] = o00;
        co[r + 1] = o01;
        co[r + 2] = o02;
        co[r + 3] = o01;
        co[r + 4] = o11;
        co[r + 5] = o12;
        co[r + 6] = o02;
        co[r + 7] = o12;
        co[r + 8] = o22;
        b.coupling(i);
        final double[] cp = b.compositeMomentum;
        final double px = cp[t];
        final double py = cp[t + 1];
        final double pz = cp[t + 2];
        final double[] angular = b.angularMomentum;
        final double nx = angular[t];
        final double ny = angular[t + 1];
        final double nz = angular[t + 2];
        // f = I a + v x* I v = (m a - h x a_w + w x p, O a_w + h x a + w x n + v x p)
        final double[] f = wrench;
        f[s] = m * ax + ab * hz - ac * hy + wy * pz - wz * py;
        f[s + 1] = m * ay + ac * hx - aa * hz + wz * px - wx * pz;
        f[s + 2] = m * az + aa * hy - ab * hx + wx * py - wy * px;
        f[s + 3] = o00 * aa + o01 * ab + o02 * ac + hy * az - hz * ay + wy * nz - wz * ny + vy * pz - vz * py;
        f[s + 4] = o01 * aa + o11 * ab + o12 * ac + hz * ax - hx * az + wz * nx - wx * nz + vz * px - vx * pz;
        f[s + 5] = o02 * aa + o12 * ab + o22 * ac + hx * ay - hy * ax + wx * ny - wy * nx + vx * py - vy * px;
        if (loads.any())
        {
            loads.subtractInBase(i, b.rotation, b.position, scratch, f, s);
        }
    }

    /**
     * Backward: subtree sums of the inertias, couplings and wrenches (each body's are complete when
     * it is reached, its children having higher indices), tau, and every (joint, ancestor) entry
     * of M, d tau/d qd and d tau/d q. Per joint i the four 6-vectors u = Ic_i S_i,
     * w = Bc_i^T S_i (angular part; its linear part is 0), phi = Bc_i S_i + 2 Ic_i S_i-dot and
     * psi = S_i x* F_i + Ic_i da_i + Bc_i S_i-dot are formed once; for every ancestor j (or j = i)
     * M_ij = M_ji = u . S_j, d tau_i/d qd_j = w . S_j + 2 u . S_j-dot, d tau_j/d qd_i = phi . S_j,
     * d tau_i/d q_j = u . da_j + w . S_j-dot, d tau_j/d q_i = psi . S_j (Ic symmetric). phi and psi
     * feed only entries of ancestors (and psi the reaction derivatives of ancestor bodies), so a
     * joint that hangs from the base skips them. Each body's sums are added into its parent's
     * from the values already loaded for its own entries.
     * Over 80 lines on purpose: one sweep on locals, each subtree sum loaded once for its own entries
     * and its parent; as separate passes (sums, products, entries) the derivatives measured 8-24 %
     * slower on the Panda (docs/PERFORMANCE.md).
     */
    private void backwardSweep(final double[] qd, final double[] qdd, final double[] tau,
        final double[] dtauDq, final double[] dtauDqd, final double[] massMatrix)
    {
        final BaseFrameBodies b = bodies;
        final int n = b.dof;
        final int[] parent = b.parent;
        final int[] coordinate = b.coordinate;
        final double[] cm = b.compositeMass;
        final double[] ch = b.compositeFirstMoment;
        final double[] co = b.compositeInertia;
        final double[] cp = b.compositeMomentum;
        final double[] cx = b.compositeCoupling;
        final double[] f = wrench;
        final double[] axis = b.axis;
        final double[] rate = b.axisRate;
        final double[] da = accelerationShift;
        final double[] psi = subtreeWrenchRate;
        final boolean friction = this.friction;
        final CompiledModel model = b.model;
        final double[] rotor = model.rotorInertia;
        for (int i = b.bodyCount - 1; i >= 0; i--)
        {
            final int p = parent[i];
            final int t = 3 * i;
            final int r = 9 * i;
            final int s = 6 * i;
            final double m = cm[i];
            final double hx = ch[t];
            final double hy = ch[t + 1];
            final double hz = ch[t + 2];
            final double o00 = co[r];
            final double o01 = co[r + 1];
            final double o02 = co[r + 2];
            final double o11 = co[r + 4];
            final double o12 = co[r + 5];
            final double o22 = co[r + 8];
            final double px = cp[t];
            final double py = cp[t + 1];
            final double pz = cp[t + 2];
            final double x00 = cx[r];
            final double x01 = cx[r + 1];
            final double x02 = cx[r + 2];
            final double x10 = cx[r + 3];
            final double x11 = cx[r + 4];
            final double x12 = cx[r + 5];
            final double x20 = cx[r + 6];
            final double x21 = cx[r + 7];
            final double x22 = cx[r + 8];
            final double fx = f[s];
            final double fy = f[s + 1];
            final double fz = f[s + 2];
            final double fa = f[s + 3];
            final double fb = f[s + 4];
            final double fc = f[s + 5];
            if (p >= 0)
            {
                // the subtree's sums, complete now (children have higher indices), into the parent's
                final int tp = 3 * p;
                final int rp = 9 * p;
                final int sp = 6 * p;
                cm[p] += m;
                ch[tp] += hx;
                ch[tp + 1] += hy;
                ch[tp + 2] += hz;
                co[rp] += o00;
                co[rp + 1] += o01;
                co[rp + 2] += o02;
                co[rp + 3] += o01;
                co[rp + 4] += o11;
                co[rp + 5] += o12;
                co[rp + 6] += o02;
                co[rp + 7] += o12;
                co[rp + 8] += o22;
                cp[tp] += px;
                cp[tp + 1] += py;
                cp[tp + 2] += pz;
                cx[rp] += x00;
                cx[rp + 1] += x01;
                cx[rp + 2] += x02;
                cx[rp + 3] += x10;
                cx[rp + 4] += x11;
                cx[rp + 5] += x12;
                cx[rp + 6] += x20;
                cx[rp + 7] += x21;
                cx[rp + 8] += x22;
                f[sp] += fx;
                f[sp + 1] += fy;
                f[sp + 2] += fz;
                f[sp + 3] += fa;
                f[sp + 4] += fb;
                f[sp + 5] += fc;
            }
            final int ci = coordinate[i];
            if (ci < 0)
            {
                continue;
            }
            final double px2 = 2.0 * px;
            final double py2 = 2.0 * py;
            final double pz2 = 2.0 * pz;
            final double sx = axis[s];
            final double sy = axis[s + 1];
            final double sz = axis[s + 2];
            final double sa = axis[s + 3];
            final double sb = axis[s + 4];
            final double sc = axis[s + 5];
            tau[ci] = sx * fx + sy * fy + sz * fz + sa * fa + sb * fb + sc * fc
                + rotor[ci] * qdd[ci] + model.friction(ci, qd[ci], friction);
            // u = Ic S
            final double ux = m * sx + sb * hz - sc * hy;
            final double uy = m * sy + sc * hx - sa * hz;
            final double uz = m * sz + sa * hy - sb * hx;
            final double ua = o00 * sa + o01 * sb + o02 * sc + hy * sz - hz * sy;
            final double ub = o01 * sa + o11 * sb + o12 * sc + hz * sx - hx * sz;
            final double uc = o02 * sa + o12 * sb + o22 * sc + hx * sy - hy * sx;
            // w = angular part of Bc^T S = X^T S_w + 2 p x S_v
            final double wa = x00 * sa + x10 * sb + x20 * sc + py2 * sz - pz2 * sy;
            final double wb = x01 * sa + x11 * sb + x21 * sc + pz2 * sx - px2 * sz;
            final double wc = x02 * sa + x12 * sb + x22 * sc + px2 * sy - py2 * sx;
            final double rx = rate[s];
            final double ry = rate[s + 1];
            final double rz = rate[s + 2];
            final double ra = rate[s + 3];
            final double rb = rate[s + 4];
            final double rc = rate[s + 5];
            final double dx = da[s];
            final double dy = da[s + 1];
            final double dz = da[s + 2];
            final double dA = da[s + 3];
            final double dB = da[s + 4];
            final double dC = da[s + 5];
            final int d = ci * n + ci;
            massMatrix[d] = ux * sx + uy * sy + uz * sz + ua * sa + ub * sb + uc * sc + rotor[ci];
            dtauDqd[d] = wa * sa + wb * sb + wc * sc + 2.0 * (ux * rx + uy * ry + uz * rz + ua * ra + ub * rb + uc * rc)
                + model.frictionRate(ci, 1.0, friction);
            dtauDq[d] = ux * dx + uy * dy + uz * dz + ua * dA + ub * dB + uc * dC + wa * ra + wb * rb + wc * rc;
            if (p < 0)
            {
                // no ancestor: no off-diagonal entry, and no reaction wrench moves with this joint
                continue;
            }
            // phi = Bc S + 2 Ic S-dot, Bc m = (2 m_w x p, X m_w)
            final double phix = sb * pz2 - sc * py2 + 2.0 * (m * rx + rb * hz - rc * hy);
            final double phiy = sc * px2 - sa * pz2 + 2.0 * (m * ry + rc * hx - ra * hz);
            final double phiz = sa * py2 - sb * px2 + 2.0 * (m * rz + ra * hy - rb * hx);
            final double phia = x00 * sa + x01 * sb + x02 * sc + 2.0 * (o00 * ra + o01 * rb + o02 * rc + hy * rz - hz * ry);
            final double phib = x10 * sa + x11 * sb + x12 * sc + 2.0 * (o01 * ra + o11 * rb + o12 * rc + hz * rx - hx * rz);
            final double phic = x20 * sa + x21 * sb + x22 * sc + 2.0 * (o02 * ra + o12 * rb + o22 * rc + hx * ry - hy * rx);
            // psi = S x* F + Ic da + Bc S-dot, S x* F = (S_w x f, S_w x n + S_v x f)
            final double psix = sb * fz - sc * fy + m * dx + dB * hz - dC * hy + rb * pz2 - rc * py2;
            final double psiy = sc * fx - sa * fz + m * dy + dC * hx - dA * hz + rc * px2 - ra * pz2;
            final double psiz = sa * fy - sb * fx + m * dz + dA * hy - dB * hx + ra * py2 - rb * px2;
            final double psia = sb * fc - sc * fb + sy * fz - sz * fy
                + o00 * dA + o01 * dB + o02 * dC + hy * dz - hz * dy + x00 * ra + x01 * rb + x02 * rc;
            final double psib = sc * fa - sa * fc + sz * fx - sx * fz
                + o01 * dA + o11 * dB + o12 * dC + hz * dx - hx * dz + x10 * ra + x11 * rb + x12 * rc;
            final double psic = sa * fb - sb * fa + sx * fy - sy * fx
                + o02 * dA + o12 * dB + o22 * dC + hx * dy - hy * dx + x20 * ra + x21 * rb + x22 * rc;
            psi[s] = psix;
            psi[s + 1] = psiy;
            psi[s + 2] = psiz;
            psi[s + 3] = psia;
            psi[s + 4] = psib;
            psi[s + 5] = psic;
            for (int j = p; j >= 0; j = parent[j])
            {
                final int cj = coordinate[j];
                if (cj < 0)
                {
                    continue;
                }
                final int sj = 6 * j;
                final double jx = axis[sj];
                final double jy = axis[sj + 1];
                final double jz = axis[sj + 2];
                final double ja = axis[sj + 3];
                final double jb = axis[sj + 4];
                final double jc = axis[sj + 5];
                final double jrx = rate[sj];
                final double jry = rate[sj + 1];
                final double jrz = rate[sj + 2];
                final double jra = rate[sj + 3];
                final double jrb = rate[sj + 4];
                final double jrc = rate[sj + 5];
                final int ij = ci * n + cj;
                final int ji = cj * n + ci;
                final double mij = ux * jx + uy * jy + uz * jz + ua * ja + ub * jb + uc * jc;
                massMatrix[ij] = mij;
                massMatrix[ji] = mij;
                dtauDqd[ij] = wa * ja + wb * jb + wc * jc
                    + 2.0 * (ux * jrx + uy * jry + uz * jrz + ua * jra + ub * jrb + uc * jrc);
                dtauDqd[ji] = phix * jx + phiy * jy + phiz * jz + phia * ja + phib * jb + phic * jc;
                dtauDq[ij] = ux * da[sj] + uy * da[sj + 1] + uz * da[sj + 2] + ua * da[sj + 3] + ub * da[sj + 4]
                    + uc * da[sj + 5] + wa * jra + wb * jrb + wc * jrc;
                dtauDq[ji] = psix * jx + psiy * jy + psiz * jz + psia * ja + psib * jb + psic * jc;
            }
        }
    }
}
