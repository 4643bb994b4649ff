package org.nectl.config.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.config.DescriptionException;
import org.nectl.config.ShippedRobots;

/**
 * Each rule a deployment file can break is rejected with a message that names the file, the line,
 * the field, the value and the rule. Every case starts from one valid file and changes one line.
 */
final class DeploymentValidationTest
{
    /** A valid file for the two-link arm; the line numbers below refer to it. */
    private static final String VALID = """
        model: arm.yaml
        mode: realtime
        period_us: 1000
        core: 1
        aeron:
          embedded_driver: true
          dir: /dev/shm/aeron-test
        planner:
          bind: 127.0.0.1:47600
        telemetry:
          channel: aeron:ipc
          stream: 1010
          decimation: 10
        hardware:
          channel: aeron:ipc
          joint_state_stream: 1001
          motor_command_stream: 1002
          heartbeat_stream: 1003
        control:
          law: computed_torque
          kp: 400
          kd: [40, 30]
          pd_kp: [60, 25]
          pd_kd: 5
          friction_feedforward: true
        supervision:
          heartbeat_timeout_ms: 20
          max_missing_states: 4
          command_timeout_ms: 250
          position_margin: 0.1
          max_saturated_ms: 150
        gravity: [0, 0, -9.81]
        """;

    @TempDir
    Path dir;

    @Test
    void theUnchangedFileLoads() throws IOException
    {
        assertEquals(2, DeploymentConfigs.load(TestDeployments.write(dir, VALID)).model().dof());
    }

    @Test
    void plannerAuthenticationIsReadWithTheKeyFileResolvedAndNeverOpened() throws IOException
    {
        Files.writeString(dir.resolve("planners.keys"), "not read by the config module\n");
        final DeploymentConfig config = DeploymentConfigs.load(TestDeployments.write(dir, replaceLine(VALID, 9,
            "  bind: 127.0.0.1:47600\n  keys: planners.keys\n  allowed_sources: [10.0.0.2, \"::1\"]\n  time_window_ms: 500")));
        final PlannerAuthenticationSettings auth = config.plannerAuthentication();
        assertEquals(dir.resolve("planners.keys").toAbsolutePath().normalize(), auth.keyFile().orElseThrow());
        assertEquals(List.of(InetAddress.getByName("10.0.0.2"), InetAddress.getByName("::1")), auth.allowedSources());
        assertEquals(500L, auth.timeWindowMs());
        final PlannerAuthenticationSettings defaults = DeploymentConfigs.load(TestDeployments.write(dir, VALID)).plannerAuthentication();
        assertTrue(defaults.keyFile().isEmpty(), "no key file unless written: every planner command is rejected");
        assertEquals(List.of(InetAddress.getByName("127.0.0.1"), InetAddress.getByName("::1")), defaults.allowedSources());
        assertEquals(PlannerAuthenticationSettings.DEFAULT_TIME_WINDOW_MS, defaults.timeWindowMs());
    }

    @Test
    void badPlannerAuthenticationSettingsAreRejected() throws IOException
    {
        rejects(9, "  bind: 127.0.0.1:47600\n  keys: missing.keys", 10, "planner.keys", "planner key file 'missing.keys' not found");
        rejects(9, "  bind: 127.0.0.1:47600\n  allowed_sources: [127.0.0.1, controller.local]", 10, "planner.allowed_sources[1]",
            "not an IPv4 or IPv6 address");
        rejects(9, "  bind: 127.0.0.1:47600\n  allowed_sources: [127.0.0.256]", 10, "planner.allowed_sources[0]",
            "not an IPv4 or IPv6 address");
        rejects(9, "  bind: 127.0.0.1:47600\n  time_window_ms: 0", 10, "planner.time_window_ms");
    }

    @Test
    void anUnknownKeyIsRejectedWithASuggestion() throws IOException
    {
        rejects(3, "perod_us: 1000", 3, "perod_us", "unknown key 'perod_us'", "did you mean 'period_us'?");
    }

    @Test
    void anUnknownKeyInASectionIsRejectedWithASuggestion() throws IOException
    {
        rejects(12, "  strem: 1010", 12, "telemetry.strem", "unknown key 'strem'", "did you mean 'stream'?");
    }

    @Test
    void aMissingModelIsRejected() throws IOException
    {
        rejects(1, "# no model", 2, "model", "missing field 'model'");
    }

    @Test
    void aFloatingBaseRobotIsRejected() throws IOException
    {
        Files.copy(ShippedRobots.configDirectory("nectl.robots.dir", "robots").resolve("quadruped-12.urdf"),
            dir.resolve("quadruped.urdf"));
        rejects(1, "model: quadruped.urdf", 1, "model", "has a floating base", "base: {carried: true}");
    }

    @Test
    void aMissingModelFileIsRejectedWithTheResolvedPath() throws IOException
    {
        rejects(1, "model: robots/none.yaml", 1, "model", "'robots/none.yaml' not found", dir.resolve("robots").toString());
    }

    @Test
    void anErrorInTheModelFileNamesTheModelFile() throws IOException
    {
        final Path file = TestDeployments.write(dir, VALID);
        Files.writeString(dir.resolve(TestDeployments.ROBOT), "name: arm\nformat: modified-dh\nkinematic: {}\n");
        final DescriptionException e = assertThrows(DescriptionException.class, () -> DeploymentConfigs.load(file));
        assertEquals(dir.resolve(TestDeployments.ROBOT).toString(), e.file(), e.getMessage());
        assertEquals(3, e.line(), e.getMessage());
        assertEquals("kinematic", e.field(), e.getMessage());
    }

    @Test
    void malformedYamlIsRejectedAtItsLine() throws IOException
    {
        rejects(9, "  bind: [127.0.0.1:47600", 10, "", "malformed YAML");
    }

    @Test
    void anUnknownModeIsRejectedWithASuggestion() throws IOException
    {
        rejects(2, "mode: lock-step", 2, "mode", "unknown mode 'lock-step'", "did you mean 'lockstep'?",
            "allowed: realtime, lockstep");
    }

    @Test
    void anUnknownControlLawIsRejectedWithASuggestion() throws IOException
    {
        rejects(20, "  law: computed-torque", 20, "control.law", "unknown control law 'computed-torque'",
            "did you mean 'computed_torque'?");
    }

    @Test
    void aWordWhereANumberBelongsIsRejected() throws IOException
    {
        rejects(3, "period_us: fast", 3, "period_us", "value 'fast' is not a whole number");
    }

    @Test
    void aFractionWhereAWholeNumberBelongsIsRejected() throws IOException
    {
        rejects(3, "period_us: 1000.5", 3, "period_us", "value '1000.5' is not a whole number");
    }

    @Test
    void aQuotedNumberIsRejected() throws IOException
    {
        rejects(21, "  kp: \"400\"", 21, "control.kp", "quoted string, expected a number");
    }

    @Test
    void aNonBooleanFlagIsRejected() throws IOException
    {
        rejects(25, "  friction_feedforward: yes", 25, "control.friction_feedforward",
            "value 'yes' is not a boolean (expected true or false)");
    }

    @Test
    void aValueWhereASectionBelongsIsRejected() throws IOException
    {
        rejectsIn("model: arm.yaml\ntelemetry: on\n", 2, "telemetry", "expected a mapping", "found 'on'");
    }

    @Test
    void aNonFiniteGainIsRejected() throws IOException
    {
        rejects(24, "  pd_kd: .inf", 24, "control.pd_kd", "value '.inf' is not a finite number");
    }

    @Test
    void aNonFiniteGravityComponentIsRejected() throws IOException
    {
        rejects(32, "gravity: [0, .nan, -9.81]", 32, "gravity[1]", "value '.nan' is not a finite number");
    }

    @Test
    void aPeriodShorterThanTenKilohertzIsRejectedNamingTheLimit() throws IOException
    {
        rejects(3, "period_us: 50", 3, "period_us", "value 50 is outside the allowed range 100..10000");
    }

    @Test
    void aNegativeCoreIsRejectedNamingTheLimit() throws IOException
    {
        rejects(4, "core: -1", 4, "core", "value -1 is outside the allowed range 0..1023");
    }

    @Test
    void aRealtimePriorityAboveLinuxsMaximumIsRejectedNamingTheLimit() throws IOException
    {
        rejects(4, "realtime_priority: 100", 4, "realtime_priority", "value 100 is outside the allowed range 1..99");
    }

    @Test
    void aDriverTimeoutOutsideTwoToSixtySecondsIsRejectedWithTheReason() throws IOException
    {
        rejects(7, "  dir: /dev/shm/aeron-test\n  driver_timeout_ms: 1000", 8, "aeron.driver_timeout_ms",
            "value 1000 is outside the allowed range 2000..60000", "heartbeat only once a second");
        rejects(7, "  dir: /dev/shm/aeron-test\n  driver_timeout_ms: 600000", 8, "aeron.driver_timeout_ms",
            "value 600000 is outside the allowed range 2000..60000");
        rejects(7, "  dir: /dev/shm/aeron-test\n  driver_timeout_ms: 2.5", 8, "aeron.driver_timeout_ms", "not a whole number");
    }

    @Test
    void aZeroDecimationIsRejectedNamingTheLimit() throws IOException
    {
        rejects(13, "  decimation: 0", 13, "telemetry.decimation", "value 0 is outside the allowed range 1..10000");
    }

    @Test
    void aZeroStreamIdIsRejectedNamingTheLimit() throws IOException
    {
        rejects(17, "  motor_command_stream: 0", 17, "hardware.motor_command_stream",
            "value 0 is outside the allowed range 1..2147483647");
    }

    @Test
    void aNegativeGainIsRejectedNamingTheLimit() throws IOException
    {
        rejects(23, "  pd_kp: [60, -25]", 23, "control.pd_kp[1]", "value -25 is below the allowed minimum 0");
    }

    @Test
    void aComputedTorqueStiffnessBeyondOneRadianPerPeriodIsRejected() throws IOException
    {
        rejects(21, "  kp: 2e6", 21, "control.kp", "value 2e6 is above the allowed maximum 1000000.0 = 1/period^2");
    }

    @Test
    void aComputedTorqueDampingBeyondTwoRadiansPerPeriodIsRejected() throws IOException
    {
        rejects(22, "  kd: [40, 2001]", 22, "control.kd[1]", "value 2001 is above the allowed maximum 2000.0 = 2/period");
    }

    @Test
    void aPositionMarginAboveHalfARadianIsRejected() throws IOException
    {
        rejects(30, "  position_margin: 0.6", 30, "supervision.position_margin",
            "value 0.6 is outside the allowed range 0..0.5");
    }

    @Test
    void aZeroMissingStateCountIsRejected() throws IOException
    {
        rejects(28, "  max_missing_states: 0", 28, "supervision.max_missing_states",
            "value 0 is outside the allowed range 1..1000");
    }

    @Test
    void aTimeoutAboveOneMinuteIsRejected() throws IOException
    {
        rejects(29, "  command_timeout_ms: 60001", 29, "supervision.command_timeout_ms",
            "value 60001 is outside the allowed range 1..60000");
    }

    @Test
    void aHeartbeatTimeoutShorterThanOnePeriodIsRejected() throws IOException
    {
        final String slow = VALID.replace("period_us: 1000", "period_us: 10000");
        rejectsIn(replaceLine(slow, 27, "  heartbeat_timeout_ms: 5"), 27, "supervision.heartbeat_timeout_ms",
            "5 ms is shorter than one control period (10.0 ms)");
    }

    @Test
    void aGainListOfTheWrongLengthIsRejected() throws IOException
    {
        rejects(23, "  pd_kp: [60, 25, 10]", 23, "control.pd_kp",
            "a list of 2 (one per joint of the model), found a list of 3");
    }

    @Test
    void aGravityListOfTheWrongLengthIsRejected() throws IOException
    {
        rejects(32, "gravity: [0, -9.81]", 32, "gravity", "expected [gx, gy, gz] in m/s^2, found a list of 2");
    }

    @Test
    void aGravityComponentAboveTenGIsRejected() throws IOException
    {
        rejects(32, "gravity: [0, 0, -981]", 32, "gravity[2]", "value -981 is outside the allowed range -98.1..98.1");
    }

    @Test
    void aBindAddressWithoutPortIsRejected() throws IOException
    {
        rejects(9, "  bind: localhost", 9, "planner.bind", "value 'localhost' is not host:port");
    }

    @Test
    void aBindPortAbove65535IsRejected() throws IOException
    {
        rejects(9, "  bind: 127.0.0.1:70000", 9, "planner.bind", "port 70000 is outside the allowed range 0..65535");
    }

    @Test
    void aBindAddressWithAnIpv4PartAbove255IsRejected() throws IOException
    {
        rejects(9, "  bind: 127.0.0.300:47600", 9, "planner.bind", "host '127.0.0.300' is not an IPv4 address");
    }

    @Test
    void aBindHostWithSpacesIsRejected() throws IOException
    {
        rejects(9, "  bind: control pc:47600", 9, "planner.bind", "host 'control pc' is not an IPv4 address");
    }

    @Test
    void aChannelThatIsNotAnAeronUriIsRejected() throws IOException
    {
        rejects(15, "  channel: udp://10.0.0.2:4000", 15, "hardware.channel",
            "value 'udp://10.0.0.2:4000' is not an Aeron channel");
    }

    @Test
    void twoStreamsWithOneIdOnOneChannelAreRejected() throws IOException
    {
        rejects(12, "  stream: 1002", 12, "telemetry.stream",
            "stream 1002 is already used by hardware.motor_command_stream on channel aeron:ipc");
    }

    @Test
    void aStreamClashingWithADefaultIsReportedWhereItIsWritten() throws IOException
    {
        rejectsIn("model: arm.yaml\ntelemetry:\n  decimation: 5\nhardware:\n  heartbeat_stream: 1010\n", 5,
            "hardware.heartbeat_stream", "stream 1010 is already used by telemetry.stream");
    }

    @Test
    void theSameStreamIdOnDifferentChannelsIsAccepted() throws IOException
    {
        final String udp = replaceLine(replaceLine(VALID, 12, "  stream: 1001"), 11,
            "  channel: \"aeron:udp?endpoint=127.0.0.1:40123\"");
        assertEquals(1001, DeploymentConfigs.load(TestDeployments.write(dir, udp)).telemetry().streamId());
    }

    @Test
    void aReferenceBlendPoleAboveATenthOfTheSamplingRateOrANonPositiveBoundIsRejected() throws IOException
    {
        rejects(33, "reference_blend:\n  pole: 101", 34, "reference_blend.pole",
            "pole 101 1/s must be > 0 and at most 100.0", "0.1 / period");
        rejects(33, "reference_blend:\n  jerk: [50, 0]", 34, "reference_blend.jerk",
            "every jerk bound of the reference blend must be > 0, got 0.0");
        rejects(33, "reference_blend:\n  acceleration: [5, 5, 5]", 34, "reference_blend.acceleration",
            "a list of 2");
    }

    @Test
    void theRecordingSectionIsReadWithItsDirectoryResolvedAndDefaults() throws IOException
    {
        assertFalse(DeploymentConfigs.load(TestDeployments.write(dir, VALID)).recording().enabled(), "no section: no recording");
        final RecordingSettings recording = DeploymentConfigs.load(TestDeployments.write(dir, replaceLine(VALID, 33,
            "recording:\n  directory: flight\n  max_size_mb: 512\n  max_age_hours: 2\n  segment_mb: 16\n  stream: 1020"))).recording();
        assertTrue(recording.enabled());
        assertEquals(dir.resolve("flight").toAbsolutePath().normalize(), recording.directory());
        assertEquals(512L << 20, recording.maxSizeBytes());
        assertEquals(7_200_000L, recording.maxAgeMs());
        assertEquals(16 << 20, recording.segmentLengthBytes());
        assertEquals(1020, recording.streamId());
        final RecordingSettings defaults = DeploymentConfigs.load(TestDeployments.write(dir, replaceLine(VALID, 33,
            "recording:\n  directory: flight"))).recording();
        assertEquals(4096L << 20, defaults.maxSizeBytes());
        assertEquals(168L * 3_600_000L, defaults.maxAgeMs());
        assertEquals(128 << 20, defaults.segmentLengthBytes());
        assertFalse(DeploymentConfigs.load(TestDeployments.write(dir, replaceLine(VALID, 33,
            "recording:\n  enabled: false\n  directory: flight"))).recording().enabled());
    }

    @Test
    void badRecordingSettingsAreRejected() throws IOException
    {
        rejects(33, "recording:\n  max_size_mb: 512", 33, "recording.directory", "missing field 'directory'");
        rejects(33, "recording:\n  directory: flight\n  segment_mb: 24", 35, "recording.segment_mb", "not a power of two");
        rejects(33, "recording:\n  directory: flight\n  segment_mb: 2048", 35, "recording.segment_mb", "outside the allowed range 4..1024");
        rejects(33, "recording:\n  directory: flight\n  segment_mb: 256\n  max_size_mb: 128", 36, "recording.max_size_mb",
            "less than one segment");
        rejects(33, "recording:\n  directory: flight\n  max_age_hours: 0", 35, "recording.max_age_hours");
        rejects(33, "recording:\n  directory: flight\n  retention: 5", 35, "recording.retention", "unknown key 'retention'");
        Files.writeString(dir.resolve("a-file"), "not a directory\n");
        rejects(33, "recording:\n  directory: a-file", 34, "recording.directory", "is not a directory");
        Files.createDirectories(dir.resolve("real"));
        Files.createSymbolicLink(dir.resolve("link"), dir.resolve("real"));
        rejects(33, "recording:\n  directory: link", 34, "recording.directory", "is a symbolic link");
    }

    private void rejects(final int line, final String replacement, final int expectedLine, final String field,
        final String... reasonParts) throws IOException
    {
        rejectsIn(replaceLine(VALID, line, replacement), expectedLine, field, reasonParts);
    }

    private void rejectsIn(final String yaml, final int expectedLine, final String field, final String... reasonParts)
        throws IOException
    {
        final Path file = TestDeployments.write(dir, yaml);
        final DescriptionException e = assertThrows(DescriptionException.class, () -> DeploymentConfigs.load(file));
        assertEquals(file.toString(), e.file(), e.getMessage());
        assertEquals(expectedLine, e.line(), e.getMessage());
        assertEquals(field, e.field(), e.getMessage());
        for (final String part : reasonParts)
        {
            assertTrue(e.reason().contains(part), "'" + part + "' missing in: " + e.getMessage());
        }
        assertTrue(e.getMessage().startsWith(file + ":" + expectedLine + ":"), e.getMessage());
    }

    /** @return the text with its 1-based line {@code line} replaced. */
    private static String replaceLine(final String text, final int line, final String replacement)
    {
        final List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        lines.set(line - 1, replacement);
        return String.join("\n", lines);
    }
}
