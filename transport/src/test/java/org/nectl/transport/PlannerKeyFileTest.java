package org.nectl.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import org.agrona.concurrent.SystemNanoClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every refusal of a planner key file and of the gateway's address is a {@link SetupException}
 * with an exact message naming the file or address, the line and the rule, never a key's text.
 */
final class PlannerKeyFileTest
{
    private static final String KEY = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

    @TempDir
    Path temp;

    @Test
    void aPrivateFileInAPrivateDirectoryIsRead() throws IOException
    {
        final Path file = keyFile(temp, "1 " + KEY + "\r\n# planner 2\n2 " + KEY + "\n", "rw-------");
        assertEquals(List.of(1L, 2L), List.copyOf(PlannerKeys.read(file).plannerIds()));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--------"));
        assertEquals(List.of(1L, 2L), List.copyOf(PlannerKeys.read(file).plannerIds()));
    }

    @Test
    void aMissingFileOrADirectoryOrADeviceIsRefused()
    {
        final Path missing = temp.resolve("missing.keys");
        assertRefused("planner key file " + missing + ": not found", missing);
        assertRefused("planner key file " + temp + ": not a regular file (a directory)", temp);
        assertRefused("planner key file /dev/zero: not a regular file", Path.of("/dev/zero"));
    }

    @Test
    void aFileLargerThanAnyKeyFileIsRefusedUnread() throws IOException
    {
        final Path file = keyFile(temp, "#".repeat(PlannerKeys.MAX_FILE_BYTES) + "\n", "rw-------");
        assertRefused("planner key file " + file + ": larger than 65536 bytes; not a planner key file", file);
    }

    @Test
    void aFileGroupOrOthersCanReadIsRefusedWithItsMode() throws IOException
    {
        final Path file = keyFile(temp, "1 " + KEY + "\n", "rw-r--r--");
        assertRefused("planner key file " + file + ": mode 0644 lets group or others read or change it; a key file must be"
            + " accessible by its owner only (chmod 600 " + file.toRealPath() + ")", file);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        assertRefused("planner key file " + file + ": mode 0640 lets group or others read or change it; a key file must be"
            + " accessible by its owner only (chmod 600 " + file.toRealPath() + ")", file);
    }

    @Test
    void aPrivateFileInADirectoryOthersCanWriteIsRefusedEvenIfSticky() throws IOException
    {
        final Path directory = Files.createDirectory(temp.resolve("shared"));
        final Path file = keyFile(directory, "1 " + KEY + "\n", "rw-------");
        Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxrwxrwx"));
        final String rule = ", writable by group or others, who could replace the file; keep it in a directory only its owner"
            + " can write (chmod go-w " + directory.toRealPath() + ")";
        assertRefused("planner key file " + file + ": its directory " + directory.toRealPath() + " has mode 0777" + rule, file);
        Files.setAttribute(directory, "unix:mode", 01777);
        assertRefused("planner key file " + file + ": its directory " + directory.toRealPath() + " has mode 1777" + rule, file);
        Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxrwx---"));
        assertRefused("planner key file " + file + ": its directory " + directory.toRealPath() + " has mode 0770" + rule, file);
    }

    @Test
    void aDirectoryAboveThatAnyoneCanWriteIsRefusedUnlessSticky() throws IOException
    {
        final Path above = Files.createDirectory(temp.resolve("above"));
        final Path file = keyFile(Files.createDirectory(above.resolve("keys")), "1 " + KEY + "\n", "rw-------");
        Files.setPosixFilePermissions(above, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertRefused("planner key file " + file + ": directory " + above.toRealPath() + " on its path has mode 0777, writable by"
            + " anyone and not sticky: anyone could swap the directories below it", file);
        Files.setAttribute(above, "unix:mode", 01777);
        assertEquals(List.of(1L), List.copyOf(PlannerKeys.read(file).plannerIds()), "a sticky directory above, like /tmp");
        Files.setPosixFilePermissions(above, PosixFilePermissions.fromString("rwxrwxr-x"));
        assertEquals(List.of(1L), List.copyOf(PlannerKeys.read(file).plannerIds()), "a group-writable directory above (umask 002)");
    }

    @Test
    void aLinkIsFollowedAndItsTargetChecked() throws IOException
    {
        final Path target = keyFile(temp, "1 " + KEY + "\n", "rw-------");
        final Path link = Files.createSymbolicLink(temp.resolve("link.keys"), target);
        assertEquals(List.of(1L), List.copyOf(PlannerKeys.read(link).plannerIds()));
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-rw-rw-"));
        assertRefused("planner key file " + link + ": mode 0666 lets group or others read or change it; a key file must be"
            + " accessible by its owner only (chmod 600 " + target.toRealPath() + ")", link);
    }

    @Test
    void anUnreadableFileIsRefused() throws IOException
    {
        assumeFalse("root".equals(System.getProperty("user.name")), "root reads a file whatever its mode");
        final Path file = keyFile(temp, "1 " + KEY + "\n", "---------");
        assertRefused("planner key file " + file + ": permission denied", file);
    }

    @Test
    void everyMalformedEntryIsRefusedWithItsLineButNotItsText() throws IOException
    {
        final String shape = ": not '<plannerId> <key>' with a key of exactly 64 hex digits (line not shown)";
        assertLineRefused("# header\n1 " + KEY.substring(2) + "\n", ":2" + shape);
        assertLineRefused("1 " + KEY + "00\n", ":1" + shape);
        assertLineRefused("1 " + KEY.replace('a', 'g') + "\n", ":1" + shape);
        assertLineRefused("1\n", ":1" + shape);
        assertLineRefused("one " + KEY + "\n", ":1" + shape);
        assertLineRefused("1 " + KEY + " trailing\n", ":1" + shape);
        assertLineRefused("\n\n4294967296 " + KEY + "\n", ":3: planner id 4294967296 outside 0..4294967295");
        assertLineRefused("7 " + KEY + "\n\n7 " + KEY.toUpperCase(java.util.Locale.ROOT) + "\n", ":3: planner id 7 has a key already");
        assertLineRefused("# no keys\n\n", ": no planner keys (lines '<plannerId> <64 hex digits>')");
        assertLineRefused("1 " + KEY.substring(0, 30) + "\u00e9" + KEY.substring(31) + "\n", ":1" + shape);
    }

    @Test
    void aGatewayAddressThatDoesNotResolveOrIsTakenIsRefused() throws IOException
    {
        final PlannerAuthentication authentication = PlannerAuthentication.loopback(PlannerKeys.none());
        final SetupException unresolved = assertThrows(SetupException.class, () -> new PlannerGateway(PlannerGatewayConfig.defaults(
            InetSocketAddress.createUnresolved("no-such-host.invalid", 47600), authentication), limits(), new SystemNanoClock()));
        assertEquals("planner gateway: UDP no-such-host.invalid:47600: host 'no-such-host.invalid' does not resolve to an address",
            unresolved.getMessage());
        try (DatagramSocket holder = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)))
        {
            final SetupException taken = assertThrows(SetupException.class, () -> new PlannerGateway(PlannerGatewayConfig.defaults(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), holder.getLocalPort()), authentication), limits(),
                new SystemNanoClock()));
            assertEquals("planner gateway: UDP 127.0.0.1:" + holder.getLocalPort() + ": cannot bind: Address already in use",
                taken.getMessage());
        }
    }

    private void assertLineRefused(final String text, final String expectedAfterFileName) throws IOException
    {
        final Path file = keyFile(temp, text, "rw-------");
        final SetupException refusal = assertThrows(SetupException.class, () -> PlannerKeys.read(file));
        assertEquals(file + expectedAfterFileName, refusal.getMessage());
        assertFalse(refusal.getMessage().contains(KEY.substring(4, 20)), "a key's text is never shown");
    }

    private static void assertRefused(final String expectedMessage, final Path file)
    {
        assertEquals(expectedMessage, assertThrows(SetupException.class, () -> PlannerKeys.read(file)).getMessage());
    }

    private static Path keyFile(final Path directory, final String text, final String permissions) throws IOException
    {
        final Path file = directory.resolve("planners.keys");
        Files.deleteIfExists(file);
        Files.writeString(file, text, java.nio.charset.StandardCharsets.ISO_8859_1);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
        return file;
    }

    private static CommandLimits limits()
    {
        return new CommandLimits(new double[] {-1.0}, new double[] {1.0}, new double[] {1.0});
    }
}
