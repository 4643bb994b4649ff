package org.nectl.bench;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Locale;

/**
 * The closed-loop and hexapod workloads' cost per call on a host too loaded for JMH's means: batches
 * of calls of each {@link ClosedLoopDynamicsBenchmark} method named, interleaved, and the fastest
 * batch of each kept, the one no other process interrupted.
 * {@code java -cp benchmarks/target/benchmarks.jar org.nectl.bench.ClosedLoopCallCost ROUNDS METHOD...},
 * from the repository root. The methods are called reflectively, a cost included in every number
 * (less than the 61 ns measured for the cheapest workload), so that the runner also drives an older
 * build's benchmark class put first on the class path.
 */
public final class ClosedLoopCallCost
{
    private static final int BATCHES = 300;
    private static final int CALLS = 500;

    private static double sink;

    private ClosedLoopCallCost()
    {
    }

    /**
     * @param args the number of rounds, then the benchmark methods.
     * @throws ReflectiveOperationException if a method is missing or fails.
     */
    public static void main(final String[] args) throws ReflectiveOperationException
    {
        final int rounds = Integer.parseInt(args[0]);
        final ClosedLoopDynamicsBenchmark benchmark = new ClosedLoopDynamicsBenchmark();
        benchmark.setUp();
        final Method[] methods = new Method[args.length - 1];
        for (int w = 0; w < methods.length; w++)
        {
            methods[w] = ClosedLoopDynamicsBenchmark.class.getMethod(args[w + 1]);
        }
        for (int round = 1; round <= rounds; round++)
        {
            final long[] best = new long[methods.length];
            Arrays.fill(best, Long.MAX_VALUE);
            for (int b = 0; b < BATCHES; b++)
            {
                for (int w = 0; w < methods.length; w++)
                {
                    best[w] = Math.min(best[w], batch(benchmark, methods[w]));
                }
            }
            final StringBuilder line = new StringBuilder("round " + round + ":");
            for (int w = 0; w < methods.length; w++)
            {
                line.append(String.format(Locale.ROOT, " %s %.1f ns", methods[w].getName(), (double)best[w] / CALLS));
            }
            System.out.println(line + (sink == 0.5 ? " " : ""));
        }
    }

    private static long batch(final ClosedLoopDynamicsBenchmark benchmark, final Method method)
        throws IllegalAccessException, InvocationTargetException
    {
        final long t0 = System.nanoTime();
        for (int k = 0; k < CALLS; k++)
        {
            sink += ((double[])method.invoke(benchmark))[0];
        }
        return System.nanoTime() - t0;
    }
}
