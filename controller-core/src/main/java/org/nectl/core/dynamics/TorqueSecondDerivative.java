package org.nectl.core.dynamics;

/**
 * Joint torques with their first and second time derivatives: the recursive Newton-Euler algorithm
 * differentiated twice (the next derivative after Guarino Lo Bianco, "Evaluation of generalized
 * force derivatives by means of a recursive Newton-Euler approach", IEEE 2009, eqs. 3-21), on trees,
 * about the body origins with Khalil's standard inertial parameters.
 *
 * <p>Every per-body vector is carried as a jet: its body-frame components and their first and second
 * time derivatives. The recursion of Khalil ("Dynamic modeling of robots using recursive Newton-Euler
 * techniques", ICINCO 2010, eqs. 18-31) is differentiated term by term with the Leibniz rule; a frame
 * change through {@code iR_j = P_j Rot(z, q_j)} is differentiated with {@code d/dt iR_j = iR_j [qd_j z]x}.
 * The angular acceleration is the component derivative of omega, so its jet is omega's jet shifted by
 * one. The external wrench and its rates are body-fixed ({@link AppliedLoads}).
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} is real-time safe.
 */
public final class TorqueSecondDerivative
{
    /** Value, first and second derivative. */
    private static final int ORDERS = 3;
    /** Offsets of prismatic joints need q up to its 4th derivative: value and four derivatives. */
    private static final int OFFSET_ORDERS = 5;

    private final CompiledModel model;

    private final JointTransforms joints;
    /** Jets (order, then 3 per slot; slot 0 the base, body j slot j + 1), body frame. */
    private final double[][] omega;
    private final double[][] omegaParent;
    private final double[][] alpha;
    private final double[][] linearAcceleration;
    /** Force and moment the parent exerts on the body, about its origin, body frame. */
    private final double[][] force;
    private final double[][] moment;
    /** The call's body-fixed wrench jets (value, rate, second rate; 6 per body), body-frame components. */
    private final double[][] externalWrench = new double[ORDERS][];
    private final double[][] offset = new double[OFFSET_ORDERS][3];
    private final double[][] work = new double[ORDERS][3];
    private final double[][] cross = new double[ORDERS][3];
    private final double[][] rotated = new double[ORDERS][3];
    private final double[] scratch = new double[3];
    /** The joint's rotation rate and its derivative (zero unless revolute), rad/s and rad/s^2. */
    private double rate;
    private double rateDot;

    /**
     * Not real-time safe: allocates the workspace, sized from the model.
     *
     * @param model the compiled robot.
     */
    public TorqueSecondDerivative(final CompiledModel model)
    {
        this.model = model;
        joints = new JointTransforms(model);
        final int slots = 3 * (model.bodyCount + 1);
        omega = new double[ORDERS][slots];
        omegaParent = new double[ORDERS][slots];
        alpha = new double[ORDERS][slots];
        linearAcceleration = new double[ORDERS][slots];
        force = new double[ORDERS][slots];
        moment = new double[ORDERS][slots];
    }

    /**
     * Computes the joint forces tau and their first and second time derivatives tauDot, tauDdot under
     * the given gravity (constant in time) and body-fixed wrenches with their first and second rates;
     * units as in {@link TorqueDerivative}, the snaps qdddd in rad/s^4 or m/s^4. Real-time safe:
     * allocates nothing.
     *
     * @throws IllegalArgumentException if the loads hold a world-fixed force or moment.
     */
    public void compute(final double[] q, final double[] qd, final double[] qdd, final double[] qddd,
        final double[] qdddd, final AppliedLoads loads, final double[] tau, final double[] tauDot, final double[] tauDdot)
    {
        loads.requireBodyFixed("TorqueSecondDerivative");
        linearAcceleration[0][0] = -loads.gravity[0];
        linearAcceleration[0][1] = -loads.gravity[1];
        linearAcceleration[0][2] = -loads.gravity[2];
        externalWrench[0] = loads.bodyWrench;
        externalWrench[1] = loads.bodyWrenchRate;
        externalWrench[2] = loads.bodyWrenchSecondRate;
        joints.update(q);
        for (int j = 0; j < model.bodyCount; j++)
        {
            forwardStep(j, qd, qdd, qddd, qdddd);
            linkWrench(j);
        }
        backwardPass(qd, qdd, qddd, qdddd);
        jointForces(qd, qdd, qddd, qdddd, tau, tauDot, tauDdot);
    }

    /** Velocity, acceleration and origin-acceleration jets of body j from its parent's (eqs. 18-21). */
    private void forwardStep(final int j, final double[] qd, final double[] qdd,
        final double[] qddd, final double[] qdddd)
    {
        final int s = NewtonEulerPasses.slot(j);
        final int i = NewtonEulerPasses.slot(model.parent[j]);
        final int k = model.coordinate[j];
        final boolean revolute = jointRotationRates(j, qd, qdd);
        // (18) omega_j = jR_i omega_i + qd z, differentiated
        rotateDown(j, omega, i, omegaParent, s);
        copyJet(omegaParent, s, omega, s);
        rotateDown(j, alpha, i, alpha, s);
        if (revolute)
        {
            omega[0][s + 2] += qd[k];
            omega[1][s + 2] += qdd[k];
            omega[2][s + 2] += qddd[k];
            // (20) alpha_j = jR_i alpha_i + qdd z + qd (jR_i omega_i) x z, differentiated
            alpha[0][s + 2] += qdd[k];
            alpha[1][s + 2] += qddd[k];
            alpha[2][s + 2] += qdddd[k];
            addRateCrossAxis(qd[k], qdd[k], qddd[k], s);
        }
        offsetJet(j, qd, qdd, qddd, qdddd);
        originAccelerationInParent(i);
        // (21) vdot_j = jR_i (...)
        rotateDown(j, work, 0, linearAcceleration, s);
    }

    /** Sets {@link #rate} and {@link #rateDot} of body j's joint; returns whether it is revolute. */
    private boolean jointRotationRates(final int j, final double[] qd, final double[] qdd)
    {
        final boolean revolute = model.sigma[j] == CompiledModel.REVOLUTE;
        rate = revolute ? qd[model.coordinate[j]] : 0.0;
        rateDot = revolute ? qdd[model.coordinate[j]] : 0.0;
        return revolute;
    }

    /** alpha_j^(n) += sum_m C(n, m) q^(m+1) (omegaParent^(n-m) x z), n = 0..2. */
    private void addRateCrossAxis(final double qd, final double qdd, final double qddd, final int s)
    {
        final double[] w0 = omegaParent[0];
        final double[] w1 = omegaParent[1];
        final double[] w2 = omegaParent[2];
        // u x z = (u_y, -u_x, 0)
        alpha[0][s] += qd * w0[s + 1];
        alpha[0][s + 1] -= qd * w0[s];
        alpha[1][s] += qd * w1[s + 1] + qdd * w0[s + 1];
        alpha[1][s + 1] -= qd * w1[s] + qdd * w0[s];
        alpha[2][s] += qd * w2[s + 1] + 2.0 * qdd * w1[s + 1] + qddd * w0[s + 1];
        alpha[2][s + 1] -= qd * w2[s] + 2.0 * qdd * w1[s] + qddd * w0[s];
    }

    /**
     * iP_j (already at q, see {@link JointTransforms#update}) and its derivatives up to the 4th, parent
     * frame: the joint moves it along the placement z axis only if prismatic.
     */
    private void offsetJet(final int j, final double[] qd, final double[] qdd, final double[] qddd, final double[] qdddd)
    {
        Vec3.copy(joints.position, 3 * j, offset[0], 0);
        final boolean prismatic = model.sigma[j] == CompiledModel.PRISMATIC;
        final int k = model.coordinate[j];
        axisMultiple(j, prismatic ? qd[k] : 0.0, offset[1]);
        axisMultiple(j, prismatic ? qdd[k] : 0.0, offset[2]);
        axisMultiple(j, prismatic ? qddd[k] : 0.0, offset[3]);
        axisMultiple(j, prismatic ? qdddd[k] : 0.0, offset[4]);
    }

    private void axisMultiple(final int j, final double s, final double[] out)
    {
        Vec3.set(out, 0, 0.0, 0.0, 0.0);
        Vec3.addScaledAxisZ(s, joints.rotation, 9 * j, out, 0);
    }

    /**
     * work = jet of vdot_i + alpha_i x P + omega_i x (omega_i x P) + 2 omega_i x Pdot + Pddot in the
     * parent frame: the acceleration of body j's origin (eq. 21 with a moving offset).
     */
    private void originAccelerationInParent(final int i)
    {
        for (int n = 0; n < ORDERS; n++)
        {
            Vec3.copy(linearAcceleration[n], i, work[n], 0);
            Vec3.add(offset[n + 2], 0, work[n], 0);
            jetCross(alpha, i, offset, 0, 0, n, 1.0, work[n], 0);
            jetCross(omega, i, offset, 1, 0, n, 2.0, work[n], 0);
            Vec3.set(cross[n], 0, 0.0, 0.0, 0.0);
            jetCross(omega, i, offset, 0, 0, n, 1.0, cross[n], 0);
        }
        for (int n = 0; n < ORDERS; n++)
        {
            jetCross(omega, i, cross, 0, 0, n, 1.0, work[n], 0);
        }
    }

    /**
     * Jets of body j's Newton-Euler wrench about its origin minus the external wrench (eqs. 22-23):
     * F = M vdot + alpha x MS + omega x (omega x MS); N = J alpha + omega x J omega + MS x vdot.
     */
    private void linkWrench(final int j)
    {
        final int s = NewtonEulerPasses.slot(j);
        final int ms = 3 * j;
        final int e = 6 * j;
        for (int n = 0; n < ORDERS; n++)
        {
            Vec3.cross(omega[n], s, model.firstMoment, ms, cross[n], 0);
            Vec3.multiply(model.inertia, 9 * j, omega[n], s, rotated[n], 0);
        }
        for (int n = 0; n < ORDERS; n++)
        {
            final double[] f = force[n];
            Vec3.cross(alpha[n], s, model.firstMoment, ms, f, s);
            Vec3.addScaled(model.mass[j], linearAcceleration[n], s, f, s);
            jetCross(omega, s, cross, 0, 0, n, 1.0, f, s);
            Vec3.subtract(externalWrench[n], e, f, s);
            final double[] m = moment[n];
            Vec3.multiply(model.inertia, 9 * j, alpha[n], s, m, s);
            jetCross(omega, s, rotated, 0, 0, n, 1.0, m, s);
            Vec3.addCross(model.firstMoment, ms, linearAcceleration[n], s, m, s);
            Vec3.subtract(externalWrench[n], e + 3, m, s);
        }
    }

    /** Child wrench jets summed into their parents, leaves first (eqs. 28-30, differentiated). */
    private void backwardPass(final double[] qd, final double[] qdd, final double[] qddd, final double[] qdddd)
    {
        for (int j = model.bodyCount - 1; j >= 0; j--)
        {
            if (model.parent[j] < 0)
            {
                continue;
            }
            final int s = NewtonEulerPasses.slot(j);
            final int i = NewtonEulerPasses.slot(model.parent[j]);
            jointRotationRates(j, qd, qdd);
            offsetJet(j, qd, qdd, qddd, qdddd);
            rotateUp(j, force, s, rotated);
            for (int n = 0; n < ORDERS; n++)
            {
                Vec3.add(rotated[n], 0, force[n], i);
                jetCross(offset, 0, rotated, 0, 0, n, 1.0, moment[n], i);
            }
            rotateUp(j, moment, s, rotated);
            for (int n = 0; n < ORDERS; n++)
            {
                Vec3.add(rotated[n], 0, moment[n], i);
            }
        }
    }

    /** (31) differentiated: projection on the joint axis plus rotor inertia and friction. */
    private void jointForces(final double[] qd, final double[] qdd, final double[] qddd, final double[] qdddd,
        final double[] tau, final double[] tauDot, final double[] tauDdot)
    {
        for (int k = 0; k < model.dof; k++)
        {
            final int j = model.bodyOfCoordinate[k];
            final int z = NewtonEulerPasses.slot(j) + 2;
            final double ia = model.rotorInertia[k];
            tau[k] = model.jointForce(j, force[0][z], moment[0][z]) + ia * qdd[k] + model.friction(k, qd[k], true);
            tauDot[k] = model.jointForce(j, force[1][z], moment[1][z]) + ia * qddd[k] + model.frictionRate(k, qdd[k], true);
            tauDdot[k] = model.jointForce(j, force[2][z], moment[2][z]) + ia * qdddd[k] + model.frictionRate(k, qddd[k], true);
        }
    }

    /**
     * out += scale * (a x b')^(n) = scale * sum_m C(n, m) a^(m) x b^(n-m+shift), n &lt;= 2 (Leibniz
     * rule), where b' is b's jet shifted by shift orders; a at offset ia of each order, b at ib.
     */
    private static void jetCross(final double[][] a, final int ia, final double[][] b, final int shift, final int ib,
        final int n, final double scale, final double[] out, final int io)
    {
        for (int m = 0; m <= n; m++)
        {
            final double c = scale * (n == 2 && m == 1 ? 2.0 : 1.0);
            final double[] u = a[m];
            final double[] v = b[n - m + shift];
            final double x = u[ia + 1] * v[ib + 2] - u[ia + 2] * v[ib + 1];
            final double y = u[ia + 2] * v[ib] - u[ia] * v[ib + 2];
            final double zc = u[ia] * v[ib + 1] - u[ia + 1] * v[ib];
            out[io] += c * x;
            out[io + 1] += c * y;
            out[io + 2] += c * zc;
        }
    }

    /**
     * Jet of jR_i v from the jet of v (parent frame), with d/dt jR_i = -[rate z]x jR_i:
     * w0 = u0, w1 = u1 - r z x u0, w2 = u2 - 2 r z x u1 - rdot z x u0 + r^2 z x (z x u0), u_n = jR_i v_n.
     */
    private void rotateDown(final int j, final double[][] v, final int iv, final double[][] out, final int io)
    {
        final int rj = 9 * j;
        Vec3.multiplyTransposed(joints.rotation, rj, v[0], iv, scratch, 0);
        final double u0x = scratch[0];
        final double u0y = scratch[1];
        final double u0z = scratch[2];
        Vec3.multiplyTransposed(joints.rotation, rj, v[1], iv, scratch, 0);
        final double u1x = scratch[0];
        final double u1y = scratch[1];
        final double u1z = scratch[2];
        Vec3.multiplyTransposed(joints.rotation, rj, v[2], iv, out[2], io);
        final double r = rate;
        final double rr = r * r;
        // z x u = (-u_y, u_x, 0); z x (z x u) = (-u_x, -u_y, 0)
        out[2][io] += 2.0 * r * u1y + rateDot * u0y - rr * u0x;
        out[2][io + 1] += -2.0 * r * u1x - rateDot * u0x - rr * u0y;
        out[1][io] = u1x + r * u0y;
        out[1][io + 1] = u1y - r * u0x;
        out[1][io + 2] = u1z;
        out[0][io] = u0x;
        out[0][io + 1] = u0y;
        out[0][io + 2] = u0z;
    }

    /**
     * Jet of iR_j w (parent frame) from the jet of w (body j's frame), with d/dt iR_j = iR_j [rate z]x:
     * y0 = w0, y1 = w1 + r z x w0, y2 = w2 + 2 r z x w1 + rdot z x w0 + r^2 z x (z x w0); out_n = iR_j y_n.
     */
    private void rotateUp(final int j, final double[][] w, final int iw, final double[][] out)
    {
        final int rj = 9 * j;
        final double r = rate;
        final double rr = r * r;
        final double[] w0 = w[0];
        final double[] w1 = w[1];
        final double[] w2 = w[2];
        scratch[0] = w2[iw] - 2.0 * r * w1[iw + 1] - rateDot * w0[iw + 1] - rr * w0[iw];
        scratch[1] = w2[iw + 1] + 2.0 * r * w1[iw] + rateDot * w0[iw] - rr * w0[iw + 1];
        scratch[2] = w2[iw + 2];
        Vec3.multiply(joints.rotation, rj, scratch, 0, out[2], 0);
        scratch[0] = w1[iw] - r * w0[iw + 1];
        scratch[1] = w1[iw + 1] + r * w0[iw];
        scratch[2] = w1[iw + 2];
        Vec3.multiply(joints.rotation, rj, scratch, 0, out[1], 0);
        Vec3.multiply(joints.rotation, rj, w0, iw, out[0], 0);
    }

    private static void copyJet(final double[][] v, final int iv, final double[][] out, final int io)
    {
        for (int n = 0; n < ORDERS; n++)
        {
            Vec3.copy(v[n], iv, out[n], io);
        }
    }
}
