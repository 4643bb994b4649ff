package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * An MCAP reader independent of nectl: the MCAP project's TypeScript library {@code @mcap/core},
 * installed from the npm registry into {@code target/mcap-reader} on first use and run with Node
 * on the test resource {@code mcap/read-mcap.mjs}. Needs {@code node} and {@code npm} on the path
 * (.ci/run installs them where missing).
 */
final class McapReader
{
    /** The version read with. */
    static final String MCAP_CORE = "@mcap/core@2.2.2";
    private static final Path DIRECTORY = Path.of("target", "mcap-reader");

    private McapReader()
    {
    }

    /**
     * @param mcap the file.
     * @return what the reader printed: channels, counts per topic, telemetry ticks, last message per topic.
     */
    static JsonNode read(final Path mcap) throws IOException, InterruptedException
    {
        final Path script = install();
        final Process node = new ProcessBuilder("node", script.toAbsolutePath().toString(), mcap.toAbsolutePath().toString())
            .redirectErrorStream(true).start();
        final String output = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(node.waitFor(120, TimeUnit.SECONDS), "node ended");
        assertEquals(0, node.exitValue(), "node read-mcap.mjs: " + output);
        return new ObjectMapper().readTree(output);
    }

    private static synchronized Path install() throws IOException, InterruptedException
    {
        Files.createDirectories(DIRECTORY);
        final Path script = DIRECTORY.resolve("read-mcap.mjs");
        try (InputStream in = McapReader.class.getResourceAsStream("/mcap/read-mcap.mjs"))
        {
            Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
        }
        if (!Files.isDirectory(DIRECTORY.resolve("node_modules/@mcap/core")))
        {
            final Process npm = new ProcessBuilder("npm", "install", "--prefix", DIRECTORY.toAbsolutePath().toString(),
                "--no-audit", "--no-fund", "--no-save", MCAP_CORE).redirectErrorStream(true).start();
            final String output = new String(npm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(npm.waitFor(300, TimeUnit.SECONDS), "npm install ended");
            assertEquals(0, npm.exitValue(), "npm install " + MCAP_CORE + ": " + output);
        }
        return script;
    }
}
