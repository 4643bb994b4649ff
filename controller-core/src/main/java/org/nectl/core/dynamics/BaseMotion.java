package org.nectl.core.dynamics;

/**
 * The measured motion of a carried (moving) robot base, as an IMU fixed at the base-frame origin
 * gives it. Every vector is expressed in <b>base coordinates</b> (the robot model's frame 0, which
 * moves with the carrier):
 * <ul>
 * <li>orientation: unit quaternion (w, x, y, z) of the base frame in the world frame, i.e. the
 * rotation wR_0 taking base components to world components; the world frame is the base frame at
 * rest, so the model's gravity vector is the world's;</li>
 * <li>angular velocity omega_0 of the base, rad/s;</li>
 * <li>angular acceleration omegaDot_0 of the base, rad/s^2;</li>
 * <li>specific force f = 0R_w (a_0 - g) of the base origin, m/s^2, where a_0 is the origin's
 * acceleration in the world and g the world's gravity: what an accelerometer at the origin reads.</li>
 * </ul>
 * The specific force is exactly the root initial condition vdot_0 - g of the Newton-Euler forward
 * pass in base coordinates (Khalil, "Dynamic modeling of robots using recursive Newton-Euler
 * techniques", ICINCO 2010, §7: the base's acceleration as initial condition, gravity entered as a
 * base acceleration), so the dynamics need neither the orientation nor the gravity vector. A base at
 * rest has f = -g (an accelerometer at rest reads +9.81 m/s^2 upwards).
 *
 * <p>An IMU not at the base origin reads f_imu = f + omegaDot x r + omega x (omega x r) at offset r;
 * the adapter subtracts the lever-arm terms before filling this value.
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
    private static final double STANDARD_GRAVITY = 9.81;

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

    private final double[] quaternion = {1.0, 0.0, 0.0, 0.0};
    private final double[] angularVelocity = new double[3];
    private final double[] angularAcceleration = new double[3];
    private final double[] specificForce = {0.0, 0.0, STANDARD_GRAVITY};

    /** A base at rest under standard gravity along -z: identity orientation, f = (0, 0, 9.81). */
    public BaseMotion()
    {
        // fields initialised at rest
    }

    /**
     * Resets to a base at rest under the given world gravity: identity orientation, zero rates,
     * f = -g. Real-time safe.
     *
     * @param gravity world gravity, m/s^2, 3 components.
     * @return this.
     */
    public BaseMotion atRest(final double[] gravity)
    {
        orientation(1.0, 0.0, 0.0, 0.0);
        angularVelocity(0.0, 0.0, 0.0);
        angularAcceleration(0.0, 0.0, 0.0);
        return specificForce(-gravity[0], -gravity[1], -gravity[2]);
    }

    /**
     * @param w scalar part.
     * @param x x of the vector part.
     * @param y y of the vector part.
     * @param z z of the vector part.
     * @return this.
     */
    public BaseMotion orientation(final double w, final double x, final double y, final double z)
    {
        quaternion[0] = w;
        quaternion[1] = x;
        quaternion[2] = y;
        quaternion[3] = z;
        return this;
    }

    /**
     * @param x base-frame x, rad/s.
     * @param y base-frame y, rad/s.
     * @param z base-frame z, rad/s.
     * @return this.
     */
    public BaseMotion angularVelocity(final double x, final double y, final double z)
    {
        Vec3.set(angularVelocity, 0, x, y, z);
        return this;
    }

    /**
     * @param x base-frame x, rad/s^2.
     * @param y base-frame y, rad/s^2.
     * @param z base-frame z, rad/s^2.
     * @return this.
     */
    public BaseMotion angularAcceleration(final double x, final double y, final double z)
    {
        Vec3.set(angularAcceleration, 0, x, y, z);
        return this;
    }

    /**
     * Sets the specific force f = 0R_w (a_0 - g), as an accelerometer at the base origin reads it.
     *
     * @param x base-frame x, m/s^2.
     * @param y base-frame y, m/s^2.
     * @param z base-frame z, m/s^2.
     * @return this.
     */
    public BaseMotion specificForce(final double x, final double y, final double z)
    {
        Vec3.set(specificForce, 0, x, y, z);
        return this;
    }

    /**
     * Sets the specific force from the origin's world acceleration and the world's gravity, using
     * the orientation already set: f = 0R_w (a - g).
     *
     * @param acceleration world-frame acceleration of the base origin, m/s^2, 3 components.
     * @param gravity world gravity, m/s^2, 3 components.
     * @return this.
     */
    public BaseMotion worldAcceleration(final double[] acceleration, final double[] gravity)
    {
        return worldAcceleration(acceleration[0], acceleration[1], acceleration[2], gravity);
    }

    /**
     * As {@link #worldAcceleration(double[], double[])}, the acceleration by components.
     *
     * @param ax world-frame x of the origin's acceleration, m/s^2.
     * @param ay world-frame y, m/s^2.
     * @param az world-frame z, m/s^2.
     * @param gravity world gravity, m/s^2, 3 components.
     * @return this.
     */
    public BaseMotion worldAcceleration(final double ax, final double ay, final double az, final double[] gravity)
    {
        final double ux = ax - gravity[0];
        final double uy = ay - gravity[1];
        final double uz = az - gravity[2];
        final double w = quaternion[0];
        final double x = quaternion[1];
        final double y = quaternion[2];
        final double z = quaternion[3];
        // transpose of the rotation matrix of a unit quaternion
        specificForce[0] = (1 - 2 * (y * y + z * z)) * ux + 2 * (x * y + w * z) * uy + 2 * (x * z - w * y) * uz;
        specificForce[1] = 2 * (x * y - w * z) * ux + (1 - 2 * (x * x + z * z)) * uy + 2 * (y * z + w * x) * uz;
        specificForce[2] = 2 * (x * z + w * y) * ux + 2 * (y * z - w * x) * uy + (1 - 2 * (x * x + y * y)) * uz;
        return this;
    }

    /**
     * Copies another value into this one.
     *
     * @param other the source.
     * @return this.
     */
    public BaseMotion copyFrom(final BaseMotion other)
    {
        System.arraycopy(other.quaternion, 0, quaternion, 0, 4);
        System.arraycopy(other.angularVelocity, 0, angularVelocity, 0, 3);
        System.arraycopy(other.angularAcceleration, 0, angularAcceleration, 0, 3);
        System.arraycopy(other.specificForce, 0, specificForce, 0, 3);
        return this;
    }

    /**
     * Reads the flat form, {@value #BLOCK_LENGTH} values in the JointState base block's order.
     *
     * @param block quaternion w, x, y, z, angular velocity, angular acceleration, specific force.
     * @return this.
     */
    public BaseMotion fromBlock(final double[] block)
    {
        System.arraycopy(block, 0, quaternion, 0, 4);
        System.arraycopy(block, 4, angularVelocity, 0, 3);
        System.arraycopy(block, 7, angularAcceleration, 0, 3);
        System.arraycopy(block, 10, specificForce, 0, 3);
        return this;
    }

    /**
     * Writes the flat form, {@value #BLOCK_LENGTH} values in the JointState base block's order.
     *
     * @param block receives quaternion w, x, y, z, angular velocity, angular acceleration, specific force.
     */
    public void toBlock(final double[] block)
    {
        System.arraycopy(quaternion, 0, block, 0, 4);
        System.arraycopy(angularVelocity, 0, block, 4, 3);
        System.arraycopy(angularAcceleration, 0, block, 7, 3);
        System.arraycopy(specificForce, 0, block, 10, 3);
    }

    /** @return whether every field is finite and the quaternion unit. */
    public Validity validity()
    {
        double sum = 0.0;
        for (int i = 0; i < 4; i++)
        {
            sum += quaternion[i];
        }
        for (int i = 0; i < 3; i++)
        {
            sum += angularVelocity[i] + angularAcceleration[i] + specificForce[i];
        }
        // one non-finite term makes the sum non-finite
        if (!Double.isFinite(sum * 0.0))
        {
            return Validity.NON_FINITE;
        }
        final double norm = Math.sqrt(quaternion[0] * quaternion[0] + quaternion[1] * quaternion[1]
            + quaternion[2] * quaternion[2] + quaternion[3] * quaternion[3]);
        return Math.abs(norm - 1.0) <= UNIT_QUATERNION_TOLERANCE ? Validity.VALID : Validity.NON_UNIT_QUATERNION;
    }

    /**
     * @param i 0 for w, 1-3 for x, y, z.
     * @return that component of the orientation quaternion.
     */
    public double orientation(final int i)
    {
        return quaternion[i];
    }

    /**
     * @param axis 0, 1 or 2 for base-frame x, y, z.
     * @return that component of omega_0, rad/s.
     */
    public double angularVelocity(final int axis)
    {
        return angularVelocity[axis];
    }

    /**
     * @param axis 0, 1 or 2 for base-frame x, y, z.
     * @return that component of omegaDot_0, rad/s^2.
     */
    public double angularAcceleration(final int axis)
    {
        return angularAcceleration[axis];
    }

    /**
     * @param axis 0, 1 or 2 for base-frame x, y, z.
     * @return that component of the specific force f = 0R_w (a_0 - g), m/s^2.
     */
    public double specificForce(final int axis)
    {
        return specificForce[axis];
    }
}
