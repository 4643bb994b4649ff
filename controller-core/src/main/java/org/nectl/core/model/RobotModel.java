package org.nectl.core.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An immutable kinematic tree with inertias and joint actuation, in the one canonical form every
 * description (modified DH in Khalil's tree notation, standard DH, URDF) is normalised into.
 *
 * <p>Bodies are numbered 0..bodyCount-1 in topological order: {@code parent(i) < i}, and parent -1 is
 * the base. The base is fixed (bolted to the world, its own mass irrelevant) unless the model has a
 * {@linkplain #floatingBase() floating base}: a free body with six degrees of freedom and its own
 * inertia ({@link #baseInertia()}), whose pose and twist are state of their own (see
 * {@code org.nectl.core.mobile}), not generalised coordinates of this model. Body i is connected to its parent by joint i:
 * <pre>
 *   parentT_i(q) = [placementRotation_i, placementTranslation_i] * Motion_i(q)
 *   Motion = Rot(z, q) for REVOLUTE, Trans(z, q) for PRISMATIC, identity for FIXED
 * </pre>
 * so the joint axis is the z axis of body i's frame. Khalil's
 * {@code Rot(z,gamma) Trans(z,b) Rot(x,alpha) Trans(x,d) Rot(z,theta) Trans(z,r)} becomes a placement
 * with the constant offset folded in, since Rot(z) and Trans(z) commute with the joint motion.
 *
 * <p>Movable joints have a generalised-coordinate index 0..dof-1 (the order of the description
 * file), which need not follow body order. Per-joint actuation and limits are indexed by it.
 *
 * <p>Inertial parameters are Khalil's standard ones in the body frame: mass, first moment about the
 * frame origin, inertia about the frame origin.
 *
 * <p>Accessors returning arrays return copies: call them when building an algorithm, never per tick.
 * Thread safe (immutable).
 */
public final class RobotModel
{
    private final String name;
    private final String baseName;
    private final String[] bodyNames;
    private final String[] jointNames;
    private final int[] parent;
    private final JointType[] jointType;
    private final double[] placementRotation;
    private final double[] placementTranslation;
    private final double[] mass;
    private final double[] firstMoment;
    private final double[] inertiaAtOrigin;
    private final int[] coordinateOfBody;
    private final int[] bodyOfCoordinate;
    private final JointActuation[] actuation;
    private final JointLimits[] limits;
    private final InertialParameters baseInertia;

    private RobotModel(final Builder b, final int[] bodyOfCoordinate)
    {
        final int n = b.bodies.size();
        name = b.name;
        baseName = b.baseName;
        baseInertia = b.baseInertia;
        bodyNames = new String[n];
        jointNames = new String[n];
        parent = new int[n];
        jointType = new JointType[n];
        placementRotation = new double[9 * n];
        placementTranslation = new double[3 * n];
        mass = new double[n];
        firstMoment = new double[3 * n];
        inertiaAtOrigin = new double[9 * n];
        coordinateOfBody = new int[n];
        Arrays.fill(coordinateOfBody, -1);
        this.bodyOfCoordinate = bodyOfCoordinate;
        actuation = new JointActuation[bodyOfCoordinate.length];
        limits = new JointLimits[bodyOfCoordinate.length];
        for (int i = 0; i < n; i++)
        {
            final Body body = b.bodies.get(i);
            bodyNames[i] = body.bodyName;
            jointNames[i] = body.jointName;
            parent[i] = body.parent;
            jointType[i] = body.type;
            System.arraycopy(body.rotation, 0, placementRotation, 9 * i, 9);
            System.arraycopy(body.translation, 0, placementTranslation, 3 * i, 3);
            mass[i] = body.inertia.mass();
            System.arraycopy(body.inertia.firstMoment(), 0, firstMoment, 3 * i, 3);
            System.arraycopy(body.inertia.inertiaAtOrigin(), 0, inertiaAtOrigin, 9 * i, 9);
        }
        for (int k = 0; k < bodyOfCoordinate.length; k++)
        {
            final Body body = b.bodies.get(bodyOfCoordinate[k]);
            coordinateOfBody[bodyOfCoordinate[k]] = k;
            actuation[k] = body.actuation;
            limits[k] = body.limits;
        }
    }

    /**
     * @param name the robot's name.
     * @return a builder for a model of that name.
     */
    public static Builder builder(final String name)
    {
        return new Builder(name);
    }

    /** @return the robot's name. */
    public String name()
    {
        return name;
    }

    /** @return the name of the base link (fixed or floating). */
    public String baseName()
    {
        return baseName;
    }

    /** @return true if the base is a free body with six degrees of freedom, false if it is fixed to the world. */
    public boolean floatingBase()
    {
        return baseInertia != null;
    }

    /**
     * @return the floating base's inertial parameters in the base frame.
     * @throws IllegalStateException for a fixed base, which has none.
     */
    public InertialParameters baseInertia()
    {
        if (baseInertia == null)
        {
            throw new IllegalStateException("robot '" + name + "' has a fixed base, which has no inertia in the model");
        }
        return baseInertia;
    }

    /** @return number of bodies (movable and fixed joints), base excluded. */
    public int bodyCount()
    {
        return parent.length;
    }

    /** @return number of movable joints (generalised coordinates). */
    public int dof()
    {
        return bodyOfCoordinate.length;
    }

    /** @return the parent body of body i, or -1 for the base. */
    public int parent(final int body)
    {
        return parent[body];
    }

    /** @return a copy of all parents, indexed by body. */
    public int[] parents()
    {
        return parent.clone();
    }

    /** @return the type of the joint connecting body i to its parent. */
    public JointType jointType(final int body)
    {
        return jointType[body];
    }

    /** @return a copy of the joint types, indexed by body. */
    public JointType[] jointTypes()
    {
        return jointType.clone();
    }

    /** @return the generalised-coordinate index of body i's joint, or -1 if fixed. */
    public int coordinateOfBody(final int body)
    {
        return coordinateOfBody[body];
    }

    /** @return a copy of the coordinate index per body (-1 for fixed joints). */
    public int[] coordinatesOfBodies()
    {
        return coordinateOfBody.clone();
    }

    /** @return the body moved by generalised coordinate k. */
    public int bodyOfCoordinate(final int coordinate)
    {
        return bodyOfCoordinate[coordinate];
    }

    /** @return the link name of body i. */
    public String bodyName(final int body)
    {
        return bodyNames[body];
    }

    /** @return the name of the joint that connects body i to its parent. */
    public String jointName(final int body)
    {
        return jointNames[body];
    }

    /** @return the index of the body with that link name, or -1. */
    public int bodyIndex(final String bodyName)
    {
        for (int i = 0; i < bodyNames.length; i++)
        {
            if (bodyNames[i].equals(bodyName))
            {
                return i;
            }
        }
        return -1;
    }

    /** @return a copy of the constant rotations parent -> joint frame, 9 per body, row-major. */
    public double[] placementRotations()
    {
        return placementRotation.clone();
    }

    /** @return a copy of the constant joint-frame origins in the parent frame, 3 per body, m. */
    public double[] placementTranslations()
    {
        return placementTranslation.clone();
    }

    /** @return a copy of the body masses, kg. */
    public double[] masses()
    {
        return mass.clone();
    }

    /** @return a copy of the first moments MS = m c, 3 per body, kg m, body frame. */
    public double[] firstMoments()
    {
        return firstMoment.clone();
    }

    /** @return a copy of the inertias about the body frame origins, 9 per body, kg m^2, body frame. */
    public double[] inertiasAtOrigin()
    {
        return inertiaAtOrigin.clone();
    }

    /** @return body i's inertial parameters. */
    public InertialParameters inertialParameters(final int body)
    {
        return InertialParameters.ofFirstMoment(
            mass[body],
            Arrays.copyOfRange(firstMoment, 3 * body, 3 * body + 3),
            Arrays.copyOfRange(inertiaAtOrigin, 9 * body, 9 * body + 9));
    }

    /** @return body i's placement rotation (parent to joint frame), row-major copy. */
    public double[] placementRotation(final int body)
    {
        return Arrays.copyOfRange(placementRotation, 9 * body, 9 * body + 9);
    }

    /** @return body i's placement translation (joint frame origin in the parent frame), copy, m. */
    public double[] placementTranslation(final int body)
    {
        return Arrays.copyOfRange(placementTranslation, 3 * body, 3 * body + 3);
    }

    /** @return actuation terms of coordinate k. */
    public JointActuation actuation(final int coordinate)
    {
        return actuation[coordinate];
    }

    /** @return limits of coordinate k. */
    public JointLimits limits(final int coordinate)
    {
        return limits[coordinate];
    }

    /** @return the joint name of coordinate k. */
    public String coordinateName(final int coordinate)
    {
        return jointNames[bodyOfCoordinate[coordinate]];
    }

    /** @return the coordinate index of the movable joint with that name, or -1. */
    public int coordinateIndex(final String jointName)
    {
        for (int k = 0; k < bodyOfCoordinate.length; k++)
        {
            if (jointNames[bodyOfCoordinate[k]].equals(jointName))
            {
                return k;
            }
        }
        return -1;
    }

    /** @return the sum of all body masses, kg. */
    public double totalMass()
    {
        double m = 0.0;
        for (final double v : mass)
        {
            m += v;
        }
        return m;
    }

    /**
     * Builds a {@link RobotModel}, checking every rule and naming the offending joint and field.
     * Not thread safe.
     */
    public static final class Builder
    {
        private final String name;
        private String baseName = "base";
        private InertialParameters baseInertia;
        private final List<Body> bodies = new ArrayList<>();
        private List<String> coordinateOrder;

        private Builder(final String name)
        {
            this.name = name;
        }

        /**
         * @param baseName name of the fixed base link (default "base").
         * @return this builder.
         */
        public Builder baseName(final String baseName)
        {
            this.baseName = baseName;
            return this;
        }

        /**
         * Makes the base a free body with six degrees of freedom (default: fixed).
         *
         * @param inertia the base's inertial parameters in the base frame.
         * @return this builder.
         */
        public Builder floatingBase(final InertialParameters inertia)
        {
            baseInertia = inertia;
            return this;
        }

        /**
         * Adds body i = current body count, connected to {@code parent} by a joint.
         *
         * @param bodyName link name, unique.
         * @param jointName joint name, unique.
         * @param parent parent body index, -1 for the base; must be less than the new index.
         * @param type joint type.
         * @param placementRotation parent-to-joint-frame rotation, row-major, orthonormal.
         * @param placementTranslation joint frame origin in the parent frame, m.
         * @param inertia inertial parameters in the body frame.
         * @return the new body's index.
         */
        public int addBody(
            final String bodyName,
            final String jointName,
            final int parent,
            final JointType type,
            final double[] placementRotation,
            final double[] placementTranslation,
            final InertialParameters inertia)
        {
            final Body body = new Body();
            body.bodyName = bodyName;
            body.jointName = jointName;
            body.parent = parent;
            body.type = type;
            body.rotation = placementRotation.clone();
            body.translation = placementTranslation.clone();
            body.inertia = inertia;
            bodies.add(body);
            return bodies.size() - 1;
        }

        /**
         * @param body index returned by {@link #addBody}.
         * @param actuation rotor inertia and friction of its joint.
         * @return this builder.
         */
        public Builder actuation(final int body, final JointActuation actuation)
        {
            bodies.get(body).actuation = actuation;
            return this;
        }

        /**
         * @param body index returned by {@link #addBody}.
         * @param limits limits of its joint.
         * @return this builder.
         */
        public Builder limits(final int body, final JointLimits limits)
        {
            bodies.get(body).limits = limits;
            return this;
        }

        /**
         * Sets the order of the generalised coordinates by joint name; by default it is body order.
         *
         * @param jointNames every movable joint's name, each once.
         * @return this builder.
         */
        public Builder coordinateOrder(final List<String> jointNames)
        {
            coordinateOrder = List.copyOf(jointNames);
            return this;
        }

        /**
         * @return the model.
         * @throws IllegalArgumentException naming the joint, field, value and rule broken.
         */
        public RobotModel build()
        {
            final Map<String, Integer> bodyByName = new HashMap<>();
            final Map<String, Integer> jointByName = new HashMap<>();
            bodyByName.put(baseName, -1);
            if (baseInertia != null)
            {
                checkInertia("floating base '" + baseName + "': ", baseInertia);
            }
            final List<Integer> movable = new ArrayList<>();
            for (int i = 0; i < bodies.size(); i++)
            {
                final Body b = bodies.get(i);
                final String where = "joint '" + b.jointName + "' (body " + i + " '" + b.bodyName + "'): ";
                if (bodyByName.put(b.bodyName, i) != null)
                {
                    throw new IllegalArgumentException(where + "duplicate link name '" + b.bodyName + "'");
                }
                if (jointByName.put(b.jointName, i) != null)
                {
                    throw new IllegalArgumentException(where + "duplicate joint name '" + b.jointName + "'");
                }
                if (b.parent < -1 || b.parent >= i)
                {
                    throw new IllegalArgumentException(
                        where + "parent " + b.parent + " must be -1 (base) or an earlier body (< " + i + ")");
                }
                check(where + "placement rotation: ", checkRotation(b.rotation));
                check(where + "placement translation: ", checkFinite(b.translation));
                checkInertia(where, b.inertia);
                if (b.type.isMovable())
                {
                    movable.add(i);
                    check(where, b.actuation.check());
                    check(where, b.limits.check());
                }
            }
            return new RobotModel(this, coordinates(movable, jointByName));
        }

        private int[] coordinates(final List<Integer> movable, final Map<String, Integer> jointByName)
        {
            if (coordinateOrder == null)
            {
                return movable.stream().mapToInt(Integer::intValue).toArray();
            }
            if (coordinateOrder.size() != movable.size())
            {
                throw new IllegalArgumentException("coordinate order names " + coordinateOrder.size()
                    + " joints but the model has " + movable.size() + " movable joints");
            }
            final int[] result = new int[coordinateOrder.size()];
            final boolean[] used = new boolean[bodies.size()];
            for (int k = 0; k < result.length; k++)
            {
                final Integer body = jointByName.get(coordinateOrder.get(k));
                if (body == null || !bodies.get(body).type.isMovable() || used[body])
                {
                    throw new IllegalArgumentException("coordinate order: '" + coordinateOrder.get(k)
                        + "' is not a movable joint named once");
                }
                used[body] = true;
                result[k] = body;
            }
            return result;
        }

        private static void checkInertia(final String where, final InertialParameters inertia)
        {
            check(where + "", InertiaChecks.checkMass(inertia.mass()));
            check(where + "first moment: ", checkFinite(inertia.firstMoment()));
            // The tensor about the centre of mass is recovered from the one about the origin,
            // so its rounding error scales with the latter.
            check(where + "", InertiaChecks.checkInertiaAtCentreOfMass(
                inertia.inertiaAtCentreOfMass(), InertiaChecks.largestMagnitude(inertia.inertiaAtOrigin())));
        }

        private static void check(final String prefix, final String problem)
        {
            if (problem != null)
            {
                throw new IllegalArgumentException(prefix + problem);
            }
        }

        private static String checkFinite(final double[] v)
        {
            for (final double x : v)
            {
                if (!Double.isFinite(x))
                {
                    return "value " + x + " is not a finite number";
                }
            }
            return null;
        }

        private static String checkRotation(final double[] r)
        {
            final String finite = checkFinite(r);
            if (finite != null)
            {
                return finite;
            }
            final double[] rrt = Transforms.multiply(r, Transforms.transpose(r));
            for (int i = 0; i < 9; i++)
            {
                final double expected = (i % 4 == 0) ? 1.0 : 0.0;
                if (Math.abs(rrt[i] - expected) > 1e-9)
                {
                    return "not orthonormal (R R^T differs from identity by " + Math.abs(rrt[i] - expected) + ")";
                }
            }
            final double det = r[0] * (r[4] * r[8] - r[5] * r[7]) - r[1] * (r[3] * r[8] - r[5] * r[6])
                + r[2] * (r[3] * r[7] - r[4] * r[6]);
            if (det < 0.0)
            {
                return "a reflection (determinant " + det + "), not a rotation";
            }
            return null;
        }
    }

    private static final class Body
    {
        String bodyName;
        String jointName;
        int parent;
        JointType type;
        double[] rotation;
        double[] translation;
        InertialParameters inertia;
        JointActuation actuation = JointActuation.NONE;
        JointLimits limits = JointLimits.NONE;
    }
}
