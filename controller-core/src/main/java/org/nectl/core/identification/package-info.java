/**
 * Identification of inertial parameters from motion: the payload carried by a link, from joint
 * positions, velocities, accelerations and torques, by least squares on the dynamics regressor, which
 * is linear in the inertial parameters (docs/CONTROL.md, "Payload identification"). Off the control
 * loop: allocates freely.
 */
package org.nectl.core.identification;
