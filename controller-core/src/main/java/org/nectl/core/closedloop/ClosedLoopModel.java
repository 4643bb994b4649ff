package org.nectl.core.closedloop;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.QRPDecomposition_F64;
import org.nectl.core.model.RobotModel;

/**
 * A closed-loop robot in Khalil's notation (Khalil, "Dynamic modeling of robots using recursive
 * Newton-Euler techniques", ICINCO 2010, §2.2): the equivalent tree (a {@link RobotModel} with n
 * joints), B cut joints closing its loops, and the partition of the tree joints into N active
 * (motorised) and p = n - N passive ones (eq. 2). The independent closure equations are chosen once,
 * at the home configuration, by a rank-revealing QR of the candidate constraint Jacobian (a planar
 * loop has 3 independent equations out of a revolute cut's 5, a spatial one 5); there must be exactly
 * p of them, and they must determine the passive joints there. Immutable; thread safe.
 */
public final class ClosedLoopModel
{
    /** Largest closure residual accepted at the home configuration as written, m or rad. */
    public static final double HOME_TOLERANCE = 1e-6;
    /**
     * Smallest ratio of the smallest to the largest pivot of the LU factorisation of the passive
     * constraint Jacobian J_p below which it is reported singular.
     */
    public static final double SINGULAR_PIVOT_RATIO = 1e-8;
    /** Relative threshold of the rank-revealing QR that selects the independent closure equations. */
    private static final double RANK_TOLERANCE = 1e-9;

    private final RobotModel tree;
    private final List<CutJoint> cuts;
    private final int[] active;
    private final int[] passive;
    private final int[] selectedRows;
    private final double[] home;
    private final DedicatedLawDynamics dedicatedDynamics;

    /**
     * Not real-time safe. Checks the three rules and refines the home configuration onto the loop.
     *
     * @param tree the equivalent tree structure.
     * @param cutJoints the cut joints, at least one.
     * @param activeCoordinates tree coordinates of the active joints, in command order.
     * @param homeTree the home configuration, every tree coordinate; must close the loops within
     *     {@link #HOME_TOLERANCE}.
     * @throws ClosedLoopDefectException if a rule is broken.
     * @throws IllegalArgumentException for malformed arguments.
     */
    public ClosedLoopModel(
        final RobotModel tree, final List<CutJoint> cutJoints, final int[] activeCoordinates, final double[] homeTree)
    {
        this(tree, cutJoints, activeCoordinates, homeTree, null);
    }

    /**
     * Not real-time safe. As the other constructor, for a robot that also has dynamics of its own.
     *
     * @param tree the equivalent tree structure.
     * @param cutJoints the cut joints, at least one.
     * @param activeCoordinates tree coordinates of the active joints, in command order.
     * @param homeTree the home configuration, every tree coordinate.
     * @param dedicatedDynamics the robot's dynamics by a model of its own, for the control laws, or null.
     * @throws ClosedLoopDefectException if a rule is broken.
     * @throws IllegalArgumentException for malformed arguments.
     */
    public ClosedLoopModel(
        final RobotModel tree, final List<CutJoint> cutJoints, final int[] activeCoordinates, final double[] homeTree,
        final DedicatedLawDynamics dedicatedDynamics)
    {
        this.dedicatedDynamics = dedicatedDynamics;
        if (cutJoints.isEmpty())
        {
            throw new IllegalArgumentException("a closed-loop robot needs at least one cut joint");
        }
        final int n = tree.dof();
        if (homeTree.length != n)
        {
            throw new IllegalArgumentException("home has " + homeTree.length + " values for " + n + " tree joints");
        }
        this.tree = tree;
        this.cuts = List.copyOf(cutJoints);
        this.active = activeCoordinates.clone();
        final boolean[] isActive = new boolean[n];
        for (final int a : active)
        {
            if (a < 0 || a >= n || isActive[a])
            {
                throw new IllegalArgumentException("active coordinate " + a + " is out of range or repeated");
            }
            isActive[a] = true;
        }
        passive = new int[n - active.length];
        for (int c = 0, p = 0; c < n; c++)
        {
            if (!isActive[c])
            {
                passive[p++] = c;
            }
        }
        final LoopKinematics kinematics = new LoopKinematics(tree, cuts);
        kinematics.positions(homeTree);
        final double[] residual = new double[kinematics.rows];
        kinematics.residual(residual);
        final int worst = largest(residual);
        if (Math.abs(residual[worst]) > HOME_TOLERANCE)
        {
            throw new ClosedLoopDefectException(ClosedLoopDefectException.Defect.NOT_CLOSED_AT_HOME,
                "the loops do not close at the home configuration: " + describeRow(kinematics, worst)
                    + " is " + residual[worst] + ", more than the tolerance " + HOME_TOLERANCE);
        }
        selectedRows = independentRows(kinematics);
        if (selectedRows.length != passive.length)
        {
            throw new ClosedLoopDefectException(ClosedLoopDefectException.Defect.WRONG_ACTIVE_COUNT,
                "the " + n + " tree joints and " + selectedRows.length + " independent closure equations leave "
                    + (n - selectedRows.length) + " degrees of freedom, but " + active.length
                    + " joints are active; name " + (n - selectedRows.length) + " active joints");
        }
        final LoopGeometry geometry = new LoopGeometry(this);
        home = homeTree.clone();
        final int status = geometry.solvePassive(home);
        if (status == LoopGeometry.SINGULAR)
        {
            throw new ClosedLoopDefectException(ClosedLoopDefectException.Defect.SINGULAR_AT_HOME,
                "the passive joints are not determined by the active ones at the home configuration: the"
                    + " constraint Jacobian of the passive joints has pivot ratio " + geometry.pivotRatio()
                    + ", below " + SINGULAR_PIVOT_RATIO + " (choose other active joints or another home)");
        }
        if (status != LoopGeometry.CONVERGED)
        {
            throw new ClosedLoopDefectException(ClosedLoopDefectException.Defect.NOT_CLOSED_AT_HOME,
                "the loops cannot be closed near the home configuration: residual " + geometry.residualNorm()
                    + " after " + geometry.iterations() + " Newton iterations");
        }
    }

    /** @return the equivalent tree. */
    public RobotModel tree()
    {
        return tree;
    }

    /** @return the cut joints. */
    public List<CutJoint> cutJoints()
    {
        return cuts;
    }

    /** @return number of tree joints n. */
    public int treeDof()
    {
        return tree.dof();
    }

    /** @return number of active joints N, the mechanism's degrees of freedom. */
    public int activeCount()
    {
        return active.length;
    }

    /** @return tree coordinate of the given active joint. */
    public int activeCoordinate(final int index)
    {
        return active[index];
    }

    /** @return tree coordinates of the active joints, a copy. */
    public int[] activeCoordinates()
    {
        return active.clone();
    }

    /** @return tree coordinates of the passive joints, ascending, a copy. */
    public int[] passiveCoordinates()
    {
        return passive.clone();
    }

    /** @return candidate rows of the independent closure equations, a copy. */
    public int[] selectedRows()
    {
        return selectedRows.clone();
    }

    /** @return the home configuration closed to Newton's tolerance, every tree coordinate, a copy. */
    public double[] home()
    {
        return home.clone();
    }

    /** @return the robot's dynamics by a model of its own, which the control laws use, or empty. */
    public Optional<DedicatedLawDynamics> dedicatedDynamics()
    {
        return Optional.ofNullable(dedicatedDynamics);
    }

    /** @return the home positions of the active joints, a copy. */
    public double[] homeActive()
    {
        final double[] qa = new double[active.length];
        for (int i = 0; i < active.length; i++)
        {
            qa[i] = home[active[i]];
        }
        return qa;
    }

    private static int largest(final double[] values)
    {
        int worst = 0;
        for (int i = 1; i < values.length; i++)
        {
            if (Math.abs(values[i]) > Math.abs(values[worst]))
            {
                worst = i;
            }
        }
        return worst;
    }

    private static String describeRow(final LoopKinematics kinematics, final int row)
    {
        for (int c = kinematics.cutCount() - 1; c >= 0; c--)
        {
            final int local = row - kinematics.firstRow(c);
            if (local >= 0)
            {
                final int originRows = kinematics.cut(c).type().originRows();
                final String what = local < originRows
                    ? "the " + "xyz".charAt(local) + " coordinate (m) of frame k+B's origin in frame k"
                    : local < originRows + 2
                        ? "the " + "xy".charAt(local - originRows) + " component of z_{k+B} in frame k (axes not parallel)"
                        : "the y component of x_{k+B} in frame k (frames turned about z)";
                return "at cut joint '" + kinematics.cut(c).name() + "', " + what;
            }
        }
        throw new IllegalStateException("row " + row + " belongs to no cut joint");
    }

    /** Rows of a maximal independent set of closure equations at home, ascending. */
    private static int[] independentRows(final LoopKinematics kinematics)
    {
        final int m = kinematics.rows;
        final int n = kinematics.dof;
        final double[] jacobian = new double[m * n];
        kinematics.jacobian(jacobian);
        final DMatrixRMaj transposed = new DMatrixRMaj(n, m);
        CommonOps_DDRM.transpose(new DMatrixRMaj(m, n, true, jacobian), transposed);
        // Scaled to a largest element of 1 so that the threshold is relative.
        CommonOps_DDRM.divide(transposed, Math.max(CommonOps_DDRM.elementMaxAbs(transposed), Double.MIN_NORMAL));
        final QRPDecomposition_F64<DMatrixRMaj> qrp = DecompositionFactory_DDRM.qrp(n, m);
        qrp.setSingularThreshold(RANK_TOLERANCE);
        if (!qrp.decompose(transposed))
        {
            throw new IllegalStateException("QR decomposition of the closure Jacobian failed");
        }
        final int rank = qrp.getRank();
        final int[] pivots = qrp.getColPivots();
        final int[] rows = Arrays.copyOf(pivots, rank);
        Arrays.sort(rows);
        return rows;
    }
}
