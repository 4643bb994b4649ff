package org.nectl.core.control;

/**
 * Validation of per-joint feedback gains, shared by the control laws. Not real-time safe.
 */
final class JointGains
{
    private JointGains()
    {
    }

    /**
     * @param dof number of coordinates.
     * @param kp position gains.
     * @param kd velocity gains.
     * @throws IllegalArgumentException naming the joint and gain at fault.
     */
    static void check(final int dof, final double[] kp, final double[] kd)
    {
        if (kp.length != dof || kd.length != dof)
        {
            throw new IllegalArgumentException(
                "need " + dof + " position and velocity gains, got " + kp.length + " and " + kd.length);
        }
        for (int j = 0; j < dof; j++)
        {
            if (!Double.isFinite(kp[j]) || kp[j] < 0.0)
            {
                throw new IllegalArgumentException("joint " + j + ": position gain " + kp[j] + " must be finite and >= 0");
            }
            if (!Double.isFinite(kd[j]) || kd[j] < 0.0)
            {
                throw new IllegalArgumentException("joint " + j + ": velocity gain " + kd[j] + " must be finite and >= 0");
            }
        }
    }
}
