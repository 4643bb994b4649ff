package org.nectl.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.transport.sbe.CommandAckDecoder;
import org.nectl.transport.sbe.CommandRejectDecoder;
import org.nectl.transport.sbe.EStopDecoder;
import org.nectl.transport.sbe.MessageHeaderDecoder;
import org.nectl.transport.sbe.ModeRequestDecoder;
import org.nectl.transport.sbe.PlannerHeaderEncoder;
import org.nectl.transport.sbe.RejectReason;
import org.nectl.transport.sbe.StreamSetpointDecoder;
import org.nectl.transport.sbe.TrajectorySegmentDecoder;

/**
 * HMAC-SHA256 planner authentication: the tag equals the JDK's HmacSHA256 and RFC 4231's vectors;
 * a real gateway on loopback rejects unsigned, wrong-key, unknown-planner, stale, replayed and
 * disallowed-source datagrams, counts each by reason, and verifies without allocating.
 */
final class PlannerAuthenticationTest
{
    private static final int DOF = 7;
    private static final long WINDOW_NS = PlannerAuthentication.DEFAULT_TIME_WINDOW_NS;

    private final PlannerDatagrams datagrams = new PlannerDatagrams();
    private final AtomicLong utcMs = new AtomicLong(PlannerDatagrams.NOW_MS);
    private final List<Throwable> agentErrors = new CopyOnWriteArrayList<>();
    private PlannerGateway gateway;
    private AgentRunner runner;
    private DatagramChannel planner;

    @BeforeEach
    void start() throws IOException
    {
        final PlannerGatewayConfig config = PlannerGatewayConfig.defaults(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), PlannerAuthentication.loopback(PlannerDatagrams.KEYS));
        gateway = new PlannerGateway(config, CommandLimits.unlimited(DOF), new SystemNanoClock(), utcMs::get);
        runner = new AgentRunner(IdleStrategyKind.BACKOFF.create(), agentErrors::add, null, gateway);
        AgentRunner.startOnThread(runner);
        planner = DatagramChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    @AfterEach
    void stop() throws IOException
    {
        planner.close();
        runner.close();
        assertTrue(agentErrors.isEmpty(), "gateway agent errors: " + agentErrors);
    }

    @Test
    void tagEqualsTheJdkHmacOnRandomKeysAndMessagesAndRfc4231Vectors() throws GeneralSecurityException
    {
        final long seed = 0x4D4143L;
        final SplittableRandom random = new SplittableRandom(seed);
        final byte[] tag = new byte[HmacSha256.TAG_LENGTH];
        for (int i = 0; i < 200; i++)
        {
            final byte[] key = new byte[1 + random.nextInt(100)];
            final byte[] message = new byte[random.nextInt(1500)];
            random.nextBytes(key);
            random.nextBytes(message);
            new HmacSha256(key, message.length).compute(new UnsafeBuffer(message), message.length, tag);
            final Mac jdk = Mac.getInstance("HmacSHA256");
            jdk.init(new SecretKeySpec(key, "HmacSHA256"));
            assertArrayEquals(jdk.doFinal(message), tag, "seed " + seed + " case " + i);
        }
        // RFC 4231 (Nystrom, "Identifiers and Test Vectors for HMAC-SHA-224, ... HMAC-SHA-512", 2005), test cases 1 and 2.
        final byte[] key1 = new byte[20];
        Arrays.fill(key1, (byte)0x0b);
        assertTag("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7", key1, "Hi There");
        assertTag("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
            "Jefe".getBytes(StandardCharsets.US_ASCII), "what do ya want for nothing?");
    }

    @Test
    void signedCommandIsAcceptedAndEveryForgeryOrReplayIsRejectedByReason() throws IOException
    {
        final double[] zeros = new double[DOF];
        final byte[] valid = datagrams.setpoint(10L, zeros, zeros);
        assertEquals(RejectReason.NULL_VAL, exchange(valid));
        assertEquals(RejectReason.REPLAYED, exchange(valid), "the same datagram again");
        assertEquals(RejectReason.REPLAYED, exchange(datagrams.setpoint(9L, zeros, zeros)), "an older sequence");

        final byte[] unsigned = datagrams.setpoint(11L, zeros, zeros);
        Arrays.fill(unsigned, unsigned.length - Wire.AUTH_TRAILER_LENGTH, unsigned.length, (byte)0);
        assertEquals(RejectReason.AUTHENTICATION_FAILED, exchange(unsigned), "zero trailer");

        final byte[] wrongKey = datagrams.setpoint(12L, zeros, zeros);
        new PlannerSigner(PlannerKeys.of(PlannerDatagrams.PLANNER_ID, PlannerDatagrams.keyBytes(0x41)), PlannerDatagrams.PLANNER_ID,
            wrongKey.length).sign(new UnsafeBuffer(wrongKey), wrongKey.length - Wire.AUTH_TRAILER_LENGTH);
        assertEquals(RejectReason.AUTHENTICATION_FAILED, exchange(wrongKey), "another key");

        final byte[] otherPlanner = datagrams.setpoint(13L, zeros, zeros);
        new UnsafeBuffer(otherPlanner).putInt(Wire.HEADER_LENGTH + PlannerHeaderEncoder.plannerIdEncodingOffset(), 4243,
            Wire.BYTE_ORDER);
        assertEquals(RejectReason.AUTHENTICATION_FAILED, exchange(datagrams.resign(otherPlanner)), "a planner without a key");

        final byte[] changed = datagrams.setpoint(14L, zeros, zeros);
        changed[changed.length - Wire.AUTH_TRAILER_LENGTH - 1] ^= 1;
        assertEquals(RejectReason.AUTHENTICATION_FAILED, exchange(changed), "a bit changed after signing");

        final byte[] atEdge = datagrams.setpoint(15L, zeros, zeros);
        utcMs.set(PlannerDatagrams.NOW_MS + WINDOW_NS / 1_000_000L);
        assertEquals(RejectReason.NULL_VAL, exchange(atEdge), "timestamp exactly one window old");
        utcMs.set(PlannerDatagrams.NOW_MS + WINDOW_NS / 1_000_000L + 1);
        assertEquals(RejectReason.STALE, exchange(datagrams.setpoint(16L, zeros, zeros)), "1 ms older than the window");
        utcMs.set(PlannerDatagrams.NOW_MS - WINDOW_NS / 1_000_000L - 1);
        assertEquals(RejectReason.STALE, exchange(datagrams.setpoint(17L, zeros, zeros)), "1 ms beyond the window ahead");
        utcMs.set(PlannerDatagrams.NOW_MS);
        assertEquals(RejectReason.NULL_VAL, exchange(datagrams.setpoint(18L, zeros, zeros)), "stale ones consumed no sequence");

        assertEquals(4L, gateway.rejectCount(RejectReason.AUTHENTICATION_FAILED));
        assertEquals(2L, gateway.rejectCount(RejectReason.STALE));
        assertEquals(2L, gateway.rejectCount(RejectReason.REPLAYED));
        assertEquals(3L, gateway.acceptedCount());
        assertEquals(3, gateway.commandQueue().drain(new IgnoringHandler(), 10), "only the accepted commands reach the loop");
    }

    @Test
    void datagramsFromASourceOutsideTheAllowListAreCountedAndNeverAnswered() throws IOException
    {
        final InetAddress other = InetAddress.getByAddress(new byte[] {127, 0, 0, 2});
        try (DatagramChannel stranger = DatagramChannel.open().bind(new InetSocketAddress(other, 0)))
        {
            final double[] zeros = new double[DOF];
            final byte[] signed = datagrams.setpoint(1L, zeros, zeros);
            stranger.send(ByteBuffer.wrap(signed), gateway.localAddress());
            assertEquals(RejectReason.NULL_VAL, exchange(datagrams.setpoint(2L, zeros, zeros)), "the allowed planner is served after it");
            assertEquals(1L, gateway.rejectCount(RejectReason.DISALLOWED_SOURCE));
            stranger.configureBlocking(false);
            assertNull(stranger.receive(ByteBuffer.allocate(64)), "no reply to a disallowed source");
            assertEquals(1L, gateway.acceptedCount());
        }
    }

    @Test
    void verificationAllocatesNothingPerDatagram()
    {
        final PlannerCommandAuthenticator authenticator = new PlannerCommandAuthenticator(
            PlannerAuthentication.loopback(PlannerDatagrams.KEYS), 1472, () -> PlannerDatagrams.NOW_MS);
        final PlannerCommandValidator validator = new PlannerCommandValidator(CommandLimits.unlimited(DOF), 1472, authenticator);
        final PlannerSigner signer = new PlannerSigner(PlannerDatagrams.KEYS, PlannerDatagrams.PLANNER_ID, 1472);
        final byte[] template = datagrams.setpoint(1L, new double[DOF], new double[DOF]);
        final UnsafeBuffer buffer = new UnsafeBuffer(template);
        final int messageLength = template.length - Wire.AUTH_TRAILER_LENGTH;
        final int sequenceOffset = Wire.HEADER_LENGTH + PlannerHeaderEncoder.sequenceEncodingOffset();
        final long[] accepted = new long[1];
        final long[] sequence = {1L};
        final Runnable verifyOne = () ->
        {
            buffer.putLong(sequenceOffset, ++sequence[0], Wire.BYTE_ORDER);
            signer.sign(buffer, messageLength);
            if (validator.validate(buffer, template.length) == PlannerCommandValidator.ACCEPTED)
            {
                accepted[0]++;
            }
        };
        for (int i = 0; i < 20_000; i++)
        {
            verifyOne.run();
        }
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        long least = Long.MAX_VALUE;
        for (int window = 0; window < 10 && least > 0; window++)
        {
            final long overhead = threads.getCurrentThreadAllocatedBytes() - threads.getCurrentThreadAllocatedBytes();
            final long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 2_000; i++)
            {
                verifyOne.run();
            }
            least = Math.min(least, threads.getCurrentThreadAllocatedBytes() - before + overhead);
        }
        assertEquals(0L, least, "bytes allocated by signing and verifying 2000 datagrams (least of up to 10 windows;"
            + " a JIT one-off shows in one window only)");
        assertEquals(sequence[0] - 1L, accepted[0], "every fresh signed datagram verified");
    }

    @Test
    void keyFileIsReadWithoutEverEchoingAKey(@TempDir final Path directory) throws IOException
    {
        final String key = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
        final Path file = directory.resolve("planners.keys");
        Files.writeString(file, "# development\n\n1 " + key + "\n4294967295 " + key.toUpperCase(Locale.ROOT) + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        final PlannerKeys keys = PlannerKeys.read(file);
        assertEquals(List.of(1L, 4294967295L), List.copyOf(keys.plannerIds()));
        assertArrayEquals(HexFormat.of().parseHex(key), keys.key(1L));
        assertFalse(keys.toString().contains("0011"), keys.toString());
        assertFalse(PlannerAuthentication.loopback(keys).toString().toLowerCase(Locale.ROOT).contains("0011"));

        Files.writeString(file, "1 " + key.substring(2) + "\n");
        final IllegalArgumentException shortKey = assertThrows(IllegalArgumentException.class, () -> PlannerKeys.read(file));
        assertTrue(shortKey.getMessage().contains(":1:"), shortKey.getMessage());
        assertFalse(shortKey.getMessage().contains(key.substring(2, 12)), "the key text is never echoed: " + shortKey.getMessage());

        Files.writeString(file, "1 " + key + "\n1 " + key + "\n");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PlannerKeys.read(file)).getMessage().contains("already"));
        Files.writeString(file, "1 " + key + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-r--"));
        assertTrue(assertThrows(SetupException.class, () -> PlannerKeys.read(file)).getMessage().contains(": mode 0664 lets group or others"));
    }

    private static void assertTag(final String expectedHex, final byte[] key, final String message)
    {
        final byte[] bytes = message.getBytes(StandardCharsets.US_ASCII);
        final byte[] tag = new byte[HmacSha256.TAG_LENGTH];
        new HmacSha256(key, bytes.length).compute(new UnsafeBuffer(bytes), bytes.length, tag);
        assertEquals(expectedHex, HexFormat.of().formatHex(tag));
    }

    /** Sends a datagram and returns the reject reason of its reply, or NULL_VAL for an ack. */
    private RejectReason exchange(final byte[] datagram) throws IOException
    {
        planner.send(ByteBuffer.wrap(datagram), gateway.localAddress());
        final ByteBuffer reply = ByteBuffer.allocate(64);
        planner.receive(reply);
        final UnsafeBuffer buffer = new UnsafeBuffer(reply.array(), 0, reply.position());
        final MessageHeaderDecoder header = new MessageHeaderDecoder().wrap(buffer, 0);
        if (header.templateId() == CommandAckDecoder.TEMPLATE_ID)
        {
            return RejectReason.NULL_VAL;
        }
        return new CommandRejectDecoder().wrapAndApplyHeader(buffer, 0, header).reason();
    }

    private static final class IgnoringHandler implements PlannerCommandHandler
    {
        @Override
        public void onTrajectorySegment(final TrajectorySegmentDecoder segment)
        {
        }

        @Override
        public void onStreamSetpoint(final StreamSetpointDecoder setpoint)
        {
        }

        @Override
        public void onModeRequest(final ModeRequestDecoder request)
        {
        }

        @Override
        public void onEStop(final EStopDecoder stop)
        {
        }
    }
}
