package org.nectl.hw.mujoco;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

import org.nectl.config.urdf.UrdfWriter;
import org.nectl.core.model.RobotModel;
import org.nectl.core.simulation.ArmSimulator;

/**
 * A robot arm simulated by MuJoCo (the Debian build of MuJoCo 2.2.x through a JNI shim): the
 * robot loaded by MuJoCo's own URDF importer from the robot's description (a URDF as it is; a YAML
 * description as nectl's URDF export of it), integrated by MuJoCo's classical Runge-Kutta 4
 * ({@code mjINT_RK4}) at a timestep of period / substeps, with joint damping and Coulomb friction
 * as MuJoCo reads them from {@code <dynamics damping friction>} (damping as a passive force,
 * friction as MuJoCo's frictionloss constraint), rotor inertia as joint armature, joint position
 * limits as MuJoCo's limit constraints, and contacts between the scene's obstacles and the robot's
 * collision shapes (docs/ADAPTERS.md, "The MuJoCo plant").
 *
 * <p>Commands and states are per coordinate in nectl's coordinate order, mapped to MuJoCo's dofs by
 * joint name. One {@link #step} is one JNI call over a preallocated direct buffer: it allocates
 * nothing.
 *
 * <p>Not thread safe: one thread owns a plant. {@link #torque}, {@link #step}, {@link #stepBraked}
 * and the state accessors are real-time safe; the rest is not. Close it to free MuJoCo's model.
 */
public final class MujocoPlant implements AutoCloseable
{
    /** {@link #options} flag: no constraints at all (contacts, joint limits, friction loss). */
    public static final int DISABLE_CONSTRAINTS = 1;
    /** {@link #options} flag: no passive forces (joint damping). */
    public static final int DISABLE_PASSIVE = 1 << 5;
    /** MuJoCo's mjINT_RK4. */
    private static final int INTEGRATOR_RK4 = 1;
    private static final int GEOM_BOX = 6;

    private final int dof;
    private final long handle;
    private final DoubleBuffer io;
    private final int wrenchBody;
    private final MujocoScene.WrenchProfile wrench;
    private final int tauAt;
    private final int qAt;
    private final int qdAt;
    private final int qddAt;
    private final int constraintAt;
    private final int wrenchAt;
    private final int contactAt;
    private final int massMatrixAt;
    private final String description;
    private final int droppedMeshCollisions;
    private long periodNs = 1_000_000L;
    private int substeps = 4;
    private long stepCount;
    private boolean closed;

    private MujocoPlant(final RobotModel model, final long handle, final MujocoScene scene, final String description,
        final int droppedMeshCollisions)
    {
        this.handle = handle;
        this.description = description;
        this.droppedMeshCollisions = droppedMeshCollisions;
        dof = model.dof();
        final ByteBuffer exchange = ByteBuffer.allocateDirect(ExchangeLayout.bytes(dof)).order(ByteOrder.nativeOrder());
        io = exchange.asDoubleBuffer();
        tauAt = ExchangeLayout.tau(dof);
        qAt = ExchangeLayout.q(dof);
        qdAt = ExchangeLayout.qd(dof);
        qddAt = ExchangeLayout.qdd(dof);
        constraintAt = ExchangeLayout.constraint(dof);
        wrenchAt = ExchangeLayout.wrench(dof);
        contactAt = ExchangeLayout.contact(dof);
        massMatrixAt = ExchangeLayout.massMatrix(dof);
        MujocoNative.bind(handle, exchange, dofMap(model));
        wrench = scene.wrench().orElse(null);
        wrenchBody = wrench == null ? -1 : wrenchBody(wrench);
        makePlanes(scene);
        options(periodNs, substeps, new double[] {0.0, 0.0, -9.81}, 0, model);
    }

    /**
     * Loads the robot and the scene into MuJoCo; at rest at q = 0, time 0, 1 ms period of 4
     * substeps, gravity (0, 0, -9.81), everything enabled.
     *
     * @param descriptionFile the robot description nectl loaded {@code model} from (.urdf, or a
     *     YAML description, which is handed to MuJoCo as nectl's URDF export of the model).
     * @param model nectl's model of the same file: coordinate order and rotor inertia.
     * @param scene obstacles, collision shapes on links, external wrench.
     * @return the plant.
     * @throws IllegalArgumentException if MuJoCo rejects the model (its message, and the path of the
     *     copy it read, kept for inspection), or the scene names links the model does not have, or
     *     the robot has joints MuJoCo models differently.
     * @throws IllegalStateException if the MuJoCo shim or MuJoCo itself is not installed.
     */
    public static MujocoPlant open(final Path descriptionFile, final RobotModel model, final MujocoScene scene)
    {
        MujocoLibrary.load();
        try
        {
            final String urdf = descriptionFile.toString().toLowerCase(Locale.ROOT).endsWith(".urdf")
                ? Files.readString(descriptionFile, StandardCharsets.UTF_8) : UrdfWriter.write(model);
            final Path directory = Files.createTempDirectory("nectl-mujoco");
            final Path copy = directory.resolve("robot.urdf");
            final int droppedMeshes = ScratchUrdf.write(urdf, scene, copy);
            final long handle;
            try
            {
                handle = MujocoNative.load(copy.toString());
            }
            catch (final IllegalArgumentException e)
            {
                throw new IllegalArgumentException("MuJoCo cannot load " + descriptionFile + " (line numbers refer to its copy "
                    + copy + ", kept): " + e.getMessage().replace('\n', ' ').trim(), e);
            }
            Files.delete(copy);
            Files.delete(directory);
            try
            {
                return new MujocoPlant(model, handle, scene, descriptionFile.toString(), droppedMeshes);
            }
            catch (final RuntimeException e)
            {
                MujocoNative.free(handle);
                throw e;
            }
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException("cannot prepare " + descriptionFile + " for MuJoCo: " + e.getMessage(), e);
        }
    }

    /** @return the version of the MuJoCo library in use. */
    public static String engineVersion()
    {
        MujocoLibrary.load();
        return MujocoNative.version();
    }

    /**
     * Sets the integration and the physics. Not real-time safe.
     *
     * @param periodNs one {@link #step}, ns, positive.
     * @param substeps MuJoCo RK4 steps per period, at least 1: timestep = period / substeps.
     * @param gravity gravity in the world (base) frame, m/s^2.
     * @param disableFlags {@link #DISABLE_CONSTRAINTS}, {@link #DISABLE_PASSIVE}, or 0.
     * @param model the plant's model: its rotor inertias become the joint armature.
     * @return this.
     */
    public MujocoPlant options(final long periodNs, final int substeps, final double[] gravity, final int disableFlags, final RobotModel model)
    {
        if (periodNs <= 0 || substeps < 1)
        {
            throw new IllegalArgumentException("period must be positive and substeps at least 1, got " + periodNs + " ns, " + substeps);
        }
        this.periodNs = periodNs;
        this.substeps = substeps;
        final double[] armature = new double[dof];
        for (int k = 0; k < dof; k++)
        {
            armature[k] = model.actuation(k).rotorInertia();
        }
        MujocoNative.options(handle, periodNs * 1e-9 / substeps, INTEGRATOR_RK4, gravity.clone(), disableFlags, armature);
        return this;
    }

    /** @return mesh collision shapes of the description left out (MuJoCo cannot resolve their files from its copy). */
    public int droppedMeshCollisions()
    {
        return droppedMeshCollisions;
    }

    /** @return number of coordinates. */
    public int dof()
    {
        return dof;
    }

    /** @return the period one {@link #step} integrates, ns. */
    public long periodNs()
    {
        return periodNs;
    }

    /** @return MuJoCo steps per period. */
    public int substeps()
    {
        return substeps;
    }

    /**
     * Sets the state and restarts time at 0. Not real-time safe.
     *
     * @param q positions by coordinate.
     * @param qd velocities by coordinate.
     */
    public void reset(final double[] q, final double[] qd)
    {
        put(qAt, q);
        put(qdAt, qd);
        MujocoNative.setState(handle);
        stepCount = 0;
    }

    /**
     * Sets the joint torques applied from the next {@link #step} on. Real-time safe.
     *
     * @param tauNm per coordinate, N m or N.
     */
    public void torque(final double[] tauNm)
    {
        put(tauAt, tauNm);
    }

    /**
     * Integrates one period under the torques (held over the period) and, while its profile is on,
     * the scene's wrench (evaluated at the start of the period). Real-time safe: allocates nothing.
     *
     * @return {@link ArmSimulator#STEP_OK}, or {@link ArmSimulator#STEP_NON_FINITE} for a non-finite
     *     torque (state unchanged), a state MuJoCo found non-finite, or a MuJoCo error (the plant is
     *     then dead).
     */
    public int step()
    {
        for (int k = 0; k < dof; k++)
        {
            if (!Double.isFinite(io.get(tauAt + k)))
            {
                return ArmSimulator.STEP_NON_FINITE;
            }
        }
        writeWrench();
        final int result = MujocoNative.step(handle, substeps);
        stepCount++;
        return result == MujocoNative.OK ? ArmSimulator.STEP_OK : ArmSimulator.STEP_NON_FINITE;
    }

    /** Advances one period with every joint held by its brake: velocities zero, positions kept. Real-time safe. */
    public void stepBraked()
    {
        MujocoNative.zeroVelocity(handle);
        stepCount++;
    }

    /** @param out receives q by coordinate. Real-time safe. */
    public void positions(final double[] out)
    {
        get(qAt, out);
    }

    /** @param out receives qd by coordinate. Real-time safe. */
    public void velocities(final double[] out)
    {
        get(qdAt, out);
    }

    /**
     * @param out receives MuJoCo's generalised constraint force at the start of the last substep by
     *     coordinate (contacts, joint limits, friction loss), N m or N. Real-time safe.
     */
    public void constraintForces(final double[] out)
    {
        get(constraintAt, out);
    }

    /** @return contacts at the end of the last period. Real-time safe. */
    public int contactCount()
    {
        return (int)io.get(contactAt);
    }

    /** @return the largest sum of contact normal forces over the substeps of the last period, N. Real-time safe. */
    public double peakContactForceN()
    {
        return io.get(contactAt + 1);
    }

    /** @return the first substep of the last period that saw a contact (0-based), or -1. Real-time safe. */
    public int firstContactSubstep()
    {
        return (int)io.get(contactAt + 2);
    }

    /** @return periods integrated (or braked) since the last {@link #reset}. */
    public long stepCount()
    {
        return stepCount;
    }

    /** @return simulated time, ns: stepCount * period. */
    public long timeNs()
    {
        return stepCount * periodNs;
    }

    /**
     * MuJoCo's inverse dynamics (mj_inverse): the generalised force that gives qdd at q, qd, with
     * whatever the options leave enabled. Not real-time safe (not meant for the loop).
     *
     * @param q positions.
     * @param qd velocities.
     * @param qdd accelerations.
     * @param tauOut receives the forces by coordinate.
     */
    public void inverseDynamics(final double[] q, final double[] qd, final double[] qdd, final double[] tauOut)
    {
        put(qAt, q);
        put(qdAt, qd);
        put(qddAt, qdd);
        MujocoNative.inverse(handle);
        get(tauAt, tauOut);
    }

    /**
     * MuJoCo's forward dynamics (mj_forward's qacc) under applied forces tau.
     *
     * @param q positions.
     * @param qd velocities.
     * @param tau applied generalised forces.
     * @param qddOut receives the accelerations.
     */
    public void forwardDynamics(final double[] q, final double[] qd, final double[] tau, final double[] qddOut)
    {
        put(qAt, q);
        put(qdAt, qd);
        put(tauAt, tau);
        MujocoNative.forward(handle);
        get(qddAt, qddOut);
    }

    /**
     * MuJoCo's joint-space inertia (mj_fullM, armature included).
     *
     * @param q positions.
     * @param out receives the n x n matrix, row-major, coordinate order.
     */
    public void massMatrix(final double[] q, final double[] out)
    {
        put(qAt, q);
        MujocoNative.massMatrix(handle);
        for (int i = 0; i < dof * dof; i++)
        {
            out[i] = io.get(massMatrixAt + i);
        }
    }

    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            MujocoNative.free(handle);
        }
    }

    @Override
    public String toString()
    {
        return "MuJoCo " + MujocoNative.version() + " plant of " + description;
    }

    private void writeWrench()
    {
        if (wrench == null)
        {
            return;
        }
        final double scale = wrench.scale(stepCount * periodNs * 1e-9);
        io.put(wrenchAt, scale > 0.0 ? 1.0 : 0.0);
        io.put(wrenchAt + 1, wrenchBody);
        for (int i = 0; i < 3; i++)
        {
            io.put(wrenchAt + 2 + i, scale * wrench.forceN()[i]);
            io.put(wrenchAt + 5 + i, scale * wrench.torqueNm()[i]);
            io.put(wrenchAt + 8 + i, wrench.pointM()[i]);
        }
    }

    private int[] dofMap(final RobotModel model)
    {
        final int[] counts = new int[5];
        MujocoNative.counts(handle, counts);
        final int[] dofs = new int[dof];
        for (int k = 0; k < dof; k++)
        {
            final String joint = model.coordinateName(k);
            dofs[k] = MujocoNative.jointDof(handle, joint);
            if (dofs[k] < 0)
            {
                throw new IllegalArgumentException("MuJoCo's model of " + description + (dofs[k] == -1 ? " has no joint '" + joint + "'"
                    : " made joint '" + joint + "' neither a hinge nor a slide"));
            }
        }
        if (counts[0] != dof || counts[1] != dof)
        {
            throw new IllegalArgumentException("MuJoCo's model of " + description + " has " + counts[1] + " degrees of freedom, nectl's "
                + dof);
        }
        return dofs;
    }

    private int wrenchBody(final MujocoScene.WrenchProfile profile)
    {
        final int body = MujocoNative.bodyId(handle, profile.link());
        if (body <= 0)
        {
            throw profile.error("link '" + profile.link() + "' is not a body of MuJoCo's model (a link fixed to its parent is "
                + "fused into the parent): name the nearest moving link and give the point in its frame");
        }
        return body;
    }

    private void makePlanes(final MujocoScene scene)
    {
        final int[] counts = new int[5];
        MujocoNative.counts(handle, counts);
        final boolean[] used = new boolean[counts[3]];
        final double[] geom = new double[11];
        for (final MujocoScene.Shape obstacle : scene.obstacles())
        {
            if (obstacle.kind() != MujocoScene.Kind.PLANE)
            {
                continue;
            }
            int found = -1;
            for (int g = 0; g < counts[3] && found < 0; g++)
            {
                MujocoNative.geom(handle, g, geom);
                if (!used[g] && isPlaneMarker(geom, obstacle.position()))
                {
                    found = g;
                }
            }
            if (found < 0)
            {
                throw new IllegalStateException("the plane at " + Arrays.toString(obstacle.position())
                    + " is missing from MuJoCo's compiled model");
            }
            used[found] = true;
            MujocoNative.makePlane(handle, found);
        }
    }

    private static boolean isPlaneMarker(final double[] geom, final double[] position)
    {
        boolean match = geom[0] == GEOM_BOX && geom[1] == 0;
        for (int i = 0; i < 3; i++)
        {
            match &= Math.abs(geom[2 + i] - ScratchUrdf.PLANE_MARKER_SIZE[i] / 2) < 1e-12;
            match &= Math.abs(geom[5 + i] - position[i]) < 1e-9;
        }
        return match;
    }

    private void put(final int offset, final double[] values)
    {
        for (int k = 0; k < dof; k++)
        {
            io.put(offset + k, values[k]);
        }
    }

    private void get(final int offset, final double[] out)
    {
        for (int k = 0; k < dof; k++)
        {
            out[k] = io.get(offset + k);
        }
    }
}
