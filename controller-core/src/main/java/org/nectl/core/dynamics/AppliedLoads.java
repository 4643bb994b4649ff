package org.nectl.core.dynamics;

import java.util.Arrays;

/**
 * Gravity, external wrenches and the joint-friction switch of one algorithm instance, with the
 * conventions of {@link InverseDynamics}: gravity is a base-frame acceleration (default 0, 0, -9.81
 * m/s^2) entered as base acceleration -g; an external wrench is the wrench applied ON a body BY the
 * environment, force then moment about the body-frame origin, both in the body frame; friction is
 * Khalil's Fs sign(qd) + Fv qd ("Dynamic modeling of robots using recursive Newton-Euler
 * techniques", ICINCO 2010, eq. 31), on by default. Not thread safe.
 */
final class AppliedLoads
{
    /** Base spatial acceleration (-g, 0) in {@link SpatialAlgebra} order, base frame. */
    final double[] baseAcceleration = new double[6];
    /** External wrench per body, 6 per body, body frame, about the body origin. */
    final double[] externalWrench;
    boolean friction = true;

    /** Not real-time safe. */
    AppliedLoads(final CompiledModel model)
    {
        externalWrench = new double[6 * model.bodyCount];
        gravity(model.gravity[0], model.gravity[1], model.gravity[2]);
    }

    /** Real-time safe. */
    void gravity(final double gx, final double gy, final double gz)
    {
        baseAcceleration[0] = -gx;
        baseAcceleration[1] = -gy;
        baseAcceleration[2] = -gz;
    }

    /** Real-time safe. */
    void externalWrench(
        final int body, final double fx, final double fy, final double fz, final double mx, final double my, final double mz)
    {
        store(externalWrench, body, fx, fy, fz, mx, my, mz);
    }

    /**
     * Writes a wrench (force then moment) into body's 6 slots of a 6-per-body array. Real-time safe.
     *
     * @param wrenches 6 per body.
     */
    static void store(final double[] wrenches,
        final int body, final double fx, final double fy, final double fz, final double mx, final double my, final double mz)
    {
        final int e = 6 * body;
        wrenches[e] = fx;
        wrenches[e + 1] = fy;
        wrenches[e + 2] = fz;
        wrenches[e + 3] = mx;
        wrenches[e + 4] = my;
        wrenches[e + 5] = mz;
    }

    /** Real-time safe. */
    void clearExternalWrenches()
    {
        Arrays.fill(externalWrench, 0.0);
    }

    /**
     * out -= the external wrench on the body, re-expressed in the base frame about the base origin.
     * Real-time safe.
     */
    void subtractExternalWrenchInBase(final BaseFrameBodies bodies, final int body, final double[] scratch6,
        final double[] out, final int io)
    {
        final int e = 6 * body;
        if (externalWrench[e] == 0.0 && externalWrench[e + 1] == 0.0 && externalWrench[e + 2] == 0.0
            && externalWrench[e + 3] == 0.0 && externalWrench[e + 4] == 0.0 && externalWrench[e + 5] == 0.0)
        {
            return;
        }
        SpatialAlgebra.wrenchToBase(bodies.rotation, 9 * body, bodies.position, 3 * body, externalWrench, e, scratch6, 0);
        for (int c = 0; c < 6; c++)
        {
            out[io + c] -= scratch6[c];
        }
    }
}
