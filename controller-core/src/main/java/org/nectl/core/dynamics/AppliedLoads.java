package org.nectl.core.dynamics;

import java.util.Arrays;

/**
 * The loads one dynamics call is given, passed as an argument (e.g.
 * {@link InverseDynamics#compute(double[], double[], double[], AppliedLoads, double[])}) rather than
 * set on each algorithm: a gravity override and the wrenches the environment applies ON the bodies,
 * with their rates for {@link TorqueDerivative} (and second rates of the body-fixed wrenches for
 * {@link TorqueSecondDerivative}). Two kinds of load (Barman, "Analytical sensitivities
 * of inverse dynamics", Oklahoma State 2020, eqs. 3.76-3.91):
 * <ul>
 * <li><b>body-fixed</b>: a wrench whose body-frame components are given (force, then moment about
 * the body origin), which turns with the body; its rate is the rate of those components (what a
 * body-mounted sensor differentiates);</li>
 * <li><b>world-fixed</b>: a force whose base-frame components are given, acting at a point fixed in
 * the body (a payload's weight, a cable pulled from a fixed direction), and a pure moment with
 * base-frame components; their rates are base-frame rates. One such force per body.</li>
 * </ul>
 * Joint friction is not a load: it is a switch of each algorithm ({@code jointFriction}).
 *
 * <p>A value sized from one model, mutated by its owner between calls, never by the algorithms
 * (only its scratch). Not thread safe: one instance per thread. Every method is real-time safe
 * except the constructor.
 */
public final class AppliedLoads
{
    final CompiledModel model;
    /** Gravity in the base frame, m/s^2: the model's unless overridden. */
    final double[] gravity = new double[3];
    /** Body-fixed wrench per body: force (N), moment about the origin (N m), body frame, 6 per body. */
    final double[] bodyWrench;
    /** Rate of the body-frame components of each body-fixed wrench, N/s and N m/s, 6 per body. */
    final double[] bodyWrenchRate;
    /** Second rate of those components, N/s^2 and N m/s^2, 6 per body. */
    final double[] bodyWrenchSecondRate;
    /** Point of each world-fixed force, body frame, m, 3 per body. */
    final double[] worldPoint;
    /** World-fixed force per body, base frame, N, 3 per body. */
    final double[] worldForce;
    /** World-fixed moment per body, base frame, N m, 3 per body. */
    final double[] worldMoment;
    /** Rates of {@link #worldForce} and {@link #worldMoment}, base frame, 6 per body (force then moment). */
    final double[] worldRate;
    /** True once a body-fixed wrench or rate is set, until {@link #clear}. */
    boolean bodyLoads;
    /** True once a world-fixed force, moment or rate is set, until {@link #clear}. */
    boolean worldLoads;

    /** Scratch of {@link #resolveInBodyFrames}: every body's 0R_j (9 per body) and origin (3 per body). */
    private final double[] bodyRotation;
    private final double[] bodyOrigin;
    /**
     * After {@link #resolveInBodyFrames}: per body, the world-fixed load in the body frame (force,
     * moment about the origin), then the base-frame rates of force and moment re-expressed in the
     * body frame; 12 per body.
     */
    final double[] worldInBody;

    /** No load on the given compiled robot, gravity the model's. Not real-time safe: allocates the arrays. */
    public AppliedLoads(final CompiledModel model)
    {
        this.model = model;
        final int n = model.bodyCount;
        bodyWrench = new double[6 * n];
        bodyWrenchRate = new double[6 * n];
        bodyWrenchSecondRate = new double[6 * n];
        worldPoint = new double[3 * n];
        worldForce = new double[3 * n];
        worldMoment = new double[3 * n];
        worldRate = new double[6 * n];
        bodyRotation = new double[9 * n];
        bodyOrigin = new double[3 * n];
        worldInBody = new double[12 * n];
        System.arraycopy(model.gravity, 0, gravity, 0, 3);
    }

    /** Overrides the model's gravity (base frame, m/s^2) for the calls given these loads. Returns this. */
    public AppliedLoads gravity(final double gx, final double gy, final double gz)
    {
        Vec3.set(gravity, 0, gx, gy, gz);
        return this;
    }

    /**
     * Sets the body-fixed wrench applied ON a body BY the environment: force (N), then moment about
     * the body origin (N m), body frame. Returns this.
     */
    public AppliedLoads bodyWrench(
        final int body, final double fx, final double fy, final double fz, final double mx, final double my, final double mz)
    {
        SpatialAlgebra.set(bodyWrench, 6 * body, fx, fy, fz, mx, my, mz);
        bodyLoads = true;
        return this;
    }

    /** Sets d/dt of a body-fixed wrench's body-frame components: force (N/s), then moment (N m/s). Returns this. */
    public AppliedLoads bodyWrenchRate(final int body, final double... six)
    {
        System.arraycopy(six, 0, bodyWrenchRate, 6 * body, 6);
        bodyLoads = true;
        return this;
    }

    /** Sets d2/dt2 of those components: force (N/s^2), then moment (N m/s^2). Returns this. */
    public AppliedLoads bodyWrenchSecondRate(final int body, final double... six)
    {
        System.arraycopy(six, 0, bodyWrenchSecondRate, 6 * body, 6);
        bodyLoads = true;
        return this;
    }

    /**
     * Sets the world-fixed force on a body (one per body; a later call replaces it): its point of
     * application p (body frame, m) and the force f (base frame, N). Returns this.
     */
    public AppliedLoads worldForce(final int body, final double px, final double py, final double pz,
        final double fx, final double fy, final double fz)
    {
        Vec3.set(worldPoint, 3 * body, px, py, pz);
        Vec3.set(worldForce, 3 * body, fx, fy, fz);
        worldLoads = true;
        return this;
    }

    /** Sets the world-fixed pure moment on a body, base frame, N m. Returns this. */
    public AppliedLoads worldMoment(final int body, final double mx, final double my, final double mz)
    {
        Vec3.set(worldMoment, 3 * body, mx, my, mz);
        worldLoads = true;
        return this;
    }

    /** Sets d/dt of a body's world-fixed force (N/s), then moment (N m/s), base frame. Returns this. */
    public AppliedLoads worldRate(final int body, final double... six)
    {
        System.arraycopy(six, 0, worldRate, 6 * body, 6);
        worldLoads = true;
        return this;
    }

    /** Removes every wrench and rate; the gravity stays as set. Returns this. */
    public AppliedLoads clear()
    {
        Arrays.fill(bodyWrench, 0.0);
        Arrays.fill(bodyWrenchRate, 0.0);
        Arrays.fill(bodyWrenchSecondRate, 0.0);
        Arrays.fill(worldPoint, 0.0);
        Arrays.fill(worldForce, 0.0);
        Arrays.fill(worldMoment, 0.0);
        Arrays.fill(worldRate, 0.0);
        Arrays.fill(worldInBody, 0.0);
        bodyLoads = false;
        worldLoads = false;
        return this;
    }

    /** @return component axis (0-2 for x, y, z) of the gravity these loads give, base frame, m/s^2. */
    public double gravity(final int axis)
    {
        return gravity[axis];
    }

    /** @return a component of the body-fixed wrench on a body: 0-2 force (N), 3-5 moment (N m), body frame. */
    public double bodyWrench(final int body, final int component)
    {
        return bodyWrench[6 * body + component];
    }

    /** @return true if some wrench or rate is set. */
    boolean any()
    {
        return bodyLoads || worldLoads;
    }

    /**
     * For the algorithms that take body-fixed wrenches only: throws IllegalArgumentException, naming
     * the algorithm, if a world-fixed load is set.
     */
    public void requireBodyFixed(final String algorithm)
    {
        if (worldLoads)
        {
            throw new IllegalArgumentException(algorithm + " takes body-fixed wrenches only; a world-fixed force or moment is set");
        }
    }

    /**
     * Fills {@link #worldInBody} from the joint transforms at q: 0R_j ({@link JointTransforms#basePoses}), then
     * F_j = 0R_j^T F, n_j = c x F_j + 0R_j^T M, and the rates 0R_j^T Fdot, 0R_j^T Mdot.
     */
    void resolveInBodyFrames(final JointTransforms joints)
    {
        final double[] rotation = bodyRotation;
        joints.basePoses(rotation, bodyOrigin);
        for (int j = 0; j < model.bodyCount; j++)
        {
            final int t = 3 * j;
            final int w = 12 * j;
            final double[] out = worldInBody;
            Vec3.multiplyTransposed(rotation, 9 * j, worldForce, t, out, w);
            Vec3.multiplyTransposed(rotation, 9 * j, worldMoment, t, out, w + 3);
            Vec3.addCross(worldPoint, t, out, w, out, w + 3);
            Vec3.multiplyTransposed(rotation, 9 * j, worldRate, 6 * j, out, w + 6);
            Vec3.multiplyTransposed(rotation, 9 * j, worldRate, 6 * j + 3, out, w + 9);
        }
    }

    /**
     * out -= every load on the body, as a wrench in the base frame about the base origin, given every
     * body's pose in the base frame (0R, 9 per body; origin, 3 per body); scratch6 is 6 doubles.
     */
    void subtractInBase(final int body, final double[] rotation, final double[] position, final double[] scratch6,
        final double[] out, final int io)
    {
        if (bodyLoads)
        {
            SpatialAlgebra.wrenchToBase(rotation, 9 * body, position, 3 * body, bodyWrench, 6 * body, scratch6, 0);
            for (int c = 0; c < 6; c++)
            {
                out[io + c] -= scratch6[c];
            }
        }
        if (worldLoads)
        {
            // F and p x F + M, p = 0p + 0R c the point in the base frame
            final int t = 3 * body;
            Vec3.multiply(rotation, 9 * body, worldPoint, t, scratch6, 0);
            Vec3.add(position, t, scratch6, 0);
            Vec3.cross(scratch6, 0, worldForce, t, scratch6, 3);
            for (int c = 0; c < 3; c++)
            {
                out[io + c] -= worldForce[t + c];
                out[io + 3 + c] -= scratch6[3 + c] + worldMoment[t + c];
            }
        }
    }
}
