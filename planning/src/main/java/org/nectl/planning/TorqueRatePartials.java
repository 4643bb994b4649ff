package org.nectl.planning;

import org.nectl.core.model.JointActuation;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;

/**
 * The torque rate tau-dot(q, qd, qdd, qddd) with its partial derivatives with respect to all four
 * arguments, by forward-mode differentiation of the recursive Newton-Euler algorithm (Khalil,
 * "Dynamic modeling of robots using recursive Newton-Euler techniques", ICINCO 2010, eqs. 18-31) in
 * hyper-dual numbers (Fike and Alonso, "The development of hyper-dual numbers for exact
 * second-derivative calculations", AIAA 2011-886).
 *
 * <p>Every scalar carries a + b t + sum_k c_k e_k + sum_k d_k t e_k with t^2 = e_k e_l = 0. The
 * inputs are the jets q + qd t, qd + qdd t and qdd + qddd t, so the t part of tau is tau-dot, exactly
 * as the torque-derivative recursion gives it; the directions e_k perturb one argument each
 * (k = a dof + j: argument a in q, qd, qdd, qddd, coordinate j), so the t e_k part is
 * d tau-dot / d (argument a)_j. The derivatives are exact (no step size, no truncation): the chain rule
 * applied operation by operation, which is what differentiating the torque-derivative recursion by
 * hand would give. Why this route rather than a hand-derived recursion: d tau-dot / d q holds second
 * derivatives of the dynamics (d/dt of d tau/d q), whose hand derivation for trees with prismatic
 * joints is long and error-prone; the jets derive them mechanically, and the tests hold them to the
 * torque-derivative recursion (t part), the analytic d tau/d q (e parts) and central differences of
 * the torque derivative (t e parts). Cost: about 8 dof times a Newton-Euler pass; it is used only
 * where torque-rate constraints are asked for, off the real-time path.
 *
 * <p>Friction as nectl's inverse dynamics has it: Fs sign(qd) + Fv qd, the Coulomb term constant
 * away from qd = 0; rotor inertia Ia qdd.
 *
 * <p>Not thread safe.
 */
public final class TorqueRatePartials
{
    private final int bodyCount;
    private final int dof;
    private final int directions;
    private final int[] parent;
    private final JointType[] types;
    private final int[] coordinate;
    private final int[] bodyOfCoordinate;
    private final double[] placementRotation;
    private final double[] placementTranslation;
    private final double[] mass;
    private final double[] firstMoment;
    private final double[] inertia;
    private final JointActuation[] actuation;
    private final double[] gravity;

    /**
     * @param model the robot.
     * @param gravity gravity in the base frame, m/s^2 (3 values).
     */
    public TorqueRatePartials(final RobotModel model, final double[] gravity)
    {
        bodyCount = model.bodyCount();
        dof = model.dof();
        directions = 4 * dof;
        parent = model.parents();
        types = model.jointTypes();
        coordinate = model.coordinatesOfBodies();
        bodyOfCoordinate = new int[dof];
        actuation = new JointActuation[dof];
        for (int k = 0; k < dof; k++)
        {
            bodyOfCoordinate[k] = model.bodyOfCoordinate(k);
            actuation[k] = model.actuation(k);
        }
        placementRotation = model.placementRotations();
        placementTranslation = model.placementTranslations();
        mass = model.masses();
        firstMoment = model.firstMoments();
        inertia = model.inertiasAtOrigin();
        this.gravity = gravity.clone();
    }

    /**
     * Computes tau, tau-dot and the partials of tau-dot.
     *
     * @param q positions.
     * @param qd velocities.
     * @param qdd accelerations.
     * @param qddd jerks.
     * @param tau output joint torques or forces.
     * @param tauDot output their time derivatives.
     * @param partials output dof x 4 dof row-major: entry (i, a dof + j) = d tau-dot_i / d (argument a)_j,
     *                 arguments in the order q, qd, qdd, qddd.
     */
    public void compute(
        final double[] q, final double[] qd, final double[] qdd, final double[] qddd,
        final double[] tau, final double[] tauDot, final double[] partials)
    {
        final Jet[] position = new Jet[dof];
        final Jet[] velocity = new Jet[dof];
        final Jet[] acceleration = new Jet[dof];
        for (int j = 0; j < dof; j++)
        {
            position[j] = new Jet(directions, q[j], qd[j]);
            position[j].c[j] = 1.0;
            position[j].d[dof + j] = 1.0;
            velocity[j] = new Jet(directions, qd[j], qdd[j]);
            velocity[j].c[dof + j] = 1.0;
            velocity[j].d[2 * dof + j] = 1.0;
            acceleration[j] = new Jet(directions, qdd[j], qddd[j]);
            acceleration[j].c[2 * dof + j] = 1.0;
            acceleration[j].d[3 * dof + j] = 1.0;
        }
        final Jet[][] force = new Jet[bodyCount][];
        final Jet[][] moment = new Jet[bodyCount][];
        final Jet[][] rotation = new Jet[bodyCount][];
        final Jet[][] offset = new Jet[bodyCount][];
        forwardPass(position, velocity, acceleration, force, moment, rotation, offset);
        backwardPass(force, moment, rotation, offset);
        for (int k = 0; k < dof; k++)
        {
            final int body = bodyOfCoordinate[k];
            final JointActuation a = actuation[k];
            Jet t = types[body] == JointType.REVOLUTE ? moment[body][2] : force[body][2];
            t = t.add(acceleration[k].scale(a.rotorInertia())).add(velocity[k].scale(a.viscousFriction()));
            tau[k] = t.a + a.coulombFriction() * Math.signum(qd[k]);
            tauDot[k] = t.b;
            System.arraycopy(t.d, 0, partials, k * directions, directions);
        }
    }

    /**
     * Eqs. 18-27 with gravity as base acceleration: per body its rotation from the parent iR_j
     * (as a jet matrix, row-major), offset iP_j, and the wrench its motion needs, in its own frame.
     */
    private void forwardPass(
        final Jet[] position, final Jet[] velocity, final Jet[] acceleration,
        final Jet[][] force, final Jet[][] moment, final Jet[][] rotation, final Jet[][] offset)
    {
        final Jet[][] omega = new Jet[bodyCount][];
        final Jet[][] omegaDot = new Jet[bodyCount][];
        final Jet[][] linear = new Jet[bodyCount][];
        final Jet zero = new Jet(directions, 0.0, 0.0);
        final Jet[] baseOmega = {zero, zero, zero};
        final Jet[] baseLinear = {
            new Jet(directions, -gravity[0], 0.0), new Jet(directions, -gravity[1], 0.0), new Jet(directions, -gravity[2], 0.0)};
        for (int j = 0; j < bodyCount; j++)
        {
            rotation[j] = rotation(j, position);
            offset[j] = offset(j, position);
            final Jet[] wi = parent[j] < 0 ? baseOmega : omega[parent[j]];
            final Jet[] ai = parent[j] < 0 ? baseOmega : omegaDot[parent[j]];
            final Jet[] vi = parent[j] < 0 ? baseLinear : linear[parent[j]];
            final Jet[] r = rotation[j];
            // (18), (20): jR_i omega_i, jR_i omegaDot_i
            final Jet[] w = transposeTimes(r, wi);
            Jet[] wd = transposeTimes(r, ai);
            // (21): jR_i (vdot_i + omegaDot_i x P + omega_i x (omega_i x P))
            final Jet[] p = offset[j];
            Jet[] v = transposeTimes(r, add(vi, add(cross(ai, p), cross(wi, cross(wi, p)))));
            Jet[] wj = w;
            if (types[j] == JointType.REVOLUTE)
            {
                final int k = coordinate[j];
                // (19): omega_j = jR_i omega_i + qd z; (20): + qdd z + (jR_i omega_i) x qd z
                wj = new Jet[] {w[0], w[1], w[2].add(velocity[k])};
                final Jet[] qdz = {zero, zero, velocity[k]};
                wd = add(wd, cross(w, qdz));
                wd = new Jet[] {wd[0], wd[1], wd[2].add(acceleration[k])};
            }
            else if (types[j] == JointType.PRISMATIC)
            {
                final int k = coordinate[j];
                // (21): + qdd z + 2 omega_j x qd z
                final Jet[] qdz = {zero, zero, velocity[k]};
                v = add(v, scale(cross(w, qdz), 2.0));
                v = new Jet[] {v[0], v[1], v[2].add(acceleration[k])};
            }
            omega[j] = wj;
            omegaDot[j] = wd;
            linear[j] = v;
            // (22)-(23): F = M vdot + omegaDot x MS + omega x (omega x MS); N = I omegaDot + omega x I omega + MS x vdot
            final Jet[] ms = constant(firstMoment, 3 * j);
            force[j] = add(add(scale(v, mass[j]), cross(wd, ms)), cross(wj, cross(wj, ms)));
            moment[j] = add(add(inertiaTimes(j, wd), cross(wj, inertiaTimes(j, wj))), cross(ms, v));
        }
    }

    /** Eqs. 28-30: child wrenches summed into the parent, in the parent's frame. */
    private void backwardPass(final Jet[][] force, final Jet[][] moment, final Jet[][] rotation, final Jet[][] offset)
    {
        for (int j = bodyCount - 1; j >= 0; j--)
        {
            final int i = parent[j];
            if (i >= 0)
            {
                final Jet[] f = times(rotation[j], force[j]);
                force[i] = add(force[i], f);
                moment[i] = add(moment[i], add(times(rotation[j], moment[j]), cross(offset[j], f)));
            }
        }
    }

    /** iR_j = P_j Rot(z, q) for a revolute joint, P_j otherwise, row-major. */
    private Jet[] rotation(final int j, final Jet[] position)
    {
        final Jet[] r = new Jet[9];
        if (types[j] != JointType.REVOLUTE)
        {
            for (int e = 0; e < 9; e++)
            {
                r[e] = new Jet(directions, placementRotation[9 * j + e], 0.0);
            }
            return r;
        }
        final Jet angle = position[coordinate[j]];
        final Jet c = angle.cos();
        final Jet s = angle.sin();
        for (int row = 0; row < 3; row++)
        {
            final double x = placementRotation[9 * j + 3 * row];
            final double y = placementRotation[9 * j + 3 * row + 1];
            r[3 * row] = c.scale(x).add(s.scale(y));
            r[3 * row + 1] = c.scale(y).add(s.scale(-x));
            r[3 * row + 2] = new Jet(directions, placementRotation[9 * j + 3 * row + 2], 0.0);
        }
        return r;
    }

    /** iP_j = placement translation, plus q P_j z for a prismatic joint. */
    private Jet[] offset(final int j, final Jet[] position)
    {
        final Jet[] p = constant(placementTranslation, 3 * j);
        if (types[j] == JointType.PRISMATIC)
        {
            final Jet d = position[coordinate[j]];
            for (int row = 0; row < 3; row++)
            {
                p[row] = p[row].add(d.scale(placementRotation[9 * j + 3 * row + 2]));
            }
        }
        return p;
    }

    private Jet[] inertiaTimes(final int j, final Jet[] w)
    {
        final Jet[] out = new Jet[3];
        for (int row = 0; row < 3; row++)
        {
            out[row] = w[0].scale(inertia[9 * j + 3 * row]).add(w[1].scale(inertia[9 * j + 3 * row + 1]))
                .add(w[2].scale(inertia[9 * j + 3 * row + 2]));
        }
        return out;
    }

    private Jet[] constant(final double[] values, final int offset)
    {
        return new Jet[] {
            new Jet(directions, values[offset], 0.0), new Jet(directions, values[offset + 1], 0.0),
            new Jet(directions, values[offset + 2], 0.0)};
    }

    private static Jet[] times(final Jet[] r, final Jet[] v)
    {
        final Jet[] out = new Jet[3];
        for (int row = 0; row < 3; row++)
        {
            out[row] = r[3 * row].multiply(v[0]).add(r[3 * row + 1].multiply(v[1])).add(r[3 * row + 2].multiply(v[2]));
        }
        return out;
    }

    private static Jet[] transposeTimes(final Jet[] r, final Jet[] v)
    {
        final Jet[] out = new Jet[3];
        for (int col = 0; col < 3; col++)
        {
            out[col] = r[col].multiply(v[0]).add(r[3 + col].multiply(v[1])).add(r[6 + col].multiply(v[2]));
        }
        return out;
    }

    private static Jet[] cross(final Jet[] a, final Jet[] b)
    {
        return new Jet[] {
            a[1].multiply(b[2]).subtract(a[2].multiply(b[1])),
            a[2].multiply(b[0]).subtract(a[0].multiply(b[2])),
            a[0].multiply(b[1]).subtract(a[1].multiply(b[0]))};
    }

    private static Jet[] add(final Jet[] a, final Jet[] b)
    {
        return new Jet[] {a[0].add(b[0]), a[1].add(b[1]), a[2].add(b[2])};
    }

    private static Jet[] scale(final Jet[] a, final double s)
    {
        return new Jet[] {a[0].scale(s), a[1].scale(s), a[2].scale(s)};
    }

    /** A hyper-dual scalar a + b t + c.e + d.(t e), t^2 = e_k e_l = 0; immutable once built. */
    private static final class Jet
    {
        final double a;
        final double b;
        final double[] c;
        final double[] d;

        Jet(final int directions, final double a, final double b)
        {
            this.a = a;
            this.b = b;
            c = new double[directions];
            d = new double[directions];
        }

        Jet add(final Jet o)
        {
            final Jet r = new Jet(c.length, a + o.a, b + o.b);
            for (int k = 0; k < c.length; k++)
            {
                r.c[k] = c[k] + o.c[k];
                r.d[k] = d[k] + o.d[k];
            }
            return r;
        }

        Jet subtract(final Jet o)
        {
            final Jet r = new Jet(c.length, a - o.a, b - o.b);
            for (int k = 0; k < c.length; k++)
            {
                r.c[k] = c[k] - o.c[k];
                r.d[k] = d[k] - o.d[k];
            }
            return r;
        }

        Jet scale(final double s)
        {
            final Jet r = new Jet(c.length, s * a, s * b);
            for (int k = 0; k < c.length; k++)
            {
                r.c[k] = s * c[k];
                r.d[k] = s * d[k];
            }
            return r;
        }

        Jet multiply(final Jet o)
        {
            final Jet r = new Jet(c.length, a * o.a, a * o.b + b * o.a);
            for (int k = 0; k < c.length; k++)
            {
                r.c[k] = a * o.c[k] + c[k] * o.a;
                r.d[k] = a * o.d[k] + b * o.c[k] + c[k] * o.b + d[k] * o.a;
            }
            return r;
        }

        /** f(x) = f(a) + f'(a) (b t + c e + d t e) + f''(a) b c t e. */
        private Jet apply(final double f, final double f1, final double f2)
        {
            final Jet r = new Jet(c.length, f, f1 * b);
            for (int k = 0; k < c.length; k++)
            {
                r.c[k] = f1 * c[k];
                r.d[k] = f1 * d[k] + f2 * b * c[k];
            }
            return r;
        }

        Jet sin()
        {
            final double s = Math.sin(a);
            return apply(s, Math.cos(a), -s);
        }

        Jet cos()
        {
            final double co = Math.cos(a);
            return apply(co, -Math.sin(a), -co);
        }
    }
}
