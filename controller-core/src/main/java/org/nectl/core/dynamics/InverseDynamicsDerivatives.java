package org.nectl.core.dynamics;

import java.util.Arrays;

/**
 * Analytic partial derivatives of inverse dynamics, d tau/d q, d tau/d qd and d tau/d qdd, and of
 * the joint reaction wrenches, for trees with revolute, prismatic and fixed joints, with gravity,
 * external wrenches (body-fixed, or world-fixed with their own d tau/d q terms, docs/ARCHITECTURE.md
 * "Loads are arguments") and Khalil's joint terms (ICINCO 2010, eq. 31: d/d qd of Fv qd is Fv;
 * Fs sign(qd) has derivative 0 away from qd = 0; Ia adds to d tau/d qdd).
 *
 * <p><b>Method.</b> The recursive analytic derivatives of Carpentier and Mansard, "Analytical
 * derivatives of rigid body dynamics algorithms", RSS 2018, derived here in base coordinates
 * (about the base origin), not Barman's forward-mode sensitivities (Oklahoma State, 2020), which
 * cost about n Newton-Euler passes. Here one Newton-Euler pass plus subtree sums (composite
 * inertia Ic, composite coupling Bc with B(v, I) psi = I (psi x v) + psi x* (I v) + v x* (I psi))
 * leave a 6-term dot product per (joint, ancestor) pair. In base coordinates a joint j moves its
 * whole subtree rigidly along S_j, which gives, for a body k that j supports:
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
 * the bracketed 6-vectors above, re-expressed in body i's frame. One forward and one backward
 * pass, O(n d): per joint i four products with the subtree sums are built once and dotted with
 * each ancestor's S_j, S_j-dot and da_j (Ic symmetric: S_i . Ic_i x = x . Ic_i S_i).
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} and the reaction-wrench
 * readers are real-time safe.
 */
public final class InverseDynamicsDerivatives
{
    private static final int PSI = 0;
    private static final int PHI = 6;
    private static final int U = 12;
    private static final int W = 18;
    private static final int TEMP = 21;

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
    /** A 6-vector of scratch: a load's base-frame wrench, a world-fixed load's point or its G_s w. */
    private final double[] scratch = new double[6];
    /**
     * One joint's products with the subtree sums, base frame: at {@link #PSI} Ic da + Bc S-dot, at
     * {@link #PHI} Bc S + 2 Ic S-dot, at {@link #U} Ic S, at {@link #W} the angular part of
     * Bc^T S (3), at {@link #TEMP} a 6-vector of scratch.
     */
    private final double[] products = new double[TEMP + 6];
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
     * Not real-time safe: allocates the workspace, sized from the model.
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
     * Switches Coulomb and viscous joint friction, Fs sign(qd) + Fv qd in tau and Fv in
     * d tau/d qd, on or off (default on); rotor inertia is always included. Real-time safe.
     */
    public void jointFriction(final boolean enabled)
    {
        friction = enabled;
    }

    /**
     * {@link #compute(double[], double[], double[], AppliedLoads, double[], double[], double[], double[])}
     * under the model's gravity and no external wrench. Real-time safe: allocates nothing.
     */
    public void compute(
        final double[] q, final double[] qd, final double[] qdd, final double[] tau,
        final double[] dtauDq, final double[] dtauDqd, final double[] dtauDqdd)
    {
        compute(q, qd, qdd, noLoads, tau, dtauDq, dtauDqd, dtauDqdd);
    }

    /**
     * Computes tau (N m or N, as the inverse dynamics) and its partial derivatives under the given
     * loads, each a dof x dof row-major matrix with row i = d tau_i/d q, d tau_i/d qd and
     * d tau_i/d qdd (= M(q)); q, qd, qdd by coordinate in rad, rad/s, rad/s^2 or m, m/s, m/s^2.
     * Real-time safe: allocates nothing.
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
        bodies.startComposites();
        for (int i = 0; i < bodies.bodyCount; i++)
        {
            // v_i, S_i-dot, a_i and da_i (which every descendant reads), the body's own momentum and
            // coupling, and its wrench f_i = I_i a_i + v_i x* I_i v_i - f_ext,i
            bodies.motion(i, qd, qdd, baseAcceleration, acceleration, accelerationShift);
            bodies.coupling(i, acceleration, wrench);
            if (loads.any())
            {
                loads.subtractInBase(i, bodies.rotation, bodies.position, scratch, wrench, 6 * i);
            }
        }
        backwardSweep(qd, qdd, tau, dtauDq, dtauDqd, dtauDqdd);
        if (loads.worldLoads)
        {
            worldLoadTerms(dtauDq);
        }
    }

    /**
     * After {@link #compute}: the wrench the parent exerts on the body through its joint, force (N)
     * then moment about the body-frame origin (N m), body frame. Real-time safe.
     */
    public void reactionWrench(final int body, final double[] wrench6)
    {
        SpatialAlgebra.wrenchToFrame(
            bodies.rotation, 9 * body, bodies.position, 3 * body, wrench, 6 * body, wrench6, 0);
    }

    /**
     * After {@link #compute}: partial derivatives of {@link #reactionWrench} of a body, in that
     * body's frame, each 6 x dof row-major with row r = d wrench_r/d q, d qd and d qdd. Real-time safe.
     */
    public void reactionWrenchDerivatives(
        final int body, final double[] dWrenchDq, final double[] dWrenchDqd, final double[] dWrenchDqdd)
    {
        final double[] x = products;
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
                System.arraycopy(subtreeWrenchRate, 6 * j, x, PSI, 6);
            }
            else
            {
                Arrays.fill(x, 0.0);
            }
            storeColumn(body, x, PSI, dWrenchDq, k);
            storeColumn(body, x, PHI, dWrenchDqd, k);
            storeColumn(body, x, U, dWrenchDqdd, k);
        }
    }

    /**
     * Subtree s's wrench rates for joint j, base frame, into {@link #products}: PSI = Ic_s da_j +
     * Bc_s S_j-dot (plus a world-fixed load's G_s w_j), PHI = Bc_s S_j + 2 Ic_s S_j-dot, U = Ic_s S_j.
     */
    private void reactionColumns(final int subtree, final int j)
    {
        final BaseFrameBodies b = bodies;
        final double[] x = products;
        final int sj = 6 * j;
        b.compositeInertiaTimes(subtree, accelerationShift, sj, x, PSI);
        b.compositeCouplingTimes(subtree, b.axisRate, sj, x, TEMP);
        BaseFrameBodies.addInto(x, TEMP, x, PSI, 6);
        b.compositeCouplingTimes(subtree, b.axis, sj, x, PHI);
        b.compositeInertiaTimes(subtree, b.axisRate, sj, x, TEMP);
        for (int c = 0; c < 6; c++)
        {
            x[PHI + c] += 2.0 * x[TEMP + c];
        }
        b.compositeInertiaTimes(subtree, b.axis, sj, x, U);
        if (loads.worldLoads)
        {
            worldLoadShift(subtree, b.axis, sj + 3, scratch);
            BaseFrameBodies.addInto(scratch, 0, x, PSI, 6);
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
                BaseFrameBodies.addInto(worldSpread, 9 * i, worldSpread, 9 * p, 9);
            }
            final int ci = b.coordinate[i];
            if (ci < 0)
            {
                continue;
            }
            // G_i w_i, for the ancestors' rows and the reaction rates
            final double[] own = products;
            worldLoadShift(i, b.axis, 6 * i + 3, own);
            BaseFrameBodies.addInto(own, 0, subtreeWrenchRate, 6 * i, 6);
            for (int j = i; j >= 0; j = b.parent[j])
            {
                final int cj = b.coordinate[j];
                if (cj < 0)
                {
                    continue;
                }
                // row i: S_i . G_i w_j; row j (j above i): S_j . G_i w_i
                worldLoadShift(i, b.axis, 6 * j + 3, scratch);
                dtauDq[ci * n + cj] += SpatialAlgebra.dot6(b.axis, 6 * i, scratch, 0);
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
     * Backward: subtree sums of the inertias, couplings and wrenches (each body's are complete when
     * it is reached, its children having higher indices), tau (Khalil 2010, eq. 31), and every
     * (joint, ancestor) entry of M, d tau/d qd and d tau/d q (the class comment's formulas) from
     * the products of {@link #jointProducts}. phi and psi feed only ancestors' entries (and their
     * reaction derivatives), so a joint that hangs from the base skips them.
     */
    private void backwardSweep(final double[] qd, final double[] qdd, final double[] tau,
        final double[] dtauDq, final double[] dtauDqd, final double[] massMatrix)
    {
        final BaseFrameBodies b = bodies;
        final int n = b.dof;
        final double[] f = wrench;
        final double[] axis = b.axis;
        final double[] rate = b.axisRate;
        final double[] da = accelerationShift;
        final double[] x = products;
        final CompiledModel model = b.model;
        for (int i = b.bodyCount - 1; i >= 0; i--)
        {
            final int p = b.parent[i];
            final int s = 6 * i;
            if (p >= 0)
            {
                // Ic, Bc and F of the subtree, complete now, into the parent's (F_p += F_i in base coordinates)
                b.addCompositeToParent(i, p);
                b.addCouplingToParent(i, p);
                BaseFrameBodies.addInto(f, s, f, 6 * p, 6);
            }
            final int ci = b.coordinate[i];
            if (ci < 0)
            {
                continue;
            }
            // tau_i = S_i . F_i + Ia qdd + Fs sign(qd) + Fv qd (Khalil 2010, eq. 31)
            tau[ci] = SpatialAlgebra.dot6(axis, s, f, s) + model.rotorInertia[ci] * qdd[ci] + model.friction(ci, qd[ci], friction);
            jointProducts(i, p >= 0);
            // the diagonal: M_ii = u . S_i + Ia, d tau_i/d qd_i = w . S_i + 2 u . S_i-dot + Fv, d tau_i/d q_i = u . da_i + w . S_i-dot
            final int d = ci * n + ci;
            massMatrix[d] = SpatialAlgebra.dot6(x, U, axis, s) + model.rotorInertia[ci];
            dtauDqd[d] = Vec3.dot(x, W, axis, s + 3) + 2.0 * SpatialAlgebra.dot6(x, U, rate, s) + model.frictionRate(ci, 1.0, friction);
            dtauDq[d] = SpatialAlgebra.dot6(x, U, da, s) + Vec3.dot(x, W, rate, s + 3);
            if (p < 0)
            {
                continue;
            }
            for (int j = p; j >= 0; j = b.parent[j])
            {
                final int cj = b.coordinate[j];
                if (cj >= 0)
                {
                    ancestorEntries(ci, cj, s, 6 * j, n, dtauDq, dtauDqd, massMatrix);
                }
            }
        }
    }

    /**
     * Joint i's products with its complete subtree sums, base frame: u = Ic S and w = the angular
     * part of Bc^T S = X^T S_w + 2 p x S_v into {@link #products}; with {@code ancestors},
     * phi = Bc S + 2 Ic S-dot (Bc m = (2 m_w x p, X m_w)) there too and
     * psi = S x* F + Ic da + Bc S-dot (S x* F = (S_w x f, S_w x n + S_v x f)) into the subtree
     * wrench rates. On locals, each subtree sum loaded once; the composite kernels would reload Ic
     * and Bc for every product (about 140 loads per joint).
     */
    private void jointProducts(final int i, final boolean ancestors)
    {
        final BaseFrameBodies b = bodies;
        final int t = 3 * i;
        final int r = 9 * i;
        final int s = 6 * i;
        final double m = b.compositeMass[i];
        final double hx = b.compositeFirstMoment[t];
        final double hy = b.compositeFirstMoment[t + 1];
        final double hz = b.compositeFirstMoment[t + 2];
        final double o00 = b.compositeInertia[r];
        final double o01 = b.compositeInertia[r + 1];
        final double o02 = b.compositeInertia[r + 2];
        final double o11 = b.compositeInertia[r + 4];
        final double o12 = b.compositeInertia[r + 5];
        final double o22 = b.compositeInertia[r + 8];
        final double px2 = 2.0 * b.compositeMomentum[t];
        final double py2 = 2.0 * b.compositeMomentum[t + 1];
        final double pz2 = 2.0 * b.compositeMomentum[t + 2];
        final double x00 = b.compositeCoupling[r];
        final double x01 = b.compositeCoupling[r + 1];
        final double x02 = b.compositeCoupling[r + 2];
        final double x10 = b.compositeCoupling[r + 3];
        final double x11 = b.compositeCoupling[r + 4];
        final double x12 = b.compositeCoupling[r + 5];
        final double x20 = b.compositeCoupling[r + 6];
        final double x21 = b.compositeCoupling[r + 7];
        final double x22 = b.compositeCoupling[r + 8];
        final double[] axis = b.axis;
        final double sx = axis[s];
        final double sy = axis[s + 1];
        final double sz = axis[s + 2];
        final double sa = axis[s + 3];
        final double sb = axis[s + 4];
        final double sc = axis[s + 5];
        final double[] x = products;
        SpatialAlgebra.set(x, U, m * sx + sb * hz - sc * hy, m * sy + sc * hx - sa * hz, m * sz + sa * hy - sb * hx,
            o00 * sa + o01 * sb + o02 * sc + hy * sz - hz * sy,
            o01 * sa + o11 * sb + o12 * sc + hz * sx - hx * sz,
            o02 * sa + o12 * sb + o22 * sc + hx * sy - hy * sx);
        Vec3.set(x, W, x00 * sa + x10 * sb + x20 * sc + py2 * sz - pz2 * sy,
            x01 * sa + x11 * sb + x21 * sc + pz2 * sx - px2 * sz,
            x02 * sa + x12 * sb + x22 * sc + px2 * sy - py2 * sx);
        if (!ancestors)
        {
            return;
        }
        final double[] rate = b.axisRate;
        final double rx = rate[s];
        final double ry = rate[s + 1];
        final double rz = rate[s + 2];
        final double ra = rate[s + 3];
        final double rb = rate[s + 4];
        final double rc = rate[s + 5];
        SpatialAlgebra.set(x, PHI,
            sb * pz2 - sc * py2 + 2.0 * (m * rx + rb * hz - rc * hy),
            sc * px2 - sa * pz2 + 2.0 * (m * ry + rc * hx - ra * hz),
            sa * py2 - sb * px2 + 2.0 * (m * rz + ra * hy - rb * hx),
            x00 * sa + x01 * sb + x02 * sc + 2.0 * (o00 * ra + o01 * rb + o02 * rc + hy * rz - hz * ry),
            x10 * sa + x11 * sb + x12 * sc + 2.0 * (o01 * ra + o11 * rb + o12 * rc + hz * rx - hx * rz),
            x20 * sa + x21 * sb + x22 * sc + 2.0 * (o02 * ra + o12 * rb + o22 * rc + hx * ry - hy * rx));
        final double[] f = wrench;
        final double[] da = accelerationShift;
        final double dx = da[s];
        final double dy = da[s + 1];
        final double dz = da[s + 2];
        final double dA = da[s + 3];
        final double dB = da[s + 4];
        final double dC = da[s + 5];
        SpatialAlgebra.set(subtreeWrenchRate, s,
            sb * f[s + 2] - sc * f[s + 1] + m * dx + dB * hz - dC * hy + rb * pz2 - rc * py2,
            sc * f[s] - sa * f[s + 2] + m * dy + dC * hx - dA * hz + rc * px2 - ra * pz2,
            sa * f[s + 1] - sb * f[s] + m * dz + dA * hy - dB * hx + ra * py2 - rb * px2,
            sb * f[s + 5] - sc * f[s + 4] + sy * f[s + 2] - sz * f[s + 1]
                + o00 * dA + o01 * dB + o02 * dC + hy * dz - hz * dy + x00 * ra + x01 * rb + x02 * rc,
            sc * f[s + 3] - sa * f[s + 5] + sz * f[s] - sx * f[s + 2]
                + o01 * dA + o11 * dB + o12 * dC + hz * dx - hx * dz + x10 * ra + x11 * rb + x12 * rc,
            sa * f[s + 4] - sb * f[s + 3] + sx * f[s + 1] - sy * f[s]
                + o02 * dA + o12 * dB + o22 * dC + hx * dy - hy * dx + x20 * ra + x21 * rb + x22 * rc);
    }

    /**
     * The entries of joint i (body offset s) and its ancestor j (body offset sj) from the products
     * of {@link #backwardSweep}: M_ij = M_ji = u . S_j, d tau_i/d qd_j = w . S_j + 2 u . S_j-dot,
     * d tau_j/d qd_i = phi . S_j, d tau_i/d q_j = u . da_j + w . S_j-dot, d tau_j/d q_i = psi . S_j.
     */
    private void ancestorEntries(final int ci, final int cj, final int s, final int sj, final int n,
        final double[] dtauDq, final double[] dtauDqd, final double[] massMatrix)
    {
        final double[] x = products;
        final double[] axis = bodies.axis;
        final double[] rate = bodies.axisRate;
        final double mij = SpatialAlgebra.dot6(x, U, axis, sj);
        final double qdij = Vec3.dot(x, W, axis, sj + 3) + 2.0 * SpatialAlgebra.dot6(x, U, rate, sj);
        final double qdji = SpatialAlgebra.dot6(x, PHI, axis, sj);
        final double qij = SpatialAlgebra.dot6(x, U, accelerationShift, sj) + Vec3.dot(x, W, rate, sj + 3);
        final double qji = SpatialAlgebra.dot6(subtreeWrenchRate, s, axis, sj);
        final int ij = ci * n + cj;
        final int ji = cj * n + ci;
        massMatrix[ij] = mij;
        massMatrix[ji] = mij;
        dtauDqd[ij] = qdij;
        dtauDqd[ji] = qdji;
        dtauDq[ij] = qij;
        dtauDq[ji] = qji;
    }
}
