package org.nectl.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.closedloop.ClosedLoopDynamics;
import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.closedloop.LoopGeometry;
import org.nectl.core.dynamics.CompiledModel;

/**
 * The shipped four-bar against a closed-form Lagrangian derivation, written out here independently
 * of the tree algorithm. Angles are absolute, in the plane: crank t2, coupler t3, rocker t4. Loop:
 * a e^(i t2) + b e^(i t3) - c e^(i t4) - d = 0. Differentiating once and taking imaginary parts
 * after multiplying by e^(-i t4) and e^(-i t3) gives the velocity ratios h3 = dt3/dt2 =
 * a sin(t4 - t2) / (b sin(t3 - t4)), h4 = a sin(t3 - t2) / (c sin(t3 - t4)); differentiating twice
 * and taking real parts gives h3' = (-a cos(t2 - t4) - b h3^2 cos(t3 - t4) + c h4^2) / (b sin(t3 - t4))
 * and h4' = (a cos(t2 - t3) + b h3^2 - c h4^2 cos(t4 - t3)) / (c sin(t4 - t3)). With link i's centre
 * of mass C_i = P_i + R(t_i) rho_i, E = I(t2) t2dot^2 / 2 with I = sum m |dC/dt2|^2 + Izz h^2, so
 * Lagrange's equation is Gamma = I t2ddot + I'(t2) t2dot^2 / 2 + dU/dt2.
 */
class FourBarClosedFormTest
{
    private static final double A = 0.10;
    private static final double B = 0.35;
    private static final double C = 0.30;
    private static final double D = 0.40;
    private static final double[] MASS = {0.5, 1.2, 1.0};
    private static final double[] COM = {0.05, 0.175, 0.15};
    private static final double[] IZZ = {0.000417, 0.01225, 0.0075};
    private static final double G = 9.81;

    @Test
    void activeTorqueEqualsTheClosedFormLagrangianOverAFullCrankTurn()
    {
        final ClosedLoopModel model = ClosedLoopDescriptions.load(ShippedRobots.directory().resolve("four-bar.yaml"));
        final ClosedLoopDynamics dynamics = new ClosedLoopDynamics(model, CompiledModel.of(model.tree()));
        final LoopGeometry geometry = new LoopGeometry(model);
        final SplittableRandom rnd = new SplittableRandom(18);
        final double[] q = model.home();
        double worstTorque = 0.0;
        double worstAngle = 0.0;
        for (int step = 0; step < 72; step++)
        {
            final double t2 = Math.PI / 3 + step * 2 * Math.PI / 72;
            q[0] = t2;
            assertEquals(LoopGeometry.CONVERGED, geometry.solvePassive(q), "crank " + t2);
            final double[] closed = closedFormAngles(t2);
            worstAngle = Math.max(worstAngle, Math.abs(Math.IEEEremainder(q[0] + q[1] - closed[0], 2 * Math.PI)));
            worstAngle = Math.max(worstAngle, Math.abs(Math.IEEEremainder(q[2] - closed[1], 2 * Math.PI)));
            final double rate = rnd.nextDouble(-6, 6);
            final double accel = rnd.nextDouble(-40, 40);
            final double[] gamma = new double[1];
            assertTrue(dynamics.inverseDynamics(q, new double[] {rate}, new double[] {accel}, gamma));
            final double expected = lagrangian(t2, closed[0], closed[1], rate, accel);
            assertEquals(expected, gamma[0], 1e-10 * Math.max(1, Math.abs(expected)), "crank " + t2);
            worstTorque = Math.max(worstTorque, Math.abs(expected - gamma[0]));
        }
        // Newton stops at 1e-12 m of closure error; over 0.1-0.35 m links that is about 1e-11 rad.
        assertTrue(worstAngle < 1e-10, "passive angles differ from the closed form by " + worstAngle);
        System.out.println("four-bar: |Gamma_c - closed form| <= " + worstTorque + " N m, angles <= " + worstAngle + " rad");
    }

    /** t3, t4 by intersecting the circles about A and O4 on the branch of the home configuration (B above the ground). */
    private static double[] closedFormAngles(final double t2)
    {
        final double ax = A * Math.cos(t2);
        final double ay = A * Math.sin(t2);
        final double dx = D - ax;
        final double dy = -ay;
        final double l = Math.hypot(dx, dy);
        final double t3 = Math.atan2(dy, dx) + Math.acos((B * B + l * l - C * C) / (2 * B * l));
        final double bx = ax + B * Math.cos(t3);
        final double by = ay + B * Math.sin(t3);
        return new double[] {t3, Math.atan2(by, bx - D)};
    }

    private static double lagrangian(final double t2, final double t3, final double t4, final double rate, final double accel)
    {
        final double s34 = Math.sin(t3 - t4);
        final double h3 = A * Math.sin(t4 - t2) / (B * s34);
        final double h4 = A * Math.sin(t3 - t2) / (C * s34);
        final double h3p = (-A * Math.cos(t2 - t4) - B * h3 * h3 * Math.cos(t3 - t4) + C * h4 * h4) / (B * s34);
        final double h4p = (A * Math.cos(t2 - t3) + B * h3 * h3 - C * h4 * h4 * Math.cos(t4 - t3)) / (C * Math.sin(t4 - t3));
        final double[] angle = {t2, t3, t4};
        final double[] h = {1, h3, h4};
        final double[] hp = {0, h3p, h4p};
        // dP/dt2 and d2P/dt2^2 of each link's origin: O2 and O4 are fixed, the coupler's is A.
        final double[][] dP = {{0, 0}, {-A * Math.sin(t2), A * Math.cos(t2)}, {0, 0}};
        final double[][] ddP = {{0, 0}, {-A * Math.cos(t2), -A * Math.sin(t2)}, {0, 0}};
        double inertia = 0;
        double inertiaRate = 0;
        double potentialRate = 0;
        for (int i = 0; i < 3; i++)
        {
            final double rx = COM[i] * Math.cos(angle[i]);
            final double ry = COM[i] * Math.sin(angle[i]);
            // d rho/dt2 = h J rho, d2 rho/dt2^2 = h' J rho - h^2 rho, J a quarter turn.
            final double dcx = dP[i][0] - h[i] * ry;
            final double dcy = dP[i][1] + h[i] * rx;
            final double ddcx = ddP[i][0] - hp[i] * ry - h[i] * h[i] * rx;
            final double ddcy = ddP[i][1] + hp[i] * rx - h[i] * h[i] * ry;
            inertia += MASS[i] * (dcx * dcx + dcy * dcy) + IZZ[i] * h[i] * h[i];
            inertiaRate += 2 * MASS[i] * (dcx * ddcx + dcy * ddcy) + 2 * IZZ[i] * h[i] * hp[i];
            potentialRate += MASS[i] * G * dcy;
        }
        return inertia * accel + 0.5 * inertiaRate * rate * rate + potentialRate;
    }
}
