package org.nectl.core.parallel;

import java.util.ArrayList;
import java.util.List;

import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.closedloop.CutJoint;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;
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
        final GoughStewartDynamics dynamics = new GoughStewartDynamics(hexapod);
        dynamics.inverseDynamics(hexapod.homePosition(), hexapod.homeRotation(), new double[6], new double[6],
            new double[6]);
        final double[] legHome = dynamics.legPositions().clone();
        final RobotModel legs = hexapod.legs();
        final RobotModel.Builder builder = RobotModel.builder("hexapod-closed-chain");
        for (int b = 0; b < legs.bodyCount(); b++)
        {
            builder.addBody(legs.bodyName(b), legs.jointName(b), legs.parent(b), legs.jointType(b),
                legs.placementRotation(b), legs.placementTranslation(b), legs.inertialParameters(b));
        }
        // Rod 1's axes at home: P1 Rot(z, t1) Rot(x, pi/2) Rot(z, t2) Rot(x, pi/2).
        final double[] rod1 = Transforms.multiply(hexapod.firstAxisPlacement(0), Transforms.multiply(
            Transforms.rotZ(legHome[0]), Transforms.multiply(Transforms.rotX(Math.PI / 2), Transforms.multiply(
                Transforms.rotZ(legHome[1]), Transforms.rotX(Math.PI / 2)))));
        final double[] s = Transforms.multiply(Transforms.rotX(-Math.PI / 2), Transforms.rotY(Math.PI / 2));
        final double[] q1 = Transforms.multiply(Transforms.transpose(rod1),
            Transforms.multiply(hexapod.homeRotation(), Transforms.transpose(s)));
        final InertialParameters none = InertialParameters.ofFirstMoment(0.0, new double[3], new double[9]);
        final int g1 = builder.addBody("gimbal1", "sphere1_a", 2, JointType.REVOLUTE, q1, new double[3], none);
        final int g2 = builder.addBody("gimbal2", "sphere1_b", g1, JointType.REVOLUTE, Transforms.rotX(-Math.PI / 2),
            new double[3], none);
        final double[] b = hexapod.platformPoints();
        final InertialParameters plate = hexapod.platform();
        final double[] com = plate.centreOfMass();
        final int platformBody = builder.addBody("platform", "sphere1_c", g2, JointType.REVOLUTE,
            Transforms.rotY(Math.PI / 2), new double[3], InertialParameters.ofCentreOfMass(plate.mass(),
                new double[] {com[0] - b[0], com[1] - b[1], com[2] - b[2]}, plate.inertiaAtCentreOfMass()));
        final RobotModel tree = builder.build();
        final List<CutJoint> cuts = new ArrayList<>();
        for (int i = 1; i < GoughStewartModel.LEGS; i++)
        {
            cuts.add(new CutJoint("sphere" + (i + 1), CutJoint.Type.SPHERICAL, 3 * i + 2, Transforms.identity(),
                new double[3], platformBody, Transforms.identity(),
                new double[] {b[3 * i] - b[0], b[3 * i + 1] - b[1], b[3 * i + 2] - b[2]}));
        }
        final int[] active = new int[GoughStewartModel.LEGS];
        for (int i = 0; i < active.length; i++)
        {
            active[i] = 3 * i + 2;
        }
        final double[] home = new double[tree.dof()];
        System.arraycopy(legHome, 0, home, 0, legHome.length);
        return new ClosedLoopModel(tree, cuts, active, home);
    }
}
