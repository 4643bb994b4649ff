package org.nectl.core.testing;

import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;

import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.RobotModel;

/**
 * Copies of a robot that differ in one respect: a plant whose inertias are off from the
 * controller's model, or a robot with other joint limits.
 */
public final class ModelVariants
{
    private ModelVariants()
    {
    }

    /**
     * The same robot with each body's mass (centre of mass kept) and rotational inertia about the
     * centre of mass scaled by independent factors in [1 - fraction, 1 + fraction].
     *
     * @param model the robot.
     * @param seed generator seed for the factors.
     * @param fraction largest relative error, e.g. 0.2.
     * @return the perturbed robot (same joints, actuation and limits).
     */
    public static RobotModel withInertiaErrors(final RobotModel model, final long seed, final double fraction)
    {
        final SplittableRandom rnd = new SplittableRandom(seed * 104729);
        return copy(model, "-perturbed", p ->
        {
            final double[] inertia = p.inertiaAtCentreOfMass();
            final double inertiaScale = 1 + rnd.nextDouble(-fraction, fraction);
            for (int k = 0; k < 9; k++)
            {
                inertia[k] *= inertiaScale;
            }
            return InertialParameters.ofCentreOfMass(
                p.mass() * (1 + rnd.nextDouble(-fraction, fraction)), p.centreOfMass(), inertia);
        }, model::limits);
    }

    /**
     * The same robot with other effort and effort-rate limits (position and velocity limits kept).
     *
     * @param model the robot.
     * @param effortMax |tau| limit per coordinate, N m or N.
     * @param effortRateMax |d tau/dt| limit per coordinate, N m/s or N/s.
     * @return the robot with these limits.
     */
    public static RobotModel withEffortLimits(final RobotModel model, final double[] effortMax, final double[] effortRateMax)
    {
        return copy(model, "", p -> p, k ->
        {
            final JointLimits l = model.limits(k);
            return new JointLimits(l.positionMin(), l.positionMax(), l.velocityMax(), effortMax[k], effortRateMax[k]);
        });
    }

    private static RobotModel copy(
        final RobotModel model, final String suffix, final UnaryOperator<InertialParameters> inertias,
        final IntFunction<JointLimits> limits)
    {
        final RobotModel.Builder builder = RobotModel.builder(model.name() + suffix).baseName(model.baseName());
        final String[] coordinates = new String[model.dof()];
        for (int i = 0; i < model.bodyCount(); i++)
        {
            final int body = builder.addBody(model.bodyName(i), model.jointName(i), model.parent(i), model.jointType(i),
                model.placementRotation(i), model.placementTranslation(i), inertias.apply(model.inertialParameters(i)));
            final int k = model.coordinateOfBody(i);
            if (k >= 0)
            {
                builder.actuation(body, model.actuation(k)).limits(body, limits.apply(k));
                coordinates[k] = model.jointName(i);
            }
        }
        return builder.coordinateOrder(List.of(coordinates)).build();
    }
}
