package org.nectl.core.parallel;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.SingularOps_DDRM;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;
import org.nectl.core.model.Transforms;

/**
 * A Gough-Stewart platform with six U-P-S legs (Khalil, "Dynamic modeling of robots using recursive
 * Newton-Euler techniques", ICINCO 2010, §5): leg i joins base point A_i (base frame) to platform
 * point B_i (platform frame) through a universal joint at the base, a prismatic actuator and a
 * spherical joint at the platform. The legs are one tree of six branches for the tree algorithm:
 * per leg a massless body turning about the first U axis z1 (horizontal, tangential to the base
 * circle through A_i, so that the U joint's singularity, a leg along z1, lies outside a standing
 * platform's workspace), the cylinder turning about the second U axis, and the rod sliding along
 * the leg; its coordinates are (theta1, theta2, L) per leg, leg after leg, and the rod's frame origin
 * is the spherical joint's centre B_i. Immutable; thread safe.
 */
public final class GoughStewartModel
{
    /** Number of legs. */
    public static final int LEGS = 6;

    private final String name;
    private final double[] basePoints;
    private final double[] platformPoints;
    private final InertialParameters platform;
    private final RobotModel legs;
    private final double[] firstAxisPlacement;
    private final JointLimits actuatorLimits;
    private final double[] homePosition;
    private final double[] homeRotation;

    /**
     * Not real-time safe.
     *
     * @param name the robot's name.
     * @param basePoints A_i, 3 per leg, base frame, m.
     * @param platformPoints B_i, 3 per leg, platform frame, m.
     * @param platform platform inertia in the platform frame.
     * @param cylinder cylinder inertia in the cylinder frame: its z is the second U axis, the leg
     *     points along -y from A_i.
     * @param rod rod inertia in the rod frame: origin at B_i, z along the leg from A_i towards B_i.
     * @param actuatorLimits stroke (leg length), speed and force limits of every actuator.
     * @param homePosition platform origin at home, base frame, m.
     * @param homeRotation platform axes at home, base frame, 9 row-major.
     */
    public GoughStewartModel(
        final String name, final double[] basePoints, final double[] platformPoints, final InertialParameters platform,
        final InertialParameters cylinder, final InertialParameters rod, final JointLimits actuatorLimits,
        final double[] homePosition, final double[] homeRotation)
    {
        if (basePoints.length != 3 * LEGS || platformPoints.length != 3 * LEGS)
        {
            throw new IllegalArgumentException("a Gough-Stewart platform has six base and six platform points");
        }
        this.name = name;
        this.basePoints = basePoints.clone();
        this.platformPoints = platformPoints.clone();
        this.platform = platform;
        this.actuatorLimits = actuatorLimits;
        this.homePosition = homePosition.clone();
        this.homeRotation = homeRotation.clone();
        firstAxisPlacement = new double[9 * LEGS];
        final RobotModel.Builder builder = RobotModel.builder(name + "-legs");
        final InertialParameters none = InertialParameters.ofFirstMoment(0.0, new double[3], new double[9]);
        for (int i = 0; i < LEGS; i++)
        {
            final double[] placement = firstAxisPlacement(basePoints[3 * i], basePoints[3 * i + 1]);
            System.arraycopy(placement, 0, firstAxisPlacement, 9 * i, 9);
            final double[] a = {basePoints[3 * i], basePoints[3 * i + 1], basePoints[3 * i + 2]};
            final int u1 = builder.addBody("leg" + (i + 1) + "_u", "leg" + (i + 1) + "_u1", -1, JointType.REVOLUTE,
                placement, a, none);
            final int u2 = builder.addBody("leg" + (i + 1) + "_cylinder", "leg" + (i + 1) + "_u2", u1,
                JointType.REVOLUTE, Transforms.rotX(Math.PI / 2), new double[3], cylinder);
            final int p = builder.addBody("leg" + (i + 1) + "_rod", "leg" + (i + 1) + "_actuator", u2,
                JointType.PRISMATIC, Transforms.rotX(Math.PI / 2), new double[3], rod);
            builder.limits(p, actuatorLimits);
        }
        legs = builder.build();
    }

    /** Frame 1's axes: x up, z horizontal and tangential to the circle through A_i, y = z x x. */
    private static double[] firstAxisPlacement(final double ax, final double ay)
    {
        final double r = Math.hypot(ax, ay);
        final double tx = r == 0.0 ? 0.0 : -ay / r;
        final double ty = r == 0.0 ? 1.0 : ax / r;
        // columns x1 = (0, 0, 1), y1 = z1 x x1 = (ty, -tx, 0), z1 = (tx, ty, 0).
        return new double[] {0, ty, tx, 0, -tx, ty, 1, 0, 0};
    }

    /**
     * Conditioning of the kinematics at a pose: the ratio of the smallest to the largest singular
     * value of J_p^-1 (rows [u_i^T, (P_i x u_i)^T], the leg rates per platform twist). Zero at a
     * parallel singularity. Not real-time safe.
     *
     * @param position platform origin, m.
     * @param rotation platform axes, 9 row-major.
     * @return the ratio, in [0, 1].
     */
    public double conditioning(final double[] position, final double[] rotation)
    {
        final DMatrixRMaj inverseJacobian = new DMatrixRMaj(LEGS, 6);
        for (int i = 0; i < LEGS; i++)
        {
            final double[] lever = Transforms.apply(rotation,
                new double[] {platformPoints[3 * i], platformPoints[3 * i + 1], platformPoints[3 * i + 2]});
            final double[] leg = new double[3];
            for (int e = 0; e < 3; e++)
            {
                leg[e] = position[e] + lever[e] - basePoints[3 * i + e];
            }
            final double l = Math.sqrt(leg[0] * leg[0] + leg[1] * leg[1] + leg[2] * leg[2]);
            for (int e = 0; e < 3; e++)
            {
                inverseJacobian.set(i, e, leg[e] / l);
            }
            inverseJacobian.set(i, 3, (lever[1] * leg[2] - lever[2] * leg[1]) / l);
            inverseJacobian.set(i, 4, (lever[2] * leg[0] - lever[0] * leg[2]) / l);
            inverseJacobian.set(i, 5, (lever[0] * leg[1] - lever[1] * leg[0]) / l);
        }
        final double[] singular = SingularOps_DDRM.singularValues(inverseJacobian);
        double smallest = Double.POSITIVE_INFINITY;
        double largest = 0.0;
        for (final double v : singular)
        {
            smallest = Math.min(smallest, v);
            largest = Math.max(largest, v);
        }
        return largest == 0.0 ? 0.0 : smallest / largest;
    }

    /**
     * @param position platform origin, m.
     * @param rotation platform axes, 9 row-major.
     * @return the six leg lengths |p + R b_i - a_i|, m.
     */
    public double[] legLengths(final double[] position, final double[] rotation)
    {
        final double[] lengths = new double[LEGS];
        for (int i = 0; i < LEGS; i++)
        {
            final double[] lever = Transforms.apply(rotation,
                new double[] {platformPoints[3 * i], platformPoints[3 * i + 1], platformPoints[3 * i + 2]});
            double sum = 0.0;
            for (int e = 0; e < 3; e++)
            {
                final double d = position[e] + lever[e] - basePoints[3 * i + e];
                sum += d * d;
            }
            lengths[i] = Math.sqrt(sum);
        }
        return lengths;
    }

    /** @return the robot's name. */
    public String name()
    {
        return name;
    }

    /** @return A_i, 3 per leg, base frame, a copy. */
    public double[] basePoints()
    {
        return basePoints.clone();
    }

    /** @return B_i, 3 per leg, platform frame, a copy. */
    public double[] platformPoints()
    {
        return platformPoints.clone();
    }

    /** @return the platform's inertia in the platform frame. */
    public InertialParameters platform()
    {
        return platform;
    }

    /** @return the six legs as one tree, coordinates (theta1, theta2, L) per leg. */
    public RobotModel legs()
    {
        return legs;
    }

    /** @return the placement of leg i's first U frame in the base frame, 9 row-major, a copy. */
    public double[] firstAxisPlacement(final int leg)
    {
        final double[] r = new double[9];
        System.arraycopy(firstAxisPlacement, 9 * leg, r, 0, 9);
        return r;
    }

    /** @return stroke, speed and force limits of each actuator. */
    public JointLimits actuatorLimits()
    {
        return actuatorLimits;
    }

    /** @return platform origin at home, base frame, a copy. */
    public double[] homePosition()
    {
        return homePosition.clone();
    }

    /** @return platform axes at home, 9 row-major, a copy. */
    public double[] homeRotation()
    {
        return homeRotation.clone();
    }
}
