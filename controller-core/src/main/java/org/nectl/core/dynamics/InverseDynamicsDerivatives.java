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
    private final BaseFrameNewtonEuler newtonEuler;
    private final BaseFrameBodies bodies;
    /** da_j = -S_j x a_j - S_j-dot x v_j, base frame, 6 per body. */
    private final double[] accelerationShift;
    /** S_j x* F_j + Ic_j da_j + Bc_j S_j-dot: dF_i/dq_j for every i that supports j, base frame, 6 per body. */
    private final double[] subtreeWrenchRate;
    private final double[] scratch = new double[CoriolisMatrix.SCRATCH];
    private final double[] column = new double[12];

    /**
     * Not real-time safe: allocates the workspace, sized from the model.
     *
     * @param model the robot.
     */
    public InverseDynamicsDerivatives(final RobotModel model)
    {
        newtonEuler = new BaseFrameNewtonEuler(model);
        bodies = newtonEuler.bodies;
        accelerationShift = new double[6 * bodies.bodyCount];
        subtreeWrenchRate = new double[6 * bodies.bodyCount];
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
        newtonEuler.loads.gravity(gx, gy, gz);
    }

    /**
     * Sets the wrench applied ON a body BY the environment, constant in the body frame, kept until
     * changed or cleared. Real-time safe.
     *
     * @param body body index.
     * @param fx force x, N, body frame.
     * @param fy force y, N, body frame.
     * @param fz force z, N, body frame.
     * @param mx moment x about the body-frame origin, N m, body frame.
     * @param my moment y about the body-frame origin, N m, body frame.
     * @param mz moment z about the body-frame origin, N m, body frame.
     */
    public void externalWrench(
        final int body, final double fx, final double fy, final double fz, final double mx, final double my, final double mz)
    {
        newtonEuler.loads.externalWrench(body, fx, fy, fz, mx, my, mz);
    }

    /** Sets every external wrench to zero. Real-time safe. */
    public void clearExternalWrenches()
    {
        newtonEuler.loads.clearExternalWrenches();
    }

    /**
     * Switches Coulomb and viscous joint friction on or off (default on); rotor inertia is always
     * included. Real-time safe.
     *
     * @param enabled true to include Fs sign(qd) + Fv qd in tau and Fv in d tau/d qd.
     */
    public void jointFriction(final boolean enabled)
    {
        newtonEuler.loads.friction = enabled;
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
        if (bodies.branched())
        {
            // On a tree most entries couple different branches: one block fill is cheaper than
            // zeroing them one by one; the sweep then writes every coupled entry.
            Arrays.fill(dtauDq, 0, bodies.dof * bodies.dof, 0.0);
            Arrays.fill(dtauDqd, 0, bodies.dof * bodies.dof, 0.0);
            Arrays.fill(dtauDqdd, 0, bodies.dof * bodies.dof, 0.0);
        }
        bodies.placements(q);
        bodies.velocities(qd);
        newtonEuler.forwardPass(qdd);
        bodyTerms();
        backwardSweep(qd, qdd, tau, dtauDq, dtauDqd, dtauDqdd);
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
            bodies.rotation, 9 * body, bodies.position, 3 * body, newtonEuler.wrench, 6 * body, wrench6, 0);
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
     * Forward, after the Newton-Euler forward pass: each body's own momentum and coupling block
     * into the composite arrays, its own inertia likewise, and da_j = -S_j x a_j - S_j-dot x v_j,
     * which every descendant reads.
     */
    private void bodyTerms()
    {
        final BaseFrameBodies b = bodies;
        System.arraycopy(b.mass, 0, b.compositeMass, 0, b.bodyCount);
        System.arraycopy(b.firstMoment, 0, b.compositeFirstMoment, 0, 3 * b.bodyCount);
        System.arraycopy(b.inertia, 0, b.compositeInertia, 0, 9 * b.bodyCount);
        final double[] a = newtonEuler.acceleration;
        final double[] v = b.velocity;
        final double[] axis = b.axis;
        final double[] rate = b.axisRate;
        final double[] da = accelerationShift;
        for (int j = 0; j < b.bodyCount; j++)
        {
            b.coupling(j);
            if (!b.movable(j))
            {
                continue;
            }
            final int s = 6 * j;
            final double sx = axis[s];
            final double sy = axis[s + 1];
            final double sz = axis[s + 2];
            final double sa = axis[s + 3];
            final double sb = axis[s + 4];
            final double sc = axis[s + 5];
            final double rx = rate[s];
            final double ry = rate[s + 1];
            final double rz = rate[s + 2];
            final double ra = rate[s + 3];
            final double rb = rate[s + 4];
            final double rc = rate[s + 5];
            final double ax = a[s];
            final double ay = a[s + 1];
            final double az = a[s + 2];
            final double aa = a[s + 3];
            final double ab = a[s + 4];
            final double ac = a[s + 5];
            final double vx = v[s];
            final double vy = v[s + 1];
            final double vz = v[s + 2];
            final double va = v[s + 3];
            final double vb = v[s + 4];
            final double vc = v[s + 5];
            // -(S x a) - (S-dot x v), motion cross products (w x v' + v x w', w x w')
            da[s] = -(sb * az - sc * ay + sy * ac - sz * ab) - (rb * vz - rc * vy + ry * vc - rz * vb);
            da[s + 1] = -(sc * ax - sa * az + sz * aa - sx * ac) - (rc * vx - ra * vz + rz * va - rx * vc);
            da[s + 2] = -(sa * ay - sb * ax + sx * ab - sy * aa) - (ra * vy - rb * vx + rx * vb - ry * va);
            da[s + 3] = -(sb * ac - sc * ab) - (rb * vc - rc * vb);
            da[s + 4] = -(sc * aa - sa * ac) - (rc * va - ra * vc);
            da[s + 5] = -(sa * ab - sb * aa) - (ra * vb - rb * va);
        }
    }

    /**
     * Backward: subtree sums of the inertias, couplings and wrenches (each body's are complete when
     * it is reached, its children having higher indices), tau, and every (joint, ancestor) entry
     * of M, d tau/d qd and d tau/d q. Per joint i the four 6-vectors u = Ic_i S_i,
     * w = Bc_i^T S_i (angular part; its linear part is 0), phi = Bc_i S_i + 2 Ic_i S_i-dot and
     * psi = S_i x* F_i + Ic_i da_i + Bc_i S_i-dot are formed once; for every ancestor j (or j = i)
     * M_ij = M_ji = u . S_j, d tau_i/d qd_j = w . S_j + 2 u . S_j-dot, d tau_j/d qd_i = phi . S_j,
     * d tau_i/d q_j = u . da_j + w . S_j-dot, d tau_j/d q_i = psi . S_j (Ic symmetric).
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
        final double[] f = newtonEuler.wrench;
        final double[] axis = b.axis;
        final double[] rate = b.axisRate;
        final double[] da = accelerationShift;
        final double[] psi = subtreeWrenchRate;
        final boolean friction = newtonEuler.loads.friction;
        for (int i = b.bodyCount - 1; i >= 0; i--)
        {
            final int p = parent[i];
            if (p >= 0)
            {
                addSubtree(i, p);
            }
            final int ci = coordinate[i];
            if (ci < 0)
            {
                continue;
            }
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
            final double px2 = 2.0 * cp[t];
            final double py2 = 2.0 * cp[t + 1];
            final double pz2 = 2.0 * cp[t + 2];
            final double x00 = cx[r];
            final double x01 = cx[r + 1];
            final double x02 = cx[r + 2];
            final double x10 = cx[r + 3];
            final double x11 = cx[r + 4];
            final double x12 = cx[r + 5];
            final double x20 = cx[r + 6];
            final double x21 = cx[r + 7];
            final double x22 = cx[r + 8];
            final double sx = axis[s];
            final double sy = axis[s + 1];
            final double sz = axis[s + 2];
            final double sa = axis[s + 3];
            final double sb = axis[s + 4];
            final double sc = axis[s + 5];
            final double fx = f[s];
            final double fy = f[s + 1];
            final double fz = f[s + 2];
            final double fa = f[s + 3];
            final double fb = f[s + 4];
            final double fc = f[s + 5];
            tau[ci] = sx * fx + sy * fy + sz * fz + sa * fa + sb * fb + sc * fc
                + b.rotorInertia[ci] * qdd[ci] + newtonEuler.loads.frictionTorque(b, ci, qd[ci]);
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
            // phi = Bc S + 2 Ic S-dot, Bc m = (2 m_w x p, X m_w)
            final double rx = rate[s];
            final double ry = rate[s + 1];
            final double rz = rate[s + 2];
            final double ra = rate[s + 3];
            final double rb = rate[s + 4];
            final double rc = rate[s + 5];
            final double phix = sb * pz2 - sc * py2 + 2.0 * (m * rx + rb * hz - rc * hy);
            final double phiy = sc * px2 - sa * pz2 + 2.0 * (m * ry + rc * hx - ra * hz);
            final double phiz = sa * py2 - sb * px2 + 2.0 * (m * rz + ra * hy - rb * hx);
            final double phia = x00 * sa + x01 * sb + x02 * sc + 2.0 * (o00 * ra + o01 * rb + o02 * rc + hy * rz - hz * ry);
            final double phib = x10 * sa + x11 * sb + x12 * sc + 2.0 * (o01 * ra + o11 * rb + o12 * rc + hz * rx - hx * rz);
            final double phic = x20 * sa + x21 * sb + x22 * sc + 2.0 * (o02 * ra + o12 * rb + o22 * rc + hx * ry - hy * rx);
            // psi = S x* F + Ic da + Bc S-dot, S x* F = (S_w x f, S_w x n + S_v x f)
            final double dx = da[s];
            final double dy = da[s + 1];
            final double dz = da[s + 2];
            final double dA = da[s + 3];
            final double dB = da[s + 4];
            final double dC = da[s + 5];
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
            final int d = ci * n + ci;
            massMatrix[d] = ux * sx + uy * sy + uz * sz + ua * sa + ub * sb + uc * sc + b.rotorInertia[ci];
            dtauDqd[d] = wa * sa + wb * sb + wc * sc + 2.0 * (ux * rx + uy * ry + uz * rz + ua * ra + ub * rb + uc * rc)
                + (friction ? b.viscousFriction[ci] : 0.0);
            dtauDq[d] = ux * dx + uy * dy + uz * dz + ua * dA + ub * dB + uc * dC + wa * ra + wb * rb + wc * rc;
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

    /** Adds body i's subtree sums (inertia, momentum, coupling block, wrench) into its parent p's. */
    private void addSubtree(final int i, final int p)
    {
        final BaseFrameBodies b = bodies;
        b.compositeMass[p] += b.compositeMass[i];
        for (int c = 0; c < 3; c++)
        {
            b.compositeFirstMoment[3 * p + c] += b.compositeFirstMoment[3 * i + c];
            b.compositeMomentum[3 * p + c] += b.compositeMomentum[3 * i + c];
        }
        for (int c = 0; c < 9; c++)
        {
            b.compositeInertia[9 * p + c] += b.compositeInertia[9 * i + c];
            b.compositeCoupling[9 * p + c] += b.compositeCoupling[9 * i + c];
        }
        final double[] f = newtonEuler.wrench;
        for (int c = 0; c < 6; c++)
        {
            f[6 * p + c] += f[6 * i + c];
        }
    }
}
