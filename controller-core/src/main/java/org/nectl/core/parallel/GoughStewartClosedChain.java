package org.nectl.core.parallel;

import java.util.ArrayList;
import java.util.List;

import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.closedloop.CutJoint;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;
import org.nectl.core.model.Transforms;

/**
 * A {@link GoughStewartModel} written as a closed chain for Khalil's §4 method (Khalil, "Dynamic
 * modeling of robots using recursive Newton-Euler techniques", ICINCO 2010): the six legs, plus the
 * platform hung from leg 1's rod by a spherical joint made of three revolute joints (massless gimbal
 * bodies, mutually perpendicular axes at home), closed at legs 2-6 by spherical cut joints; the six
 * actuators are the active joints, in leg order, with the legs' limits. 21 tree joints, 15 passive.
 * In this form the platform's forward kinematics is the loops' Newton solution, and the controller
 * and simulator of closed-loop robots serve the hexapod in leg lengths; the chain carries the
 * platform's own inverse dynamic model ({@link GoughStewartLawDynamics}) for the control laws, which
 * gives the projection's forces at a fraction of its cost. The gimbal's own
 * singularity (its first and third axes aligned) is a platform tilted by a quarter turn about leg 1's
 * spherical joint, far outside the stroke.
 */
public final class GoughStewartClosedChain
{
    private GoughStewartClosedChain()
    {
    }

    /**
     * Not real-time safe.
     *
     * @param hexapod the platform.
     * @return the closed chain, home at the platform's home pose, named as the platform.
     */
    public static ClosedLoopModel of(final GoughStewartModel hexapod)
    {
        final GoughStewartDynamics dynamics = new GoughStewartDynamics(hexapod, CompiledModel.of(hexapod.legs()));
        dynamics.inverseDynamics(hexapod.homePosition(), hexapod.homeRotation(), new double[6], new double[6],
            new double[6]);
        final double[] legHome = dynamics.legPositions().clone();
        final RobotModel legs = hexapod.legs();
        final RobotModel.Builder builder = RobotModel.builder(hexapod.name());
        for (int b = 0; b < legs.bodyCount(); b++)
        {
            final int added = builder.addBody(legs.bodyName(b), legs.jointName(b), legs.parent(b), legs.jointType(b),
                legs.placementRotation(b), legs.placementTranslation(b), legs.inertialParameters(b));
            final int coordinate = legs.coordinateOfBody(b);
            builder.limits(added, legs.limits(coordinate)).actuation(added, legs.actuation(coordinate));
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
        return new ClosedLoopModel(tree, cuts, active, home, gravity ->
        {
            final CompiledModel compiledLegs = CompiledModel.of(legs, gravity[0], gravity[1], gravity[2]);
            return () -> new GoughStewartLawDynamics(hexapod, compiledLegs);
        });
    }
}
