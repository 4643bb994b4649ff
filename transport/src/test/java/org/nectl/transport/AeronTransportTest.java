package org.nectl.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;

import io.aeron.driver.ThreadingMode;
import org.junit.jupiter.api.Test;
import org.nectl.transport.sbe.DriveMode;

/** Embedded and external media driver configurations with real drivers. */
final class AeronTransportTest
{
    private static final int DOF = 3;

    @Test
    void externalConfigurationUsesTheRunningDriverAndLeavesItsDirectory()
    {
        final AeronTransport host = AeronTransport.launch(AeronConfig.embeddedDefaults());
        final File directory = new File(host.aeronDirectory());
        try (host)
        {
            assertTrue(host.embeddedDriver());
            assertTrue(directory.isDirectory(), "embedded driver directory " + directory);
            try (AeronTransport client = AeronTransport.launch(AeronConfig.external(host.aeronDirectory()));
                ControllerLink controller = new ControllerLink(host.aeron(), LinkConfig.ipcDefaults(), DOF);
                AdapterLink adapter = new AdapterLink(client.aeron(), LinkConfig.ipcDefaults(), DOF))
            {
                assertFalse(client.embeddedDriver());
                Await.until(() -> controller.isConnected() && adapter.isConnected(), "link across two clients");
                final MotorCommandSample command = new MotorCommandSample(DOF).sequence(5L).mode(DriveMode.BRAKE);
                command.tau()[2] = -1.25;
                assertTrue(controller.publishMotorCommand(command) > 0);
                final MotorCommandSample applied = new MotorCommandSample(DOF);
                Await.until(() -> adapter.pollMotorCommand(applied) == 1, "command through the external driver");
                assertEquals(-1.25, applied.tau()[2]);
                assertEquals(DriveMode.BRAKE, applied.mode());
            }
            assertTrue(directory.isDirectory(), "a client of an external driver does not delete its directory");
        }
        assertFalse(directory.exists(), "the embedded driver deletes its directory on close");
    }

    @Test
    void embeddedDefaultsUseAFreshDirectoryEachTime()
    {
        assertNotEquals(AeronConfig.embeddedDefaults().aeronDirectory(), AeronConfig.embeddedDefaults().aeronDirectory());
        assertEquals(ThreadingMode.SHARED, AeronConfig.embeddedDefaults().threadingMode());
    }

    @Test
    void invokerThreadingIsRefusedBecauseNothingWouldRunTheDriver()
    {
        assertThrows(IllegalArgumentException.class,
            () -> new AeronConfig(true, "/dev/shm/unused", ThreadingMode.INVOKER, IdleStrategyKind.BACKOFF));
    }
}
