package org.nectl.transport;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The secret HMAC-SHA256 keys of the planners allowed to command the gateway, one 32-byte key per
 * planner id (docs/PROTOCOL.md, "Authentication"; key file format in docs/DEPLOYMENT.md).
 *
 * <p>Key bytes never leave this class except into a {@link PlannerSigner} or the gateway's
 * authenticator: {@link #toString()} lists planner ids only, and file errors name the line but
 * never its text. Immutable; thread safe; not real-time safe.
 */
public final class PlannerKeys
{
    /** Length of every key, bytes (the HMAC-SHA256 output length, as RFC 2104 section 3 recommends). */
    public static final int KEY_LENGTH = 32;
    /** Largest planner id (uint32 on the wire). */
    public static final long MAX_PLANNER_ID = 0xFFFF_FFFFL;
    /** Largest key file accepted, bytes: some 800 planners' lines; a larger file is refused unread. */
    public static final int MAX_FILE_BYTES = 65_536;

    private static final Pattern LINE = Pattern.compile("(\\d{1,10})\\s+(\\S+)");
    private static final Pattern HEX_KEY = Pattern.compile("[0-9A-Fa-f]{" + 2 * KEY_LENGTH + "}");

    private final Map<Long, byte[]> keys;

    private PlannerKeys(final Map<Long, byte[]> keys)
    {
        this.keys = Collections.unmodifiableMap(new TreeMap<>(keys));
    }

    /**
     * Reads a key file: one {@code <plannerId> <64 hex digits>} per line; blank lines and lines
     * starting with {@code #} are ignored. The file must be protected as OpenSSH requires of a
     * private key: a regular file of at most {@value #MAX_FILE_BYTES} bytes, owned by the user
     * running nectl or root, accessible by its owner only (mode 0600 or 0400), in a directory only
     * its owner can write, below directories that are not writable by group or others unless
     * sticky (docs/DEPLOYMENT.md, "Planner keys").
     *
     * @param file the key file.
     * @return the keys.
     * @throws SetupException naming the file (and line) and the rule broken, never a key's text:
     *     missing, unreadable, not a regular file, too large, too open, in an unsafe directory, a
     *     malformed line, a key of the wrong length, a planner id outside uint32 or given twice, no keys.
     */
    public static PlannerKeys read(final Path file)
    {
        final String[] lines = SecretFile.readAscii(file, "planner key file", MAX_FILE_BYTES).split("\n", -1);
        final Map<Long, byte[]> keys = new TreeMap<>();
        for (int i = 0; i < lines.length; i++)
        {
            final String line = lines[i].strip();
            if (!line.isEmpty() && !line.startsWith("#"))
            {
                parseLine(file, i + 1, line, keys);
            }
        }
        if (keys.isEmpty())
        {
            throw new SetupException(file + ": no planner keys (lines '<plannerId> <64 hex digits>')");
        }
        return new PlannerKeys(keys);
    }

    /** @return no keys: a gateway with these rejects every command as AUTHENTICATION_FAILED. */
    public static PlannerKeys none()
    {
        return new PlannerKeys(Map.of());
    }

    /**
     * @param plannerId the planner.
     * @param key its 32-byte key (copied).
     * @return keys for that one planner.
     */
    public static PlannerKeys of(final long plannerId, final byte[] key)
    {
        checkPlannerId(plannerId);
        if (key.length != KEY_LENGTH)
        {
            throw new IllegalArgumentException("a planner key has " + KEY_LENGTH + " bytes, got " + key.length);
        }
        return new PlannerKeys(Map.of(plannerId, key.clone()));
    }

    /**
     * Generates fresh random keys, for planners started in the same process as the gateway (the
     * demo, tests): nothing else can know them.
     *
     * @param random the source of key bytes.
     * @param plannerIds the planners.
     * @return the keys.
     */
    public static PlannerKeys generate(final SecureRandom random, final long... plannerIds)
    {
        final Map<Long, byte[]> keys = new TreeMap<>();
        for (final long id : plannerIds)
        {
            checkPlannerId(id);
            final byte[] key = new byte[KEY_LENGTH];
            random.nextBytes(key);
            keys.put(id, key);
        }
        return new PlannerKeys(keys);
    }

    /** @return the planner ids that have a key, ascending. */
    public Set<Long> plannerIds()
    {
        return keys.keySet();
    }

    /** @return true if {@code plannerId} has a key. */
    public boolean contains(final long plannerId)
    {
        return keys.containsKey(plannerId);
    }

    /** @return the keys of only {@code plannerId}, for handing one planner its key. */
    public PlannerKeys only(final long plannerId)
    {
        return of(plannerId, key(plannerId));
    }

    /** @return a copy of the key of {@code plannerId}; throws if there is none. */
    byte[] key(final long plannerId)
    {
        final byte[] key = keys.get(plannerId);
        if (key == null)
        {
            throw new IllegalArgumentException("no key for planner " + plannerId + "; keys exist for planners " + keys.keySet());
        }
        return key.clone();
    }

    /** Lists the planner ids only: keys are never printed. */
    @Override
    public String toString()
    {
        return "PlannerKeys[plannerIds=" + keys.keySet() + "]";
    }

    private static void parseLine(final Path file, final int lineNumber, final String line, final Map<Long, byte[]> keys)
    {
        final Matcher m = LINE.matcher(line);
        if (!m.matches() || !HEX_KEY.matcher(m.group(2)).matches())
        {
            throw new SetupException(file + ":" + lineNumber
                + ": not '<plannerId> <key>' with a key of exactly " + 2 * KEY_LENGTH + " hex digits (line not shown)");
        }
        final long id = Long.parseLong(m.group(1));
        if (id > MAX_PLANNER_ID)
        {
            throw new SetupException(file + ":" + lineNumber + ": planner id " + id + " outside 0.." + MAX_PLANNER_ID);
        }
        final String hex = m.group(2);
        final byte[] key = new byte[KEY_LENGTH];
        for (int b = 0; b < KEY_LENGTH; b++)
        {
            key[b] = (byte)Integer.parseInt(hex, 2 * b, 2 * b + 2, 16);
        }
        if (keys.put(id, key) != null)
        {
            throw new SetupException(file + ":" + lineNumber + ": planner id " + id + " has a key already");
        }
    }

    private static void checkPlannerId(final long plannerId)
    {
        if (plannerId < 0 || plannerId > MAX_PLANNER_ID)
        {
            throw new IllegalArgumentException("planner id " + plannerId + " outside 0.." + MAX_PLANNER_ID);
        }
    }
}
