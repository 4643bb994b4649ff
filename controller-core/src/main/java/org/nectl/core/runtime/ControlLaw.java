package org.nectl.core.runtime;

/** Which control law a {@link ControlCycle} runs while the drives are powered. */
public enum ControlLaw
{
    /** tau = RNEA(q, qd, qdd_d + Kd e_dot + Kp e). */
    COMPUTED_TORQUE,
    /** tau = Kp e + Kd e_dot + g(q). */
    PD_GRAVITY,
    /** The mixed rigid/elastic inverse-dynamics law; only for a robot with elastic joints. */
    MIXED_ELASTIC
}
