package org.nectl.hw;

import org.nectl.core.dynamics.BaseMotion;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.elastic.RestingMotorPositions;
import org.nectl.core.elastic.UnifiedBodies;
import org.nectl.core.simulation.MixedArmSimulator;

/**
 * Physics of a {@link SimulatedArm} with elastic joints ({@link MixedArmSimulator}). It starts at
 * rest at the configured link positions with every spring holding its link's static load, as after
 * the brakes held the arm there; braked, both links and motors are held. On a carried base (the
 * configuration's base-motion profile) the springs start holding the static load of the base at
 * rest, and the base moves from time 0. Real-time safe after construction; not thread safe.
 */
final class ElasticArmPhysics implements ArmPhysics
{
    private final MixedArmSimulator simulator;
    private final int[] elasticCoordinates;
    private final double[] theta;
    private final double[] thetaDot;
    private final int elasticMask;

    ElasticArmPhysics(final ElasticRobotModel model, final SimulatedArmConfig config)
    {
        final int elastic = model.elasticCount();
        final UnifiedBodies bodies = UnifiedBodies.of(model);
        simulator = new MixedArmSimulator(bodies, config.periodNs(), config.substeps());
        final double[] gravity = config.gravity();
        simulator.gravity(gravity[0], gravity[1], gravity[2]);
        final double[] q = config.initialQ();
        simulator.reset(q, RestingMotorPositions.compute(bodies, q, gravity), new double[model.dof()], new double[elastic]);
        config.baseMotion().ifPresent(simulator::baseMotion);
        elasticCoordinates = new int[elastic];
        int mask = 0;
        for (int e = 0; e < elastic; e++)
        {
            elasticCoordinates[e] = model.coordinateOfElastic(e);
            mask |= 1 << elasticCoordinates[e];
        }
        elasticMask = mask;
        theta = new double[elastic];
        thetaDot = new double[elastic];
    }

    @Override
    public void baseMotion(final BaseMotion out)
    {
        simulator.baseMotionAt(simulator.timeNs() * 1e-9, out);
    }

    @Override
    public void command(final double[] commandNm)
    {
        simulator.command(commandNm);
    }

    @Override
    public int step()
    {
        return simulator.step();
    }

    @Override
    public void stepBraked()
    {
        simulator.stepBraked();
    }

    @Override
    public void positions(final double[] out)
    {
        simulator.positions(out);
    }

    @Override
    public void velocities(final double[] out)
    {
        simulator.velocities(out);
    }

    @Override
    public void motorPositions(final double[] out)
    {
        simulator.motorPositions(theta);
        scatter(theta, out);
    }

    @Override
    public void motorVelocities(final double[] out)
    {
        simulator.motorVelocities(thetaDot);
        scatter(thetaDot, out);
    }

    private void scatter(final double[] byElastic, final double[] byCoordinate)
    {
        for (int e = 0; e < byElastic.length; e++)
        {
            byCoordinate[elasticCoordinates[e]] = byElastic[e];
        }
    }

    @Override
    public int elasticMask()
    {
        return elasticMask;
    }

    @Override
    public long stepCount()
    {
        return simulator.stepCount();
    }

    @Override
    public long timeNs()
    {
        return simulator.timeNs();
    }
}
