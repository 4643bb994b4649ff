package org.nectl.hw;

import org.nectl.core.dynamics.BaseMotion;

/**
 * The physics of a {@link SimulatedArm}: a rigid arm ({@link RigidArmPhysics}), an arm with
 * elastic joints ({@link ElasticArmPhysics}) or a closed-loop robot in its active joints
 * ({@link ClosedLoopArmPhysics}). Commands and states are per joint coordinate; motor
 * positions are reflected to the link side. Real-time safe; not thread safe.
 */
interface ArmPhysics
{
    /** @param commandNm per coordinate: the drive's torque (the motor torque of an elastic joint), N m or N. */
    void command(double[] commandNm);

    /** @return {@link org.nectl.core.simulation.ArmSimulator#STEP_OK} or the failure code of the period. */
    int step();

    /** Advances one period with every joint held by its brake. */
    void stepBraked();

    /** @param out receives the link positions by coordinate, rad or m. */
    void positions(double[] out);

    /** @param out receives the link velocities by coordinate. */
    void velocities(double[] out);

    /**
     * @param out receives the motor positions by coordinate, elastic joints only (others untouched),
     *     rad or m; a rigid arm has no motor-side state and leaves it untouched.
     */
    default void motorPositions(final double[] out)
    {
    }

    /** @param out receives the motor velocities by coordinate, elastic joints only; untouched by a rigid arm. */
    default void motorVelocities(final double[] out)
    {
    }

    /** @return bit k set: coordinate k is an elastic joint; 0 for a rigid arm. */
    default int elasticMask()
    {
        return 0;
    }

    /**
     * @param out receives the base's motion now; a fixed base is at rest. Only nectl's tree physics,
     *     rigid and elastic, moves its base (MuJoCo's and the closed-loop physics refuse a
     *     base-motion profile), so the default is never reached with a profile.
     */
    default void baseMotion(final BaseMotion out)
    {
    }

    /**
     * @return the largest loop-closure residual of a closed-loop robot at its current positions, m
     *     or rad; 0 for a tree.
     */
    default double closureResidual()
    {
        return 0.0;
    }

    /**
     * @param out receives every joint of a closed-loop robot's equivalent tree (active and passive,
     *     tree order); a tree's physics leaves it untouched.
     */
    default void treePositions(final double[] out)
    {
    }

    /** @return periods integrated since start. */
    long stepCount();

    /** @return simulated time since start, ns. */
    long timeNs();
}
