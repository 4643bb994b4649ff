package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Function;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.nectl.core.runtime.Faults;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmAdapter;
import org.nectl.hw.SimulatedArmConfig;
import org.nectl.hw.SimulationMode;
import org.nectl.hw.mujoco.MujocoPlant;
import org.nectl.hw.mujoco.MujocoScene;
import org.nectl.service.planner.DemoTrajectory;
import org.nectl.service.planner.JointTrajectory;
import org.nectl.transport.sbe.ControllerKind;

/**
 * The demo trajectory ({@code nectl demo}: the Panda from its ready pose, each joint 0.3 rad out,
 * 0.3 rad the other way and back in 6 s) under computed-torque control in lockstep, once on nectl's
 * own plant and once on MuJoCo's, over the real hardware link of the running service. The two
 * plants integrate the same equations (classical RK4, 4 substeps of 250 us, torques held over each
 * 1 ms period) with dynamics that agree to about 2e-8 relative (MujocoParityTest), so the tracking
 * error, which comes from holding the torque over the period, is the same to a few parts in 10^6.
 */
class MujocoPlantServiceTest
{
    private static final Path PANDA_FILE = Path.of("../config/robots/panda.yaml");
    private static final double AMPLITUDE_RAD = 0.3;
    private static final double DURATION_S = 6.0;
    private static final int SETTLE_STEPS = 300;
    private static final int STEPS = SETTLE_STEPS + 6_200;
    /** Both plants: the demo's own success bound is 1e-2 rad; lockstep with an exact model stays far below. */
    private static final double RMS_BOUND_RAD = 1e-5;
    /** Relative difference of the two plants' RMS errors: 4.7e-6 measured at most (joint 7). */
    private static final double PLANT_AGREEMENT = 1e-4;

    @BeforeAll
    static void mujoco()
    {
        MujocoRequired.check();
    }

    @Test
    void demoTrajectoryTracksAsWellOnMujocosPlantAsOnNectls()
    {
        final double[] nectl = trackingRms(config -> new SimulatedArm(ServiceRig.PANDA, config));
        final double[] mujoco;
        try (MujocoPlant plant = MujocoPlant.open(PANDA_FILE, ServiceRig.PANDA, MujocoScene.EMPTY))
        {
            mujoco = trackingRms(config -> new SimulatedArm(ServiceRig.PANDA, config, plant));
        }
        final StringBuilder report = new StringBuilder("demo trajectory, lockstep, RMS tracking error per joint, rad:");
        for (int j = 0; j < nectl.length; j++)
        {
            report.append(String.format(Locale.ROOT, "%n  joint %d: nectl plant %.6e, MuJoCo plant %.6e, relative difference %.2e", j + 1,
                nectl[j], mujoco[j], Math.abs(mujoco[j] - nectl[j]) / nectl[j]));
        }
        System.out.println(report);
        for (int j = 0; j < nectl.length; j++)
        {
            assertTrue(nectl[j] <= RMS_BOUND_RAD && mujoco[j] <= RMS_BOUND_RAD, report.toString());
            assertEquals(nectl[j], mujoco[j], PLANT_AGREEMENT * nectl[j], report.toString());
        }
    }

    private static double[] trackingRms(final Function<SimulatedArmConfig, SimulatedArm> arms)
    {
        final double[] startQ = DemoTrajectory.startPose(ServiceRig.PANDA);
        final JointTrajectory move = DemoTrajectory.move(ServiceRig.PANDA, startQ, AMPLITUDE_RAD, DURATION_S);
        try (ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings()))
        {
            final SimulatedArm arm = arms.apply(new SimulatedArmConfig(ServiceRig.PANDA).periodNs(ServiceRig.PERIOD_NS).initialQ(startQ));
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.trackInLockstep(arm, adapter, ControllerKind.COMPUTED_TORQUE, move, SETTLE_STEPS, STEPS);
            final ControlLoop loop = rig.service.loop();
            assertEquals(1, loop.cycle().completedTrajectories(), "trajectory completed");
            assertEquals(0, loop.faults(), () -> "faults: " + Faults.describe(loop.faults()));
            final double[] rms = new double[ServiceRig.PANDA.dof()];
            for (int j = 0; j < rms.length; j++)
            {
                rms[j] = loop.cycle().trackingRms(j);
            }
            return rms;
        }
    }
}
