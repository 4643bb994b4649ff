package org.nectl.core.closedloop;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.QRPDecomposition_F64;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;
import org.nectl.core.model.Transforms;
import org.nectl.core.testing.RandomRobots;

/**
 * Seeded random closed-loop robots: a spatial loop of two branches from the base closed by a
 * revolute cut joint, or a prismatic one for every seed divisible by 3 (7 joints, 5 equations), optionally a second loop closed by a spherical cut
 * joint onto the first loop's branch, and a free branch; revolute and prismatic joints with
 * arbitrary placements, full inertias. The cut frames are placed so that the loops close at a random
 * home configuration; the active joints are those left by a column-pivoted QR of the passive
 * constraint Jacobian, so J_p is well conditioned at home.
 */
final class RandomClosedLoops
{
    private RandomClosedLoops()
    {
    }

    /**
     * @param seed generator seed.
     * @param secondLoop true to add the spherical loop.
     * @return the robot.
     */
    static ClosedLoopModel robot(final long seed, final boolean secondLoop)
    {
        final SplittableRandom rnd = new SplittableRandom(seed);
        final RobotModel.Builder builder = RobotModel.builder("random-closed-" + seed);
        final int[] branchA = chain(builder, rnd, -1, 3, "a");
        final int[] branchB = chain(builder, rnd, -1, 4, "b");
        final int[] branchC = secondLoop ? chain(builder, rnd, -1, 2, "c") : new int[0];
        chain(builder, rnd, branchB[1], 1, "free");
        final RobotModel tree = builder.build();
        final double[] home = RandomRobots.vector(rnd, tree.dof(), 1.0);
        final List<CutJoint> cuts = new ArrayList<>();
        final CutJoint.Type firstCut = seed % 3 == 0 ? CutJoint.Type.PRISMATIC : CutJoint.Type.REVOLUTE;
        cuts.add(cut(tree, rnd, home, "cut-1", firstCut, branchA[2], branchB[3]));
        if (secondLoop)
        {
            cuts.add(cut(tree, rnd, home, "cut-s", CutJoint.Type.SPHERICAL, branchC[1], branchA[1]));
        }
        return new ClosedLoopModel(tree, cuts, activeJoints(tree, cuts, home), home);
    }

    private static int[] chain(
        final RobotModel.Builder builder, final SplittableRandom rnd, final int root, final int length, final String name)
    {
        final int[] bodies = new int[length];
        int parent = root;
        for (int i = 0; i < length; i++)
        {
            final JointType type = rnd.nextDouble() < 0.25 ? JointType.PRISMATIC : JointType.REVOLUTE;
            final InertialParameters inertia = RandomRobots.randomInertia(rnd);
            parent = builder.addBody(name + i, name + "-joint" + i, parent, type,
                RandomRobots.randomRotation(rnd), RandomRobots.vector(rnd, 3, 0.4), inertia);
            bodies[i] = parent;
        }
        return bodies;
    }

    /** Frame k at a random placement on body i; frame k+B on body j where it coincides with k at home. */
    private static CutJoint cut(
        final RobotModel tree, final SplittableRandom rnd, final double[] home, final String name,
        final CutJoint.Type type, final int i, final int j)
    {
        final double[] rotationK = RandomRobots.randomRotation(rnd);
        final double[] translationK = RandomRobots.vector(rnd, 3, 0.3);
        final double[][] poseI = worldPose(tree, home, i);
        final double[][] poseJ = worldPose(tree, home, j);
        final double[] worldRotationK = Transforms.multiply(poseI[0], rotationK);
        final double[] worldOriginK = add(poseI[1], Transforms.apply(poseI[0], translationK));
        final double[] free = switch (type)
        {
            case REVOLUTE -> Transforms.rotZ(rnd.nextDouble(-Math.PI, Math.PI));
            case PRISMATIC -> Transforms.identity();
            case SPHERICAL -> RandomRobots.randomRotation(rnd);
        };
        final double[] worldRotationKB = Transforms.multiply(worldRotationK, free);
        // A prismatic cut slides: frame k+B's origin anywhere on the z_k axis.
        final double[] worldOriginKB = type != CutJoint.Type.PRISMATIC ? worldOriginK
            : add(worldOriginK, Transforms.apply(worldRotationK, new double[] {0, 0, rnd.nextDouble(-0.3, 0.3)}));
        final double[] jT = Transforms.transpose(poseJ[0]);
        final double[] rotationKB = Transforms.multiply(jT, worldRotationKB);
        final double[] translationKB = Transforms.apply(jT, add(worldOriginKB, scale(poseJ[1], -1.0)));
        return new CutJoint(name, type, i, rotationK, translationK, j, rotationKB, translationKB);
    }

    /** Active joints: those not among the first pivots of a column-pivoted QR of the independent rows. */
    private static int[] activeJoints(final RobotModel tree, final List<CutJoint> cuts, final double[] home)
    {
        final LoopKinematics kinematics = new LoopKinematics(tree, cuts);
        kinematics.positions(home);
        final int n = tree.dof();
        final double[] jacobian = new double[kinematics.rows * n];
        kinematics.jacobian(jacobian);
        final QRPDecomposition_F64<DMatrixRMaj> rows = DecompositionFactory_DDRM.qrp(n, kinematics.rows);
        final DMatrixRMaj transposed = new DMatrixRMaj(n, kinematics.rows);
        for (int r = 0; r < kinematics.rows; r++)
        {
            for (int c = 0; c < n; c++)
            {
                transposed.set(c, r, jacobian[r * n + c]);
            }
        }
        rows.setSingularThreshold(1e-9);
        rows.decompose(transposed);
        final int rank = rows.getRank();
        final DMatrixRMaj independent = new DMatrixRMaj(rank, n);
        for (int r = 0; r < rank; r++)
        {
            for (int c = 0; c < n; c++)
            {
                independent.set(r, c, jacobian[rows.getColPivots()[r] * n + c]);
            }
        }
        final QRPDecomposition_F64<DMatrixRMaj> columns = DecompositionFactory_DDRM.qrp(rank, n);
        columns.decompose(independent);
        final int[] passive = Arrays.copyOf(columns.getColPivots(), rank);
        final int[] active = new int[n - rank];
        for (int c = 0, a = 0; c < n; c++)
        {
            final int coordinate = c;
            if (Arrays.stream(passive).noneMatch(p -> p == coordinate))
            {
                active[a++] = c;
            }
        }
        return active;
    }

    /** @return {0R_b, 0p_b} at q by plain composition of the joint transforms. */
    static double[][] worldPose(final RobotModel tree, final double[] q, final int body)
    {
        double[] rotation = Transforms.identity();
        double[] origin = new double[3];
        final List<Integer> path = new ArrayList<>();
        for (int b = body; b >= 0; b = tree.parent(b))
        {
            path.add(0, b);
        }
        for (final int b : path)
        {
            final int c = tree.coordinateOfBody(b);
            double[] local = tree.placementRotation(b);
            double[] shift = tree.placementTranslation(b);
            if (tree.jointType(b) == JointType.REVOLUTE)
            {
                local = Transforms.multiply(local, Transforms.rotZ(q[c]));
            }
            else if (tree.jointType(b) == JointType.PRISMATIC)
            {
                shift = add(shift, Transforms.apply(local, new double[] {0, 0, q[c]}));
            }
            origin = add(origin, Transforms.apply(rotation, shift));
            rotation = Transforms.multiply(rotation, local);
        }
        return new double[][] {rotation, origin};
    }

    static double[] add(final double[] a, final double[] b)
    {
        return new double[] {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
    }

    static double[] scale(final double[] a, final double s)
    {
        return new double[] {s * a[0], s * a[1], s * a[2]};
    }
}
