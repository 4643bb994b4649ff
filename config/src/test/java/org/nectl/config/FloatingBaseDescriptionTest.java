package org.nectl.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.core.model.RobotModel;

/** {@code base_type: floating} in a YAML description: the base's own inertia under {@code links}, and its errors. */
final class FloatingBaseDescriptionTest
{
    private static final String TABLE = """
        name: swimmer
        format: modified-dh
        base: trunk
        %s
        kinematics:
          columns: [link, joint, sigma, alpha, d, theta, r]
          rows:
            - [arm, shoulder, R, pi/2, 0.2, 0, 0]
        links:
          %s
          arm: {mass: 1, com: [0.1, 0, 0], inertia: {at: com, xx: 0.001, yy: 0.01, zz: 0.01}}
        """;
    private static final String TRUNK = "trunk: {mass: 5, com: [0, 0, 0.05], inertia: {at: com, xx: 0.1, yy: 0.2, zz: 0.3}}";

    @TempDir
    Path dir;

    @Test
    void floatingBaseReadsTheBasesInertiaFromLinks() throws IOException
    {
        final RobotModel model = RobotDescriptions.load(write(TABLE.formatted("base_type: floating", TRUNK)));
        assertTrue(model.floatingBase());
        assertEquals("trunk", model.baseName());
        assertEquals(5.0, model.baseInertia().mass(), 0.0);
        assertEquals(0.25, model.baseInertia().firstMoment()[2], 1e-15);
        assertEquals(1, model.dof());
    }

    @Test
    void withoutBaseTypeTheBaseIsFixedAndMayNotHaveALinksEntry() throws IOException
    {
        assertFalse(RobotDescriptions.load(write(TABLE.formatted("", ""))).floatingBase());
        final DescriptionException e = assertThrows(DescriptionException.class,
            () -> RobotDescriptions.load(write(TABLE.formatted("base_type: fixed", TRUNK))));
        assertEquals("links.trunk", e.field(), e.getMessage());
        assertTrue(e.reason().startsWith("no link named 'trunk' in the kinematics table"), e.getMessage());
    }

    @Test
    void aFloatingBaseWithoutInertiaIsRefusedAtBaseType() throws IOException
    {
        final DescriptionException e = assertThrows(DescriptionException.class,
            () -> RobotDescriptions.load(write(TABLE.formatted("base_type: floating", ""))));
        assertEquals(4, e.line(), e.getMessage());
        assertTrue(e.reason().contains("the base 'trunk' floats but has no entry under 'links'"), e.getMessage());
    }

    @Test
    void anUnknownBaseTypeIsRefusedWithTheAllowedValues() throws IOException
    {
        final DescriptionException e = assertThrows(DescriptionException.class,
            () -> RobotDescriptions.load(write(TABLE.formatted("base_type: flying", TRUNK))));
        assertEquals(4, e.line(), e.getMessage());
        assertTrue(e.reason().contains("fixed, floating"), e.getMessage());
    }

    private Path write(final String text) throws IOException
    {
        final Path file = dir.resolve("swimmer.yaml");
        Files.writeString(file, text);
        return file;
    }
}
