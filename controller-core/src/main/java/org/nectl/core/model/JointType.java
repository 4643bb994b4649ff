package org.nectl.core.model;

/**
 * How a joint moves its child body relative to the joint frame (Khalil's sigma_j).
 */
public enum JointType
{
    /** Rotation about the joint frame's z axis; sigma = 0. */
    REVOLUTE,
    /** Translation along the joint frame's z axis; sigma = 1. */
    PRISMATIC,
    /** No motion: the child is rigidly attached to its parent; sigma = 2. */
    FIXED;

    /** @return true if the joint has a generalised coordinate. */
    public boolean isMovable()
    {
        return this != FIXED;
    }
}
