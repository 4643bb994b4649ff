package org.nectl.config;

import java.util.SplittableRandom;

import org.nectl.core.model.Transforms;

/**
 * A seeded random serial chain in standard DH with revolute and prismatic joints and full inertias
 * written in the link tip frames, both as a description file and as the plain product of
 * standard-DH transforms that serves as the reference.
 */
final class RandomStandardDh
{
    private final boolean[] prismatic;
    private final double[] theta;
    private final double[] d;
    private final double[] a;
    private final double[] alpha;
    private final double[] mass;
    private final double[][] com;
    private final double[][] inertia;

    RandomStandardDh(final long seed)
    {
        final SplittableRandom rnd = new SplittableRandom(seed);
        final int n = rnd.nextInt(1, 8);
        prismatic = new boolean[n];
        theta = new double[n];
        d = new double[n];
        a = new double[n];
        alpha = new double[n];
        mass = new double[n];
        com = new double[n][];
        inertia = new double[n][];
        for (int i = 0; i < n; i++)
        {
            prismatic[i] = rnd.nextInt(4) == 0;
            theta[i] = rnd.nextDouble(-Math.PI, Math.PI);
            d[i] = rnd.nextDouble(-0.5, 0.5);
            a[i] = rnd.nextDouble(-0.5, 0.5);
            alpha[i] = rnd.nextDouble(-Math.PI, Math.PI);
            mass[i] = rnd.nextDouble(0.1, 5.0);
            com[i] = new double[] {rnd.nextDouble(-0.3, 0.3), rnd.nextDouble(-0.3, 0.3), rnd.nextDouble(-0.3, 0.3)};
            inertia[i] = inertia(rnd);
        }
    }

    private static double[] inertia(final SplittableRandom rnd)
    {
        final double p1 = rnd.nextDouble(0.01, 1.0);
        final double p2 = rnd.nextDouble(0.01, 1.0);
        final double p3 = rnd.nextDouble(Math.abs(p1 - p2) + 1e-3, p1 + p2);
        final double[] r = Transforms.rpy(rnd.nextDouble(-3, 3), rnd.nextDouble(-1.5, 1.5), rnd.nextDouble(-3, 3));
        final double[] full = Transforms.multiply(r, Transforms.multiply(new double[] {p1, 0, 0, 0, p2, 0, 0, 0, p3},
            Transforms.transpose(r)));
        // Symmetrise exactly so the file's six elements describe this very tensor.
        full[3] = full[1];
        full[6] = full[2];
        full[7] = full[5];
        return full;
    }

    int links()
    {
        return prismatic.length;
    }

    double mass(final int i)
    {
        return mass[i];
    }

    double[] com(final int i)
    {
        return com[i].clone();
    }

    double[] inertiaAtCom(final int i)
    {
        return inertia[i].clone();
    }

    /** @return {rotation, translation} of (i-1)T_i = Rz(theta) Tz(d) Tx(a) Rx(alpha) with the joint variable q. */
    double[][] tipTransform(final int i, final double q)
    {
        final double th = theta[i] + (prismatic[i] ? 0.0 : q);
        final double di = d[i] + (prismatic[i] ? q : 0.0);
        final double[] rz = Transforms.rotZ(th);
        final double[] p = Transforms.apply(rz, new double[] {a[i], 0.0, 0.0});
        p[2] += di;
        return new double[][] {Transforms.multiply(rz, Transforms.rotX(alpha[i])), p};
    }

    String yaml()
    {
        final StringBuilder sb = new StringBuilder();
        sb.append("name: random\nformat: standard-dh\nkinematics:\n  columns: [link, sigma, theta, d, a, alpha]\n  rows:\n");
        for (int i = 0; i < links(); i++)
        {
            sb.append("    - [link").append(i).append(", ").append(prismatic[i] ? "P" : "R").append(", ")
                .append(theta[i]).append(", ").append(d[i]).append(", ").append(a[i]).append(", ")
                .append(alpha[i]).append("]\n");
        }
        sb.append("links:\n");
        for (int i = 0; i < links(); i++)
        {
            final double[] j = inertia[i];
            sb.append("  link").append(i).append(":\n    mass: ").append(mass[i])
                .append("\n    com: [").append(com[i][0]).append(", ").append(com[i][1]).append(", ").append(com[i][2])
                .append("]\n    inertia: {at: com, xx: ").append(j[0]).append(", yy: ").append(j[4])
                .append(", zz: ").append(j[8]).append(", xy: ").append(j[1]).append(", xz: ").append(j[2])
                .append(", yz: ").append(j[5]).append("}\n");
        }
        return sb.toString();
    }
}
