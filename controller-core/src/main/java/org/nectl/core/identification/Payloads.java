package org.nectl.core.identification;

import java.util.ArrayList;
import java.util.List;

import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.RobotModel;

/** Robot models with a payload rigidly added to one link. Not real-time safe; thread safe. */
public final class Payloads
{
    private Payloads()
    {
    }

    /**
     * The same robot with a payload added to a body: the body's mass, first moment and inertia about
     * its frame origin become the sums of its own and the payload's (the parameters of two rigidly
     * joined bodies add in one frame).
     *
     * @param model the robot.
     * @param body the body that carries the payload (usually the flange or the last link).
     * @param payload the payload's parameters in that body's frame, about its origin.
     * @return the new model; the same names, joints, limits and coordinate order.
     * @throws IllegalArgumentException if the sum is not a physical rigid body.
     */
    public static RobotModel withPayload(final RobotModel model, final int body, final InertialParameters payload)
    {
        final RobotModel.Builder builder = RobotModel.builder(model.name()).baseName(model.baseName());
        if (model.floatingBase())
        {
            builder.floatingBase(model.baseInertia());
        }
        for (int i = 0; i < model.bodyCount(); i++)
        {
            final InertialParameters own = model.inertialParameters(i);
            final InertialParameters inertia = i == body ? sum(own, payload) : own;
            builder.addBody(model.bodyName(i), model.jointName(i), model.parent(i), model.jointType(i),
                model.placementRotation(i), model.placementTranslation(i), inertia);
            final int coordinate = model.coordinateOfBody(i);
            if (coordinate >= 0)
            {
                builder.actuation(i, model.actuation(coordinate)).limits(i, model.limits(coordinate));
            }
        }
        final List<String> order = new ArrayList<>();
        for (int k = 0; k < model.dof(); k++)
        {
            order.add(model.jointName(model.bodyOfCoordinate(k)));
        }
        return builder.coordinateOrder(order).build();
    }

    /**
     * @param a one body's parameters.
     * @param b another's, in the same frame.
     * @return the parameters of the two joined rigidly.
     */
    public static InertialParameters sum(final InertialParameters a, final InertialParameters b)
    {
        final double[] h = a.firstMoment();
        final double[] j = a.inertiaAtOrigin();
        final double[] hb = b.firstMoment();
        final double[] jb = b.inertiaAtOrigin();
        for (int c = 0; c < 3; c++)
        {
            h[c] += hb[c];
        }
        for (int c = 0; c < 9; c++)
        {
            j[c] += jb[c];
        }
        return InertialParameters.ofFirstMoment(a.mass() + b.mass(), h, j);
    }

    /**
     * @param parameters m, m cx, m cy, m cz, Jxx, Jxy, Jxz, Jyy, Jyz, Jzz (inertia about the frame origin).
     * @return them as {@link InertialParameters}, unchecked.
     */
    public static InertialParameters ofVector(final double[] parameters)
    {
        final double[] p = parameters;
        return InertialParameters.ofFirstMoment(p[0], new double[] {p[1], p[2], p[3]},
            new double[] {p[4], p[5], p[6], p[5], p[7], p[8], p[6], p[8], p[9]});
    }

    /**
     * @param inertia a body's parameters.
     * @return m, m cx, m cy, m cz, Jxx, Jxy, Jxz, Jyy, Jyz, Jzz (inertia about the frame origin).
     */
    public static double[] vector(final InertialParameters inertia)
    {
        final double[] h = inertia.firstMoment();
        final double[] j = inertia.inertiaAtOrigin();
        return new double[] {inertia.mass(), h[0], h[1], h[2], j[0], j[1], j[2], j[4], j[5], j[8]};
    }
}
