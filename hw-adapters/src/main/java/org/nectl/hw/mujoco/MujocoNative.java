package org.nectl.hw.mujoco;

import java.nio.ByteBuffer;

/**
 * The JNI entry points of the C shim over MuJoCo's C API ({@code src/main/c/nectl_mujoco.c}). A
 * handle is the address of the shim's plant: one mjModel, one mjData, the coordinate map and the
 * bound exchange buffer. Per-step calls move no arrays across JNI: inputs and outputs live in the
 * direct buffer bound by {@link #bind}, laid out as {@link ExchangeLayout} says. Not thread safe:
 * one thread per handle.
 */
final class MujocoNative
{
    /** {@link #step} result: integrated. */
    static final int OK = 0;
    /** {@link #step} result: MuJoCo found a non-finite acceleration or state (and reset its data). */
    static final int NON_FINITE = 2;
    /** {@link #step} result: MuJoCo reported an error; the plant must not be stepped again. */
    static final int ENGINE_ERROR = 3;

    private MujocoNative()
    {
    }

    /** @return MuJoCo's version string, e.g. {@code 2.2.2}. */
    static native String version();

    /**
     * Loads and compiles a model file (MJCF or URDF) with MuJoCo's own parser. Not real-time safe.
     *
     * @param path the file.
     * @return the plant handle.
     * @throws IllegalArgumentException with MuJoCo's message if the file does not load.
     */
    static native long load(String path);

    /** Frees the model, data and shim state of a handle. */
    static native void free(long handle);

    /**
     * @param handle the plant.
     * @param out receives nq, nv, nbody, ngeom, njnt.
     */
    static native void counts(long handle, int[] out);

    /**
     * @param handle the plant.
     * @param name joint name.
     * @return the joint's dof address; -1 if there is no such joint, -2 if it is not a hinge or slide.
     */
    static native int jointDof(long handle, String name);

    /**
     * @param handle the plant.
     * @param name body name.
     * @return the body id, or -1.
     */
    static native int bodyId(long handle, String name);

    /**
     * @param handle the plant.
     * @param geom geom id.
     * @param out receives type, body id, size (3), position (3) and orientation quaternion (4) in the body frame.
     */
    static native void geom(long handle, int geom, double[] out);

    /**
     * Turns a compiled geom into an infinite plane whose normal is its local z axis.
     *
     * @param handle the plant.
     * @param geom geom id.
     */
    static native void makePlane(long handle, int geom);

    /**
     * Sets the simulation options and the joint armature. Not real-time safe.
     *
     * @param handle the plant.
     * @param timestepS integrator step, s.
     * @param integrator mjINT_EULER (0) or mjINT_RK4 (1).
     * @param gravity gravity vector in the world frame, m/s^2 (3).
     * @param disableFlags mjDSBL_* bits.
     * @param armature per coordinate, kg m^2 or kg.
     */
    static native void options(long handle, double timestepS, int integrator, double[] gravity, int disableFlags, double[] armature);

    /**
     * Binds the exchange buffer and the coordinate map. Not real-time safe.
     *
     * @param handle the plant.
     * @param exchange direct, native byte order, {@link ExchangeLayout#bytes} long.
     * @param dofOfCoordinate MuJoCo dof address of each coordinate.
     */
    static native void bind(long handle, ByteBuffer exchange, int[] dofOfCoordinate);

    /**
     * Applies the torques and the wrench in the buffer and integrates {@code substeps} MuJoCo steps;
     * writes q, qd, the constraint forces and the contact summary back. Real-time safe.
     *
     * @param handle the plant.
     * @param substeps MuJoCo steps.
     * @return {@link #OK}, {@link #NON_FINITE} or {@link #ENGINE_ERROR}.
     */
    static native int step(long handle, int substeps);

    /** Sets every joint velocity to zero (the brakes hold). Real-time safe. */
    static native void zeroVelocity(long handle);

    /** Sets q, qd from the buffer and runs mj_forward. */
    static native void setState(long handle);

    /** mj_inverse at q, qd, qdd of the buffer; writes the generalised forces into tau. */
    static native void inverse(long handle);

    /** mj_forward at q, qd with tau as applied force; writes qacc into qdd. */
    static native void forward(long handle);

    /** The joint-space inertia (mj_fullM, armature included) at q of the buffer, into the mass-matrix slot. */
    static native void massMatrix(long handle);
}
