package org.nectl.hw.mujoco;

/**
 * Offsets, in doubles, of the exchange buffer shared with the C shim, for n coordinates (the shim
 * computes the same offsets from n). Per-coordinate arrays are in the model's coordinate order.
 *
 * <pre>
 * tau[n] | q[n] | qd[n] | qdd[n] | constraint[n] | wrench[11] | contact[4] | mass matrix[n*n]
 * </pre>
 *
 * Wrench: active (0/1), body id, force (3, world frame, N), torque (3, world frame, N m), point of
 * application (3, body frame, m). Contact: contacts at the end of the step, the largest sum of
 * contact normal forces over the substeps (N), the first substep (0-based) that ended in contact or
 * -1, the sum of normal forces at the end (N).
 */
final class ExchangeLayout
{
    static final int WRENCH_SIZE = 11;
    static final int CONTACT_SIZE = 4;

    private ExchangeLayout()
    {
    }

    static int tau(final int n)
    {
        return 0;
    }

    static int q(final int n)
    {
        return n;
    }

    static int qd(final int n)
    {
        return 2 * n;
    }

    static int qdd(final int n)
    {
        return 3 * n;
    }

    static int constraint(final int n)
    {
        return 4 * n;
    }

    static int wrench(final int n)
    {
        return 5 * n;
    }

    static int contact(final int n)
    {
        return 5 * n + WRENCH_SIZE;
    }

    static int massMatrix(final int n)
    {
        return 5 * n + WRENCH_SIZE + CONTACT_SIZE;
    }

    /** @return the buffer size, bytes. */
    static int bytes(final int n)
    {
        return Double.BYTES * (massMatrix(n) + n * n);
    }
}
