package org.nectl.transport;

import org.nectl.transport.sbe.BooleanType;
import org.nectl.transport.sbe.DriveMode;
import org.nectl.transport.sbe.MotorCommandDecoder;
import org.nectl.transport.sbe.MotorCommandEncoder;

/**
 * One MotorCommand in plain arrays: what the controller publishes each tick and the adapter
 * receives. Efforts are link-side, N·m (N for prismatic joints), joint space.
 *
 * <p>Not thread safe: owned by one thread.
 */
public final class MotorCommandSample
{
    private final double[] tau;
    private long sequence;
    private long timestampNs;
    private long jointStateSequence;
    private DriveMode mode = DriveMode.ZERO_TORQUE;
    private boolean enable;

    /** @param motorCount number of motors, 1..{@value Wire#MAX_JOINTS}. */
    public MotorCommandSample(final int motorCount)
    {
        Wire.checkJointCount(motorCount);
        tau = new double[motorCount];
    }

    /** @return number of motors. */
    public int motorCount()
    {
        return tau.length;
    }

    /** @return link-side efforts per motor, N·m or N; the live array, write to fill. */
    public double[] tau()
    {
        return tau;
    }

    /** @return controller tick number. */
    public long sequence()
    {
        return sequence;
    }

    /** @param sequence controller tick number. @return this. */
    public MotorCommandSample sequence(final long sequence)
    {
        this.sequence = sequence;
        return this;
    }

    /** @return host monotonic time at the start of the tick, ns. */
    public long timestampNs()
    {
        return timestampNs;
    }

    /** @param timestampNs host monotonic time at the start of the tick, ns. @return this. */
    public MotorCommandSample timestampNs(final long timestampNs)
    {
        this.timestampNs = timestampNs;
        return this;
    }

    /** @return sequence of the JointState the command was computed from. */
    public long jointStateSequence()
    {
        return jointStateSequence;
    }

    /** @param jointStateSequence sequence of the JointState used. @return this. */
    public MotorCommandSample jointStateSequence(final long jointStateSequence)
    {
        this.jointStateSequence = jointStateSequence;
        return this;
    }

    /** @return what the drives do with tau. */
    public DriveMode mode()
    {
        return mode;
    }

    /** @param mode what the drives do with tau. @return this. */
    public MotorCommandSample mode(final DriveMode mode)
    {
        this.mode = mode;
        return this;
    }

    /** @return true if the drives are to be powered. */
    public boolean enable()
    {
        return enable;
    }

    /** @param enable true to power the drives. @return this. */
    public MotorCommandSample enable(final boolean enable)
    {
        this.enable = enable;
        return this;
    }

    void encode(final MotorCommandEncoder encoder)
    {
        encoder.sequence(sequence).timestampNs(timestampNs).jointStateSequence(jointStateSequence)
            .motorCount((short)tau.length).mode(mode).enable(enable ? BooleanType.TRUE : BooleanType.FALSE);
        for (int k = 0; k < tau.length; k++)
        {
            encoder.tau(k, tau[k]);
        }
        for (int k = tau.length; k < Wire.MAX_JOINTS; k++)
        {
            encoder.tau(k, 0.0);
        }
    }

    /** @return false if the mode or enable byte is not a valid value; the sample is then unchanged. */
    boolean decode(final MotorCommandDecoder decoder)
    {
        final short modeRaw = decoder.modeRaw();
        final short enableRaw = decoder.enableRaw();
        if (modeRaw < DriveMode.TORQUE.value() || modeRaw > DriveMode.BRAKE.value()
            || enableRaw > BooleanType.TRUE.value())
        {
            return false;
        }
        sequence = decoder.sequence();
        timestampNs = decoder.timestampNs();
        jointStateSequence = decoder.jointStateSequence();
        mode = DriveMode.get(modeRaw);
        enable = enableRaw == BooleanType.TRUE.value();
        for (int k = 0; k < tau.length; k++)
        {
            tau[k] = decoder.tau(k);
        }
        return true;
    }
}
