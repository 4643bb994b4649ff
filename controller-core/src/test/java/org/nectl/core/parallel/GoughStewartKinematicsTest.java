package org.nectl.core.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.model.Transforms;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;

class GoughStewartKinematicsTest
{
    private static final long SEED = 1818;
    private static final int POSES = 200;

    @Test
    void forwardKinematicsRecoversRandomWorkspacePosesFromTheirLegLengths()
    {
        final GoughStewartModel hexapod = Hexapods.hexapod(1.0);
        final GoughStewartKinematics kinematics = new GoughStewartKinematics(hexapod);
        final SplittableRandom rnd = new SplittableRandom(SEED);
        final double[] lengths = new double[6];
        int inside = 0;
        int mostIterations = 0;
        double worst = 0.0;
        for (int n = 0; n < POSES; n++)
        {
            final double[] p = hexapod.homePosition();
            p[0] += rnd.nextDouble(-0.08, 0.08);
            p[1] += rnd.nextDouble(-0.08, 0.08);
            p[2] += rnd.nextDouble(-0.08, 0.08);
            final double[] r = Transforms.rpy(rnd.nextDouble(-0.2, 0.2), rnd.nextDouble(-0.2, 0.2), rnd.nextDouble(-0.3, 0.3));
            kinematics.inverse(p, r, lengths);
            if (!withinStroke(hexapod, lengths))
            {
                continue;
            }
            inside++;
            final double[] position = hexapod.homePosition();
            final double[] rotation = hexapod.homeRotation();
            final int status = kinematics.forward(lengths, position, rotation);
            final String where = "seed " + SEED + ", pose " + n;
            assertEquals(GoughStewartKinematics.CONVERGED, status, where + ": residual " + kinematics.residualNorm());
            assertTrue(kinematics.residualNorm() <= GoughStewartKinematics.TOLERANCE, where);
            assertTrue(kinematics.pivotRatio() >= GoughStewartKinematics.SINGULAR_PIVOT_RATIO, where);
            for (int e = 0; e < 3; e++)
            {
                assertEquals(p[e], position[e], 1e-10, where + ", position " + e);
                worst = Math.max(worst, Math.abs(p[e] - position[e]));
            }
            for (int e = 0; e < 9; e++)
            {
                assertEquals(r[e], rotation[e], 1e-10, where + ", rotation " + e);
                worst = Math.max(worst, Math.abs(r[e] - rotation[e]));
            }
            mostIterations = Math.max(mostIterations, kinematics.iterations());
        }
        System.out.println("hexapod FK(IK) round trip: " + inside + " poses, largest difference " + worst + ", at most "
            + mostIterations + " Newton iterations from home");
        assertTrue(inside >= POSES / 2, "only " + inside + " of " + POSES + " poses within the stroke");
        assertTrue(mostIterations <= 8, "Newton needed " + mostIterations + " iterations from home");
    }

    @Test
    void legRateJacobianMatchesCentralDifferencesOfTheLegLengths()
    {
        final GoughStewartModel hexapod = Hexapods.hexapod(1.0);
        final GoughStewartKinematics kinematics = new GoughStewartKinematics(hexapod);
        final SplittableRandom rnd = new SplittableRandom(SEED + 1);
        final double h = 1e-6;
        final double[] jacobian = new double[36];
        final double[] plus = new double[6];
        final double[] minus = new double[6];
        for (int n = 0; n < 20; n++)
        {
            final double[] p = hexapod.homePosition();
            for (int e = 0; e < 3; e++)
            {
                p[e] += rnd.nextDouble(-0.05, 0.05);
            }
            final double[] r = Transforms.rpy(rnd.nextDouble(-0.2, 0.2), rnd.nextDouble(-0.2, 0.2), rnd.nextDouble(-0.3, 0.3));
            kinematics.inverseJacobian(p, r, jacobian);
            for (int k = 0; k < 6; k++)
            {
                // A step along twist direction k: a translation, or a rotation about a base axis applied on the left.
                kinematics.inverse(displaced(p, k, h), rotated(r, k, h), plus);
                kinematics.inverse(displaced(p, k, -h), rotated(r, k, -h), minus);
                for (int i = 0; i < 6; i++)
                {
                    assertEquals((plus[i] - minus[i]) / (2 * h), jacobian[6 * i + k], 1e-8,
                        "seed " + (SEED + 1) + ", pose " + n + ", leg " + i + ", twist direction " + k);
                }
            }
        }
    }

    @Test
    void legRatesAndAccelerationsMatchCentralDifferencesAlongAPlatformMotion()
    {
        final GoughStewartModel hexapod = Hexapods.hexapod(1.0);
        final GoughStewartKinematics kinematics = new GoughStewartKinematics(hexapod);
        final SplittableRandom rnd = new SplittableRandom(SEED + 2);
        final double h = 1e-4;
        final double[] lengths = new double[6];
        final double[] rates = new double[6];
        final double[] accelerations = new double[6];
        final double[] before = new double[6];
        final double[] after = new double[6];
        for (int n = 0; n < 20; n++)
        {
            // p(t) = p0 + v t + a t^2 / 2 and R(t) = Rot(w, theta(t)) R0 with a fixed unit axis w, so that
            // omega = w thetadot and omegadot = w thetaddot at t = 0.
            final double[] p0 = hexapod.homePosition();
            for (int e = 0; e < 3; e++)
            {
                p0[e] += rnd.nextDouble(-0.05, 0.05);
            }
            final double[] r0 = Transforms.rpy(rnd.nextDouble(-0.2, 0.2), rnd.nextDouble(-0.2, 0.2), rnd.nextDouble(-0.3, 0.3));
            final double[] v = RandomRobots.vector(rnd, 3, 0.3);
            final double[] a = RandomRobots.vector(rnd, 3, 2.0);
            final double[] axis = RandomRobots.vector(rnd, 3, 1.0);
            final double norm = Math.sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
            final double thetaDot = rnd.nextDouble(-0.8, 0.8);
            final double thetaDdot = rnd.nextDouble(-4, 4);
            final double[] twist = new double[6];
            final double[] twistRate = new double[6];
            for (int e = 0; e < 3; e++)
            {
                axis[e] /= norm;
                twist[e] = v[e];
                twistRate[e] = a[e];
                twist[3 + e] = axis[e] * thetaDot;
                twistRate[3 + e] = axis[e] * thetaDdot;
            }
            kinematics.inverse(p0, r0, twist, twistRate, lengths, rates, accelerations);
            kinematics.inverse(along(p0, v, a, h), Transforms.multiply(axisAngle(axis, thetaDot * h + thetaDdot * h * h / 2), r0),
                after);
            kinematics.inverse(along(p0, v, a, -h), Transforms.multiply(axisAngle(axis, -thetaDot * h + thetaDdot * h * h / 2), r0),
                before);
            for (int i = 0; i < 6; i++)
            {
                final String where = "seed " + (SEED + 2) + ", motion " + n + ", leg " + i;
                assertEquals((after[i] - before[i]) / (2 * h), rates[i], 1e-7, where + ": rate");
                assertEquals((after[i] - 2 * lengths[i] + before[i]) / (h * h), accelerations[i], 1e-5, where + ": acceleration");
            }
        }
    }

    @Test
    void legRatesAndAccelerationsEqualTheActuatorJointsOfTheDynamicsLegChains()
    {
        final GoughStewartModel hexapod = Hexapods.hexapod(1.0);
        final GoughStewartKinematics kinematics = new GoughStewartKinematics(hexapod);
        final GoughStewartDynamics dynamics = new GoughStewartDynamics(hexapod, CompiledModel.of(hexapod.legs()));
        final SplittableRandom rnd = new SplittableRandom(SEED + 3);
        final double[] lengths = new double[6];
        final double[] rates = new double[6];
        final double[] accelerations = new double[6];
        for (int n = 0; n < 20; n++)
        {
            final double[] p = hexapod.homePosition();
            for (int e = 0; e < 3; e++)
            {
                p[e] += rnd.nextDouble(-0.05, 0.05);
            }
            final double[] r = Transforms.rpy(rnd.nextDouble(-0.2, 0.2), rnd.nextDouble(-0.2, 0.2), rnd.nextDouble(-0.3, 0.3));
            final double[] twist = RandomRobots.vector(rnd, 6, 0.5);
            final double[] twistRate = RandomRobots.vector(rnd, 6, 3.0);
            kinematics.inverse(p, r, twist, twistRate, lengths, rates, accelerations);
            assertTrue(dynamics.inverseDynamics(p, r, twist, twistRate, new double[6]));
            for (int i = 0; i < 6; i++)
            {
                final String where = "seed " + (SEED + 3) + ", state " + n + ", leg " + i;
                assertEquals(dynamics.legPositions()[3 * i + 2], lengths[i], 1e-14, where);
                assertEquals(dynamics.legVelocities()[3 * i + 2], rates[i], 1e-12, where);
                assertEquals(dynamics.legAccelerations()[3 * i + 2], accelerations[i], 1e-10, where);
            }
        }
    }

    @Test
    void forwardKinematicsReportsTheQuarterTurnParallelSingularity()
    {
        final GoughStewartModel hexapod = Hexapods.hexapod(1.0);
        final GoughStewartKinematics kinematics = new GoughStewartKinematics(hexapod);
        final double[] position = hexapod.homePosition();
        final double[] rotation = Transforms.rotZ(Math.PI / 2);
        final double[] lengths = new double[6];
        kinematics.inverse(position, rotation, lengths);
        final int status = kinematics.forward(lengths, position, rotation);
        assertEquals(GoughStewartKinematics.SINGULAR, status);
        assertTrue(kinematics.pivotRatio() < GoughStewartKinematics.SINGULAR_PIVOT_RATIO, "pivot ratio " + kinematics.pivotRatio());
        assertEquals(0, kinematics.iterations());
    }

    @Test
    void forwardKinematicsReportsLegLengthsNoPoseHasAsNotConverged()
    {
        // 1 cm legs: every B_i would sit on its A_i, but the platform's points are not the base's.
        final GoughStewartModel hexapod = Hexapods.hexapod(1.0);
        final GoughStewartKinematics kinematics = new GoughStewartKinematics(hexapod);
        final double[] position = hexapod.homePosition();
        final double[] rotation = hexapod.homeRotation();
        final int status = kinematics.forward(new double[] {0.01, 0.01, 0.01, 0.01, 0.01, 0.01}, position, rotation);
        assertEquals(GoughStewartKinematics.NOT_CONVERGED, status);
        assertEquals(GoughStewartKinematics.MAX_ITERATIONS, kinematics.iterations());
        assertTrue(kinematics.residualNorm() > 0.1, "residual " + kinematics.residualNorm());
    }

    @Test
    void forwardKinematicsReportsANonFiniteLengthAsNotConverged()
    {
        final GoughStewartModel hexapod = Hexapods.hexapod(1.0);
        final GoughStewartKinematics kinematics = new GoughStewartKinematics(hexapod);
        final int status = kinematics.forward(new double[] {0.6, 0.6, Double.NaN, 0.6, 0.6, 0.6}, hexapod.homePosition(),
            hexapod.homeRotation());
        assertEquals(GoughStewartKinematics.NOT_CONVERGED, status);
        assertTrue(Double.isNaN(kinematics.residualNorm()));
    }

    @Test
    void inverseAndForwardKinematicsAllocateNothingPerCall()
    {
        final GoughStewartModel hexapod = Hexapods.hexapod(1.0);
        final GoughStewartKinematics kinematics = new GoughStewartKinematics(hexapod);
        final double[] p = {0.02, -0.01, 0.57};
        final double[] r = Transforms.rpy(0.1, -0.05, 0.2);
        final double[] twist = {0.1, 0.2, -0.1, 0.3, -0.2, 0.1};
        final double[] twistRate = {1, -1, 0.5, 2, 1, -2};
        final double[] lengths = new double[6];
        final double[] rates = new double[6];
        final double[] accelerations = new double[6];
        final double[] position = new double[3];
        final double[] rotation = new double[9];
        final double[] home = hexapod.homePosition();
        final double[] identity = Transforms.identity();
        final long bytes = AllocationMeter.bytesAllocated(() ->
        {
            kinematics.inverse(p, r, twist, twistRate, lengths, rates, accelerations);
            System.arraycopy(home, 0, position, 0, 3);
            System.arraycopy(identity, 0, rotation, 0, 9);
            kinematics.forward(lengths, position, rotation);
        }, 5_000, 1_000);
        assertEquals(0, bytes, "bytes allocated per 1000 calls");
    }

    private static boolean withinStroke(final GoughStewartModel hexapod, final double[] lengths)
    {
        for (final double l : lengths)
        {
            if (l < hexapod.actuatorLimits().positionMin() || l > hexapod.actuatorLimits().positionMax())
            {
                return false;
            }
        }
        return true;
    }

    private static double[] displaced(final double[] p, final int direction, final double h)
    {
        final double[] moved = p.clone();
        if (direction < 3)
        {
            moved[direction] += h;
        }
        return moved;
    }

    private static double[] rotated(final double[] r, final int direction, final double h)
    {
        return switch (direction)
        {
            case 3 -> Transforms.multiply(Transforms.rotX(h), r);
            case 4 -> Transforms.multiply(Transforms.rotY(h), r);
            case 5 -> Transforms.multiply(Transforms.rotZ(h), r);
            default -> r;
        };
    }

    private static double[] along(final double[] p0, final double[] v, final double[] a, final double t)
    {
        final double[] p = new double[3];
        for (int e = 0; e < 3; e++)
        {
            p[e] = p0[e] + v[e] * t + a[e] * t * t / 2;
        }
        return p;
    }

    /** Rodrigues: rotation by angle about a unit axis, 9 row-major. */
    private static double[] axisAngle(final double[] w, final double angle)
    {
        final double s = Math.sin(angle);
        final double c = 1.0 - Math.cos(angle);
        return new double[] {
            1 - c * (w[1] * w[1] + w[2] * w[2]), -s * w[2] + c * w[0] * w[1], s * w[1] + c * w[0] * w[2],
            s * w[2] + c * w[0] * w[1], 1 - c * (w[0] * w[0] + w[2] * w[2]), -s * w[0] + c * w[1] * w[2],
            -s * w[1] + c * w[0] * w[2], s * w[0] + c * w[1] * w[2], 1 - c * (w[0] * w[0] + w[1] * w[1])};
    }
}
