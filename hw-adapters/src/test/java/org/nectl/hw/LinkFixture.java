package org.nectl.hw;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.agrona.CloseHelper;
import org.nectl.transport.AdapterLink;
import org.nectl.transport.AeronConfig;
import org.nectl.transport.AeronTransport;
import org.nectl.transport.ControllerLink;
import org.nectl.transport.LinkConfig;

/**
 * A real hardware link for tests: an embedded media driver in its own fresh directory (deleted on
 * close), the adapter end and the controller end on the documented IPC streams.
 */
final class LinkFixture implements AutoCloseable
{
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    final AeronTransport transport;
    final AdapterLink adapterLink;
    final ControllerLink controllerLink;

    LinkFixture(final int jointCount)
    {
        transport = AeronTransport.launch(AeronConfig.embeddedDefaults());
        adapterLink = new AdapterLink(transport.aeron(), LinkConfig.ipcDefaults(), jointCount);
        controllerLink = new ControllerLink(transport.aeron(), LinkConfig.ipcDefaults(), jointCount);
        awaitCondition(() -> adapterLink.isConnected() && controllerLink.isConnected(), "both link ends connected");
    }

    /** Evaluates the condition until it holds, failing with {@code what} after 10 s; never sleeps. */
    static void awaitCondition(final BooleanSupplier condition, final String what)
    {
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                fail("no " + what + " within " + TimeUnit.NANOSECONDS.toSeconds(TIMEOUT_NS) + " s");
            }
            Thread.yield();
        }
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(controllerLink, adapterLink, transport);
    }
}
