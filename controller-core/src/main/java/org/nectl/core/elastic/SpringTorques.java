package org.nectl.core.elastic;

/**
 * The torques of the elastic joints' springs and dampers (Hua, Poursina, Sanfilippo, "Dynamic
 * Modelling of Mixed Rigid-Flexible Joint Robotic Manipulator Using Recursive Newton-Euler
 * Formulation", eq. 28, with a parallel damper): sigma_e = K_e (theta_e - q_k) + D_e (theta_dot_e -
 * q_dot_k) for elastic joint e on coordinate k. It acts on the link as +sigma and on the motor as
 * -sigma. Passive joints' springs (Khalil, "Dynamic modeling of robots using recursive Newton-Euler
 * techniques", ICINCO 2010, eqs. 69-70) act on their link alone: -K (q - q0) - D q_dot.
 *
 * <p>Not thread safe (one instance per algorithm); {@link #compute} is real-time safe.
 */
public final class SpringTorques
{
    private final int[] coordinate;
    private final double[] stiffness;
    private final double[] damping;
    private final int[] passiveCoordinate;
    private final JointElasticity[] passive;

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
        passiveCoordinate = new int[model.passiveCount()];
        passive = new JointElasticity[passiveCoordinate.length];
        int p = 0;
        for (int k = 0; k < model.dof(); k++)
        {
            if (model.isPassive(k))
            {
                passiveCoordinate[p] = k;
                passive[p++] = model.elasticity(k);
            }
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
     * Adds the passive joints' spring and damper torques to the torques acting at the joints.
     * Real-time safe: allocates nothing.
     *
     * @param q link positions by coordinate, rad or m.
     * @param qd link velocities.
     * @param jointTorque torques by coordinate, N m or N; the passive joints' entries are increased.
     */
    public void addPassive(final double[] q, final double[] qd, final double[] jointTorque)
    {
        for (int p = 0; p < passive.length; p++)
        {
            final int k = passiveCoordinate[p];
            final JointElasticity spring = passive[p];
            // Khalil (69)-(70), with a parallel damper
            jointTorque[k] -= spring.stiffness() * (q[k] - spring.restPosition()) + spring.damping() * qd[k];
        }
    }

    /**
     * Elastic potential energy 1/2 sum K (theta - q)^2 + 1/2 sum K (q - q0)^2 over the passive joints.
     * Real-time safe.
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
        for (int p = 0; p < passive.length; p++)
        {
            final double stretch = q[passiveCoordinate[p]] - passive[p].restPosition();
            energy += 0.5 * passive[p].stiffness() * stretch * stretch;
        }
        return energy;
    }
}
