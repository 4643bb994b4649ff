package org.nectl.core.dynamics;

/**
 * Fourth-order central-difference Jacobians, the finite-difference oracle of the derivative
 * tests: f'(x) = (f(x-2h) - 8 f(x-h) + 8 f(x+h) - f(x+2h)) / 12h, truncation h^4 f^(5) / 30.
 */
final class CentralDifferences
{
    /** A vector function of a vector, writing into a caller-owned array. */
    interface VectorFunction
    {
        void apply(double[] x, double[] out);
    }

    private CentralDifferences()
    {
    }

    /**
     * @param f the function.
     * @param x the point (left unchanged).
     * @param outputs length of f's value.
     * @param h step.
     * @return the Jacobian, outputs x x.length, row-major: row r = d f_r / d x.
     */
    static double[] jacobian(final VectorFunction f, final double[] x, final int outputs, final double h)
    {
        final int n = x.length;
        final double[] jacobian = new double[outputs * n];
        final double[] value = new double[outputs];
        final double[] point = x.clone();
        final double[] weights = {1.0, -8.0, 8.0, -1.0};
        for (int k = 0; k < n; k++)
        {
            for (int s = 0; s < 4; s++)
            {
                point[k] = x[k] + PolynomialMotion.STEPS[s] * h;
                f.apply(point, value);
                for (int r = 0; r < outputs; r++)
                {
                    jacobian[r * n + k] += weights[s] * value[r] / (12.0 * h);
                }
            }
            point[k] = x[k];
        }
        return jacobian;
    }
}
