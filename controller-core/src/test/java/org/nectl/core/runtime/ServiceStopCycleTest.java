package org.nectl.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.nectl.core.testing.RandomRobots;

/** The cycle's side of the service's stops: a shutdown, a failed loop, a silent state source. */
class ServiceStopCycleTest
{
    private static final long SEED = 17;

    private static CycleHarness movingChain(final SafetySettings safety)
    {
        final var model = RandomRobots.robot(SEED, 7, false, RandomRobots.Joints.REVOLUTE, false);
        final CycleHarness h = new CycleHarness(model, CycleSettings.defaults(7, 1_000_000L), safety);
        h.run(1);
        assertEquals(ControlCycle.ACCEPTED, h.cycle.enable(ControlLaw.COMPUTED_TORQUE));
        h.run(200);
        assertEquals(ControlCycle.ACCEPTED, h.cycle.startTrajectory(h.move(0.5, 2.0)), "seed " + SEED);
        h.run(700);
        assertEquals(ControllerMode.TRACKING, h.cycle.mode());
        return h;
    }

    @Test
    void aShutdownWhileMovingIsACategoryOneStopToStandstillThenFault()
    {
        final CycleHarness h = movingChain(SafetySettings.defaults(7));
        h.cycle.shutdown();
        assertEquals(ControllerMode.STOPPING, h.cycle.mode());
        assertEquals(Faults.SHUTDOWN, h.cycle.faults());
        assertTrue(h.cycle.drivesEnabled(), "powered while it decelerates");
        int ticks = 0;
        while (h.cycle.mode() == ControllerMode.STOPPING && ticks < 2000)
        {
            h.run(1);
            ticks++;
        }
        assertEquals(ControllerMode.FAULT, h.cycle.mode());
        assertEquals(Faults.SHUTDOWN, h.cycle.faults(), "no stop timeout: " + Faults.describe(h.cycle.faults()));
        assertFalse(h.cycle.drivesEnabled());
        assertTrue(h.cycle.lastStopDurationNs() <= SafetySettings.defaults(7).stopTimeNs());
        assertEquals(ControlCycle.REJECTED_MODE, h.cycle.enable(null), "nothing restarts it but a reset");
    }

    @Test
    void aCategoryZeroShutdownZeroesTheTorqueAtOnceAndADisabledArmIsLeftAlone()
    {
        final SafetySettings zero = SafetySettings.defaults(7).withCategory(Faults.SHUTDOWN, StopCategory.CATEGORY_0);
        final CycleHarness h = movingChain(zero);
        h.cycle.shutdown();
        assertEquals(ControllerMode.FAULT, h.cycle.mode());
        for (final double tau : h.cycle.tauCommand())
        {
            assertEquals(0.0, tau);
        }

        final CycleHarness idle = new CycleHarness(RandomRobots.robot(SEED, 7, false, RandomRobots.Joints.REVOLUTE, false));
        idle.run(1);
        idle.cycle.shutdown();
        idle.cycle.stateLost();
        assertEquals(ControllerMode.IDLE, idle.cycle.mode());
        assertEquals(0, idle.cycle.faults());
    }

    @Test
    void aLoopErrorAndALostStateSourceAreCategoryZeroFaults()
    {
        final CycleHarness h = movingChain(SafetySettings.defaults(7));
        h.cycle.loopError();
        assertEquals(ControllerMode.FAULT, h.cycle.mode());
        assertEquals(Faults.LOOP_ERROR, h.cycle.faults());
        assertFalse(h.cycle.drivesEnabled());

        final CycleHarness g = movingChain(SafetySettings.defaults(7));
        g.cycle.stateLost();
        assertEquals(ControllerMode.FAULT, g.cycle.mode());
        assertEquals(Faults.STATE_MISSING, g.cycle.faults());
        for (final double tau : g.cycle.tauCommand())
        {
            assertEquals(0.0, tau);
        }
    }
}
