package org.nectl.core.closedloop;

import org.nectl.core.dynamics.CompiledModel;

/**
 * Integrates the closed-chain dynamics of a {@link ClosedLoopModel} in its active coordinates by
 * coordinate partitioning (Wehage and Haug, "Generalized coordinate partitioning for dimension
 * reduction in analysis of constrained dynamic systems", ASME J. Mech. Des., 1982): the state is
 * (q_a, qd_a); each classical Runge-Kutta stage solves the passive joints from the active ones by
 * Newton (from the last solution) and evaluates q_a'' by {@link ClosedLoopDynamics#forwardDynamics}.
 * The passive joints never drift: after every step the loops are closed to Newton's tolerance
 * ({@link LoopGeometry#TOLERANCE}), and the passive velocities are G qd_a, exactly on the velocity
 * constraint. Torques are held over the step.
 *
 * <p>Not thread safe; {@link #step} is real-time safe (allocates nothing).
 */
public final class ClosedLoopSimulator
{
    /** {@link #step} result: the step was taken. */
    public static final int OK = 0;
    /** {@link #step} result: Newton failed or a matrix was singular; the state is unchanged. */
    public static final int FAILED = 1;
    /** Runge-Kutta stage offsets as fractions of the step. */
    private static final double[] STAGE = {0.0, 0.5, 0.5, 1.0};

    private final ClosedLoopModel model;
    private final ClosedLoopDynamics dynamics;
    private final LoopGeometry geometry;
    private final int na;
    private final double[] q;
    private final double[] qdActive;
    private final double[] trial;
    private final double[] startActive;
    private final double[] stageVelocity;
    private final double[][] k;
    private final double[][] kv;

    /**
     * Not real-time safe: allocates the state and workspace; starts at home, at rest.
     *
     * @param model the closed-loop robot.
     */
    public ClosedLoopSimulator(final ClosedLoopModel model)
    {
        this.model = model;
        dynamics = new ClosedLoopDynamics(model, CompiledModel.of(model.tree()));
        geometry = new LoopGeometry(model);
        na = model.activeCount();
        q = model.home();
        qdActive = new double[na];
        trial = new double[q.length];
        startActive = new double[na];
        stageVelocity = new double[na];
        k = new double[4][na];
        kv = new double[4][na];
    }

    /** @return the dynamics used, for gravity and friction settings. */
    public ClosedLoopDynamics dynamics()
    {
        return dynamics;
    }

    /**
     * Sets the state. Not real-time safe only in that it may iterate Newton to close the loops.
     *
     * @param activePositions q_a.
     * @param activeVelocities qd_a.
     * @return {@link LoopGeometry#CONVERGED} or the failure code; the state is set only when converged.
     */
    public int reset(final double[] activePositions, final double[] activeVelocities)
    {
        System.arraycopy(q, 0, trial, 0, q.length);
        for (int a = 0; a < na; a++)
        {
            trial[model.activeCoordinate(a)] = activePositions[a];
        }
        final int status = geometry.solvePassive(trial);
        if (status == LoopGeometry.CONVERGED)
        {
            System.arraycopy(trial, 0, q, 0, q.length);
            System.arraycopy(activeVelocities, 0, qdActive, 0, na);
        }
        return status;
    }

    /**
     * One classical Runge-Kutta step of the active coordinates, the passive ones projected onto the
     * loops at every stage. Real-time safe.
     *
     * @param dt step, s.
     * @param gammaActive active joint torques or forces, held over the step.
     * @return {@link #OK} or {@link #FAILED} (state unchanged).
     */
    public int step(final double dt, final double[] gammaActive)
    {
        for (int a = 0; a < na; a++)
        {
            startActive[a] = q[model.activeCoordinate(a)];
        }
        System.arraycopy(q, 0, trial, 0, q.length);
        for (int s = 0; s < 4; s++)
        {
            for (int a = 0; a < na; a++)
            {
                final double h = STAGE[s] * dt;
                trial[model.activeCoordinate(a)] = startActive[a] + (s == 0 ? 0.0 : h * kv[s - 1][a]);
                stageVelocity[a] = qdActive[a] + (s == 0 ? 0.0 : h * k[s - 1][a]);
            }
            if (geometry.solvePassive(trial) != LoopGeometry.CONVERGED
                || !dynamics.forwardDynamics(trial, stageVelocity, gammaActive, k[s]))
            {
                return FAILED;
            }
            System.arraycopy(stageVelocity, 0, kv[s], 0, na);
        }
        for (int a = 0; a < na; a++)
        {
            trial[model.activeCoordinate(a)] = startActive[a]
                + dt / 6.0 * (kv[0][a] + 2.0 * kv[1][a] + 2.0 * kv[2][a] + kv[3][a]);
        }
        if (geometry.solvePassive(trial) != LoopGeometry.CONVERGED)
        {
            return FAILED;
        }
        System.arraycopy(trial, 0, q, 0, q.length);
        for (int a = 0; a < na; a++)
        {
            qdActive[a] += dt / 6.0 * (k[0][a] + 2.0 * k[1][a] + 2.0 * k[2][a] + k[3][a]);
        }
        return OK;
    }

    /** @return tree positions (loops closed), the array itself: do not modify. */
    public double[] treePositions()
    {
        return q;
    }

    /** @return active velocities, the array itself: do not modify. */
    public double[] activeVelocities()
    {
        return qdActive;
    }

    /**
     * Tree velocities G qd_a at the current state. Real-time safe.
     *
     * @param qdTree output, every tree coordinate.
     */
    public void treeVelocities(final double[] qdTree)
    {
        geometry.update(q);
        geometry.treeVelocities(qdActive, qdTree);
    }

    /** @return the largest closure residual (every candidate equation) at the current positions, m or rad. */
    public double closureResidual()
    {
        geometry.update(q);
        return geometry.closureResidual();
    }
}
