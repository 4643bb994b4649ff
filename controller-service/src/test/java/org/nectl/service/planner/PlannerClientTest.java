package org.nectl.service.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.nectl.service.planner.GatewayRig.DOF;
import static org.nectl.service.planner.GatewayRig.POSITION_LIMIT_RAD;
import static org.nectl.service.planner.GatewayRig.VELOCITY_LIMIT_RAD_PER_S;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nectl.transport.PlannerGatewayConfig;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.RejectReason;

/**
 * The planner client against a real planner gateway on its own agent thread, over UDP on an
 * ephemeral loopback port: every command is answered with the reply carrying its sequence, and what
 * the gateway queues for the loop is exactly what the client was asked to send.
 */
final class PlannerClientTest
{
    private static final long PLANNER_ID = 77L;
    private static final Duration REPLY_TIMEOUT = Duration.ofSeconds(10);

    private GatewayRig rig;
    private PlannerClient client;

    @BeforeEach
    void start()
    {
        rig = new GatewayRig();
        client = new PlannerClient(rig.address(), PLANNER_ID, rig.keys(), REPLY_TIMEOUT, PlannerGatewayConfig.DEFAULT_MAX_DATAGRAM_LENGTH);
    }

    @AfterEach
    void stop()
    {
        client.close();
        rig.close();
    }

    @Test
    void modeRequestsAndEStopAreAckedAndQueuedInOrder()
    {
        final CommandResult enable = client.enable(ControllerKind.COMPUTED_TORQUE);
        final CommandResult hold = client.hold(ControllerKind.UNCHANGED);
        final CommandResult disable = client.disable(ControllerKind.PD_GRAVITY);
        final CommandResult stop = client.eStop();
        for (final CommandResult result : List.of(enable, hold, disable, stop))
        {
            assertEquals(CommandResult.Outcome.ACCEPTED, result.outcome(), result.describe());
            assertTrue(result.gatewayTimestampNs() != 0L, "the ack carries the gateway's clock");
        }
        assertEquals(enable.sequence() + 1, hold.sequence(), "sequences increase by one per datagram");
        assertEquals(hold.sequence() + 1, disable.sequence());
        assertEquals(disable.sequence() + 1, stop.sequence());

        assertEquals(List.of("mode " + enable.sequence() + " ENABLE COMPUTED_TORQUE", "mode " + hold.sequence() + " HOLD UNCHANGED",
            "mode " + disable.sequence() + " DISABLE PD_GRAVITY", "estop " + stop.sequence()), rig.drain().events());
    }

    @Test
    void longTrajectoryIsChunkedToTheDatagramLimitAndArrivesIntact()
    {
        assertEquals(7, PlannerClient.waypointsPerChunk(DOF, PlannerGatewayConfig.DEFAULT_MAX_DATAGRAM_LENGTH),
            "docs/PROTOCOL.md: a 7-joint chunk holds up to 7 waypoints in 1472 bytes");
        final long seed = 6L;
        final JointTrajectory trajectory = randomTrajectory(new SplittableRandom(seed), 50);

        final CommandResult result = client.sendTrajectory(trajectory);

        assertEquals(CommandResult.Outcome.ACCEPTED, result.outcome(), result.describe() + ", seed " + seed);
        final GatewayRig.Recorder loop = rig.drain();
        assertEquals(8, loop.events().size(), "50 waypoints in chunks of 7: " + loop.events());
        for (int c = 0; c < 8; c++)
        {
            assertTrue(loop.events().get(c).endsWith(" chunk " + c + "/8"), loop.events().get(c));
        }
        assertEquals(trajectory.waypointCount(), loop.timesNs().size());
        for (int p = 0; p < trajectory.waypointCount(); p++)
        {
            assertEquals(Math.round(trajectory.timeS(p) * 1e9), loop.timesNs().get(p), "waypoint " + p + ", seed " + seed);
            for (int k = 0; k < DOF; k++)
            {
                final double[] joint = loop.joints().get(p * DOF + k);
                assertEquals(trajectory.q(p, k), joint[0], 0.0, "q, waypoint " + p + ", joint " + k + ", seed " + seed);
                assertEquals(trajectory.qd(p, k), joint[1], 0.0, "qd, waypoint " + p + ", joint " + k + ", seed " + seed);
                assertEquals(trajectory.qdd(p, k), joint[2], 0.0, "qdd, waypoint " + p + ", joint " + k + ", seed " + seed);
            }
        }
    }

    @Test
    void trajectoryWithWrongJointCountStopsAtTheFirstRejectedChunk()
    {
        final JointTrajectory threeJoints = JointTrajectory.fromPositions(new double[] {0.0, 1.0},
            new double[][] {{0.0, 0.0, 0.0}, {0.1, 0.1, 0.1}});

        final CommandResult result = client.sendTrajectory(threeJoints);

        assertEquals(CommandResult.Outcome.REJECTED, result.outcome());
        assertEquals(RejectReason.WRONG_JOINT_COUNT, result.reason());
        assertEquals(1L, rig.gateway().rejectCount(RejectReason.WRONG_JOINT_COUNT));
        assertEquals(List.of(), rig.drain().events());
    }

    @Test
    void setpointBeyondAPositionLimitIsRejectedNamingTheJoint()
    {
        final double[] q = new double[DOF];
        final double[] zero = new double[DOF];
        assertEquals(CommandResult.Outcome.ACCEPTED, client.sendSetpoint(q, zero, zero, zero).outcome());
        q[3] = POSITION_LIMIT_RAD + 0.01;

        final CommandResult result = client.sendSetpoint(q, zero, zero, zero);

        assertEquals(CommandResult.Outcome.REJECTED, result.outcome());
        assertEquals(RejectReason.LIMIT_EXCEEDED, result.reason());
        assertEquals(3, result.jointIndex());
        assertEquals("sequence " + result.sequence() + " rejected: LIMIT_EXCEEDED (joint 3)", result.describe());
        assertEquals(List.of("setpoint " + (result.sequence() - 1)), rig.drain().events());
    }

    @Test
    void silentPeerTimesOut() throws IOException
    {
        try (DatagramSocket silent = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            PlannerClient impatient = new PlannerClient((InetSocketAddress)silent.getLocalSocketAddress(), PLANNER_ID,
                rig.keys(), Duration.ofMillis(50), PlannerGatewayConfig.DEFAULT_MAX_DATAGRAM_LENGTH))
        {
            assertEquals(CommandResult.Outcome.TIMED_OUT, impatient.eStop().outcome());
        }
    }

    @Test
    void positionsOnlyWaypointsGetTheSamplersKnotDerivatives()
    {
        final JointTrajectory trajectory = JointTrajectory.fromPositions(new double[] {0.0, 1.0, 3.0, 4.0},
            new double[][] {{0.0}, {1.0}, {2.0}, {1.0}});
        assertEquals(0.0, trajectory.qd(0, 0), 0.0, "starts at rest");
        assertEquals((2.0 * 1.0 + 1.0 * 0.5) / 3.0, trajectory.qd(1, 0), 1e-15, "parabola slope (h_r d_l + h_l d_r)/(h_l + h_r)");
        assertEquals(0.0, trajectory.qd(2, 0), 0.0, "reverses at waypoint 2");
        assertEquals(0.0, trajectory.qd(3, 0), 0.0, "ends at rest");
    }

    private static JointTrajectory randomTrajectory(final SplittableRandom random, final int count)
    {
        final double[] timesS = new double[count];
        final double[][] q = new double[count][DOF];
        final double[][] qd = new double[count][DOF];
        final double[][] qdd = new double[count][DOF];
        for (int p = 0; p < count; p++)
        {
            timesS[p] = p == 0 ? 0.0 : timesS[p - 1] + random.nextDouble(1e-3, 0.1);
            for (int k = 0; k < DOF; k++)
            {
                q[p][k] = random.nextDouble(-POSITION_LIMIT_RAD, POSITION_LIMIT_RAD);
                qd[p][k] = random.nextDouble(-VELOCITY_LIMIT_RAD_PER_S, VELOCITY_LIMIT_RAD_PER_S);
                qdd[p][k] = random.nextDouble(-10.0, 10.0);
            }
        }
        return new JointTrajectory(timesS, q, qd, qdd);
    }
}
