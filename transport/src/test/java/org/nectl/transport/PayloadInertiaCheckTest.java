package org.nectl.transport;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/** The PayloadCommand's inertia check: positive semi-definite with principal moments obeying the triangle inequalities. */
class PayloadInertiaCheckTest
{
    @Test
    void theBoundaryBodiesPassAndTheirNeighboursOutsideFail()
    {
        assertTrue(PlannerCommandValidator.physicalInertia(0, 0, 0, 0, 0, 0), "a point mass");
        assertTrue(PlannerCommandValidator.physicalInertia(0, 0, 0, 1e-3, 0, 1e-3), "a thin rod along x");
        assertTrue(PlannerCommandValidator.physicalInertia(1e-3, 0, 0, 1e-3, 0, 2e-3), "a flat disc in xy: Izz = Ixx + Iyy");
        assertFalse(PlannerCommandValidator.physicalInertia(1e-3, 0, 0, 1e-3, 0, 2.001e-3), "Izz above Ixx + Iyy");
        assertFalse(PlannerCommandValidator.physicalInertia(-1e-6, 0, 0, 1e-3, 0, 1e-3), "a negative moment");
    }

    @Test
    void rotatedBoxesPassAndRotatedImpossibleBodiesFail()
    {
        final SplittableRandom random = new SplittableRandom(14);
        for (int n = 0; n < 1000; n++)
        {
            final double a = random.nextDouble(0.0, 0.3);
            final double b = random.nextDouble(0.0, 0.3);
            final double c = random.nextDouble(0.0, 0.3);
            final double m = random.nextDouble(0.0, 20.0);
            // A solid box's principal moments always obey the triangle inequalities.
            final double[] box = {m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12};
            final double[] r = rotation(random);
            final double[] i = rotated(r, box);
            assertTrue(PlannerCommandValidator.physicalInertia(i[0], i[1], i[2], i[4], i[5], i[8]), "box, seed 14, sample " + n);
            final double[] impossible = {box[0], box[1], (box[0] + box[1]) * 1.01 + 1e-6};
            final double[] j = rotated(r, impossible);
            assertFalse(PlannerCommandValidator.physicalInertia(j[0], j[1], j[2], j[4], j[5], j[8]),
                "moments breaking the triangle inequality, seed 14, sample " + n);
        }
    }

    /** A random rotation from a unit quaternion, row-major. */
    private static double[] rotation(final SplittableRandom random)
    {
        double w = random.nextGaussian();
        double x = random.nextGaussian();
        double y = random.nextGaussian();
        double z = random.nextGaussian();
        final double n = Math.sqrt(w * w + x * x + y * y + z * z);
        w /= n;
        x /= n;
        y /= n;
        z /= n;
        return new double[] {
            1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
            2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
            2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)};
    }

    /** R diag(d) R^T, row-major. */
    private static double[] rotated(final double[] r, final double[] d)
    {
        final double[] out = new double[9];
        for (int row = 0; row < 3; row++)
        {
            for (int col = 0; col < 3; col++)
            {
                double sum = 0.0;
                for (int k = 0; k < 3; k++)
                {
                    sum += r[3 * row + k] * d[k] * r[3 * col + k];
                }
                out[3 * row + col] = sum;
            }
        }
        return out;
    }
}
