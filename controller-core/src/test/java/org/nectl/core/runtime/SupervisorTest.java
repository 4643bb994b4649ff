package org.nectl.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.nectl.core.control.JointWaypoints;
import org.nectl.core.control.TorqueLimiter;
import org.nectl.core.control.TrajectorySampler;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;

/**
 * The supervisor of {@link ControlCycle}: every state transition, each stop category, soft-limit
 * braking and the discontinuity checks, on a seeded random 7-joint chain with limits, simulated
 * in lockstep ({@link CycleHarness}).
 */
class SupervisorTest
{
    private static final long SEED = 23;
    private static final double POSITION_LIMIT_RAD = 2.5;
    private static final double VELOCITY_LIMIT_RAD_S = 2.0;
    private static final double TORQUE_LIMIT_NM = 400.0;
    private static final double TORQUE_RATE_LIMIT_NM_S = 4000.0;
    private static final RobotModel MODEL = RandomRobots.robot(SEED, 7, false, RandomRobots.Joints.REVOLUTE, false,
        new JointLimits(-POSITION_LIMIT_RAD, POSITION_LIMIT_RAD, VELOCITY_LIMIT_RAD_S, TORQUE_LIMIT_NM, TORQUE_RATE_LIMIT_NM_S));
    private static final int DOF = MODEL.dof();
    private static final long PERIOD_NS = CycleHarness.PERIOD_NS;
    private static final double[] ZERO = new double[DOF];

    private static CycleHarness enabled(final SafetySettings safety)
    {
        final CycleHarness h = new CycleHarness(MODEL, CycleSettings.defaults(DOF, PERIOD_NS), safety);
        h.run(1);
        assertEquals(ControlCycle.ACCEPTED, h.cycle.enable(ControlLaw.COMPUTED_TORQUE));
        h.run(100);
        return h;
    }

    private static CycleHarness enabled()
    {
        return enabled(SafetySettings.defaults(DOF));
    }

    /** A rest-to-rest move of every joint by {@code amplitude}, odd joints the other way, in {@code durationS}. */
    private static TrajectorySampler swing(final double amplitude, final double durationS)
    {
        final double[][] q = new double[2][DOF];
        for (int j = 0; j < DOF; j++)
        {
            q[0][j] = -amplitude / 2 * (j % 2 == 0 ? 1 : -1);
            q[1][j] = -q[0][j];
        }
        return new TrajectorySampler(MODEL, new JointWaypoints(new double[] {0.0, durationS}, q));
    }

    @Test
    void everyRequestIsAcceptedExactlyInTheStatesThatAllowIt()
    {
        final CycleHarness h = new CycleHarness(MODEL, CycleSettings.defaults(DOF, PERIOD_NS), SafetySettings.defaults(DOF));
        final ControlCycle c = h.cycle;
        h.run(1);
        assertEquals(ControllerMode.IDLE, c.mode());
        assertFalse(c.drivesEnabled());
        assertEquals(ControlCycle.REJECTED_MODE, c.reset(), "nothing to reset in IDLE");
        assertEquals(ControlCycle.REJECTED_MODE, c.hold(null));
        assertEquals(ControlCycle.REJECTED_MODE, c.streamSetpoint(ZERO, ZERO, ZERO, ZERO));
        assertEquals(ControlCycle.ACCEPTED, c.disable(), "IDLE to IDLE");

        assertEquals(ControlCycle.ACCEPTED, c.enable(null));
        assertEquals(ControllerMode.ENABLED, c.mode());
        assertTrue(c.drivesEnabled());
        assertEquals(ControlCycle.REJECTED_MODE, c.enable(null));
        assertEquals(ControlCycle.REJECTED_MODE, c.selectLaw(ControlLaw.PD_GRAVITY), "a powered law switch goes through enable or hold");
        assertEquals(ControlCycle.REJECTED_MODE, c.reset());
        h.run(10);
        assertEquals(ControlCycle.ACCEPTED, c.startTrajectory(swing(0.0, 1.0)));
        assertEquals(ControllerMode.TRACKING, c.mode());
        assertEquals(ControlCycle.ACCEPTED, c.hold(ControlLaw.PD_GRAVITY));
        assertEquals(ControllerMode.HOLD, c.mode());
        assertEquals(ControlLaw.PD_GRAVITY, c.law());
        h.run(10);
        assertEquals(ControlCycle.ACCEPTED, c.streamSetpoint(c.referenceQ().clone(), ZERO, ZERO, ZERO));
        assertEquals(ControllerMode.TRACKING, c.mode());
        assertEquals(ControlCycle.ACCEPTED, c.disable());
        assertEquals(ControllerMode.IDLE, c.mode());
        assertFalse(c.drivesEnabled());

        c.emergencyStop();
        assertEquals(ControllerMode.ESTOP, c.mode(), "an emergency stop latches even in IDLE");
        for (final int refused : new int[] {c.enable(null), c.disable(), c.hold(null), c.streamSetpoint(ZERO, ZERO, ZERO, ZERO)})
        {
            assertEquals(ControlCycle.REJECTED_MODE, refused);
        }
        h.run(5);
        assertEquals(ControllerMode.ESTOP, c.mode());
        assertEquals(ControlCycle.ACCEPTED, c.reset());
        assertEquals(ControllerMode.IDLE, c.mode());
        assertEquals(0, c.faults());
        assertEquals(1, c.faultCount(Integer.numberOfTrailingZeros(Faults.EMERGENCY_STOP)));
        assertEquals(1, c.resetCount());
        assertEquals(ControlCycle.ACCEPTED, c.enable(null), "enabled again after the reset");
        assertEquals(8, c.transitionCount(), "IDLE-ENABLED-TRACKING-HOLD-TRACKING-IDLE-ESTOP-IDLE-ENABLED");
    }

    @Test
    void aCategoryZeroFaultDisablesTheDrivesInTheSameTickAndOnlyAResetLeavesFault()
    {
        final CycleHarness h = enabled();
        assertEquals(ControlCycle.ACCEPTED, h.cycle.startTrajectory(swing(0.0, 1.0)));
        h.run(20);
        h.step(true, 60_000_000L);
        assertEquals(ControllerMode.FAULT, h.cycle.mode());
        assertEquals(Faults.HEARTBEAT_TIMEOUT, h.cycle.faults());
        assertFalse(h.cycle.drivesEnabled());
        for (final double tau : h.cycle.tauCommand())
        {
            assertEquals(0.0, tau);
        }
        for (final int refused : new int[] {h.cycle.enable(null), h.cycle.disable(), h.cycle.hold(null)})
        {
            assertEquals(ControlCycle.REJECTED_MODE, refused);
        }
        h.run(10);
        assertEquals(ControllerMode.FAULT, h.cycle.mode(), "latched");
        assertEquals(ControlCycle.ACCEPTED, h.cycle.reset());
        assertEquals(ControllerMode.IDLE, h.cycle.mode());
        assertEquals(0, h.cycle.faults());
        assertEquals(1, h.cycle.faultCount(Integer.numberOfTrailingZeros(Faults.HEARTBEAT_TIMEOUT)));
        assertEquals(ControlCycle.ACCEPTED, h.cycle.enable(null));
        h.run(100);
        assertEquals(ControllerMode.ENABLED, h.cycle.mode(), Faults.describe(h.cycle.faults()));
    }

    /**
     * Category 1 from near the velocity limit: at most {@link TorqueLimiter}'s limits on every tick of
     * the stop (a float rounding of 1e-9 N m on the rate step), standstill (every |qd| at most the
     * standstill velocity) within the stop time, then ESTOP with zero torque.
     */
    @Test
    void aCategoryOneEmergencyStopDeceleratesUnderTheTorqueLimitsToStandstillWithinTheStopTime()
    {
        final SafetySettings safety = SafetySettings.defaults(DOF).withCategory(Faults.EMERGENCY_STOP, StopCategory.CATEGORY_1);
        final CycleHarness h = enabled(safety);
        final TrajectorySampler fast = swing(3.5, 4.0);
        h.cycle.hold(null);
        assertEquals(ControlCycle.REJECTED_DISCONTINUOUS, h.cycle.startTrajectory(fast), "starts away from the pose");
        final double[] start = new double[DOF];
        fast.sample(0.0, start, new double[DOF], new double[DOF], new double[DOF], new double[DOF]);
        moveTo(h, start);
        assertEquals(ControlCycle.ACCEPTED, h.cycle.startTrajectory(fast));
        h.run(2000);
        final double speed = maxAbs(h.cycle.measuredQd());
        assertTrue(speed > 0.9 * VELOCITY_LIMIT_RAD_S, "stop from near full speed: " + speed);

        final double[] previousTau = h.cycle.tauCommand().clone();
        h.cycle.emergencyStop();
        assertEquals(ControllerMode.STOPPING, h.cycle.mode());
        final long stopNs = h.timeNs;
        double peakTau = 0.0;
        double peakRate = 0.0;
        while (h.cycle.mode() == ControllerMode.STOPPING)
        {
            h.step(true, 0L);
            assertTrue(h.timeNs - stopNs <= safety.stopTimeNs() + PERIOD_NS, "standstill within the stop time");
            if (h.cycle.drivesEnabled())
            {
                for (int j = 0; j < DOF; j++)
                {
                    final double tau = h.cycle.tauCommand()[j];
                    peakTau = Math.max(peakTau, Math.abs(tau));
                    peakRate = Math.max(peakRate, Math.abs(tau - previousTau[j]) / (PERIOD_NS * 1e-9));
                    previousTau[j] = tau;
                }
            }
        }
        assertEquals(ControllerMode.ESTOP, h.cycle.mode(), Faults.describe(h.cycle.faults()));
        assertEquals(Faults.EMERGENCY_STOP, h.cycle.faults());
        assertTrue(maxAbs(h.cycle.measuredQd()) <= safety.standstillVelocity());
        assertEquals(0.0, maxAbs(h.cycle.tauCommand()));
        assertTrue(peakTau <= TORQUE_LIMIT_NM, "peak |tau| " + peakTau);
        assertTrue(peakRate <= TORQUE_RATE_LIMIT_NM_S * (1 + 1e-9), "peak |dtau/dt| " + peakRate);
        System.out.printf(Locale.ROOT, "category 1 stop from %.3f rad/s: %.1f ms, peak |tau| %.1f N m, peak |dtau/dt| %.0f N m/s%n",
            speed, h.cycle.lastStopDurationNs() * 1e-6, peakTau, peakRate);
    }

    /** Holds the current reference, then streams a straight line to {@code target} over 2 s and settles. */
    private static void moveTo(final CycleHarness h, final double[] target)
    {
        final double[] from = h.cycle.referenceQ().clone();
        final double[] q = new double[DOF];
        final double[] qd = new double[DOF];
        final int ticks = 2000;
        for (int i = 1; i <= ticks; i++)
        {
            final double s = (double)i / ticks;
            final double blend = s * s * (3 - 2 * s);
            final double rate = 6 * s * (1 - s) / (ticks * PERIOD_NS * 1e-9);
            for (int j = 0; j < DOF; j++)
            {
                q[j] = from[j] + (target[j] - from[j]) * blend;
                qd[j] = (target[j] - from[j]) * rate;
            }
            assertEquals(ControlCycle.ACCEPTED, h.cycle.streamSetpoint(q, qd, ZERO, ZERO));
            h.step(true, 0L);
        }
        h.cycle.hold(null);
        h.run(200);
    }

    @Test
    void aCategoryTwoStopHoldsTheStopPoseUntilAResetToEnabledOrADisableToFault()
    {
        for (final boolean reset : new boolean[] {true, false})
        {
            final CycleHarness h = enabled();
            final double[] nan = ZERO.clone();
            nan[2] = Double.NaN;
            assertEquals(ControlCycle.ACCEPTED, h.cycle.streamSetpoint(h.cycle.referenceQ().clone(), nan, ZERO, ZERO));
            h.step(true, 0L);
            assertEquals(Faults.REFERENCE_DISCONTINUITY, h.cycle.faults());
            assertEquals(ControllerMode.STOPPING, h.cycle.mode(), "the default category of a reference discontinuity is 2");
            h.run(50);
            assertEquals(ControllerMode.STANDSTILL, h.cycle.mode());
            assertTrue(h.cycle.drivesEnabled(), "category 2 keeps the drives powered");
            final double[] stopPose = h.cycle.measuredQ().clone();
            h.run(1000);
            for (int j = 0; j < DOF; j++)
            {
                assertEquals(stopPose[j], h.cycle.measuredQ()[j], 1e-4, "joint " + j + " held with gravity compensation");
            }
            assertEquals(ControlCycle.REJECTED_MODE, h.cycle.hold(null));
            assertEquals(ControlCycle.REJECTED_MODE, h.cycle.startTrajectory(swing(0.0, 1.0)));
            if (reset)
            {
                assertEquals(ControlCycle.ACCEPTED, h.cycle.reset());
                assertEquals(ControllerMode.ENABLED, h.cycle.mode());
                assertEquals(0, h.cycle.faults());
                h.run(100);
                assertEquals(ControllerMode.ENABLED, h.cycle.mode(), Faults.describe(h.cycle.faults()));
            }
            else
            {
                assertEquals(ControlCycle.ACCEPTED, h.cycle.disable());
                assertEquals(ControllerMode.FAULT, h.cycle.mode(), "the fault stays latched");
                assertFalse(h.cycle.drivesEnabled());
            }
        }
    }

    /**
     * Joint 0 streamed at 1.5 rad/s towards its upper limit: the soft limit fires once the limit is
     * within the braking distance (15/16 v^2/a), one period of travel and the margin, and the
     * category 2 stop ends short of the limit by about the margin.
     */
    /** Joint 0 streamed towards its upper limit: accelerating over 0.3 s to 1.5 rad/s, then at that speed. */
    private static final class RampTowardsLimit
    {
        static final double SPEED = 1.5;
        private static final double RAMP_S = 0.3;
        private final CycleHarness h;
        private final double[] q;
        private final double start;
        private final double[] qd = new double[DOF];
        private final double[] qdd = new double[DOF];
        private int tick;

        RampTowardsLimit(final CycleHarness h)
        {
            this.h = h;
            q = h.cycle.referenceQ().clone();
            start = q[0];
        }

        /** Streams the next setpoint and steps the harness one period. */
        void step()
        {
            final double t = ++tick * PERIOD_NS * 1e-9;
            q[0] = start + (t < RAMP_S ? SPEED * t * t / (2 * RAMP_S) : SPEED * (t - RAMP_S / 2));
            qd[0] = t < RAMP_S ? SPEED * t / RAMP_S : SPEED;
            qdd[0] = t < RAMP_S ? SPEED / RAMP_S : 0.0;
            assertEquals(ControlCycle.ACCEPTED, h.cycle.streamSetpoint(q, qd, qdd, ZERO));
            h.step(true, 0L);
        }
    }

    @Test
    void softLimitBrakingStopsAJointBeforeItsPositionLimit()
    {
        final SafetySettings safety = SafetySettings.defaults(DOF);
        final CycleHarness h = enabled(safety);
        final RampTowardsLimit ramp = new RampTowardsLimit(h);
        double triggerQ = Double.NaN;
        double triggerV = Double.NaN;
        for (int i = 1; h.cycle.mode() == ControllerMode.TRACKING || i == 1; i++)
        {
            triggerQ = h.cycle.measuredQ()[0];
            triggerV = h.cycle.measuredQd()[0];
            ramp.step();
        }
        assertEquals(ControllerMode.STOPPING, h.cycle.mode());
        assertEquals(Faults.SOFT_POSITION_LIMIT, h.cycle.faults());
        final double reach = StopProfile.brakingDistance(triggerV, 10.0) + triggerV * PERIOD_NS * 1e-9 + safety.softLimitMargin();
        assertTrue(POSITION_LIMIT_RAD - h.cycle.measuredQ()[0] <= reach, "not before the braking distance");
        double highest = h.cycle.measuredQ()[0];
        while (h.cycle.mode() == ControllerMode.STOPPING)
        {
            h.step(true, 0L);
            highest = Math.max(highest, h.cycle.measuredQ()[0]);
        }
        assertEquals(ControllerMode.STANDSTILL, h.cycle.mode());
        assertTrue(highest < POSITION_LIMIT_RAD, "stopped at " + highest);
        assertEquals(POSITION_LIMIT_RAD - safety.softLimitMargin(), highest, 0.01, "stopped about the margin before the limit");
        System.out.printf(Locale.ROOT, "soft limit: fired at %.4f rad, %.3f rad/s; stopped at %.4f rad (limit %.1f)%n",
            triggerQ, triggerV, highest, POSITION_LIMIT_RAD);
    }

    /**
     * A controller stalled for 100 ms while joint 0 moves towards its limit at 1.5 rad/s: when it
     * ticks again the joint is nearer to the limit than its braking distance, past where the soft
     * limit would have fired. The stop then brakes within the room left and the joint stays inside
     * the position limit and its margin (no POSITION_LIMIT, category 0).
     */
    @Test
    void aStopThatStartsNearerToTheLimitThanTheBrakingDistanceStillEndsInsideIt()
    {
        final SafetySettings safety = SafetySettings.defaults(DOF);
        final CycleHarness h = enabled(safety);
        final double brakingDistance = StopProfile.brakingDistance(RampTowardsLimit.SPEED, safety.decelerationMax()[0]);
        final double stallFrom = POSITION_LIMIT_RAD - brakingDistance - safety.softLimitMargin() - 0.05;
        final RampTowardsLimit ramp = new RampTowardsLimit(h);
        while (h.cycle.measuredQ()[0] < stallFrom)
        {
            ramp.step();
            assertEquals(ControllerMode.TRACKING, h.cycle.mode(), Faults.describe(h.cycle.faults()));
        }
        // The stall: the arm goes on under the last torque, the controller does not tick.
        final double[] lastTau = h.cycle.tauCommand().clone();
        for (int k = 0; k < 100; k++)
        {
            h.arm.torque(lastTau);
            h.arm.step();
            h.timeNs += PERIOD_NS;
        }
        final double[] measured = new double[DOF];
        h.arm.positions(measured);
        final double room = POSITION_LIMIT_RAD - measured[0];
        assertTrue(room < brakingDistance, "the stall left less room than the braking distance: " + room);
        h.step(true, 0L);
        assertEquals(ControllerMode.STOPPING, h.cycle.mode(), Faults.describe(h.cycle.faults()));
        double highest = h.cycle.measuredQ()[0];
        while (h.cycle.mode() == ControllerMode.STOPPING)
        {
            h.step(true, 0L);
            highest = Math.max(highest, h.cycle.measuredQ()[0]);
        }
        assertTrue((h.cycle.faults() & Faults.SOFT_POSITION_LIMIT) != 0, Faults.describe(h.cycle.faults()));
        assertEquals(0, h.cycle.faults() & Faults.POSITION_LIMIT, Faults.describe(h.cycle.faults()));
        assertTrue(highest <= POSITION_LIMIT_RAD + CycleSettings.defaults(DOF, PERIOD_NS).positionMargin(),
            "stopped at " + highest);
        System.out.printf(Locale.ROOT, "stop after a 100 ms stall: %.4f rad of room against %.4f braking distance; "
            + "stopped at %.4f rad (limit %.1f)%n", room, brakingDistance, highest, POSITION_LIMIT_RAD);
    }

    @Test
    void aJumpingReferenceIsADiscontinuityAndAJumpingMeasurementAFault()
    {
        final CycleHarness h = enabled();
        final double[] fast = ZERO.clone();
        fast[4] = 100.0;
        assertEquals(ControlCycle.ACCEPTED, h.cycle.streamSetpoint(h.cycle.referenceQ().clone(), fast, ZERO, ZERO));
        h.step(true, 0L);
        h.step(true, 0L);
        assertEquals(Faults.REFERENCE_DISCONTINUITY, h.cycle.faults(), "0.1 rad per period");
        assertEquals(ControllerMode.STOPPING, h.cycle.mode());

        final CycleHarness g = enabled();
        g.arm.positions(g.cycle.measuredQ());
        g.arm.velocities(g.cycle.measuredQd());
        g.cycle.measuredQ()[1] += 0.05;
        g.cycle.tick(g.timeNs, true, 0L, false);
        assertEquals(Faults.STATE_JUMP, g.cycle.faults());
        assertEquals(ControllerMode.FAULT, g.cycle.mode(), "category 0: the measured state is not trusted");
    }

    /**
     * At 1.9 rad/s a tick 10 ms late (the loop pre-empted while the arm moves on) sees the joints
     * 0.019 rad further: the prediction spans the controller time since the last state, so this is no
     * jump, while the same state offset by 0.02 rad is.
     */
    @Test
    void aLateTickIsNoJumpButAnOffsetStateIs()
    {
        final CycleHarness h = swingingAtSpeed();
        for (int i = 0; i < 10; i++)
        {
            h.arm.torque(h.cycle.tauCommand());
            h.arm.step();
            h.timeNs += PERIOD_NS;
        }
        h.step(true, 0L);
        assertEquals(0, h.cycle.faults(), Faults.describe(h.cycle.faults()));
        h.arm.positions(h.cycle.measuredQ());
        h.arm.velocities(h.cycle.measuredQd());
        h.cycle.measuredQ()[0] += 0.02;
        h.cycle.tick(h.timeNs, true, 0L, false);
        assertEquals(Faults.STATE_JUMP, h.cycle.faults());
    }

    /**
     * A state delivered late (sampled 10 periods before the tick that reads it, at 1.9 rad/s) and
     * the fresh state after it are judged on their sampling times: no jump. Predicting over the tick
     * times instead would span 11 periods for 1 period of motion and then 1 period for 10, both
     * about 0.019 rad off, beyond the 0.01 rad tolerance.
     */
    @Test
    void aStateDeliveredLateIsJudgedOnItsSamplingTime()
    {
        final CycleHarness h = swingingAtSpeed();
        final double[] sampledQ = new double[DOF];
        final double[] sampledQd = new double[DOF];
        h.arm.positions(sampledQ);
        h.arm.velocities(sampledQd);
        final long sampledNs = h.timeNs;
        for (int i = 0; i < 10; i++)
        {
            h.arm.torque(h.cycle.tauCommand());
            h.arm.step();
            h.timeNs += PERIOD_NS;
        }
        System.arraycopy(sampledQ, 0, h.cycle.measuredQ(), 0, DOF);
        System.arraycopy(sampledQd, 0, h.cycle.measuredQd(), 0, DOF);
        h.cycle.measuredStateTimeNs(sampledNs);
        h.cycle.tick(h.timeNs, true, 0L, false);
        assertEquals(0, h.cycle.faults(), "late state: " + Faults.describe(h.cycle.faults()));
        h.arm.positions(h.cycle.measuredQ());
        h.arm.velocities(h.cycle.measuredQd());
        h.cycle.measuredStateTimeNs(h.timeNs);
        h.cycle.tick(h.timeNs + PERIOD_NS, true, 0L, false);
        assertEquals(0, h.cycle.faults(), "fresh state after it: " + Faults.describe(h.cycle.faults()));
    }

    /** @return an enabled harness 2 s into a fast swing, the joints above 1.8 rad/s. */
    private static CycleHarness swingingAtSpeed()
    {
        final CycleHarness h = enabled();
        final TrajectorySampler fast = swing(3.5, 4.0);
        final double[] start = new double[DOF];
        fast.sample(0.0, start, new double[DOF], new double[DOF], new double[DOF], new double[DOF]);
        moveTo(h, start);
        assertEquals(ControlCycle.ACCEPTED, h.cycle.startTrajectory(fast));
        h.run(2000);
        assertTrue(maxAbs(h.cycle.measuredQd()) > 1.8);
        return h;
    }

    @Test
    void aStopThatMissesTheStopTimeAndAMoreSevereFaultDuringAStopEscalateToCategoryZero()
    {
        final SafetySettings tight = new SafetySettings(SafetySettings.defaults(DOF).withCategory(
            Faults.EMERGENCY_STOP, StopCategory.CATEGORY_1).categories(), 20_000_000L, CycleSettings.filled(DOF, 10.0), 0.01, 0.02, 0.01);
        final CycleHarness h = enabled(tight);
        final TrajectorySampler swing = swing(1.0, 2.0);
        final double[] start = new double[DOF];
        swing.sample(0.0, start, new double[DOF], new double[DOF], new double[DOF], new double[DOF]);
        moveTo(h, start);
        h.cycle.startTrajectory(swing);
        h.run(1000);
        h.cycle.emergencyStop();
        h.run(25);
        assertEquals(ControllerMode.ESTOP, h.cycle.mode());
        assertEquals(Faults.EMERGENCY_STOP | Faults.STOP_TIMEOUT, h.cycle.faults());

        final CycleHarness g = enabled(SafetySettings.defaults(DOF).withCategory(Faults.EMERGENCY_STOP, StopCategory.CATEGORY_1));
        g.cycle.startTrajectory(swing(0.0, 1.0));
        g.cycle.emergencyStop();
        g.step(true, 0L);
        assertEquals(ControllerMode.STOPPING, g.cycle.mode());
        g.step(true, 60_000_000L);
        assertEquals(ControllerMode.ESTOP, g.cycle.mode(), "a heartbeat timeout cuts the stop short");
        assertEquals(-1, g.cycle.lastStopDurationNs(), "the stop did not complete");
        assertFalse(g.cycle.drivesEnabled());
    }

    /**
     * The rest of the transition table: a category 1 fault (velocity limit) stops to FAULT; during a
     * category 2 stop nothing but a fault is accepted and a category 1 EStop makes it end in ESTOP;
     * in STANDSTILL a category 0 EStop disables at once and a category 1 EStop stops again to ESTOP.
     */
    @Test
    void aStopEndsInTheStateOfItsMostSevereCategoryAndRefusesRequestsUntilItEnds()
    {
        final CycleHarness fast = enabled();
        final double[] tooFast = ZERO.clone();
        tooFast[0] = 3.0;
        assertEquals(ControlCycle.ACCEPTED, fast.cycle.streamSetpoint(fast.cycle.referenceQ().clone(), tooFast, ZERO, ZERO));
        for (int i = 0; i < 500 && fast.cycle.mode() == ControllerMode.TRACKING; i++)
        {
            fast.step(true, 0L);
        }
        assertEquals(Faults.VELOCITY_LIMIT, fast.cycle.faults());
        assertEquals(ControllerMode.STOPPING, fast.cycle.mode(), "velocity limit: category 1 by default");
        fast.run(1000);
        assertEquals(ControllerMode.FAULT, fast.cycle.mode());
        assertTrue(fast.cycle.lastStopDurationNs() > 0);

        final SafetySettings estopOne = SafetySettings.defaults(DOF).withCategory(Faults.EMERGENCY_STOP, StopCategory.CATEGORY_1);
        final CycleHarness h = stoppingWithCategoryTwo(estopOne);
        for (final int refused : new int[] {h.cycle.reset(), h.cycle.disable(), h.cycle.enable(null), h.cycle.hold(null)})
        {
            assertEquals(ControlCycle.REJECTED_MODE, refused, "a stop always completes");
        }
        h.cycle.emergencyStop();
        assertEquals(StopCategory.CATEGORY_1, h.cycle.stopCategory());
        h.run(100);
        assertEquals(ControllerMode.ESTOP, h.cycle.mode(), "the category 1 EStop decides how the stop ends");

        final CycleHarness zero = stoppingWithCategoryTwo(SafetySettings.defaults(DOF));
        zero.run(100);
        assertEquals(ControllerMode.STANDSTILL, zero.cycle.mode());
        zero.cycle.emergencyStop();
        assertEquals(ControllerMode.ESTOP, zero.cycle.mode(), "category 0 from STANDSTILL: at once");
        assertFalse(zero.cycle.drivesEnabled());

        final CycleHarness one = stoppingWithCategoryTwo(estopOne);
        one.run(100);
        assertEquals(ControllerMode.STANDSTILL, one.cycle.mode());
        one.cycle.emergencyStop();
        assertEquals(ControllerMode.STOPPING, one.cycle.mode(), "category 1 from STANDSTILL: stop again, then disable");
        one.run(10);
        assertEquals(ControllerMode.ESTOP, one.cycle.mode());
        assertEquals(Faults.REFERENCE_DISCONTINUITY | Faults.EMERGENCY_STOP, one.cycle.faults());
    }

    /** Enabled, then a non-finite streamed velocity: a reference discontinuity, category 2, STOPPING. */
    private static CycleHarness stoppingWithCategoryTwo(final SafetySettings safety)
    {
        final CycleHarness h = enabled(safety);
        final double[] nan = ZERO.clone();
        nan[1] = Double.NaN;
        h.cycle.streamSetpoint(h.cycle.referenceQ().clone(), nan, ZERO, ZERO);
        h.step(true, 0L);
        assertEquals(ControllerMode.STOPPING, h.cycle.mode());
        return h;
    }

    @Test
    void safetySettingsRefuseCategoriesAFaultCannotHave()
    {
        final SafetySettings d = SafetySettings.defaults(DOF);
        final IllegalArgumentException state = assertThrows(IllegalArgumentException.class,
            () -> d.withCategory(Faults.HEARTBEAT_TIMEOUT, StopCategory.CATEGORY_1));
        assertTrue(state.getMessage().startsWith("heartbeat_timeout: only category 0"), state.getMessage());
        final IllegalArgumentException estop = assertThrows(IllegalArgumentException.class,
            () -> d.withCategory(Faults.EMERGENCY_STOP, StopCategory.CATEGORY_2));
        assertTrue(estop.getMessage().contains("IEC 60204-1"), estop.getMessage());
        assertEquals(StopCategory.CATEGORY_0, d.category(Faults.VELOCITY_LIMIT | Faults.TORQUE_LIMIT), "the most severe wins");
        assertEquals(StopCategory.CATEGORY_1, d.category(Faults.VELOCITY_LIMIT | Faults.SOFT_POSITION_LIMIT));
    }

    @Test
    void aStoppingTickAllocatesNothing()
    {
        final SafetySettings slow = new SafetySettings(SafetySettings.defaults(DOF).withCategory(
            Faults.EMERGENCY_STOP, StopCategory.CATEGORY_1).categories(), 200_000_000_000L, CycleSettings.filled(DOF, 2e-4), 0.01, 0.02, 0.01);
        final CycleHarness h = enabled(slow);
        h.cycle.startTrajectory(swing(0.0, 1.0));
        h.run(10);
        final double[] v = CycleSettings.filled(DOF, 0.02);
        h.cycle.streamSetpoint(h.cycle.referenceQ().clone(), v, ZERO, ZERO);
        h.run(50);
        h.cycle.emergencyStop();
        final long bytes = AllocationMeter.bytesAllocated(() -> h.step(true, 0L), 20_000, 50_000);
        assertEquals(ControllerMode.STOPPING, h.cycle.mode());
        assertEquals(0L, bytes, "bytes allocated over 50000 stopping ticks");
    }

    private static double maxAbs(final double[] v)
    {
        double max = 0.0;
        for (final double x : v)
        {
            max = Math.max(max, Math.abs(x));
        }
        return max;
    }
}
