package org.nectl.core.parallel;

import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.Transforms;

/**
 * A test hexapod (the shipped one's layout: base joints on a 0.5 m circle at 120k +/- 12 degrees,
 * platform joints on a 0.3 m circle at 120k +/- 48 degrees, home 0.55 m up), and the same machine
 * written as a closed chain for Khalil's §4 method: the six legs plus the platform hung from leg 1's
 * rod by a spherical joint made of three revolute joints (massless gimbal bodies, mutually
 * perpendicular axes at home), closed at legs 2-6 by spherical cut joints.
 */
final class Hexapods
{
    private Hexapods()
    {
    }

    static GoughStewartModel hexapod(final double legMassScale)
    {
        final double[] base = new double[18];
        final double[] platform = new double[18];
        for (int k = 0; k < 3; k++)
        {
            for (int s = 0; s < 2; s++)
            {
                final int i = 2 * k + s;
                final double sign = s == 0 ? -1 : 1;
                final double b = Math.toRadians(120 * k + sign * 12);
                final double p = Math.toRadians(120 * k + sign * 48);
                base[3 * i] = 0.5 * Math.cos(b);
                base[3 * i + 1] = 0.5 * Math.sin(b);
                platform[3 * i] = 0.3 * Math.cos(p);
                platform[3 * i + 1] = 0.3 * Math.sin(p);
            }
        }
        final InertialParameters plate = InertialParameters.ofCentreOfMass(
            25.0, new double[] {0.01, -0.02, 0.05}, new double[] {0.6, 0.01, 0, 0.01, 0.65, 0.02, 0, 0.02, 1.1});
        final InertialParameters cylinder = InertialParameters.ofCentreOfMass(3.0 * legMassScale,
            new double[] {0, -0.15, 0}, new double[] {0.03 * legMassScale, 0, 0, 0, 0.002 * legMassScale, 0, 0, 0,
                0.03 * legMassScale});
        final InertialParameters rod = InertialParameters.ofCentreOfMass(1.5 * legMassScale,
            new double[] {0, 0, -0.15}, new double[] {0.012 * legMassScale, 0, 0, 0, 0.012 * legMassScale, 0, 0, 0,
                0.0005 * legMassScale});
        return new GoughStewartModel("hexapod", base, platform, plate, cylinder, rod,
            new JointLimits(0.45, 0.75, 0.3, 2000, Double.POSITIVE_INFINITY), new double[] {0, 0, 0.55},
            Transforms.identity());
    }

    /** The hexapod as a closed chain (21 tree joints, 5 spherical cuts, the 6 actuators active). */
    static ClosedLoopModel closedChain(final GoughStewartModel hexapod)
    {
        return GoughStewartClosedChain.of(hexapod);
    }
}
