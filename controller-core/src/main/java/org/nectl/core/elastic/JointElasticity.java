package org.nectl.core.elastic;

/**
 * The lumped elasticity of one joint. With a motor (Hua, Poursina, Sanfilippo, "Dynamic Modelling
 * of Mixed Rigid-Flexible Joint Robotic Manipulator Using Recursive Newton-Euler Formulation",
 * eq. 28, with a parallel damper) the spring sits between motor and link: its torque on the link is
 * K (theta - q) + D (theta_dot - q_dot), and its reaction acts on the motor. Without a motor the
 * joint is passive (Khalil, "Dynamic modeling of robots using recursive Newton-Euler techniques",
 * ICINCO 2010, eqs. 69-70): a spring to the fixed rest position q0, torque -K (q - q0) - D q_dot.
 *
 * @param stiffness K, N m/rad (or N/m for a prismatic joint), > 0.
 * @param damping D, N m s/rad (or N s/m), >= 0.
 * @param restPosition q0, rad (or m), where a passive joint's spring is relaxed; 0 for a joint with
 *     a motor (its motor angle is the spring's other end).
 */
public record JointElasticity(double stiffness, double damping, double restPosition)
{
    /**
     * The elasticity of a joint with a motor, or of a passive joint relaxed at q0 = 0.
     *
     * @param stiffness K, > 0.
     * @param damping D, >= 0.
     */
    public JointElasticity(final double stiffness, final double damping)
    {
        this(stiffness, damping, 0.0);
    }

    /** @return null if consistent, else the value and rule broken. */
    public String check()
    {
        if (!Double.isFinite(stiffness) || stiffness <= 0.0)
        {
            return "stiffness " + stiffness + " must be finite and > 0";
        }
        if (!Double.isFinite(damping) || damping < 0.0)
        {
            return "damping " + damping + " must be finite and >= 0";
        }
        if (!Double.isFinite(restPosition))
        {
            return "rest position " + restPosition + " must be finite";
        }
        return null;
    }
}
