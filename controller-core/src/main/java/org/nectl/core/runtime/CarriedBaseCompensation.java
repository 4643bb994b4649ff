package org.nectl.core.runtime;

import java.util.Arrays;

import org.nectl.core.control.ControlStatus;
import org.nectl.core.dynamics.BaseMotion;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.elastic.BaseMotionRates;
import org.nectl.core.mobile.CarriedBaseInverseDynamics;

/**
 * The carried base in the control cycle: the joint torques the base's measured motion demands beyond
 * a fixed base at the measured state,
 * tau_base(q, qd) = RNEA_carried(q, qd, 0; base) - RNEA_fixed(q, qd, 0), friction off in both.
 * Rigid-body inverse dynamics is M(q) qdd plus terms in q, qd and the base's motion, and M(q) qdd does
 * not depend on the base: so a fixed-base law's command plus tau_base equals the carried-base inverse
 * dynamics at any commanded acceleration, and the torque that drives the links as the fixed-base model
 * sees them is the applied torque minus tau_base, which is what the momentum observer is given.
 *
 * <p>Base blocks: the JointState's base-motion block (docs/PROTOCOL.md) is taken only in a carried
 * deployment. A missing block, a non-finite value or a non-unit quaternion is counted and the last
 * valid block is used (at start: the base at rest under the configured gravity, tau_base = 0), as long
 * as it is no older than {@link CarriedBaseSettings#maxAgeNs}: {@link #supervise} reports an older one
 * as {@link Faults#BASE_MOTION_LOST}, and {@link #fresh} keeps an ENABLE from starting on it.
 *
 * <p>Once per tick the block in use also updates the estimate of the base's unmeasured rates
 * ({@link BaseMotionRates}: angular jerk, specific force rates; differences of successive ticks
 * through the settings' low-pass), which the mixed rigid/elastic law's motor reference needs; with
 * {@link CarriedBaseSettings.Rates#CONSTANT} the estimate is never fed, so the motor reference takes
 * the base's acceleration constant. With {@link CarriedBaseSettings#angularAccelerationFilterNs} the
 * block's angular acceleration goes through a first-order low-pass once per tick before any law or
 * the estimate uses it: an adapter that differences its gyro passes the gyro's noise times
 * sqrt(2) / T (docs/CONTROL.md, "A noisy IMU").
 *
 * <p>Not thread safe: owned by the control loop. {@link #settings(CarriedBaseSettings)} and the
 * constructor are not real-time safe; every other method is.
 */
public final class CarriedBaseCompensation
{
    private Dynamics dynamics;
    private final BaseMotion received = new BaseMotion();
    private final BaseMotion held = new BaseMotion();
    /** The held block with its angular acceleration through the settings' low-pass: what the laws use. */
    private final BaseMotion used = new BaseMotion();
    private final double[] filteredAngularAcceleration = new double[3];
    /** Weight of a new angular acceleration in its low-pass, T / (tau + T); 1 without the filter. */
    private double angularAccelerationWeight = 1.0;
    private boolean filterStarted;
    /** held without the low-pass (it is then taken as received, between ticks too), else used. */
    private BaseMotion inUse = held;
    private final double[] zeros;
    private final double[] fixedTorque;
    private final double[] baseTorque;
    private final double periodS;
    private BaseMotionRates rates;
    private boolean estimateRates;
    private boolean carried;
    private long maxAgeNs = Long.MAX_VALUE;
    private boolean takenSinceTick;
    private boolean everTaken;
    private long takenAtNs;
    private long acceptedCount;
    private long missingCount;
    private long rejectedCount;
    private long ignoredCount;

    /**
     * Not real-time safe: allocates the workspaces.
     *
     * @param dynamics the cycle's compiled robot, under the configured gravity.
     * @param gravity the configured gravity, base frame at rest, m/s^2.
     * @param periodNs the control period, ns.
     */
    CarriedBaseCompensation(final CompiledModel dynamics, final double[] gravity, final long periodNs)
    {
        periodS = periodNs * 1e-9;
        rates = new BaseMotionRates(periodS, CarriedBaseSettings.DEFAULT_RATE_FILTER_NS * 1e-9);
        estimateRates = true;
        this.dynamics = new Dynamics(dynamics);
        held.atRest(gravity);
        used.atRest(gravity);
        zeros = new double[dynamics.dof()];
        fixedTorque = new double[dynamics.dof()];
        baseTorque = new double[dynamics.dof()];
    }

    /**
     * Declares the arm carried (deployment section {@code base}) or fixed (default), the base
     * motion's maximum age and the treatment of its unmeasured rates. Not real-time safe (allocates):
     * call before the loop starts.
     *
     * @param settings whether the base moves and JointStates carry its motion, for how long a block
     *     holds, and where the base's rates come from.
     */
    public void settings(final CarriedBaseSettings settings)
    {
        carried = settings.carried();
        maxAgeNs = settings.maxAgeNs();
        estimateRates = settings.rates() == CarriedBaseSettings.Rates.ESTIMATED;
        rates = new BaseMotionRates(periodS, settings.rateFilterNs() * 1e-9);
        angularAccelerationWeight = periodS / (settings.angularAccelerationFilterNs() * 1e-9 + periodS);
        inUse = settings.angularAccelerationFilterNs() == 0 ? held : used;
    }

    /** @return true if the arm is declared carried. */
    public boolean carried()
    {
        return carried;
    }

    /**
     * Takes one JointState's base-motion block; ignored for a fixed base.
     *
     * @param present true if the JointState has the block.
     * @param block the block's {@value BaseMotion#BLOCK_LENGTH} values in the JointState's order
     *     ({@link BaseMotion#fromBlock}).
     */
    public void measure(final boolean present, final double[] block)
    {
        if (!carried)
        {
            if (present)
            {
                ignoredCount++;
            }
            return;
        }
        if (!present)
        {
            missingCount++;
            return;
        }
        if (received.fromBlock(block).validity() != BaseMotion.Validity.VALID)
        {
            rejectedCount++;
            return;
        }
        held.copyFrom(received);
        acceptedCount++;
        takenSinceTick = true;
    }

    /**
     * Once per tick, before anything reads the held block: dates a block taken since the last tick
     * with this tick's time and checks the held block's age.
     *
     * @param timeNs the tick's time on the controller clock, ns.
     * @return {@link Faults#BASE_MOTION_LOST} if the arm is carried and no valid block was taken within
     *     the maximum age (or none ever), else 0.
     */
    int supervise(final long timeNs)
    {
        if (takenSinceTick)
        {
            takenSinceTick = false;
            everTaken = true;
            takenAtNs = timeNs;
        }
        if (carried)
        {
            if (inUse == used)
            {
                useHeld();
            }
            if (estimateRates)
            {
                rates.update(inUse);
            }
        }
        return fresh(timeNs) ? 0 : Faults.BASE_MOTION_LOST;
    }

    /** used = held, its angular acceleration through the low-pass (from the first block's value on). */
    private void useHeld()
    {
        used.copyFrom(held);
        for (int k = 0; k < 3; k++)
        {
            final double raw = held.angularAcceleration(k);
            filteredAngularAcceleration[k] = filterStarted ? filteredAngularAcceleration[k]
                + angularAccelerationWeight * (raw - filteredAngularAcceleration[k]) : raw;
        }
        filterStarted = true;
        used.angularAcceleration(filteredAngularAcceleration[0], filteredAngularAcceleration[1], filteredAngularAcceleration[2]);
    }

    /**
     * @param timeNs the controller clock now, ns.
     * @return true for a fixed base, or if a valid block was taken since the last tick or within the
     *     maximum age before {@code timeNs}.
     */
    boolean fresh(final long timeNs)
    {
        return !carried || takenSinceTick || everTaken && timeNs - takenAtNs <= maxAgeNs;
    }

    /**
     * Adds tau_base at the measured state to a rigid-body law's command; the mixed rigid/elastic law
     * is left as it is: it takes {@link #baseMotion()} into its own model (its elastic joints' motors
     * act through springs, so the base's share is in its motor reference, not a torque to add). A
     * fixed base adds nothing.
     *
     * @param law the law that computed the command.
     * @param q measured positions.
     * @param qd measured velocities.
     * @param tauLaw the law's command, N m or N, compensated in place.
     * @return {@link ControlStatus#OK}, or {@link ControlStatus#NON_FINITE_OUTPUT} if tau_base is not finite.
     */
    int compensate(final ControlLaw law, final double[] q, final double[] qd, final double[] tauLaw)
    {
        if (!carried || law == ControlLaw.MIXED_ELASTIC)
        {
            Arrays.fill(baseTorque, 0.0);
            return ControlStatus.OK;
        }
        dynamics.carried.compute(q, qd, zeros, inUse, baseTorque);
        dynamics.fixed.compute(q, qd, zeros, fixedTorque);
        for (int j = 0; j < baseTorque.length; j++)
        {
            baseTorque[j] -= fixedTorque[j];
            tauLaw[j] += baseTorque[j];
        }
        return StateMonitor.finite(baseTorque) ? ControlStatus.OK : ControlStatus.NON_FINITE_OUTPUT;
    }

    /**
     * Computes tau_base on another model of the same robot from now on (the perform phase of a model
     * change, {@link ControlCycle#changeModel}). Real-time safe.
     *
     * @param prepared the new model's dynamics, built off the loop.
     */
    void use(final Dynamics prepared)
    {
        dynamics = prepared;
    }

    /**
     * The two inverse dynamics tau_base is the difference of, on one model: built off the loop for a
     * model change ({@link ControlCycle#prepareModel}).
     */
    static final class Dynamics
    {
        final CarriedBaseInverseDynamics carried;
        final InverseDynamics fixed;

        /** Not real-time safe: allocates the workspaces. */
        Dynamics(final CompiledModel model)
        {
            carried = new CarriedBaseInverseDynamics(model);
            carried.jointFriction(false);
            fixed = new InverseDynamics(model);
            fixed.jointFriction(false);
        }
    }

    /** @return tau_base of the last {@link #compensate}, N m or N; the live array, read only. */
    double[] baseTorque()
    {
        return baseTorque;
    }

    /**
     * @return the estimated rates of the base motion in use, updated once per tick by {@link #supervise};
     *     never {@link BaseMotionRates#estimated} with {@link CarriedBaseSettings.Rates#CONSTANT}.
     */
    public BaseMotionRates baseRates()
    {
        return rates;
    }

    /**
     * @return the base motion in use: the last valid block (its angular acceleration low-passed if the
     *     settings ask for it), or the base at rest before the first; updated once per tick by {@link #supervise}.
     */
    public BaseMotion baseMotion()
    {
        return inUse;
    }

    /** @return valid base blocks taken since start. */
    public long acceptedCount()
    {
        return acceptedCount;
    }

    /** @return JointStates without a base block in a carried deployment, since start. */
    public long missingCount()
    {
        return missingCount;
    }

    /** @return base blocks refused (a non-finite value or a non-unit quaternion) since start. */
    public long rejectedCount()
    {
        return rejectedCount;
    }

    /**
     * @return base blocks a fixed deployment received and ignored: an adapter reporting a moving base
     *     under a deployment that does not declare it carried.
     */
    public long ignoredCount()
    {
        return ignoredCount;
    }
}
