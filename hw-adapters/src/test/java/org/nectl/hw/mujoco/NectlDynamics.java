package org.nectl.hw.mujoco;

import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.dynamics.MassMatrix;
import org.nectl.core.dynamics.RecursiveForwardDynamics;
import org.nectl.core.model.RobotModel;

/**
 * nectl's dynamics of one model, as the parity tests compare them with MuJoCo's: the only place
 * these tests construct or call org.nectl.core.dynamics. Gravity (0, 0, -9.81).
 */
final class NectlDynamics
{
    private final RobotModel model;
    private final InverseDynamics inverse;
    private final RecursiveForwardDynamics forward;
    private final MassMatrix massMatrix;

    NectlDynamics(final RobotModel model, final boolean jointFriction)
    {
        final CompiledModel compiled = CompiledModel.of(model);
        this.model = model;
        inverse = new InverseDynamics(compiled);
        inverse.jointFriction(jointFriction);
        forward = new RecursiveForwardDynamics(compiled);
        forward.jointFriction(jointFriction);
        massMatrix = new MassMatrix(compiled);
    }

    void inverseDynamics(final double[] q, final double[] qd, final double[] qdd, final double[] tau)
    {
        inverse.compute(q, qd, qdd, tau);
    }

    boolean forwardDynamics(final double[] q, final double[] qd, final double[] tau, final double[] qdd)
    {
        return forward.compute(q, qd, tau, qdd);
    }

    void massMatrix(final double[] q, final double[] m)
    {
        massMatrix.compute(q, m);
    }

    /** @return Fs sign(qd) of coordinate k: the Coulomb friction MuJoCo models as a constraint, not a force law. */
    double coulombFriction(final int k, final double qd)
    {
        return model.actuation(k).coulombFriction() * Math.signum(qd);
    }
}
