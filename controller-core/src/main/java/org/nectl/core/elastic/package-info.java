/**
 * Robots with mixed rigid and elastic joints and motors mounted on any link (Hua, Poursina,
 * Sanfilippo, "Dynamic Modelling of Mixed Rigid-Flexible Joint Robotic Manipulator Using Recursive
 * Newton-Euler Formulation"; Khalil, "Dynamic modeling of robots using recursive Newton-Euler
 * techniques", ICINCO 2010, §6).
 *
 * <p>Model: {@link org.nectl.core.elastic.ElasticRobotModel} = the links of a
 * {@link org.nectl.core.model.RobotModel} plus per joint an optional
 * {@link org.nectl.core.elastic.Motor} and {@link org.nectl.core.elastic.JointElasticity}; an
 * elastic joint without a motor is passive (Khalil §6, eqs. 69-70: a spring to a rest position). The
 * gear-ratio convention (theta reflected through the gearbox, spring torque K (theta - q), torques
 * reflected) is stated on {@link org.nectl.core.elastic.Motor}.
 *
 * <p>State arrays: q, qd, qdd by link coordinate (dof); theta, theta_dot, theta_dd by elastic index
 * (elasticCount, elastic joints in coordinate order). Stacked vectors and matrices put q first,
 * then theta. Every algorithm below is allocation-free per call after construction and not thread
 * safe (one instance per thread).
 *
 * <p>For a controller (the paper's eqs. 30 and 37-52), all real-time safe:
 * <ul>
 * <li>{@link org.nectl.core.elastic.MixedMassMatrix}: A(q) = [[M, S], [S^T, B]];</li>
 * <li>{@link org.nectl.core.elastic.MixedCoriolisMatrix}: [[C, C1], [C2, 0]] (Christoffel-consistent,
 *   A-dot - 2C skew), so C(q, qd) qr_dot can be formed for a reference velocity;</li>
 * <li>{@link org.nectl.core.elastic.MixedBiasForces}: zeta = [C qd + C1 theta_dot + G - tau_ex +
 *   link friction; C2 qd + motor friction], springs excluded;</li>
 * <li>{@link org.nectl.core.elastic.SpringTorques}: sigma = K (theta - q) + D (theta_dot - qd);</li>
 * <li>{@link org.nectl.core.elastic.MixedInverseDynamics} (ReNEAL): for given (q, theta, rates,
 *   qdd, theta_dd), the torque each joint must transmit (rigid: motor torque; elastic: the spring
 *   torque needed, eq. 28, independent of theta) and the elastic joints' motor torques (eq. 29);</li>
 * <li>{@link org.nectl.core.elastic.ElasticJointInverseDynamics} (Khalil-Gautier, three passes):
 *   for given rigid-joint and motor accelerations, the elastic joints' accelerations and the
 *   driving torques.</li>
 * </ul>
 * For simulation: {@link org.nectl.core.elastic.MixedForwardDynamics} (the paper's Algorithm 2,
 * Cholesky) and {@link org.nectl.core.elastic.RecursiveMixedForwardDynamics} (Khalil 2010 §6.2,
 * O(n) when every rigid joint's rotor sits on the base, its joint's link or that link's parent).
 *
 * <p>Carried (moving) base: ReNEAL, zeta and both forward dynamics take an optional
 * {@link org.nectl.core.dynamics.BaseMotion}, the base's measured motion as the root's motion of the
 * recursion (Khalil 2010 §7.1), its specific force replacing gravity; A(q) does not depend on it.
 * {@link org.nectl.core.elastic.MotorReference} adds the base's share and its derivatives, with the
 * base's unmeasured rates from {@link org.nectl.core.elastic.BaseMotionRates}.
 */
package org.nectl.core.elastic;
