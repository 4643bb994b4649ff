package org.nectl.core.elastic;

/**
 * The lumped elasticity of one joint between its motor and its link (Hua, Poursina, Sanfilippo,
 * "Dynamic Modelling of Mixed Rigid-Flexible Joint Robotic Manipulator Using Recursive
 * Newton-Euler Formulation", eq. 28, with a parallel damper): the spring torque on the link is
 * K (theta - q) + D (theta_dot - q_dot), and its reaction acts on the motor.
 *
 * @param stiffness K, N m/rad (or N/m for a prismatic joint), > 0.
 * @param damping D, N m s/rad (or N s/m), >= 0.
 */
public record JointElasticity(double stiffness, double damping)
{
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
        return null;
    }
}
