package org.nectl.core.control;

/**
 * The dynamics a control law needs, in the coordinates it controls: the joints of a tree robot,
 * or the active joints of a closed-loop robot (its equivalent tree's dynamics projected onto them,
 * Gamma_c = G^T Gamma_tree). Positions, velocities, accelerations and torques are of the
 * controlled coordinates only, in their command order.
 *
 * <p>Results are codes: false when the dynamics is undefined at the given positions (a closed
 * chain whose loops cannot be closed there, or whose passive joints are not determined); the
 * outputs are then unspecified. Not thread safe: one instance per user. Every method is real-time
 * safe (allocates nothing).
 */
public interface LawDynamics
{
    /** @return the number of controlled coordinates. */
    int dof();

    /**
     * Switches the model's Coulomb and viscous joint friction on or off (default on).
     *
     * @param enabled true to include friction.
     */
    void jointFriction(boolean enabled);

    /**
     * tau = A(q) qdd + H(q, qd): the forces that produce the given motion.
     *
     * @param q positions, rad or m.
     * @param qd velocities.
     * @param qdd accelerations.
     * @param tau output, N m or N.
     * @return false if the dynamics is undefined at q.
     */
    boolean inverseDynamics(double[] q, double[] qd, double[] qdd, double[] tau);

    /**
     * The forces along a motion and their time derivative.
     *
     * @param q positions.
     * @param qd velocities.
     * @param qdd accelerations.
     * @param qddd jerks.
     * @param tau output forces, N m or N.
     * @param tauRate output their time derivative, N m/s or N/s.
     * @return false if the dynamics is undefined along the motion.
     */
    boolean torqueAndRate(double[] q, double[] qd, double[] qdd, double[] qddd, double[] tau, double[] tauRate);

    /**
     * The forces that hold the robot still against gravity at q.
     *
     * @param q positions.
     * @param tau output, N m or N.
     * @return false if the dynamics is undefined at q.
     */
    boolean gravityTorques(double[] q, double[] tau);
}
