package org.nectl.core.identification;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.nectl.core.dynamics.AppliedLoads;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.RobotModel;

/**
 * The joint torques of a payload on one body as a linear function of its ten inertial parameters,
 * tau_payload = Y(q, qd, qdd) pi with pi = (m, m cx, m cy, m cz, Jxx, Jxy, Jxz, Jyy, Jyz, Jzz), the
 * payload's mass, first moment and inertia about the carrying body's frame origin, in that frame
 * (Atkeson, An, Hollerbach, "Estimation of inertial parameters of manipulator loads and links", IJRR
 * 1986: the Newton-Euler wrench of a body is linear in these).
 *
 * <p>How Y is computed: inverse dynamics is linear in each body's parameters, so with ten payloads
 * b_1..b_10 whose parameter vectors form an invertible matrix B, the columns RNEA(model with b_i) -
 * RNEA(model) are Y b_i, and Y = [those columns] B^-1. The b_i are 1 kg point masses (plus a small
 * isotropic inertia, so each is a valid body) at the ten points of the degree-2 principal lattice
 * {0, e_k, 2 e_k, e_k + e_l} x 0.1 m, which no quadric contains: B is invertible. This uses only
 * nectl's own inverse dynamics (eleven calls per sample), so the regressor is exact to rounding and
 * follows the controller's model conventions (gravity, friction, rotor inertia cancel out).
 *
 * <p>Not real-time safe (offline identification). Not thread safe.
 */
public final class PayloadRegressor
{
    /** Inertial parameters of one body. */
    public static final int PARAMETERS = 10;
    private static final double LATTICE_M = 0.1;
    private static final double BASIS_INERTIA = 1e-3;

    private final int dof;
    private final InverseDynamics nominal;
    private final InverseDynamics[] loaded = new InverseDynamics[PARAMETERS];
    /** Gravity of the nominal model's calls, and of each loaded model's. */
    private final AppliedLoads nominalLoads;
    private final AppliedLoads[] loadedLoads = new AppliedLoads[PARAMETERS];
    private final DMatrixRMaj basisInverse;
    private final DMatrixRMaj columns;
    private final DMatrixRMaj regressor;
    private final double[] tau;
    private final double[] tauLoaded;

    /**
     * Not real-time safe.
     *
     * @param model the robot without the payload (the controller's model).
     * @param body the body that carries the payload.
     */
    public PayloadRegressor(final RobotModel model, final int body)
    {
        dof = model.dof();
        final CompiledModel compiled = CompiledModel.of(model);
        nominal = new InverseDynamics(compiled);
        nominalLoads = new AppliedLoads(compiled);
        final DMatrixRMaj basis = new DMatrixRMaj(PARAMETERS, PARAMETERS);
        final double[][] points = {
            {0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {2, 0, 0}, {0, 2, 0}, {0, 0, 2}, {1, 1, 0}, {1, 0, 1}, {0, 1, 1}};
        for (int i = 0; i < PARAMETERS; i++)
        {
            final double[] c = {LATTICE_M * points[i][0], LATTICE_M * points[i][1], LATTICE_M * points[i][2]};
            final InertialParameters b = InertialParameters.ofCentreOfMass(1.0, c,
                new double[] {BASIS_INERTIA, 0, 0, 0, BASIS_INERTIA, 0, 0, 0, BASIS_INERTIA});
            final double[] v = Payloads.vector(b);
            for (int r = 0; r < PARAMETERS; r++)
            {
                basis.set(r, i, v[r]);
            }
            final CompiledModel loadedModel = CompiledModel.of(Payloads.withPayload(model, body, b));
            loaded[i] = new InverseDynamics(loadedModel);
            loadedLoads[i] = new AppliedLoads(loadedModel);
        }
        basisInverse = basis.copy();
        if (!CommonOps_DDRM.invert(basisInverse))
        {
            throw new IllegalStateException("the payload basis is singular");
        }
        columns = new DMatrixRMaj(dof, PARAMETERS);
        regressor = new DMatrixRMaj(dof, PARAMETERS);
        tau = new double[dof];
        tauLoaded = new double[dof];
    }

    /**
     * Sets the gravity vector of every model (default 0, 0, -9.81).
     *
     * @param gx x component in the base frame, m/s^2.
     * @param gy y component in the base frame, m/s^2.
     * @param gz z component in the base frame, m/s^2.
     */
    public void gravity(final double gx, final double gy, final double gz)
    {
        nominalLoads.gravity(gx, gy, gz);
        for (final AppliedLoads loads : loadedLoads)
        {
            loads.gravity(gx, gy, gz);
        }
    }

    /** @return number of joint coordinates. */
    public int dof()
    {
        return dof;
    }

    /**
     * Computes Y at one motion sample and the torque of the robot without payload.
     *
     * @param q positions, rad or m.
     * @param qd velocities.
     * @param qdd accelerations.
     * @param y output, dof x {@value #PARAMETERS} row-major: tau_payload = Y pi.
     * @param tauWithoutPayload output, the nominal model's inverse dynamics, N m or N.
     */
    public void compute(final double[] q, final double[] qd, final double[] qdd, final double[] y, final double[] tauWithoutPayload)
    {
        nominal.compute(q, qd, qdd, nominalLoads, tau);
        for (int i = 0; i < PARAMETERS; i++)
        {
            loaded[i].compute(q, qd, qdd, loadedLoads[i], tauLoaded);
            for (int k = 0; k < dof; k++)
            {
                columns.set(k, i, tauLoaded[k] - tau[k]);
            }
        }
        CommonOps_DDRM.mult(columns, basisInverse, regressor);
        System.arraycopy(regressor.data, 0, y, 0, dof * PARAMETERS);
        System.arraycopy(tau, 0, tauWithoutPayload, 0, dof);
    }
}
