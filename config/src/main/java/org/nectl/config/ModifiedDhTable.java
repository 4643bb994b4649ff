package org.nectl.config;

import java.util.ArrayList;
import java.util.List;

import org.nectl.core.model.ModifiedDh;
import org.nectl.core.model.Transforms;

/**
 * Reads a kinematic table in Khalil's tree notation (Khalil, "Dynamic modeling of robots using
 * recursive Newton-Euler techniques", ICINCO 2010, eq. 1):
 * {@code a(j)T_j = Rot(z,gamma) Trans(z,b) Rot(x,alpha) Trans(x,d) Rot(z,theta) Trans(z,r)}, the
 * joint variable added to theta (revolute) or r (prismatic). Without an {@code antecedent} column
 * the table is a serial chain; without {@code gamma} and {@code b} columns they are zero.
 * Not real-time safe.
 */
final class ModifiedDhTable
{
    /** Columns every modified-DH table has. */
    static final List<String> REQUIRED = List.of("link", "sigma", "alpha", "d", "theta", "r");
    /** Columns a modified-DH table may add. */
    static final List<String> OPTIONAL = List.of("joint", "antecedent", "gamma", "b");

    private ModifiedDhTable()
    {
    }

    /**
     * @param kinematics the {@code kinematics} mapping.
     * @param angles unit of the angle columns.
     * @param baseName name of the fixed base, antecedent of the first row of a serial chain.
     * @return the joints in file order.
     */
    static List<DescribedJoint> read(final YamlField kinematics, final AngleUnit angles, final String baseName)
    {
        final List<DescribedJoint> joints = new ArrayList<>();
        String previous = baseName;
        YamlField previousField = kinematics;
        for (final ColumnTable.Row row : ColumnTable.read(kinematics, "link", REQUIRED, OPTIONAL).rows())
        {
            final YamlField antecedentField = row.has("antecedent") ? row.cell("antecedent") : previousField;
            final String antecedent = row.has("antecedent") ? row.cell("antecedent").text() : previous;
            final double gamma = row.angle("gamma", angles);
            final double b = row.number("b", 0.0);
            final double alpha = row.angle("alpha", angles);
            final double d = row.cell("d").number();
            final double theta = row.angle("theta", angles);
            final double r = row.cell("r").number();
            final String link = row.cell("link").text();
            joints.add(new DescribedJoint(
                row.field(), link, DescribedJoint.jointName(row), antecedentField, antecedent,
                DescribedJoint.jointType(row.cell("sigma")),
                ModifiedDh.placementRotation(gamma, alpha, theta),
                ModifiedDh.placementTranslation(gamma, b, alpha, d, r),
                Transforms.identity(), new double[3]));
            previous = link;
            previousField = row.field();
        }
        return joints;
    }
}
