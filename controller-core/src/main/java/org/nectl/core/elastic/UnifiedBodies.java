package org.nectl.core.elastic;

import java.util.ArrayList;
import java.util.List;

import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointActuation;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;
import org.nectl.core.model.Transforms;

/**
 * The unified rigid bodies of a mixed rigid/elastic robot (Hua, Poursina, Sanfilippo, "Dynamic
 * Modelling of Mixed Rigid-Flexible Joint Robotic Manipulator Using Recursive Newton-Euler
 * Formulation", Fig. 2 and eqs. 6-9, 21-25) written as a rigid tree: every rotor is a leaf body
 * attached to its mount link by a revolute joint about its spin axis, with coordinate
 * phi = gearRatio * theta (elastic joint, eq. 6) or phi = gearRatio * q (rigid joint, eq. 9).
 * Summing a rotor's Newton-Euler wrench into its mount link in the backward pass is exactly the sum
 * over the motors of link i in eqs. (24)-(25), and the rotor's axial moment Im_z omega_dot_m . z_m
 * times the gear ratio is the motor inertia term of eqs. (27) and (29).
 *
 * <p>Tree coordinates y: the link coordinates q (same order), then one phi per motor in the order
 * of their joints' coordinates. Mixed coordinates x: q, then theta. y = P x with P constant and one
 * non-zero per row ({@link #source}, {@link #scale}), so velocities and accelerations map with the
 * same P and generalised forces with P^T (virtual work). Rotor joints carry the motor friction
 * converted to the rotor side, so that P^T gives back Fs sign(theta_dot) + Fv theta_dot.
 *
 * <p>The motor of a rigid joint mounted on the base is folded into the joint instead: its rotor
 * turns about a fixed axis, so its kinetic energy is exactly 1/2 eta^2 Im_z qd^2 and its weight is
 * carried by the base, which is Khalil's rotor inertia Ia = eta^2 Im_z ("Dynamic modeling of robots
 * using recursive Newton-Euler techniques", 2010, eq. 31); its friction adds to the joint's. A rigid
 * joint's rotor without axial inertia is a fixed body on its mount (its spin carries no energy, and
 * its inertia diag(It, It, 0) is the same at every spin angle), its friction again the joint's. Every
 * remaining rotor of a rigid joint ({@link #coupledRotors}) moves two bodies with one coordinate: the
 * tree coordinate phi = eta q is then a constraint, not a freedom, which recursive forward dynamics
 * enforces ({@link RecursiveMixedForwardDynamics}).
 *
 * <p>The elastic counterpart of {@link CompiledModel}: never written after construction, so the
 * algorithms of one robot share one instance ({@link #of}), the tree built and compiled once.
 * Immutable, thread safe. Mapping methods are real-time safe.
 */
public final class UnifiedBodies
{
    /** The mixed robot these bodies unify. */
    final ElasticRobotModel robot;
    /** The rigid tree: the links, then one leaf body per rotor. */
    final RobotModel tree;
    /** {@link #tree} compiled once for every rigid-body algorithm run on it. */
    final CompiledModel compiledTree;
    /** n: link coordinates. */
    final int dof;
    /** Number of elastic joints (motor coordinates theta). */
    final int elasticCount;
    /** Index into x = (q, theta) of tree coordinate y. */
    final int[] source;
    /** y = scale x[source]: 1 for links, the gear ratio for rotors. */
    final double[] scale;
    /** Tree coordinates of the rotors that turn with a rigid joint's q (phi = eta q), in order. */
    final int[] coupledRotors;

    /** Not real-time safe: builds the tree. */
    UnifiedBodies(final ElasticRobotModel model)
    {
        robot = model;
        final RobotModel links = model.links();
        dof = model.dof();
        elasticCount = model.elasticCount();
        final RobotModel.Builder b = RobotModel.builder(links.name() + "+rotors").baseName(links.baseName());
        final List<String> order = new ArrayList<>();
        for (int i = 0; i < links.bodyCount(); i++)
        {
            final int body = b.addBody(links.bodyName(i), links.jointName(i), links.parent(i), links.jointType(i),
                links.placementRotation(i), links.placementTranslation(i), links.inertialParameters(i));
            final int k = links.coordinateOfBody(i);
            if (k >= 0)
            {
                b.actuation(body, jointActuation(model, k)).limits(body, links.limits(k));
            }
        }
        final List<Integer> sources = new ArrayList<>();
        final List<Double> scales = new ArrayList<>();
        for (int k = 0; k < dof; k++)
        {
            order.add(links.coordinateName(k));
            sources.add(k);
            scales.add(1.0);
        }
        final List<Integer> coupled = new ArrayList<>();
        for (int k = 0; k < dof; k++)
        {
            final String joint = links.coordinateName(k);
            if (model.hasMotor(k) && spinsWithoutInertia(model, k))
            {
                addFixedRotor(b, joint, model.motor(k));
            }
            else if (model.hasMotor(k) && !foldedIntoJoint(model, k))
            {
                if (!model.isElastic(k))
                {
                    coupled.add(sources.size());
                }
                final Motor m = model.motor(k);
                addRotor(b, joint, m);
                order.add("motor:" + joint);
                sources.add(model.isElastic(k) ? dof + model.elasticIndex(k) : k);
                scales.add(m.gearRatio());
            }
        }
        tree = b.coordinateOrder(order).build();
        compiledTree = CompiledModel.of(tree);
        source = sources.stream().mapToInt(Integer::intValue).toArray();
        scale = scales.stream().mapToDouble(Double::doubleValue).toArray();
        coupledRotors = coupled.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * Builds and compiles the unified bodies of a robot, to share between its mixed algorithms. Not
     * real-time safe.
     *
     * @param model the robot.
     * @return its unified bodies.
     */
    public static UnifiedBodies of(final ElasticRobotModel model)
    {
        return new UnifiedBodies(model);
    }

    /** @return the mixed robot these bodies unify. */
    public ElasticRobotModel robot()
    {
        return robot;
    }

    private static boolean foldedIntoJoint(final ElasticRobotModel model, final int k)
    {
        return model.hasMotor(k) && !model.isElastic(k) && model.motor(k).mountBody() < 0;
    }

    /** A rigid joint's rotor on a moving link without axial inertia: a fixed body, its friction the joint's. */
    private static boolean spinsWithoutInertia(final ElasticRobotModel model, final int k)
    {
        return !model.isElastic(k) && !foldedIntoJoint(model, k) && model.motor(k).axialInertia() == 0.0;
    }

    /** The joint's own actuation, plus its motor when that is folded in (Khalil 2010, eq. 31). */
    private static JointActuation jointActuation(final ElasticRobotModel model, final int k)
    {
        final JointActuation own = model.links().actuation(k);
        if (!model.hasMotor(k) || !foldedIntoJoint(model, k) && !spinsWithoutInertia(model, k))
        {
            return own;
        }
        final Motor m = model.motor(k);
        return new JointActuation(own.rotorInertia() + m.reflectedInertia(),
            own.coulombFriction() + m.coulombFriction(), own.viscousFriction() + m.viscousFriction());
    }

    /** A rotor leaf: frame at its centre, z along its axis, inertia diag(It, It, Im_z). */
    private static void addRotor(final RobotModel.Builder b, final String joint, final Motor m)
    {
        final int body = b.addBody("rotor:" + joint, "motor:" + joint, m.mountBody(), JointType.REVOLUTE,
            Transforms.withZAxis(unit(m.axis())), m.centre(), rotorInertia(m));
        final double eta = m.gearRatio();
        // Rotor-side friction f(phi_dot) gives eta f(eta theta_dot) on theta: divide by eta and eta^2.
        b.actuation(body, new JointActuation(0.0, m.coulombFriction() / eta, m.viscousFriction() / (eta * eta)))
            .limits(body, JointLimits.NONE);
    }

    /** A rotor without axial inertia, welded to its mount. */
    private static void addFixedRotor(final RobotModel.Builder b, final String joint, final Motor m)
    {
        b.addBody("rotor:" + joint, "motor:" + joint, m.mountBody(), JointType.FIXED, Transforms.withZAxis(unit(m.axis())),
            m.centre(), rotorInertia(m));
    }

    private static InertialParameters rotorInertia(final Motor m)
    {
        final double[] inertia = {
            m.transverseInertia(), 0, 0,
            0, m.transverseInertia(), 0,
            0, 0, m.axialInertia()};
        return InertialParameters.ofCentreOfMass(m.rotorMass(), new double[3], inertia);
    }

    /** @return the axis scaled to unit length (it is unit to 1e-9 by {@link Motor#check}). */
    private static double[] unit(final double[] axis)
    {
        final double n = Math.sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
        return new double[] {axis[0] / n, axis[1] / n, axis[2] / n};
    }

    /** @return number of tree coordinates: dof + motors. */
    int treeDof()
    {
        return source.length;
    }

    /**
     * y = P (link, motor). Real-time safe.
     *
     * @param link link-coordinate values q (or their rates), dof.
     * @param motor motor-coordinate values theta (or their rates), elasticCount.
     * @param tree output tree-coordinate values, treeDof.
     */
    void toTree(final double[] link, final double[] motor, final double[] tree)
    {
        for (int y = 0; y < source.length; y++)
        {
            final int x = source[y];
            tree[y] = scale[y] * (x < dof ? link[x] : motor[x - dof]);
        }
    }

    /**
     * (link, motor) = P^T treeForce: generalised forces on q and theta by virtual work. Real-time safe.
     *
     * @param treeForce generalised forces on the tree coordinates.
     * @param link output, dof.
     * @param motor output, elasticCount.
     */
    void fromTree(final double[] treeForce, final double[] link, final double[] motor)
    {
        for (int k = 0; k < dof; k++)
        {
            link[k] = 0.0;
        }
        for (int e = 0; e < elasticCount; e++)
        {
            motor[e] = 0.0;
        }
        for (int y = 0; y < source.length; y++)
        {
            final int x = source[y];
            if (x < dof)
            {
                link[x] += scale[y] * treeForce[y];
            }
            else
            {
                motor[x - dof] += scale[y] * treeForce[y];
            }
        }
    }

    /**
     * A = P^T M P for a tree matrix M (treeDof square) into a mixed matrix (dof + elasticCount
     * square), both row-major. Real-time safe.
     */
    void congruence(final double[] treeMatrix, final double[] mixedMatrix)
    {
        final int n = dof + elasticCount;
        final int t = source.length;
        for (int i = 0; i < n * n; i++)
        {
            mixedMatrix[i] = 0.0;
        }
        for (int r = 0; r < t; r++)
        {
            final int a = source[r] * n;
            final double sr = scale[r];
            for (int c = 0; c < t; c++)
            {
                mixedMatrix[a + source[c]] += sr * scale[c] * treeMatrix[r * t + c];
            }
        }
    }
}
