package org.nectl.core.dynamics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.mobile.CarriedBaseInverseDynamics;
import org.nectl.core.testing.RandomRobots;

/**
 * The carried-base wrench checked against a second formulation: Newton's and Euler's laws for the
 * whole tree in the world frame. The total linear and angular momentum (about the world origin) of
 * all links is computed from poses and velocities composed outwards ({@link WorldKinematics}, no
 * Newton-Euler recursion) along a base and joint motion polynomial in time; its rate, by a 4th-order
 * central difference, must equal the wrench the carrier exerts on the tree plus the weights.
 */
class CarriedBaseMomentumTest
{
    private static final double[] GRAVITY = {0.0, 0.0, -9.81};
    private static final double STEP_S = 1e-3;

    @Test
    void carrierWrenchEqualsTotalMomentumRateOnRandomTrees()
    {
        for (long seed = 1; seed <= 20; seed++)
        {
            final CompiledModel model = CompiledModel.of(RandomRobots.any(seed));
            final SplittableRandom rnd = new SplittableRandom(seed);
            final PolynomialMotion joints = new PolynomialMotion(rnd, model.dof());
            final BaseTrajectory base = new BaseTrajectory(rnd);
            final Momentum momentum = new Momentum(model);
            final double[][] samples = new double[6][4];
            for (int n = 0; n < 4; n++)
            {
                final double t = PolynomialMotion.STEPS[n] * STEP_S;
                joints.at(t);
                base.at(t);
                final double[] total = momentum.of(joints.q, joints.qd, base);
                for (int c = 0; c < 6; c++)
                {
                    samples[c][n] = total[c];
                }
            }
            joints.at(0.0);
            base.at(0.0);
            final CarriedBaseInverseDynamics carried = new CarriedBaseInverseDynamics(model);
            carried.compute(joints.q, joints.qd, joints.qdd, base.motion(GRAVITY), new double[model.dof()]);
            final double[] onCarrier = new double[6];
            carried.carrierWrench(onCarrier);
            final double[] expected = momentum.externalWrenchOnTree(onCarrier, joints.q, base, GRAVITY);
            for (int c = 0; c < 6; c++)
            {
                final double rate = PolynomialMotion.centralDifference(samples[c], STEP_S);
                assertEquals(rate, expected[c], 1e-7 * Math.max(1.0, Math.abs(rate)), "seed " + seed + ", component " + c);
            }
        }
    }

    /** A base turning about world z by alpha(t) then about its own x by beta(t), its origin on a cubic. */
    static final class BaseTrajectory
    {
        private final double[] alpha;
        private final double[] beta;
        private final double[][] origin = new double[3][];
        /** alpha, its rate and acceleration at the current time; the same for beta. */
        double a;
        double ad;
        double add;
        double b;
        double bd;
        double bdd;
        final double[] position = new double[3];
        final double[] velocity = new double[3];
        final double[] acceleration = new double[3];
        final double[] rotation = new double[9];

        BaseTrajectory(final SplittableRandom rnd)
        {
            alpha = RandomRobots.vector(rnd, 4, 1.5);
            beta = RandomRobots.vector(rnd, 4, 1.5);
            for (int c = 0; c < 3; c++)
            {
                origin[c] = RandomRobots.vector(rnd, 4, 2.0);
            }
        }

        void at(final double t)
        {
            a = value(alpha, t);
            ad = rate(alpha, t);
            add = acceleration(alpha, t);
            b = value(beta, t);
            bd = rate(beta, t);
            bdd = acceleration(beta, t);
            for (int c = 0; c < 3; c++)
            {
                position[c] = value(origin[c], t);
                velocity[c] = rate(origin[c], t);
                acceleration[c] = acceleration(origin[c], t);
            }
            final double ca = Math.cos(a);
            final double sa = Math.sin(a);
            final double cb = Math.cos(b);
            final double sb = Math.sin(b);
            // Rz(a) Rx(b)
            final double[] r = {ca, -sa * cb, sa * sb, sa, ca * cb, -ca * sb, 0.0, sb, cb};
            System.arraycopy(r, 0, rotation, 0, 9);
        }

        /** Angular velocity in the world frame: ad z + bd Rz(a) x. */
        double[] angularVelocityWorld()
        {
            return new double[] {bd * Math.cos(a), bd * Math.sin(a), ad};
        }

        /** Its time derivative: add z + bdd Rz(a) x + bd ad z x Rz(a) x. */
        double[] angularAccelerationWorld()
        {
            return new double[] {
                bdd * Math.cos(a) - bd * ad * Math.sin(a), bdd * Math.sin(a) + bd * ad * Math.cos(a), add};
        }

        BaseMotion motion(final double[] gravity)
        {
            final double[] w = transposeTimes(rotation, angularVelocityWorld());
            final double[] wd = transposeTimes(rotation, angularAccelerationWorld());
            final double ch = Math.cos(a / 2);
            final double sh = Math.sin(a / 2);
            final double cg = Math.cos(b / 2);
            final double sg = Math.sin(b / 2);
            // q_z(a) q_x(b)
            return new BaseMotion().orientation(ch * cg, ch * sg, sh * sg, sh * cg)
                .angularVelocity(w[0], w[1], w[2]).angularAcceleration(wd[0], wd[1], wd[2])
                .worldAcceleration(acceleration[0], acceleration[1], acceleration[2], gravity);
        }

        private static double value(final double[] c, final double t)
        {
            return c[0] + t * (c[1] + t * (c[2] / 2 + t * c[3] / 6));
        }

        private static double rate(final double[] c, final double t)
        {
            return c[1] + t * (c[2] + t * c[3] / 2);
        }

        private static double acceleration(final double[] c, final double t)
        {
            return c[2] + t * c[3];
        }
    }

    /** Total momentum of the links and the external wrench on them, world frame, about the world origin. */
    static final class Momentum
    {
        private final CompiledModel model;
        private final WorldKinematics kinematics;

        Momentum(final CompiledModel model)
        {
            this.model = model;
            kinematics = new WorldKinematics(model);
        }

        /** @return linear momentum (kg m/s) then angular momentum about the world origin (kg m^2/s), world frame. */
        double[] of(final double[] q, final double[] qd, final BaseTrajectory base)
        {
            kinematics.positions(q);
            kinematics.velocities(qd);
            final double[] total = new double[6];
            final double[] w0 = base.angularVelocityWorld();
            for (int j = 0; j < model.bodyCount; j++)
            {
                final double[] r = times(base.rotation, slice(kinematics.rotation, 9 * j, 9));
                final double[] relativeOrigin = times(base.rotation, slice(kinematics.origin, 3 * j, 3));
                final double[] o = add(base.position, relativeOrigin);
                final double[] w = add(w0, times(base.rotation, slice(kinematics.angularVelocity, 3 * j, 3)));
                final double[] v = add(add(base.velocity, cross(w0, relativeOrigin)),
                    times(base.rotation, slice(kinematics.originVelocity, 3 * j, 3)));
                final double[] ms = times(r, slice(model.firstMoment, 3 * j, 3));
                // p = m v + omega x MS; h_O = J_O omega + MS x v about the body origin
                final double[] p = add(scale(model.mass[j], v), cross(w, ms));
                final double[] jo = times(times(r, slice(model.inertia, 9 * j, 9)), transpose(r));
                final double[] h = add(add(times(jo, w), cross(ms, v)), cross(o, p));
                for (int c = 0; c < 3; c++)
                {
                    total[c] += p[c];
                    total[3 + c] += h[c];
                }
            }
            return total;
        }

        /** @return the carrier's wrench on the tree (minus what the tree exerts on it) plus the weights, world frame. */
        double[] externalWrenchOnTree(
            final double[] onCarrier, final double[] q, final BaseTrajectory base, final double[] gravity)
        {
            kinematics.positions(q);
            final double[] force = times(base.rotation, new double[] {-onCarrier[0], -onCarrier[1], -onCarrier[2]});
            final double[] moment = add(times(base.rotation, new double[] {-onCarrier[3], -onCarrier[4], -onCarrier[5]}),
                cross(base.position, force));
            for (int j = 0; j < model.bodyCount; j++)
            {
                final double[] r = times(base.rotation, slice(kinematics.rotation, 9 * j, 9));
                final double[] o = add(base.position, times(base.rotation, slice(kinematics.origin, 3 * j, 3)));
                final double[] c = add(o, times(r, slice(model.centreOfMass, 3 * j, 3)));
                final double[] weight = scale(model.mass[j], gravity);
                for (int k = 0; k < 3; k++)
                {
                    force[k] += weight[k];
                }
                final double[] m = cross(c, weight);
                for (int k = 0; k < 3; k++)
                {
                    moment[k] += m[k];
                }
            }
            return new double[] {force[0], force[1], force[2], moment[0], moment[1], moment[2]};
        }
    }

    private static double[] slice(final double[] v, final int from, final int length)
    {
        final double[] out = new double[length];
        System.arraycopy(v, from, out, 0, length);
        return out;
    }

    private static double[] times(final double[] m, final double[] x)
    {
        if (x.length == 3)
        {
            return new double[] {
                m[0] * x[0] + m[1] * x[1] + m[2] * x[2],
                m[3] * x[0] + m[4] * x[1] + m[5] * x[2],
                m[6] * x[0] + m[7] * x[1] + m[8] * x[2]};
        }
        final double[] out = new double[9];
        for (int i = 0; i < 3; i++)
        {
            for (int j = 0; j < 3; j++)
            {
                for (int k = 0; k < 3; k++)
                {
                    out[3 * i + j] += m[3 * i + k] * x[3 * k + j];
                }
            }
        }
        return out;
    }

    private static double[] transpose(final double[] m)
    {
        return new double[] {m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]};
    }

    private static double[] transposeTimes(final double[] m, final double[] x)
    {
        return times(transpose(m), x);
    }

    private static double[] add(final double[] a, final double[] b)
    {
        return new double[] {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
    }

    private static double[] scale(final double s, final double[] a)
    {
        return new double[] {s * a[0], s * a[1], s * a[2]};
    }

    private static double[] cross(final double[] a, final double[] b)
    {
        return new double[] {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    }
}
