package org.nectl.core.dynamics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BaseMotionTest
{
    private static final double[] GRAVITY = {0.0, 0.0, -9.81};

    @Test
    void restingBaseReadsMinusGravityAsSpecificForce()
    {
        final BaseMotion rest = new BaseMotion().atRest(GRAVITY);
        assertEquals(BaseMotion.Validity.VALID, rest.validity());
        assertEquals(9.81, rest.specificForce(2), 0.0);
    }

    @Test
    void specificForceOfARolledBaseIsGravityInBaseCoordinates()
    {
        // rolled 90 degrees about world x: the base's y axis points up, so the accelerometer reads +g on y
        final double h = Math.sqrt(0.5);
        final BaseMotion rolled = new BaseMotion().orientation(h, h, 0.0, 0.0).worldAcceleration(0.0, 0.0, 0.0, GRAVITY);
        assertEquals(0.0, rolled.specificForce(0), 1e-15);
        assertEquals(9.81, rolled.specificForce(1), 1e-14);
        assertEquals(0.0, rolled.specificForce(2), 1e-14);
    }

    @Test
    void theFlatBlockRoundTripsInTheWireOrder()
    {
        final double[] block = new double[BaseMotion.BLOCK_LENGTH];
        for (int i = 0; i < block.length; i++)
        {
            block[i] = i + 0.5;
        }
        final BaseMotion m = new BaseMotion().fromBlock(block);
        assertEquals(3.5, m.orientation(3));
        assertEquals(4.5, m.angularVelocity(0));
        assertEquals(7.5, m.angularAcceleration(0));
        assertEquals(12.5, m.specificForce(2));
        final double[] back = new double[BaseMotion.BLOCK_LENGTH];
        m.toBlock(back);
        assertArrayEquals(block, back, 0.0);
    }

    @Test
    void nonFiniteFieldsAndNonUnitQuaternionsAreInvalid()
    {
        assertEquals(BaseMotion.Validity.NON_FINITE, new BaseMotion().angularVelocity(0.0, Double.NaN, 0.0).validity());
        assertEquals(BaseMotion.Validity.NON_FINITE,
            new BaseMotion().specificForce(0.0, 0.0, Double.POSITIVE_INFINITY).validity());
        assertEquals(BaseMotion.Validity.NON_FINITE, new BaseMotion().orientation(Double.NaN, 0, 0, 0).validity());
        assertEquals(BaseMotion.Validity.NON_UNIT_QUATERNION, new BaseMotion().orientation(1.0, 0.01, 0, 0).validity());
        assertEquals(BaseMotion.Validity.NON_UNIT_QUATERNION, new BaseMotion().orientation(0, 0, 0, 0).validity());
        assertEquals(BaseMotion.Validity.VALID, new BaseMotion().orientation(1.0 + 0.9e-5, 0, 0, 0).validity());
    }
}
