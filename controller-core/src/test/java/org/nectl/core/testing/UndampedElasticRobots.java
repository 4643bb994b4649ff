package org.nectl.core.testing;

import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.elastic.JointElasticity;

/**
 * The seeded random mixed robots of {@link RandomElasticRobots} with their springs' dampers removed,
 * for the controllers (whose motor reference needs undamped springs) and for energy-conservation
 * checks.
 */
public final class UndampedElasticRobots
{
    private UndampedElasticRobots()
    {
    }

    /**
     * @param seed generator seed, as for {@link RandomElasticRobots#robot}.
     * @param rigidMotorsOnBase as for {@link RandomElasticRobots#robot}.
     * @return that robot with every damping set to 0.
     */
    public static ElasticRobotModel robot(final long seed, final boolean rigidMotorsOnBase)
    {
        return undamped(RandomElasticRobots.robot(seed, rigidMotorsOnBase));
    }

    /**
     * @param model a mixed robot.
     * @return the same robot with every damping set to 0 (passive joints keep their rest positions).
     */
    public static ElasticRobotModel undamped(final ElasticRobotModel model)
    {
        final ElasticRobotModel.Builder b = ElasticRobotModel.builder(model.links());
        for (int k = 0; k < model.dof(); k++)
        {
            final String joint = model.links().coordinateName(k);
            if (model.hasMotor(k))
            {
                b.motor(joint, model.motor(k));
            }
            if (model.isElastic(k) || model.isPassive(k))
            {
                final JointElasticity e = model.elasticity(k);
                b.elasticity(joint, new JointElasticity(e.stiffness(), 0.0, e.restPosition()));
            }
        }
        return b.build();
    }
}
