package org.nectl.service.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * The command line that starts another {@code nectl} process with this JVM's java executable and
 * class path, e.g. the simulated arm next to the service. Not real-time safe.
 */
public final class NectlProcess
{
    private NectlProcess()
    {
    }

    /**
     * @param arguments the nectl subcommand and its options.
     * @return java, the JVM options Agrona needs, the class path, the main class and the arguments.
     */
    public static List<String> command(final String... arguments)
    {
        final List<String> command = new ArrayList<>(List.of(
            ProcessHandle.current().info().command().orElse("java"),
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "--add-opens", "java.base/java.nio=ALL-UNNAMED",
            "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
            "-cp", System.getProperty("java.class.path"),
            NectlCommand.class.getName()));
        command.addAll(List.of(arguments));
        return command;
    }
}
