package org.nectl.core.mobile;

import org.nectl.core.dynamics.AppliedLoads;
import org.nectl.core.dynamics.BaseMotion;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;

/**
 * Inverse dynamics of a tree on a carried base whose motion is measured (an arm on a vehicle, a
 * mobile platform or a ship; Khalil, "Dynamic modeling of robots using recursive Newton-Euler
 * techniques", ICINCO 2010, §7.2 with the base acceleration given instead of solved for).
 *
 * <p>With the base's twist and acceleration known, step (ii) of §7.2 (the composite inertia
 * J^c_0 and the base acceleration of eq. 97) is not needed: the forward recursion starts from the
 * base's omega_0, omegaDot_0 and vdot_0 - g (eqs. 89 and 98: zeta_j and the propagation of the
 * accelerations, as in the fixed-base pass), the backward recursion (eqs. 91 and 94) runs to the
 * base, and the joint torques follow by projection (eq. 100). The base's Newton-Euler equation at
 * j = 0 gives the wrench 0f_0 the base exerts on the tree; the tree exerts -0f_0 on its carrier.
 * The base's linear velocity does not enter: a link's Newton-Euler wrench depends on its angular
 * velocity and on accelerations only.
 *
 * <p>Frames: everything in base coordinates (see {@link BaseMotion}). Not thread safe. Every method
 * is real-time safe except the constructor.
 */
public final class CarriedBaseInverseDynamics
{
    private final InverseDynamics rnea;
    private final AppliedLoads noLoads;
    private final double[] baseWrench = new double[6];

    /**
     * Not real-time safe: allocates the workspace.
     *
     * @param model the compiled robot; its gravity is not used (the base's specific force replaces it).
     */
    public CarriedBaseInverseDynamics(final CompiledModel model)
    {
        rnea = new InverseDynamics(model);
        noLoads = new AppliedLoads(model);
    }

    /**
     * Switches Coulomb and viscous joint friction on or off (default on).
     *
     * @param enabled true to add Fs sign(qd) + Fv qd to each joint torque.
     */
    public void jointFriction(final boolean enabled)
    {
        rnea.jointFriction(enabled);
    }

    /**
     * Joint forces for the given joint motion relative to the moving base, with no external load.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities, rad/s or m/s.
     * @param qdd joint accelerations relative to the base, rad/s^2 or m/s^2.
     * @param base the base's measured motion.
     * @param tau output joint torques or forces by coordinate, N m or N.
     */
    public void compute(
        final double[] q, final double[] qd, final double[] qdd, final BaseMotion base, final double[] tau)
    {
        compute(q, qd, qdd, noLoads, base, tau);
    }

    /**
     * Joint forces for the given joint motion relative to the moving base under external loads.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities, rad/s or m/s.
     * @param qdd joint accelerations relative to the base, rad/s^2 or m/s^2.
     * @param loads wrenches the environment applies on the bodies (world-fixed ones in base coordinates).
     * @param base the base's measured motion.
     * @param tau output joint torques or forces by coordinate, N m or N.
     */
    public void compute(
        final double[] q, final double[] qd, final double[] qdd, final AppliedLoads loads, final BaseMotion base,
        final double[] tau)
    {
        rnea.compute(q, qd, qdd, loads, base, tau);
        rnea.baseWrench(baseWrench);
    }

    /**
     * The wrench the arm exerts on its carrier in the last {@link #compute}: -0f_0.
     *
     * @param wrench6 output: force (N) then moment about the base origin (N m), base frame.
     */
    public void carrierWrench(final double[] wrench6)
    {
        for (int k = 0; k < 6; k++)
        {
            wrench6[k] = -baseWrench[k];
        }
    }
}
