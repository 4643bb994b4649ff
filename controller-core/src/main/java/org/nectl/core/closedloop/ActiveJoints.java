package org.nectl.core.closedloop;

import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.RobotModel;
import org.nectl.core.model.Transforms;

/**
 * The active joints of a closed-loop robot as a {@link RobotModel}, for everything that needs only
 * their number, names, types, limits and actuation: the hardware link, the planners, the torque
 * limiter, the supervisor and the monitors see a closed-loop robot through it, in its active
 * coordinates. Its bodies are massless and its frames arbitrary: it has no dynamics of its own
 * (the laws use {@link ClosedLoopLawDynamics}).
 */
public final class ActiveJoints
{
    private ActiveJoints()
    {
    }

    /**
     * Not real-time safe.
     *
     * @param model the closed-loop robot.
     * @return a chain of its active joints in command order, named, typed and limited as in the tree,
     *     with the tree's name and base name.
     */
    public static RobotModel of(final ClosedLoopModel model)
    {
        final RobotModel tree = model.tree();
        final RobotModel.Builder builder = RobotModel.builder(tree.name()).baseName(tree.baseName());
        final InertialParameters none = InertialParameters.ofFirstMoment(0.0, new double[3], new double[9]);
        for (int a = 0; a < model.activeCount(); a++)
        {
            final int coordinate = model.activeCoordinate(a);
            final int body = tree.bodyOfCoordinate(coordinate);
            final int added = builder.addBody(tree.bodyName(body), tree.jointName(body), a - 1, tree.jointType(body),
                Transforms.identity(), new double[3], none);
            builder.limits(added, tree.limits(coordinate)).actuation(added, tree.actuation(coordinate));
        }
        return builder.build();
    }
}
