package org.nectl.transport;

import org.nectl.transport.sbe.BooleanType;
import org.nectl.transport.sbe.JointStateDecoder;
import org.nectl.transport.sbe.JointStateEncoder;

/**
 * One JointState in plain arrays: what the adapter publishes and the controller receives.
 * Arrays are sized once for the configured joint count; joint space, coordinate order of the robot
 * description; units rad, rad/s (m, m/s for prismatic joints). Theta values are motor-side
 * positions reflected through the gear to the link side.
 *
 * <p>Not thread safe: owned by one thread.
 */
public final class JointStateSample
{
    private final double[] q;
    private final double[] qd;
    private final double[] theta;
    private final double[] thetaDot;
    private long sequence;
    private long timestampNs;
    private int elasticMask;
    private short statusBits;
    private boolean baseMotionValid;
    /** Base orientation quaternion w, x, y, z, then angular velocity, angular acceleration, specific force (base frame). */
    private final double[] baseMotion = new double[BASE_MOTION_LENGTH];

    /** Length of {@link #baseMotion()}: quaternion (4), angular velocity, angular acceleration, specific force (3 each). */
    public static final int BASE_MOTION_LENGTH = 13;

    /** @param jointCount number of joints, 1..{@value Wire#MAX_JOINTS}. */
    public JointStateSample(final int jointCount)
    {
        Wire.checkJointCount(jointCount);
        q = new double[jointCount];
        qd = new double[jointCount];
        theta = new double[jointCount];
        thetaDot = new double[jointCount];
    }

    /** @return number of joints. */
    public int jointCount()
    {
        return q.length;
    }

    /** @return link-side positions, rad or m; the live array, write to fill. */
    public double[] q()
    {
        return q;
    }

    /** @return link-side velocities, rad/s or m/s; the live array. */
    public double[] qd()
    {
        return qd;
    }

    /** @return motor-side positions reflected to the link side, rad or m; the live array. */
    public double[] theta()
    {
        return theta;
    }

    /** @return motor-side velocities reflected to the link side, rad/s or m/s; the live array. */
    public double[] thetaDot()
    {
        return thetaDot;
    }

    /** @return adapter sample number. */
    public long sequence()
    {
        return sequence;
    }

    /** @param sequence adapter sample number. @return this. */
    public JointStateSample sequence(final long sequence)
    {
        this.sequence = sequence;
        return this;
    }

    /** @return host monotonic time of the encoder sample, ns. */
    public long timestampNs()
    {
        return timestampNs;
    }

    /** @param timestampNs host monotonic time of the encoder sample, ns. @return this. */
    public JointStateSample timestampNs(final long timestampNs)
    {
        this.timestampNs = timestampNs;
        return this;
    }

    /** @return bit k set: coordinate k is elastic and its theta values are measured. */
    public int elasticMask()
    {
        return elasticMask;
    }

    /** @param elasticMask bit k set: coordinate k is elastic. @return this. */
    public JointStateSample elasticMask(final int elasticMask)
    {
        this.elasticMask = elasticMask;
        return this;
    }

    /**
     * @return status bits, read with the static helpers of
     *     {@link org.nectl.transport.sbe.JointStateStatusDecoder}.
     */
    public short statusBits()
    {
        return statusBits;
    }

    /**
     * @param statusBits status bits, composed with the static helpers of
     *     {@link org.nectl.transport.sbe.JointStateStatusEncoder}.
     * @return this.
     */
    public JointStateSample statusBits(final short statusBits)
    {
        this.statusBits = statusBits;
        return this;
    }

    /**
     * @return true if the base-motion block is present (a carried base; from schema version 4), false
     *     for a fixed base or an older message.
     */
    public boolean baseMotionValid()
    {
        return baseMotionValid;
    }

    /** @param valid true to send the base-motion block, false for a fixed base. @return this. */
    public JointStateSample baseMotionValid(final boolean valid)
    {
        baseMotionValid = valid;
        return this;
    }

    /**
     * @return the base-motion block, the live array of {@value #BASE_MOTION_LENGTH}: orientation
     *     quaternion w, x, y, z of the base in the world; then, base frame, angular velocity (rad/s),
     *     angular acceleration (rad/s^2) and specific force f = R^T (a - g) (m/s^2). Meaningful while
     *     {@link #baseMotionValid()}.
     */
    public double[] baseMotion()
    {
        return baseMotion;
    }

    void encode(final JointStateEncoder encoder)
    {
        encoder.sequence(sequence).timestampNs(timestampNs).elasticMask(elasticMask & 0xFFFF_FFFFL)
            .jointCount((short)q.length);
        encoder.buffer().putShort(encoder.offset() + JointStateEncoder.statusEncodingOffset(), statusBits, Wire.BYTE_ORDER);
        for (int k = 0; k < q.length; k++)
        {
            encoder.q(k, q[k]).qd(k, qd[k]).theta(k, theta[k]).thetaDot(k, thetaDot[k]);
        }
        for (int k = q.length; k < Wire.MAX_JOINTS; k++)
        {
            encoder.q(k, 0.0).qd(k, 0.0).theta(k, 0.0).thetaDot(k, 0.0);
        }
        encoder.baseMotionValid(baseMotionValid ? BooleanType.TRUE : BooleanType.FALSE);
        for (int i = 0; i < 4; i++)
        {
            encoder.baseOrientation(i, baseMotionValid ? baseMotion[i] : 0.0);
        }
        for (int i = 0; i < 3; i++)
        {
            encoder.baseAngularVelocity(i, baseMotionValid ? baseMotion[4 + i] : 0.0)
                .baseAngularAcceleration(i, baseMotionValid ? baseMotion[7 + i] : 0.0)
                .baseSpecificForce(i, baseMotionValid ? baseMotion[10 + i] : 0.0);
        }
    }

    void decode(final JointStateDecoder decoder)
    {
        sequence = decoder.sequence();
        timestampNs = decoder.timestampNs();
        elasticMask = (int)decoder.elasticMask();
        statusBits = (short)decoder.status().getRaw();
        for (int k = 0; k < q.length; k++)
        {
            q[k] = decoder.q(k);
            qd[k] = decoder.qd(k);
            theta[k] = decoder.theta(k);
            thetaDot[k] = decoder.thetaDot(k);
        }
        baseMotionValid = decoder.actingVersion() >= JointStateDecoder.baseMotionValidSinceVersion()
            && decoder.baseMotionValid() == BooleanType.TRUE;
        if (baseMotionValid)
        {
            for (int i = 0; i < 4; i++)
            {
                baseMotion[i] = decoder.baseOrientation(i);
            }
            for (int i = 0; i < 3; i++)
            {
                baseMotion[4 + i] = decoder.baseAngularVelocity(i);
                baseMotion[7 + i] = decoder.baseAngularAcceleration(i);
                baseMotion[10 + i] = decoder.baseSpecificForce(i);
            }
        }
    }
}
