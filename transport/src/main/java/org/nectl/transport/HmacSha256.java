package org.nectl.transport;

import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

import org.agrona.DirectBuffer;

/**
 * HMAC-SHA256 (Krawczyk, Bellare, Canetti, "HMAC: Keyed-Hashing for Message Authentication",
 * RFC 2104, 1997, section 2) computed into caller-owned arrays. {@code javax.crypto.Mac} allocates
 * its result inside every {@code doFinal}, even the one that writes into a caller's array (48 bytes
 * per call on JDK 17), so the two hash passes are driven through one {@link MessageDigest}, whose
 * {@code digest(byte[], int, int)} writes in place.
 *
 * <p>Holds the key's inner and outer pads; never prints them. Real-time safe after construction.
 * Not thread safe.
 */
final class HmacSha256
{
    /** Tag length, bytes. */
    static final int TAG_LENGTH = 32;

    private static final int BLOCK_LENGTH = 64;
    private static final byte IPAD = 0x36;
    private static final byte OPAD = 0x5c;

    private final MessageDigest sha256;
    private final byte[] innerPad = new byte[BLOCK_LENGTH];
    private final byte[] outerPad = new byte[BLOCK_LENGTH];
    private final byte[] message;
    private final byte[] innerHash = new byte[TAG_LENGTH];

    /**
     * Not real-time safe.
     *
     * @param key the secret key, any length (RFC 2104: longer than 64 bytes is hashed first).
     * @param maxMessageLength longest message {@link #compute(DirectBuffer, int, byte[])} accepts, bytes.
     */
    HmacSha256(final byte[] key, final int maxMessageLength)
    {
        sha256 = sha256();
        final byte[] k = key.length > BLOCK_LENGTH ? sha256.digest(key) : key;
        for (int i = 0; i < BLOCK_LENGTH; i++)
        {
            final byte ki = i < k.length ? k[i] : 0;
            innerPad[i] = (byte)(ki ^ IPAD);
            outerPad[i] = (byte)(ki ^ OPAD);
        }
        message = new byte[maxMessageLength];
    }

    /**
     * Computes the tag of the first {@code length} bytes of {@code buffer}. Real-time safe.
     *
     * @param buffer message from offset 0.
     * @param length message length, at most the maximum given at construction.
     * @param tag receives the 32-byte tag at offset 0.
     */
    void compute(final DirectBuffer buffer, final int length, final byte[] tag)
    {
        buffer.getBytes(0, message, 0, length);
        compute(message, length, tag);
    }

    /** As {@link #compute(DirectBuffer, int, byte[])} for a message in an array. Real-time safe. */
    void compute(final byte[] bytes, final int length, final byte[] tag)
    {
        try
        {
            // RFC 2104 section 2: H(K xor opad, H(K xor ipad, text)).
            sha256.update(innerPad);
            sha256.update(bytes, 0, length);
            sha256.digest(innerHash, 0, TAG_LENGTH);
            sha256.update(outerPad);
            sha256.update(innerHash);
            sha256.digest(tag, 0, TAG_LENGTH);
        }
        catch (final DigestException ex)
        {
            throw new IllegalStateException("SHA-256 digest into a 32-byte array failed", ex);
        }
    }

    /**
     * Compares two tags in time independent of where they differ, so a forger cannot learn a tag
     * byte by byte from reply timing. Real-time safe.
     *
     * @return true if {@code expected[0..32)} equals the 32 bytes of {@code buffer} at {@code offset}.
     */
    static boolean tagsEqual(final byte[] expected, final DirectBuffer buffer, final int offset)
    {
        int difference = 0;
        for (int i = 0; i < TAG_LENGTH; i++)
        {
            difference |= expected[i] ^ buffer.getByte(offset + i);
        }
        return difference == 0;
    }

    private static MessageDigest sha256()
    {
        try
        {
            return MessageDigest.getInstance("SHA-256");
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("every Java platform provides SHA-256", ex);
        }
    }
}
