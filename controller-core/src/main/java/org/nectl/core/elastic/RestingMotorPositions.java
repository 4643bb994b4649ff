package org.nectl.core.elastic;

/**
 * The motor positions that hold a mixed robot at rest at given link positions: each elastic joint's
 * spring carries its link's static load, theta = q + tau_static / K, tau_static the joint torque of
 * {@link MixedInverseDynamics} at rest (gravity only). The state an arm is in after its brakes held
 * it there.
 *
 * <p>Not real-time safe (allocates). Thread safe: stateless.
 */
public final class RestingMotorPositions
{
    private RestingMotorPositions()
    {
    }

    /**
     * @param bodies the robot's unified bodies, shared with its other mixed algorithms; its elastic
     *     joints have positive stiffness.
     * @param q link positions by coordinate, rad or m.
     * @param gravity gravity in the base frame, m/s^2.
     * @return theta by elastic index (reflected), rad or m.
     */
    public static double[] compute(final UnifiedBodies bodies, final double[] q, final double[] gravity)
    {
        final ElasticRobotModel model = bodies.robot;
        final int dof = model.dof();
        final int elastic = model.elasticCount();
        final double[] jointTorque = new double[dof];
        final double[] theta = new double[elastic];
        final MixedInverseDynamics dynamics = new MixedInverseDynamics(bodies);
        dynamics.gravity(gravity[0], gravity[1], gravity[2]);
        dynamics.compute(q, theta, new double[dof], new double[elastic], new double[dof], new double[elastic], jointTorque,
            new double[elastic]);
        for (int e = 0; e < elastic; e++)
        {
            final int k = model.coordinateOfElastic(e);
            theta[e] = q[k] + jointTorque[k] / model.elasticity(k).stiffness();
        }
        return theta;
    }
}
