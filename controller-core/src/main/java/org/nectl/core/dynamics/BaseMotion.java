package org.nectl.core.dynamics;

/**
 * The measured motion of a carried (moving) robot base, as an IMU fixed at the base-frame origin
 * gives it, every vector in <b>base coordinates</b> (the model's frame 0, which moves with the
 * carrier): the orientation, a unit quaternion (w, x, y, z) of wR_0 (the world frame is the base
 * frame at rest, so the model's gravity is the world's); the angular velocity omega_0, rad/s; the
 * angular acceleration omegaDot_0, rad/s^2; the specific force f = 0R_w (a_0 - g) of the base
 * origin, m/s^2 (a_0 its world acceleration, g the world's gravity), what an accelerometer there
 * reads: -g at rest. f is exactly the root initial condition vdot_0 - g of the Newton-Euler forward
 * pass in base coordinates (Khalil, "Dynamic modeling of robots using recursive Newton-Euler
 * techniques", ICINCO 2010, §7), so the dynamics need neither the orientation nor the gravity
 * (docs/CONTROL.md, "Carried base"); an IMU off the origin: docs/ADAPTERS.md (lever-arm terms).
 *
 * <p>A mutable value, filled once per tick by its owner. Not thread safe. Every method is real-time
 * safe (allocates nothing) except the constructor.
 */
public final class BaseMotion
{
    /** Largest accepted | |q| - 1 | of the orientation quaternion: float32 IMU output normalised. */
    public static final double UNIT_QUATERNION_TOLERANCE = 1e-5;
    /**
     * Length of the flat form of {@link #fromBlock} and {@link #toBlock}: the orientation quaternion
     * w, x, y, z, then angular velocity, angular acceleration and specific force (3 each), the order
     * of the JointState base block (docs/PROTOCOL.md).
     */
    public static final int BLOCK_LENGTH = 13;
    /** Offsets in {@link #block} of omega_0, omegaDot_0 and f. */
    private static final int OMEGA = 4;
    private static final int OMEGA_DOT = 7;
    private static final int SPECIFIC_FORCE = 10;

    /** What {@link #validity()} finds. */
    public enum Validity
    {
        /** Every field finite, the quaternion unit. */
        VALID,
        /** A field is NaN or infinite. */
        NON_FINITE,
        /** The quaternion's norm differs from 1 by more than {@link #UNIT_QUATERNION_TOLERANCE}. */
        NON_UNIT_QUATERNION
    }

    /** Every field in the flat form's order; at rest under standard gravity along -z. */
    private final double[] block = {1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 9.81};

    /** A base at rest under standard gravity along -z: identity orientation, f = (0, 0, 9.81). */
    public BaseMotion()
    {
        // fields initialised at rest
    }

    /**
     * Resets to a base at rest under the given world gravity (m/s^2, 3 components): identity
     * orientation, zero rates, f = -g. Returns this.
     */
    public BaseMotion atRest(final double[] gravity)
    {
        orientation(1.0, 0.0, 0.0, 0.0);
        angularVelocity(0.0, 0.0, 0.0);
        angularAcceleration(0.0, 0.0, 0.0);
        return specificForce(-gravity[0], -gravity[1], -gravity[2]);
    }

    /** Sets the orientation quaternion, scalar part w first. Returns this. */
    public BaseMotion orientation(final double w, final double x, final double y, final double z)
    {
        block[0] = w;
        Vec3.set(block, 1, x, y, z);
        return this;
    }

    /** Sets omega_0, base frame, rad/s. Returns this. */
    public BaseMotion angularVelocity(final double x, final double y, final double z)
    {
        Vec3.set(block, OMEGA, x, y, z);
        return this;
    }

    /** Sets omegaDot_0, base frame, rad/s^2. Returns this. */
    public BaseMotion angularAcceleration(final double x, final double y, final double z)
    {
        Vec3.set(block, OMEGA_DOT, x, y, z);
        return this;
    }

    /** Sets the specific force f = 0R_w (a_0 - g), an accelerometer's reading at the origin, base frame, m/s^2. Returns this. */
    public BaseMotion specificForce(final double x, final double y, final double z)
    {
        Vec3.set(block, SPECIFIC_FORCE, x, y, z);
        return this;
    }

    /**
     * Sets the specific force f = 0R_w (a - g) from the base origin's world-frame acceleration a and
     * the world's gravity g (m/s^2), with the orientation already set. Returns this.
     */
    public BaseMotion worldAcceleration(final double ax, final double ay, final double az, final double[] gravity)
    {
        final double ux = ax - gravity[0];
        final double uy = ay - gravity[1];
        final double uz = az - gravity[2];
        final double w = block[0];
        final double x = block[1];
        final double y = block[2];
        final double z = block[3];
        // transpose of the rotation matrix of a unit quaternion
        block[SPECIFIC_FORCE] = (1 - 2 * (y * y + z * z)) * ux + 2 * (x * y + w * z) * uy + 2 * (x * z - w * y) * uz;
        block[SPECIFIC_FORCE + 1] = 2 * (x * y - w * z) * ux + (1 - 2 * (x * x + z * z)) * uy + 2 * (y * z + w * x) * uz;
        block[SPECIFIC_FORCE + 2] = 2 * (x * z + w * y) * ux + 2 * (y * z - w * x) * uy + (1 - 2 * (x * x + y * y)) * uz;
        return this;
    }

    /** Copies another value into this one. Returns this. */
    public BaseMotion copyFrom(final BaseMotion other)
    {
        return fromBlock(other.block);
    }

    /** Reads the flat form, {@value #BLOCK_LENGTH} values in the JointState base block's order. Returns this. */
    public BaseMotion fromBlock(final double[] block)
    {
        System.arraycopy(block, 0, this.block, 0, BLOCK_LENGTH);
        return this;
    }

    /** Writes the flat form, {@value #BLOCK_LENGTH} values in the JointState base block's order. */
    public void toBlock(final double[] block)
    {
        System.arraycopy(this.block, 0, block, 0, BLOCK_LENGTH);
    }

    /** @return whether every field is finite and the quaternion unit. */
    public Validity validity()
    {
        double sum = 0.0;
        for (final double v : block)
        {
            sum += v;
        }
        // one non-finite term makes the sum non-finite
        if (!Double.isFinite(sum * 0.0))
        {
            return Validity.NON_FINITE;
        }
        final double norm = Math.sqrt(block[0] * block[0] + block[1] * block[1] + block[2] * block[2] + block[3] * block[3]);
        return Math.abs(norm - 1.0) <= UNIT_QUATERNION_TOLERANCE ? Validity.VALID : Validity.NON_UNIT_QUATERNION;
    }

    /** @return the orientation quaternion's component i: 0 for w, 1-3 for x, y, z. */
    public double orientation(final int i)
    {
        return block[i];
    }

    /** @return component axis (0-2 for x, y, z) of omega_0, base frame, rad/s. */
    public double angularVelocity(final int axis)
    {
        return block[OMEGA + axis];
    }

    /** @return component axis (0-2 for x, y, z) of omegaDot_0, base frame, rad/s^2. */
    public double angularAcceleration(final int axis)
    {
        return block[OMEGA_DOT + axis];
    }

    /** @return component axis (0-2 for x, y, z) of the specific force f = 0R_w (a_0 - g), base frame, m/s^2. */
    public double specificForce(final int axis)
    {
        return block[SPECIFIC_FORCE + axis];
    }
}
