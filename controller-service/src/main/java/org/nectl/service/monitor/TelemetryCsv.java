package org.nectl.service.monitor;

import java.io.IOException;
import java.io.Writer;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.nectl.core.parallel.GoughStewartModel;
import org.nectl.transport.Wire;
import org.nectl.transport.sbe.RejectReason;
import org.nectl.transport.sbe.TelemetryDecoder;

/**
 * Writes Telemetry messages as comma-separated values, one row per message with every field of the
 * schema version the message was encoded with (docs/PROTOCOL.md, "Telemetry"). The columns are
 * generated from the SBE-generated {@link TelemetryDecoder} itself, in wire order: every field the
 * decoder knows and the message's version has, so a field appended to the schema appears without a
 * change here. Scalars are named after the field; enums are written by name; the reject counters
 * are {@code reject_REASON}; per-joint arrays give one column per valid joint, {@code q1..qn}; other
 * arrays {@code name_i}. Doubles are written in Java's shortest round-trip form, unsigned 64-bit
 * integers as unsigned decimals, so a row parses back to the exact values. With {@link PlatformPoses}
 * (a Gough-Stewart platform's leg lengths) each row ends with the measured platform pose.
 *
 * <p>Not thread safe. Not real-time safe.
 */
public final class TelemetryCsv
{
    private static final List<Field> FIELDS = fields();

    private final Writer out;
    private final StringBuilder row = new StringBuilder(8192);
    private final List<Column> columns = new ArrayList<>();
    private int version = -1;
    private int jointCount = -1;
    private final PlatformPoses platformPoses;
    private final double[] legLengths = new double[GoughStewartModel.LEGS];

    /** @param out where rows go; the caller closes it. */
    public TelemetryCsv(final Writer out)
    {
        this(out, null);
    }

    /**
     * @param out where rows go; the caller closes it.
     * @param platformPoses if not null, each row ends with the platform pose of its leg lengths
     *     ({@link PlatformPoses#COLUMNS}).
     */
    public TelemetryCsv(final Writer out, final PlatformPoses platformPoses)
    {
        this.out = out;
        this.platformPoses = platformPoses;
    }

    /**
     * Writes the header line for the version and joint count of {@code decoder}'s message; later
     * rows must have the same.
     *
     * @param decoder wrapped on the first message to record.
     * @throws PlatformPoses.ModelMismatchException with platform poses, if the message does not carry
     *     the platform's six leg lengths.
     */
    public void writeHeader(final TelemetryDecoder decoder) throws IOException
    {
        if (platformPoses != null)
        {
            platformPoses.checkJointCount(decoder.jointCount());
        }
        version = decoder.actingVersion();
        jointCount = decoder.jointCount();
        columns.clear();
        row.setLength(0);
        for (final Field field : FIELDS)
        {
            if (field.sinceVersion > version)
            {
                continue;
            }
            final int entries = field.length == 0 ? 1 : field.length == Wire.MAX_JOINTS ? jointCount : field.length;
            for (int i = 0; i < entries; i++)
            {
                final Column column = new Column(field, field.length == 0 ? -1 : i);
                columns.add(column);
                row.append(columns.size() == 1 ? "" : ",").append(column.name());
            }
        }
        if (platformPoses != null)
        {
            PlatformPoses.COLUMNS.forEach(name -> row.append(',').append(name));
        }
        out.append(row).append('\n');
    }

    /**
     * Writes the message {@code decoder} is wrapped on as a row.
     *
     * @return false (nothing written) if its version or joint count differs from the header's.
     */
    public boolean write(final TelemetryDecoder decoder) throws IOException
    {
        if (decoder.actingVersion() != version || decoder.jointCount() != jointCount)
        {
            return false;
        }
        row.setLength(0);
        for (int c = 0; c < columns.size(); c++)
        {
            if (c > 0)
            {
                row.append(',');
            }
            columns.get(c).appendValue(decoder, row);
        }
        if (platformPoses != null)
        {
            for (int i = 0; i < legLengths.length; i++)
            {
                legLengths[i] = decoder.q(i);
            }
            platformPoses.appendColumns(legLengths, row);
        }
        out.append(row).append('\n');
        return true;
    }

    /** Hands the rows written so far to the file. */
    public void flush() throws IOException
    {
        out.flush();
    }

    /**
     * @param version a Telemetry schema version, 1 or later.
     * @return the length of the root block of that version: the end of its last field, as the
     *     decoder's fields give it (1235 bytes at version 1; every field the decoder knows from the
     *     decoder's own version on).
     */
    public static int blockLength(final int version)
    {
        int end = 0;
        for (final Field field : FIELDS)
        {
            if (field.sinceVersion <= version)
            {
                end = Math.max(end, field.offset + field.encodingLength);
            }
        }
        return end;
    }

    /** @return the RejectReason name of counter {@code r}, or "reserved_r" for counters without one. */
    static String reasonName(final int r)
    {
        for (final RejectReason reason : RejectReason.values())
        {
            if (reason.value() == r)
            {
                return reason.name();
            }
        }
        return "reserved_" + r;
    }

    /** Every field of the decoder, found by the static {@code <field>EncodingOffset()} SBE generates for each, in wire order. */
    private static List<Field> fields()
    {
        final List<Field> fields = new ArrayList<>();
        for (final Method method : TelemetryDecoder.class.getMethods())
        {
            final String suffix = "EncodingOffset";
            if (Modifier.isStatic(method.getModifiers()) && method.getParameterCount() == 0 && method.getName().endsWith(suffix))
            {
                fields.add(field(method.getName().substring(0, method.getName().length() - suffix.length())));
            }
        }
        fields.sort(Comparator.comparingInt(Field::offset));
        return List.copyOf(fields);
    }

    private static Field field(final String name)
    {
        try
        {
            final int offset = (int)TelemetryDecoder.class.getMethod(name + "EncodingOffset").invoke(null);
            final int encodingLength = (int)TelemetryDecoder.class.getMethod(name + "EncodingLength").invoke(null);
            final int sinceVersion = (int)TelemetryDecoder.class.getMethod(name + "SinceVersion").invoke(null);
            final Method length = staticMethod(name + "Length");
            if (length != null)
            {
                final Method accessor = TelemetryDecoder.class.getMethod(name, int.class);
                return new Field(name, offset, encodingLength, sinceVersion, (int)length.invoke(null), accessor,
                    unsigned64(name, accessor));
            }
            final Method accessor = TelemetryDecoder.class.getMethod(name);
            return new Field(name, offset, encodingLength, sinceVersion, 0, accessor, unsigned64(name, accessor));
        }
        catch (final ReflectiveOperationException e)
        {
            throw new IllegalStateException("the generated TelemetryDecoder lacks an accessor of field " + name, e);
        }
    }

    /** A uint64 field: its accessor returns a long whose maximum value, as SBE states it, is negative. */
    private static boolean unsigned64(final String name, final Method accessor) throws ReflectiveOperationException
    {
        final Method max = staticMethod(name + "MaxValue");
        return accessor.getReturnType() == long.class && max != null && (long)max.invoke(null) < 0;
    }

    private static Method staticMethod(final String name)
    {
        try
        {
            return TelemetryDecoder.class.getMethod(name);
        }
        catch (final NoSuchMethodException e)
        {
            return null;
        }
    }

    /**
     * One field of the schema.
     *
     * @param offset from the start of the root block, bytes.
     * @param encodingLength bytes on the wire, all entries of an array.
     * @param length array length, 0 for a scalar.
     */
    private record Field(String name, int offset, int encodingLength, int sinceVersion, int length, Method accessor,
        boolean unsigned64)
    {
    }

    /** One column: a scalar field, or entry {@code index} of an array field. */
    private record Column(Field field, int index)
    {
        String name()
        {
            if (index < 0)
            {
                return field.name;
            }
            if (field.name.equals("rejectCounts"))
            {
                return "reject_" + reasonName(index);
            }
            return field.length == Wire.MAX_JOINTS ? field.name + (index + 1) : field.name + "_" + index;
        }

        void appendValue(final TelemetryDecoder decoder, final StringBuilder row)
        {
            final Object value;
            try
            {
                value = index < 0 ? field.accessor.invoke(decoder) : field.accessor.invoke(decoder, index);
            }
            catch (final IllegalAccessException | InvocationTargetException e)
            {
                throw new IllegalStateException("cannot read Telemetry field " + name(), e);
            }
            if (field.unsigned64)
            {
                row.append(Long.toUnsignedString((long)value));
            }
            else
            {
                row.append(value);
            }
        }
    }
}
