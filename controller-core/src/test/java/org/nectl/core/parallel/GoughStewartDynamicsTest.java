package org.nectl.core.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;
import org.nectl.core.closedloop.ClosedLoopDynamics;
import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.closedloop.LoopGeometry;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.model.Transforms;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;

class GoughStewartDynamicsTest
{
    private static final int SAMPLES = 20;

    @Test
    void staticPlatformLoadOnMasslessLegsIsJpInverseTransposeTimesTheWrench()
    {
        final GoughStewartModel hexapod = Hexapods.hexapod(0.0);
        final GoughStewartDynamics dynamics = new GoughStewartDynamics(hexapod, CompiledModel.of(hexapod.legs()));
        final double[] b = hexapod.platformPoints();
        final double[] a = hexapod.basePoints();
        double worst = 0.0;
        for (int n = 0; n < SAMPLES; n++)
        {
            final Pose pose = Pose.random(hexapod, n);
            final double[] forces = new double[6];
            assertTrue(dynamics.inverseDynamics(pose.p, pose.r, new double[6], new double[6], forces));
            // W = the platform's weight as a wrench about its origin, to be carried by the legs.
            final double m = hexapod.platform().mass();
            final double[] c = Transforms.apply(pose.r, hexapod.platform().centreOfMass());
            final double[] weight = {0, 0, -9.81 * m};
            final double[] w = {0, 0, 9.81 * m, -(c[1] * weight[2] - c[2] * weight[1]),
                -(c[2] * weight[0] - c[0] * weight[2]), -(c[0] * weight[1] - c[1] * weight[0])};
            // J_p^-1 rows [u_i, P_i x u_i]: Gamma = J_p^-T W.
            final DMatrixRMaj jpInverseTransposed = new DMatrixRMaj(6, 6);
            for (int i = 0; i < 6; i++)
            {
                final double[] lever = Transforms.apply(pose.r, new double[] {b[3 * i], b[3 * i + 1], b[3 * i + 2]});
                final double[] leg = new double[3];
                for (int e = 0; e < 3; e++)
                {
                    leg[e] = pose.p[e] + lever[e] - a[3 * i + e];
                }
                final double l = Math.sqrt(leg[0] * leg[0] + leg[1] * leg[1] + leg[2] * leg[2]);
                final double[] u = {leg[0] / l, leg[1] / l, leg[2] / l};
                final double[] moment = {lever[1] * u[2] - lever[2] * u[1], lever[2] * u[0] - lever[0] * u[2],
                    lever[0] * u[1] - lever[1] * u[0]};
                for (int e = 0; e < 3; e++)
                {
                    jpInverseTransposed.set(e, i, u[e]);
                    jpInverseTransposed.set(3 + e, i, moment[e]);
                }
            }
            final DMatrixRMaj expected = new DMatrixRMaj(6, 1);
            assertTrue(CommonOps_DDRM.solve(jpInverseTransposed, new DMatrixRMaj(6, 1, true, w), expected));
            for (int i = 0; i < 6; i++)
            {
                assertEquals(expected.get(i), forces[i], 1e-12 * Math.max(1, Math.abs(expected.get(i))), "pose " + n);
                worst = Math.max(worst, Math.abs(expected.get(i) - forces[i]) / Math.max(1, Math.abs(expected.get(i))));
            }
        }
        System.out.println("hexapod static load vs J_p^-T W: worst relative difference " + worst);
    }

    @Test
    void parallelRobotModelEqualsTheClosedLoopProjectionOfTheSameHexapod()
    {
        final GoughStewartModel hexapod = Hexapods.hexapod(1.0);
        final GoughStewartDynamics parallel = new GoughStewartDynamics(hexapod, CompiledModel.of(hexapod.legs()));
        final ClosedLoopModel chain = Hexapods.closedChain(hexapod);
        final ClosedLoopDynamics closed = new ClosedLoopDynamics(chain, CompiledModel.of(chain.tree()));
        final LoopGeometry geometry = new LoopGeometry(chain);
        double worst = 0.0;
        for (int n = 0; n < SAMPLES; n++)
        {
            final Pose pose = Pose.random(hexapod, n);
            final double[] forces = new double[6];
            assertTrue(parallel.inverseDynamics(pose.p, pose.r, pose.twist, pose.twistRate, forces));
            final double[] legs = parallel.legPositions();
            final double[] q = chain.home();
            System.arraycopy(legs, 0, q, 0, legs.length);
            assertEquals(LoopGeometry.CONVERGED, geometry.solvePassive(q), "pose " + n);
            for (int i = 0; i < legs.length; i++)
            {
                assertEquals(legs[i], q[i], 1e-9, "pose " + n + ": the closed chain closes on the same legs");
            }
            final double[] rates = new double[6];
            final double[] accelerations = new double[6];
            for (int i = 0; i < 6; i++)
            {
                rates[i] = parallel.legVelocities()[3 * i + 2];
                accelerations[i] = parallel.legAccelerations()[3 * i + 2];
            }
            final double[] gamma = new double[6];
            assertTrue(closed.inverseDynamics(q, rates, accelerations, gamma));
            for (int i = 0; i < 6; i++)
            {
                assertEquals(gamma[i], forces[i], 1e-9 * Math.max(1, Math.abs(gamma[i])), "pose " + n + " leg " + i);
                worst = Math.max(worst, Math.abs(gamma[i] - forces[i]) / Math.max(1, Math.abs(gamma[i])));
            }
        }
        System.out.println("hexapod eqs. 59-66 vs closed-chain projection: worst relative difference " + worst);
    }

    @Test
    void actuatorPowerEqualsPlatformAndLegPowerAndForwardDynamicsInvertsInverseDynamics()
    {
        final GoughStewartModel hexapod = Hexapods.hexapod(1.0);
        final GoughStewartDynamics dynamics = new GoughStewartDynamics(hexapod, CompiledModel.of(hexapod.legs()));
        for (int n = 0; n < SAMPLES; n++)
        {
            final Pose pose = Pose.random(hexapod, n);
            final double[] forces = new double[6];
            assertTrue(dynamics.inverseDynamics(pose.p, pose.r, pose.twist, pose.twistRate, forces));
            double actuator = 0.0;
            for (int i = 0; i < 6; i++)
            {
                actuator += forces[i] * dynamics.legVelocities()[3 * i + 2];
            }
            double bodies = 0.0;
            for (int k = 0; k < 6; k++)
            {
                bodies += dynamics.platformWrench()[k] * pose.twist[k];
            }
            for (int j = 0; j < 18; j++)
            {
                bodies += dynamics.legForces()[j] * dynamics.legVelocities()[j];
            }
            assertEquals(bodies, actuator, 1e-9 * Math.max(1, Math.abs(bodies)), "pose " + n);
            final double[] back = new double[6];
            assertTrue(dynamics.forwardDynamics(pose.p, pose.r, pose.twist, forces, back));
            for (int k = 0; k < 6; k++)
            {
                assertEquals(pose.twistRate[k], back[k], 1e-9 * Math.max(1, Math.abs(pose.twistRate[k])), "pose " + n);
            }
        }
    }

    @Test
    void aCompiledModelOfOtherLegsIsRefused()
    {
        final GoughStewartModel hexapod = Hexapods.hexapod(1.0);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new GoughStewartDynamics(hexapod, CompiledModel.of(Hexapods.hexapod(0.0).legs())));
        assertTrue(e.getMessage().contains("is not the legs"), e.getMessage());
    }

    @Test
    void inverseAndForwardDynamicsAllocateNothingPerCall()
    {
        final GoughStewartModel hexapod = Hexapods.hexapod(1.0);
        final GoughStewartDynamics dynamics = new GoughStewartDynamics(hexapod, CompiledModel.of(hexapod.legs()));
        final Pose pose = Pose.random(hexapod, 1);
        final double[] forces = new double[6];
        final double[] back = new double[6];
        final long bytes = AllocationMeter.bytesAllocated(() ->
        {
            dynamics.inverseDynamics(pose.p, pose.r, pose.twist, pose.twistRate, forces);
            dynamics.forwardDynamics(pose.p, pose.r, pose.twist, forces, back);
        }, 5_000, 1_000);
        assertEquals(0, bytes, "bytes allocated per 1000 calls");
    }

    /** A platform state near home: position within 5 cm, attitude within 0.15 rad, random twist and rate. */
    private record Pose(double[] p, double[] r, double[] twist, double[] twistRate)
    {
        static Pose random(final GoughStewartModel hexapod, final long seed)
        {
            final SplittableRandom rnd = new SplittableRandom(1800 + seed);
            final double[] p = hexapod.homePosition();
            for (int e = 0; e < 3; e++)
            {
                p[e] += rnd.nextDouble(-0.05, 0.05);
            }
            final double[] r = Transforms.multiply(hexapod.homeRotation(), Transforms.rpy(
                rnd.nextDouble(-0.15, 0.15), rnd.nextDouble(-0.15, 0.15), rnd.nextDouble(-0.15, 0.15)));
            return new Pose(p, r, RandomRobots.vector(rnd, 6, 0.5), RandomRobots.vector(rnd, 6, 3.0));
        }
    }
}
