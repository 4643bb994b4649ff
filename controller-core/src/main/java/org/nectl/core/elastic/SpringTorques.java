package org.nectl.core.elastic;

/**
 * The torques of the elastic joints' springs and dampers (Hua, Poursina, Sanfilippo, "Dynamic
 * Modelling of Mixed Rigid-Flexible Joint Robotic Manipulator Using Recursive Newton-Euler
 * Formulation", eq. 28, with a parallel damper): sigma_e = K_e (theta_e - q_k) + D_e (theta_dot_e -
 * q_dot_k) for elastic joint e on coordinate k. It acts on the link as +sigma and on the motor as
 * -sigma.
 *
 * <p>Not thread safe (one instance per algorithm); {@link #compute} is real-time safe.
 */
public final class SpringTorques
{
    private final int[] coordinate;
    private final double[] stiffness;
    private final double[] damping;

    /**
     * Not real-time safe: copies the parameters.
     *
     * @param model the robot.
     */
    public SpringTorques(final ElasticRobotModel model)
    {
        final int ne = model.elasticCount();
        coordinate = new int[ne];
        stiffness = new double[ne];
        damping = new double[ne];
        for (int e = 0; e < ne; e++)
        {
            coordinate[e] = model.coordinateOfElastic(e);
            stiffness[e] = model.elasticity(coordinate[e]).stiffness();
            damping[e] = model.elasticity(coordinate[e]).damping();
        }
    }

    /**
     * Real-time safe: allocates nothing.
     *
     * @param q link positions by coordinate, rad or m.
     * @param theta motor positions by elastic index, reflected, rad or m.
     * @param qd link velocities.
     * @param thetad motor velocities.
     * @param torque output sigma by elastic index, N m or N.
     */
    public void compute(final double[] q, final double[] theta, final double[] qd, final double[] thetad,
        final double[] torque)
    {
        for (int e = 0; e < coordinate.length; e++)
        {
            final int k = coordinate[e];
            // (28)
            torque[e] = stiffness[e] * (theta[e] - q[k]) + damping[e] * (thetad[e] - qd[k]);
        }
    }

    /**
     * Elastic potential energy 1/2 sum K (theta - q)^2. Real-time safe.
     *
     * @param q link positions.
     * @param theta motor positions.
     * @return energy, J.
     */
    public double potentialEnergyJoules(final double[] q, final double[] theta)
    {
        double energy = 0.0;
        for (int e = 0; e < coordinate.length; e++)
        {
            final double stretch = theta[e] - q[coordinate[e]];
            energy += 0.5 * stiffness[e] * stretch * stretch;
        }
        return energy;
    }
}
