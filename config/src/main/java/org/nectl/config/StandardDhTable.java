package org.nectl.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.nectl.core.model.JointType;
import org.nectl.core.model.ModifiedDh;
import org.nectl.core.model.Transforms;

/**
 * Reads a serial chain in standard Denavit-Hartenberg parameters, frames at the link tips:
 * {@code (i-1)T_i = Rz(theta_i) Tz(d_i) Tx(a_i) Rx(alpha_i)}, the joint variable added to theta
 * (revolute) or d (prismatic), joint i moving about z_(i-1) (as in Barman, "Recursive Newton-Euler
 * dynamics and sensitivity analysis for dynamic motion planning", MSc thesis, Oklahoma State
 * University, 2020, chapter 2).
 *
 * <p>Normalisation into the canonical form: body i's frame is frame (i-1) moved by
 * {@code Rz(theta_i) Tz(d_i)}, so its placement in body (i-1) is
 * {@code Tx(a_(i-1)) Rx(alpha_(i-1)) Rz(theta_i) Tz(d_i)} (a modified-DH row), the tip frame i sits at
 * {@code Tx(a_i) Rx(alpha_i)} in body i (where the link's inertial data is written), and the last
 * row's {@code Tx(a_n) Rx(alpha_n)} becomes a fixed, massless tool frame. Not real-time safe.
 */
final class StandardDhTable
{
    /** Columns every standard-DH table has. */
    static final List<String> REQUIRED = List.of("link", "sigma", "theta", "d", "a", "alpha");
    /** Columns a standard-DH table may add. */
    static final List<String> OPTIONAL = List.of("joint");
    /** Name of the tool frame when the file does not give one. */
    static final String DEFAULT_TOOL = "tool";

    private StandardDhTable()
    {
    }

    /**
     * @param kinematics the {@code kinematics} mapping.
     * @param angles unit of the angle columns.
     * @param baseName name of the fixed base (frame 0).
     * @param tool the {@code tool} field naming the tool frame, if the file has one.
     * @return the joints in file order, the fixed tool frame last.
     */
    static List<DescribedJoint> read(
        final YamlField kinematics, final AngleUnit angles, final String baseName, final Optional<YamlField> tool)
    {
        final List<DescribedJoint> joints = new ArrayList<>();
        String previous = baseName;
        double previousA = 0.0;
        double previousAlpha = 0.0;
        for (final ColumnTable.Row row : ColumnTable.read(kinematics, "link", REQUIRED, OPTIONAL).rows())
        {
            final double theta = row.angle("theta", angles);
            final double d = row.cell("d").number();
            final double a = row.cell("a").number();
            final double alpha = row.angle("alpha", angles);
            final String link = row.cell("link").text();
            joints.add(new DescribedJoint(
                row.field(), link, DescribedJoint.jointName(row), row.field(), previous,
                DescribedJoint.jointType(row.cell("sigma")),
                ModifiedDh.placementRotation(0.0, previousAlpha, theta),
                ModifiedDh.placementTranslation(0.0, 0.0, previousAlpha, previousA, d),
                Transforms.rotX(alpha), new double[] {a, 0.0, 0.0}));
            previous = link;
            previousA = a;
            previousAlpha = alpha;
        }
        final String toolName = tool.isPresent() ? tool.get().text() : DEFAULT_TOOL;
        final YamlField toolField = tool.orElse(kinematics);
        joints.add(new DescribedJoint(
            toolField, toolName, toolName, toolField, previous, JointType.FIXED,
            ModifiedDh.placementRotation(0.0, previousAlpha, 0.0),
            ModifiedDh.placementTranslation(0.0, 0.0, previousAlpha, previousA, 0.0),
            Transforms.identity(), new double[3]));
        return joints;
    }
}
