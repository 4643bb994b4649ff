package org.nectl.core.dynamics;

import org.nectl.core.model.InertialParameters;

/**
 * The bodies of a floating-base tree in base coordinates, spatial quantities about the base
 * origin, for the free-floating algorithms outside this package: {@link BaseFrameBodies} (poses,
 * joint motion subspaces S, inertias, the velocity step v_i = v_parent + S_i qd_i with
 * S_i-dot = v_i x S_i, composite inertias) started from the base's own twist rather than a base at
 * rest, plus the base body's rigid inertia [[m 1, -h^], [h^, O]] (Khalil 2010, eq. 11). The arrays
 * returned are the live workspace, to be read, not written. Not thread safe: one instance per
 * algorithm instance; every method is real-time safe except the constructor.
 */
public final class BaseFrameTree
{
    private final BaseFrameBodies bodies;
    private final double baseMass;
    private final double[] baseFirstMoment;
    private final double[] baseInertia;

    /**
     * Not real-time safe: allocates the workspace.
     *
     * @throws IllegalArgumentException for a robot with a fixed base.
     */
    public BaseFrameTree(final CompiledModel model)
    {
        if (!model.robot().floatingBase())
        {
            throw new IllegalArgumentException("robot '" + model.robot().name() + "' has a fixed base; floating-base"
                + " dynamics need a floating one (URDF floating joint or YAML base_type: floating)");
        }
        bodies = new BaseFrameBodies(model);
        final InertialParameters base = model.robot().baseInertia();
        baseMass = base.mass();
        baseFirstMoment = base.firstMoment();
        baseInertia = base.inertiaAtOrigin();
    }

    /** @return the number of bodies, the base not counted. */
    public int bodyCount()
    {
        return bodies.bodyCount;
    }

    /** @return the number of joint coordinates. */
    public int dof()
    {
        return bodies.dof;
    }

    /** @return body j's parent, -1 for the base. */
    public int parent(final int j)
    {
        return bodies.parent[j];
    }

    /** @return body j's coordinate, -1 for a fixed joint. */
    public int coordinate(final int j)
    {
        return bodies.coordinate[j];
    }

    /** @return the body that coordinate k moves. */
    public int bodyOfCoordinate(final int k)
    {
        return bodies.bodyOfCoordinate[k];
    }

    /** @return the joint motion subspaces S, base frame, 6 per body; zero for a fixed joint. */
    public double[] axis()
    {
        return bodies.axis;
    }

    /** @return the twists v_i from {@link #velocities}, base frame, about the base origin, 6 per body. */
    public double[] velocity()
    {
        return bodies.velocity;
    }

    /** @return S_i-dot = v_i x S_i from {@link #velocities}, base frame, 6 per body; zero for a fixed joint. */
    public double[] axisRate()
    {
        return bodies.axisRate;
    }

    /** @return coordinate k's rotor inertia Ia, kg m^2 or kg. */
    public double rotorInertia(final int k)
    {
        return bodies.model.rotorInertia[k];
    }

    /** @return coordinate k's friction Fs sign(qd) + Fv qd at qd (rad/s or m/s), N m or N; 0 if not enabled. */
    public double friction(final int k, final double qd, final boolean enabled)
    {
        return bodies.model.friction(k, qd, enabled);
    }

    /** Poses, joint axes and inertias in the base frame at q (rad or m). */
    public void place(final double[] q)
    {
        bodies.placements(q);
    }

    /**
     * Twists from the base's twist (base coordinates), v_i = v_parent + S_i qd_i, and
     * S_i-dot = v_i x S_i. Requires {@link #place}.
     */
    public void velocities(final double[] baseTwist, final double[] qd)
    {
        System.arraycopy(baseTwist, 0, bodies.baseVelocity, 0, 6);
        for (int i = 0; i < bodies.bodyCount; i++)
        {
            bodies.velocity(i, qd);
        }
    }

    /**
     * Subtree sums of the bodies' inertias, leaves first (Khalil 2010, eq. 95, and Featherstone 2008,
     * §6.2, with the screw transforms the identity in base coordinates). Requires {@link #place}.
     */
    public void composites()
    {
        bodies.startComposites();
        for (int i = bodies.bodyCount - 1; i >= 0; i--)
        {
            if (bodies.parent[i] >= 0)
            {
                bodies.addCompositeToParent(i, bodies.parent[i]);
            }
        }
    }

    /** out = I m for body j's rigid inertia; j = -1 is the base. Requires {@link #place}. */
    public void inertiaTimes(final int j, final double[] m, final int im, final double[] out, final int io)
    {
        if (j < 0)
        {
            SpatialAlgebra.inertiaTimes(baseMass, baseFirstMoment, 0, baseInertia, 0, m, im, out, io);
        }
        else
        {
            bodies.inertiaTimes(j, m, im, out, io);
        }
    }

    /** out = I^c m for the composite inertia of body j's subtree ({@link #composites}). */
    public void compositeTimes(final int j, final double[] m, final int im, final double[] out, final int io)
    {
        bodies.compositeInertiaTimes(j, m, im, out, io);
    }

    /** Adds body j's rigid inertia (j = -1: the base) to a full 6x6 row-major matrix at offset. Requires {@link #place}. */
    public void addInertia(final int j, final double[] matrix, final int offset)
    {
        if (j < 0)
        {
            addRigid(baseMass, baseFirstMoment, 0, baseInertia, 0, matrix, offset);
        }
        else
        {
            addRigid(bodies.mass[j], bodies.firstMoment, 3 * j, bodies.inertia, 9 * j, matrix, offset);
        }
    }

    /** Adds the composite inertia of body j's subtree ({@link #composites}) to a full 6x6 row-major matrix. */
    public void addCompositeInertia(final int j, final double[] matrix, final int offset)
    {
        addRigid(bodies.compositeMass[j], bodies.compositeFirstMoment, 3 * j, bodies.compositeInertia, 9 * j,
            matrix, offset);
    }

    /** matrix += [[mass 1, -h^], [h^, O]] (Khalil 2010, eq. 11), 6x6 row-major at offset. */
    private static void addRigid(final double bodyMass, final double[] h, final int ih, final double[] o, final int jo,
        final double[] matrix, final int offset)
    {
        final double hx = h[ih];
        final double hy = h[ih + 1];
        final double hz = h[ih + 2];
        final int a = offset;
        matrix[a] += bodyMass;
        matrix[a + 7] += bodyMass;
        matrix[a + 14] += bodyMass;
        matrix[a + 4] += hz;
        matrix[a + 5] -= hy;
        matrix[a + 9] -= hz;
        matrix[a + 11] += hx;
        matrix[a + 15] += hy;
        matrix[a + 16] -= hx;
        matrix[a + 19] -= hz;
        matrix[a + 20] += hy;
        matrix[a + 24] += hz;
        matrix[a + 26] -= hx;
        matrix[a + 30] -= hy;
        matrix[a + 31] += hx;
        for (int r = 0; r < 3; r++)
        {
            for (int c = 0; c < 3; c++)
            {
                matrix[a + 6 * (3 + r) + 3 + c] += o[jo + 3 * r + c];
            }
        }
    }
}
