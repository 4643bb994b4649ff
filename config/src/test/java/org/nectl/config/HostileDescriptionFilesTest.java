package org.nectl.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.function.Executable;
import org.nectl.config.deploy.DeploymentConfigs;
import org.nectl.config.urdf.UrdfReader;

/**
 * Files built to exhaust a reader are refused with file, line, column and the limit, in memory
 * proportional to the limits: every file here once took a stack overflow, gigabytes of heap or a
 * minute. Allocation is measured with the thread's allocation counter, not the clock.
 */
class HostileDescriptionFilesTest
{
    /**
     * Before the limits, the 1.4 MB nested URDF allocated 6.4 GB; now 7 MB (the nested YAML 3 MB).
     * A bound two orders below the old figure tells the two apart.
     */
    private static final long ALLOCATION_BOUND_BYTES = 64L << 20;

    @TempDir
    Path dir;

    @Test
    void aUrdfNested200000DeepIsRefusedAtTheDepthLimitInBoundedMemory() throws IOException
    {
        final int depth = 200_000;
        final Path file = dir.resolve("nested.urdf");
        final String head = "<robot name=\"r\">\n<link name=\"a\"/>\n";
        Files.writeString(file, head + "<x>".repeat(depth) + "</x>".repeat(depth) + "</robot>\n");
        assertTrue(Files.size(file) > 1_400_000, "the file of the report is 1.4 MB");
        final DescriptionException e = refusedWithin(ALLOCATION_BOUND_BYTES, () -> RobotDescriptions.load(file));
        assertEquals(3, e.line(), e.getMessage());
        // <robot> is level 1, so the 64th <x> is level 65, the first too deep.
        assertEquals(1 + 3 * (UrdfReader.MAX_DEPTH - 1), e.column(), e.getMessage());
        assertTrue(e.getMessage().contains("nested more than 64 levels deep here; the limit is 64"), e.getMessage());
    }

    @Test
    void aUrdfOfAMillionEmptyElementsIsRefusedAtTheElementLimitInBoundedMemory() throws IOException
    {
        final Path file = dir.resolve("flat.urdf");
        Files.writeString(file, "<robot name=\"r\">\n<link name=\"a\"/>\n" + "<x/>".repeat(1_000_000) + "\n</robot>\n");
        // 200 000 elements are kept before the refusal: measured 44 MB.
        final DescriptionException e = refusedWithin(96L << 20, () -> RobotDescriptions.load(file));
        assertEquals(3, e.line(), e.getMessage());
        // The root and the link are the first two elements.
        assertEquals(1 + 4 * (UrdfReader.MAX_ELEMENTS - 2), e.column(), e.getMessage());
        assertTrue(e.reason().equals("the file has more than 200000 elements; the limit is 200000"), e.getMessage());
    }

    @Test
    void yamlNested3000DeepIsRefusedWithItsLineInRobotAndDeploymentFiles() throws IOException
    {
        final String nested = "[".repeat(3000) + "]".repeat(3000);
        final Path robot = dir.resolve("nested.yaml");
        Files.writeString(robot, "name: arm\nformat: modified-dh\nkinematics: " + nested + "\n");
        final DescriptionException r = refusedWithin(ALLOCATION_BOUND_BYTES, () -> RobotDescriptions.load(robot));
        assertEquals(3, r.line(), r.getMessage());
        // The root mapping is level 1, so the 64th '[' is level 65, the first too deep.
        assertEquals("kinematics: ".length() + YamlField.MAX_NESTING_DEPTH, r.column(), r.getMessage());
        assertTrue(r.getMessage().contains("nested more than 64 levels deep here; the limit is 64"), r.getMessage());

        final Path deployment = dir.resolve("deploy.yaml");
        Files.writeString(deployment, "model: robot.yaml\ncontrol:\n  gains: " + "{a: ".repeat(3000) + "1"
            + "}".repeat(3000) + "\n");
        final DescriptionException d = assertThrows(DescriptionException.class, () -> DeploymentConfigs.load(deployment));
        assertEquals(deployment.toString(), d.file());
        assertEquals(3, d.line(), d.getMessage());
        assertTrue(d.getMessage().contains("the limit is 64"), d.getMessage());
    }

    @Test
    void aYamlLargerThanTheLimitIsRefusedBeforeParsing() throws IOException
    {
        final Path file = dir.resolve("big.yaml");
        final byte[] line = "  l: {mass: 1.0, com: [0, 0, 0]}\n".getBytes(StandardCharsets.UTF_8);
        try (OutputStream out = Files.newOutputStream(file))
        {
            out.write("name: x\nformat: modified-dh\nlinks:\n".getBytes(StandardCharsets.UTF_8));
            for (long written = 0; written < 20_000_000; written += line.length)
            {
                out.write(line);
            }
        }
        // Reading only the file's size: far less than the file itself.
        final DescriptionException e = refusedWithin(1L << 20, () -> RobotDescriptions.load(file));
        assertEquals(0, e.line(), e.getMessage());
        assertTrue(e.getMessage().endsWith("bytes, more than the limit of 1048576 bytes for a YAML file"), e.getMessage());
    }

    @Test
    void invalidUtf8IsReportedAtItsLineColumnAndByteOffset() throws IOException
    {
        final Path yaml = dir.resolve("latin1.yaml");
        Files.write(yaml, "name: caf\u00e9\nformat: modified-dh\n# na\u00efve\n".getBytes(StandardCharsets.ISO_8859_1));
        final DescriptionException y = assertThrows(DescriptionException.class, () -> RobotDescriptions.load(yaml));
        assertEquals(1, y.line(), y.getMessage());
        assertEquals(10, y.column(), y.getMessage());
        assertTrue(y.getMessage().endsWith("byte 0xE9 at byte offset 9 is not valid UTF-8; the file must be UTF-8 encoded"),
            y.getMessage());

        final Path urdf = dir.resolve("latin1.urdf");
        Files.write(urdf, "<robot name=\"r\">\n  <link name=\"\u00e4\"/>\n</robot>\n"
            .getBytes(StandardCharsets.ISO_8859_1));
        final DescriptionException u = assertThrows(DescriptionException.class, () -> RobotDescriptions.load(urdf));
        assertEquals(2, u.line(), u.getMessage());
        assertEquals(15, u.column(), u.getMessage());
        assertTrue(u.getMessage().contains("byte 0xE4 at byte offset 31 is not valid UTF-8"), u.getMessage());
    }

    @Test
    void aColumnCountsCharactersNotBytesBeforeTheInvalidByte() throws IOException
    {
        final Path yaml = dir.resolve("mixed.yaml");
        final byte[] valid = "name: \u00e9\u00e9 ".getBytes(StandardCharsets.UTF_8);
        final byte[] bytes = new byte[valid.length + 1];
        System.arraycopy(valid, 0, bytes, 0, valid.length);
        bytes[valid.length] = (byte)0xFF;
        Files.write(yaml, bytes);
        final DescriptionException e = assertThrows(DescriptionException.class, () -> RobotDescriptions.load(yaml));
        assertEquals(1, e.line(), e.getMessage());
        assertEquals(10, e.column(), e.getMessage());
        assertTrue(e.getMessage().contains("byte 0xFF at byte offset 11"), e.getMessage());
    }

    @Test
    void aDirectoryOrADeviceIsNotARegularFileAndADeviceIsNeverRead() throws IOException
    {
        final Path directory = Files.createDirectory(dir.resolve("arm.urdf"));
        final DescriptionException d = assertThrows(DescriptionException.class, () -> RobotDescriptions.load(directory));
        assertEquals(directory + ": not a regular file (a directory); expected a URDF file", d.getMessage());

        final Path zero = Files.createSymbolicLink(dir.resolve("zero.yaml"), Path.of("/dev/zero"));
        final DescriptionException z = refusedWithin(1L << 20, () -> RobotDescriptions.load(zero));
        assertEquals(zero + ": not a regular file (a device, pipe or socket); expected a YAML file", z.getMessage());

        final DescriptionException m = assertThrows(DescriptionException.class,
            () -> RobotDescriptions.load(dir.resolve("missing.urdf")));
        assertEquals(dir.resolve("missing.urdf") + ": no such file", m.getMessage());
    }

    @Test
    void aDeploymentWhoseModelIsADirectorySaysSo() throws IOException
    {
        Files.createDirectory(dir.resolve("robots"));
        final Path deployment = dir.resolve("deploy.yaml");
        Files.writeString(deployment, "model: robots\n");
        final DescriptionException e = assertThrows(DescriptionException.class, () -> DeploymentConfigs.load(deployment));
        assertEquals(1, e.line(), e.getMessage());
        assertEquals("model", e.field(), e.getMessage());
        assertTrue(e.getMessage().contains("robot description 'robots' is not a regular file (a directory"),
            e.getMessage());
    }

    @Test
    void anAstronomicalMassIsBlamedOnItsOwnLineAndTheMassRule() throws IOException
    {
        final Path yaml = dir.resolve("heavy.yaml");
        Files.writeString(yaml, "name: heavy\nformat: modified-dh\nkinematics:\n"
            + "  columns: [link, sigma, alpha, d, theta, r]\n  rows:\n    - [link1, R, 0, 0, 0, 0]\n"
            + "links:\n  link1:\n    mass: 1e308\n    com: [-0.2, 0, 0]\n"
            + "    inertia: {at: com, xx: 0.05, yy: 0.05, zz: 0.1}\n");
        final DescriptionException y = assertThrows(DescriptionException.class, () -> RobotDescriptions.load(yaml));
        assertEquals(9, y.line(), y.getMessage());
        assertEquals("links.link1.mass", y.field(), y.getMessage());
        assertTrue(y.reason().startsWith("mass 1.0E308 kg is more than the limit of 1000000.0 kg"), y.getMessage());

        final Path urdf = dir.resolve("heavy.urdf");
        Files.writeString(urdf, "<robot name=\"r\">\n  <link name=\"a\"/>\n  <link name=\"b\">\n    <inertial>\n"
            + "      <origin xyz=\"0.2 0 0\"/>\n      <mass value=\"1e308\"/>\n"
            + "      <inertia ixx=\"0.05\" ixy=\"0\" ixz=\"0\" iyy=\"0.05\" iyz=\"0\" izz=\"0.1\"/>\n    </inertial>\n"
            + "  </link>\n  <joint name=\"j\" type=\"continuous\"><parent link=\"a\"/><child link=\"b\"/></joint>\n"
            + "</robot>\n");
        final DescriptionException u = assertThrows(DescriptionException.class, () -> RobotDescriptions.load(urdf));
        assertEquals(6, u.line(), u.getMessage());
        assertEquals("/robot/link[@name='b']/inertial/mass", u.field(), u.getMessage());
        assertTrue(u.reason().startsWith("mass 1.0E308 kg is more than the limit"), u.getMessage());
    }

    @Test
    void aCentreOfMassSoFarThatTheInertiaOverflowsIsBlamedOnTheCentreOfMass() throws IOException
    {
        final Path urdf = dir.resolve("far.urdf");
        Files.writeString(urdf, "<robot name=\"r\">\n  <link name=\"a\"/>\n  <link name=\"b\">\n    <inertial>\n"
            + "      <origin xyz=\"1e200 0 0\"/>\n      <mass value=\"1\"/>\n"
            + "      <inertia ixx=\"0.05\" ixy=\"0\" ixz=\"0\" iyy=\"0.05\" iyz=\"0\" izz=\"0.1\"/>\n    </inertial>\n"
            + "  </link>\n  <joint name=\"j\" type=\"continuous\"><parent link=\"a\"/><child link=\"b\"/></joint>\n"
            + "</robot>\n");
        final DescriptionException e = assertThrows(DescriptionException.class, () -> RobotDescriptions.load(urdf));
        assertEquals(5, e.line(), e.getMessage());
        assertEquals("/robot/link[@name='b']/inertial/origin", e.field(), e.getMessage());
        assertTrue(e.reason().contains("not a finite number"), e.getMessage());
    }

    private static DescriptionException refusedWithin(final long allocationBoundBytes, final Executable load)
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final long before = threads.getCurrentThreadAllocatedBytes();
        final DescriptionException e = assertThrows(DescriptionException.class, load);
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < allocationBoundBytes,
            "allocated " + allocated + " bytes, bound " + allocationBoundBytes + ": " + e.getMessage());
        return e;
    }
}
