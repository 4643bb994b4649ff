package org.nectl.core.elastic;

import java.util.SplittableRandom;

import org.nectl.core.testing.RandomRobots;

/** A random state and motion of a mixed robot: link and motor positions, rates and accelerations. */
final class MixedState
{
    final double[] q;
    final double[] theta;
    final double[] qd;
    final double[] thetad;
    final double[] qdd;
    final double[] thetadd;

    MixedState(final SplittableRandom rnd, final ElasticRobotModel model)
    {
        final int n = model.dof();
        final int ne = model.elasticCount();
        q = RandomRobots.vector(rnd, n, Math.PI);
        theta = RandomRobots.vector(rnd, ne, Math.PI);
        qd = RandomRobots.vector(rnd, n, 2.0);
        thetad = RandomRobots.vector(rnd, ne, 2.0);
        qdd = RandomRobots.vector(rnd, n, 5.0);
        thetadd = RandomRobots.vector(rnd, ne, 5.0);
    }

    /**
     * @param model the robot.
     * @param jointTorque torques the joints transmit, as {@link MixedInverseDynamics} gives them.
     * @return the same minus the springs' and dampers' share at the elastic joints, at this state.
     */
    double[] besidesSprings(final ElasticRobotModel model, final double[] jointTorque)
    {
        final double[] sigma = new double[model.elasticCount()];
        new SpringTorques(model).compute(q, theta, qd, thetad, sigma);
        final double[] applied = jointTorque.clone();
        for (int e = 0; e < sigma.length; e++)
        {
            applied[model.coordinateOfElastic(e)] -= sigma[e];
        }
        return applied;
    }
}
