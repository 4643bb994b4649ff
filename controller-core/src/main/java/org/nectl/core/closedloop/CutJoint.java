package org.nectl.core.closedloop;

/**
 * A loop-closure (cut) joint in Khalil's notation (Khalil, "Dynamic modeling of robots using
 * recursive Newton-Euler techniques", ICINCO 2010, §2.2): frame k placed on link i = a(k), at the
 * cut joint's zero position, and frame k+B fixed on link j = a(k+B). The loop is closed when the two
 * frames satisfy the joint's constraints (eq. 3): for a revolute joint their origins and z axes
 * coincide (the cut variable is the rotation about z), for a prismatic joint their z axes coincide
 * and their x axes are parallel (the cut variable is the translation along z), for a spherical joint
 * their origins coincide.
 * The constructor keeps copies of the arrays; the accessors return those copies themselves, which the
 * kinematics read on the real-time path: callers must not modify them.
 *
 * @param name the cut joint's name.
 * @param type what the joint leaves free.
 * @param bodyK body index of link i, -1 for the base.
 * @param rotationK frame k's axes in link i's frame, 9 row-major.
 * @param translationK frame k's origin in link i's frame, m.
 * @param bodyKPlusB body index of link j, -1 for the base.
 * @param rotationKPlusB frame k+B's axes in link j's frame, 9 row-major.
 * @param translationKPlusB frame k+B's origin in link j's frame, m.
 */
public record CutJoint(
    String name,
    Type type,
    int bodyK,
    double[] rotationK,
    double[] translationK,
    int bodyKPlusB,
    double[] rotationKPlusB,
    double[] translationKPlusB)
{
    /** What a cut joint leaves free, and so how many candidate constraint rows it contributes. */
    public enum Type
    {
        /** Rotation about z_k: origins coincide (3 rows) and z axes are parallel (2 rows). */
        REVOLUTE(5),
        /** Any rotation: origins coincide (3 rows). */
        SPHERICAL(3),
        /**
         * Translation along z_k: the origin of k+B on the z_k axis (2 rows), z axes parallel (2 rows)
         * and x_{k+B} without a y component in frame k (1 row).
         */
        PRISMATIC(5);

        private final int rows;

        Type(final int rows)
        {
            this.rows = rows;
        }

        /** @return the number of candidate constraint equations of this joint. */
        public int rows()
        {
            return rows;
        }

        /** @return how many coordinates of frame k+B's origin in frame k are constrained: x, y and z, or x and y. */
        public int originRows()
        {
            return this == PRISMATIC ? 2 : 3;
        }

        /** @return true if the z axes of frames k and k+B must be parallel. */
        public boolean alignsAxes()
        {
            return this != SPHERICAL;
        }

        /** @return true if the rotation about z_k is locked too. */
        public boolean locksRotation()
        {
            return this == PRISMATIC;
        }
    }

    /** Keeps copies of the arrays given. */
    public CutJoint
    {
        rotationK = rotationK.clone();
        translationK = translationK.clone();
        rotationKPlusB = rotationKPlusB.clone();
        translationKPlusB = translationKPlusB.clone();
    }
}
