package org.nectl.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.MessageHeaderDecoder;
import org.nectl.transport.sbe.ModeRequestDecoder;
import org.nectl.transport.sbe.ModeRequestKind;
import org.nectl.transport.sbe.PlannerHeaderDecoder;
import org.nectl.transport.sbe.RejectReason;

/**
 * docs/PROTOCOL.md is the contract for planners written in other languages: every documented
 * offset, template id and block length must match the generated codecs, every field must be
 * documented, and the example datagram must be accepted by the gateway's validator.
 */
final class ProtocolDocumentTest
{
    private static final Path PROTOCOL = Path.of("..", "docs", "PROTOCOL.md");
    private static final Pattern HEADING = Pattern.compile("^#{2,4} (.+?)\\s*$");
    private static final Pattern ROW = Pattern.compile("^\\| (\\d+) \\| ([A-Za-z.]+) \\| ([^|]+) \\|.*$");
    private static final Pattern TEMPLATE = Pattern.compile("^Template (\\d+), block (\\d+)[,.].*$");
    private static final String PACKAGE = "org.nectl.transport.sbe.";

    @Test
    void everyDocumentedOffsetTemplateAndBlockLengthMatchesTheCodecs() throws Exception
    {
        final Map<String, List<String[]>> sections = sections(Files.readAllLines(PROTOCOL));
        final List<String> mismatches = new ArrayList<>();
        int checkedRows = 0;
        for (final Map.Entry<String, List<String[]>> section : sections.entrySet())
        {
            final Class<?> codec = codecOf(section.getKey());
            final boolean topLevel = !section.getKey().contains(".");
            final int base = topLevel ? Wire.HEADER_LENGTH : 0;
            final TreeSet<String> undocumented = fieldsOf(codec);
            for (final String[] row : section.getValue())
            {
                if (row[0].equals("template"))
                {
                    expect(mismatches, section.getKey() + " template", codec.getField("TEMPLATE_ID").get(null), Integer.valueOf(row[1]));
                    expect(mismatches, section.getKey() + " block", codec.getField("BLOCK_LENGTH").get(null), Integer.valueOf(row[2]));
                    continue;
                }
                final int documented = Integer.parseInt(row[0]);
                final String field = row[1];
                final int actual;
                if (row[2].trim().equals("group"))
                {
                    actual = base + blockLength(codec);
                }
                else
                {
                    actual = base + (int)codec.getMethod(field + "EncodingOffset").invoke(null);
                    undocumented.remove(field);
                }
                expect(mismatches, section.getKey() + "." + field + " offset", actual, documented);
                checkedRows++;
            }
            assertTrue(undocumented.isEmpty(), section.getKey() + " fields missing from PROTOCOL.md: " + undocumented);
        }
        assertTrue(mismatches.isEmpty(), "PROTOCOL.md disagrees with the codecs: " + mismatches);
        assertTrue(checkedRows >= 70, "rows checked: " + checkedRows);
        for (final String message : new String[] {"JointState", "MotorCommand", "AdapterHeartbeat", "TrajectorySegment",
            "StreamSetpoint", "ModeRequest", "EStop", "CommandAck", "CommandReject", "Telemetry",
            "ControllerEvent"})
        {
            assertTrue(sections.containsKey(message), "PROTOCOL.md documents " + message);
        }
    }

    @Test
    void plannerHeaderOffsetsMatchTheCodec() throws IOException
    {
        final Map<String, Integer> rows = new LinkedHashMap<>();
        for (final String line : Files.readAllLines(PROTOCOL))
        {
            final Matcher row = ROW.matcher(line);
            if (row.matches() && row.group(2).startsWith("header."))
            {
                rows.put(row.group(2), Integer.parseInt(row.group(1)));
            }
        }
        assertEquals(Wire.HEADER_LENGTH + PlannerHeaderDecoder.sequenceEncodingOffset(), rows.get("header.sequence"));
        assertEquals(Wire.HEADER_LENGTH + PlannerHeaderDecoder.timestampNsEncodingOffset(), rows.get("header.timestampNs"));
        assertEquals(Wire.HEADER_LENGTH + PlannerHeaderDecoder.plannerIdEncodingOffset(), rows.get("header.plannerId"));
    }

    @Test
    void exampleDatagramIsTheAuthenticationTestVectorAndAValidEnableRequest() throws IOException
    {
        final String text = Files.readString(PROTOCOL);
        final byte[] datagram = hexBlock(text, "## Example datagram");
        final byte[] key = hexBlock(text, "Test key");
        final long plannerId = 7L;
        final UnsafeBuffer buffer = new UnsafeBuffer(datagram);
        final PlannerAuthentication authentication = PlannerAuthentication.loopback(PlannerKeys.of(plannerId, key));
        final long timestampMs = 1_767_225_600_000L;
        final PlannerCommandValidator validator = new PlannerCommandValidator(CommandLimits.unlimited(7), 1472,
            new PlannerCommandAuthenticator(authentication, 1472, () -> timestampMs));
        assertEquals(PlannerCommandValidator.ACCEPTED, validator.validate(buffer, datagram.length));
        final ModeRequestDecoder request = new ModeRequestDecoder().wrapAndApplyHeader(buffer, 0, new MessageHeaderDecoder());
        assertEquals(ModeRequestKind.ENABLE, request.request());
        assertEquals(ControllerKind.COMPUTED_TORQUE, request.controller());
        assertEquals(1L, request.header().sequence());
        assertEquals(timestampMs * 1_000_000L, request.header().timestampNs());
        assertEquals(plannerId, request.header().plannerId());

        final byte[] resigned = datagram.clone();
        new PlannerSigner(PlannerKeys.of(plannerId, key), plannerId, 1472).sign(new UnsafeBuffer(resigned),
            datagram.length - Wire.AUTH_TRAILER_LENGTH);
        assertArrayEquals(datagram, resigned, "the documented trailer is the HMAC-SHA256 of the first 30 bytes");
        final byte[] otherKey = key.clone();
        otherKey[0] ^= 1;
        final PlannerCommandValidator wrongKey = new PlannerCommandValidator(CommandLimits.unlimited(7), 1472,
            new PlannerCommandAuthenticator(PlannerAuthentication.loopback(PlannerKeys.of(plannerId, otherKey)), 1472,
                () -> timestampMs));
        assertEquals(RejectReason.AUTHENTICATION_FAILED.value(), wrongKey.validate(buffer, datagram.length));
        assertFalse(text.contains("TODO"));
    }

    /** The bytes of the first fenced block after {@code marker}, written as hex pairs separated by white space. */
    private static byte[] hexBlock(final String text, final String marker)
    {
        final int section = text.indexOf(marker);
        assertTrue(section >= 0, "PROTOCOL.md contains " + marker);
        final int start = text.indexOf("```", section) + 3;
        final int end = text.indexOf("```", start);
        final String[] hex = text.substring(start, end).trim().split("\\s+");
        final byte[] bytes = new byte[hex.length];
        for (int i = 0; i < hex.length; i++)
        {
            bytes[i] = (byte)Integer.parseInt(hex[i], 16);
        }
        return bytes;
    }

    /** Message and group tables by heading; a "template" pseudo-row carries the Template/block line. */
    private static Map<String, List<String[]>> sections(final List<String> lines)
    {
        final Map<String, List<String[]>> sections = new LinkedHashMap<>();
        List<String[]> current = null;
        for (final String line : lines)
        {
            final Matcher heading = HEADING.matcher(line);
            if (heading.matches())
            {
                current = isCodec(heading.group(1)) ? new ArrayList<>() : null;
                if (current != null)
                {
                    sections.put(heading.group(1), current);
                }
                continue;
            }
            if (current == null)
            {
                continue;
            }
            final Matcher template = TEMPLATE.matcher(line);
            final Matcher row = ROW.matcher(line);
            if (template.matches())
            {
                current.add(new String[] {"template", template.group(1), template.group(2)});
            }
            else if (row.matches())
            {
                current.add(new String[] {row.group(1), row.group(2), row.group(3)});
            }
        }
        return sections;
    }

    private static boolean isCodec(final String name)
    {
        if (!name.matches("[A-Za-z.]+"))
        {
            return false;
        }
        try
        {
            codecOf(name);
            return true;
        }
        catch (final ClassNotFoundException ex)
        {
            return false;
        }
    }

    private static Class<?> codecOf(final String name) throws ClassNotFoundException
    {
        final String[] parts = name.split("\\.");
        final StringBuilder className = new StringBuilder(PACKAGE).append(parts[0]).append("Decoder");
        for (int i = 1; i < parts.length; i++)
        {
            className.append('$').append(Character.toUpperCase(parts[i].charAt(0))).append(parts[i].substring(1)).append("Decoder");
        }
        return Class.forName(className.toString());
    }

    /** Messages declare BLOCK_LENGTH; group decoders a static sbeBlockLength(). */
    private static int blockLength(final Class<?> codec) throws ReflectiveOperationException
    {
        if (codec.getEnclosingClass() == null)
        {
            return codec.getField("BLOCK_LENGTH").getInt(null);
        }
        return (int)codec.getMethod("sbeBlockLength").invoke(null);
    }

    private static TreeSet<String> fieldsOf(final Class<?> codec)
    {
        final TreeSet<String> fields = new TreeSet<>();
        for (final Method method : codec.getMethods())
        {
            if (method.getName().endsWith("EncodingOffset") && Modifier.isStatic(method.getModifiers()))
            {
                fields.add(method.getName().substring(0, method.getName().length() - "EncodingOffset".length()));
            }
        }
        return fields;
    }

    private static void expect(final List<String> mismatches, final String what, final Object actual, final Object documented)
    {
        if (!actual.equals(documented))
        {
            mismatches.add(what + ": codec " + actual + ", document " + documented);
        }
    }
}
