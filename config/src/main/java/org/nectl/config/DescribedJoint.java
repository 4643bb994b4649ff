package org.nectl.config;

import org.nectl.core.model.JointType;

/**
 * One joint of a description after its table row has been normalised into the canonical form of
 * {@code RobotModel}: the constant placement of the joint frame in the antecedent's body frame,
 * then motion about (revolute) or along (prismatic) its z axis.
 *
 * @param field the row, for messages.
 * @param link name of the link (body) this joint moves.
 * @param joint name of the joint.
 * @param antecedentField where the antecedent was written, or the row when it is implicit.
 * @param antecedent name of the antecedent link, or the base name.
 * @param type joint type.
 * @param rotation placement rotation, antecedent body frame to joint frame, row-major.
 * @param translation joint frame origin in the antecedent body frame, m.
 * @param dataRotation rotation whose columns are the axes of the frame the link's inertial data is
 *     written in, expressed in the body frame (identity unless the format puts data elsewhere).
 * @param dataTranslation origin of that frame in the body frame, m.
 */
record DescribedJoint(
    YamlField field,
    String link,
    String joint,
    YamlField antecedentField,
    String antecedent,
    JointType type,
    double[] rotation,
    double[] translation,
    double[] dataRotation,
    double[] dataTranslation)
{
    /**
     * Khalil's sigma: 0 or R revolute, 1 or P prismatic, 2 or F fixed.
     *
     * @param sigma the cell.
     * @return the joint type.
     */
    static JointType jointType(final YamlField sigma)
    {
        switch (sigma.text())
        {
            case "0":
            case "R":
                return JointType.REVOLUTE;
            case "1":
            case "P":
                return JointType.PRISMATIC;
            case "2":
            case "F":
                return JointType.FIXED;
            default:
                throw sigma.error("joint type '" + sigma.text()
                    + "' is not one of 0 or R (revolute), 1 or P (prismatic), 2 or F (fixed)");
        }
    }

    /**
     * @param row the table row.
     * @return the joint name: the {@code joint} column if the table has one, else the link name.
     */
    static String jointName(final ColumnTable.Row row)
    {
        return row.has("joint") ? row.cell("joint").text() : row.cell("link").text();
    }
}
