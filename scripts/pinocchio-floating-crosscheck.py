#!/usr/bin/env python3
"""Cross-checks `nectl dynamics` on floating-base robots against Pinocchio, an independent rigid-body
library (docs/VALIDATION.md, "Floating base").

    scripts/pinocchio-floating-crosscheck.py [--states N] [--seed S] [URDF ...]

Needs Pinocchio's Python bindings (the `pin` package, e.g. `python3 -m venv /tmp/pin && /tmp/pin/bin/pip
install pin`, then run this script with /tmp/pin/bin/python). The URDF files (default: the shipped
config/robots/quadruped-12.urdf and humanoid-31.urdf) must have a `floating` joint at the root, which
Pinocchio reads as its free-flyer joint. For random states (base pose with a uniformly random
orientation, base twist, q within the joint limits, qd, qdd, tau) it compares, joint by joint name:
  free base, given qdd:   nectl's base_acceleration and tau against pinocchio.rnea(q, v, [a0, qdd])
                          being [0 (6), tau] -- i.e. the base acceleration leaves no wrench -- and
                          against pinocchio.aba(q, v, [0, tau]) giving back [a0, qdd];
  given tau:              nectl's qdd and base_acceleration against pinocchio.aba(q, v, [0, tau]);
  given base_acceleration: nectl's tau and base_wrench against pinocchio.rnea(q, v, [a0, qdd]).
Conventions match Pinocchio's free flyer (twist and acceleration in base coordinates, linear first)
except the quaternion, which nectl writes (w, x, y, z) and Pinocchio (x, y, z, w). Errors are the
largest entry error relative to the largest entry of Pinocchio's value (or 1 when that is smaller).
Exit status 1 when any exceeds 1e-9.
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np
import pinocchio as pin

BOUND = 1e-9


def random_states(model, names, rng, count):
    states = []
    for _ in range(count):
        quaternion = rng.normal(size=4)
        quaternion /= np.linalg.norm(quaternion)
        position = rng.uniform(-1.0, 1.0, 3)
        q = []
        for name in names:
            joint = model.joints[model.getJointId(name)]
            lower = model.lowerPositionLimit[joint.idx_q]
            upper = model.upperPositionLimit[joint.idx_q]
            q.append(rng.uniform(lower, upper) if np.isfinite(lower) and np.isfinite(upper) else rng.uniform(-3, 3))
        n = len(names)
        states.append({
            "base_pose": list(position) + list(quaternion),
            "base_twist": list(rng.uniform(-1.0, 1.0, 6)),
            "q": q,
            "qd": list(rng.uniform(-2.0, 2.0, n)),
            "qdd": list(rng.uniform(-5.0, 5.0, n)),
            "tau": list(rng.uniform(-20.0, 20.0, n)),
            "base_acceleration": list(rng.uniform(-3.0, 3.0, 6)),
        })
    return states


def pinocchio_vectors(model, names, state, joint_values):
    """The configuration q (7 + n) and a velocity-sized vector with the joint values placed by name."""
    x, y, z, w, qx, qy, qz = state["base_pose"][0:3] + state["base_pose"][3:7]
    configuration = np.zeros(model.nq)
    configuration[0:3] = [x, y, z]
    configuration[3:7] = [qx, qy, qz, w]
    for name, value in zip(names, state["q"]):
        configuration[model.joints[model.getJointId(name)].idx_q] = value
    vectors = []
    for base, joints in joint_values:
        v = np.zeros(model.nv)
        v[0:6] = base
        for name, value in zip(names, joints):
            v[model.joints[model.getJointId(name)].idx_v] = value
        vectors.append(v)
    return configuration, vectors


def by_name(model, names, vector):
    return np.array([vector[model.joints[model.getJointId(name)].idx_v] for name in names])


def error(expected, actual):
    expected = np.asarray(expected, dtype=float)
    actual = np.asarray(actual, dtype=float)
    return float(np.max(np.abs(expected - actual)) / max(1.0, float(np.max(np.abs(expected)))))


def run_nectl(root, urdf, lines):
    result = subprocess.run([os.path.join(root, "scripts", "nectl"), "dynamics", f"--model={urdf}"],
                            input="\n".join(json.dumps(line) for line in lines) + "\n",
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"nectl dynamics failed on {urdf} (exit {result.returncode}):\n{result.stdout}{result.stderr}")
    return [json.loads(line) for line in result.stdout.splitlines()]


def check(root, urdf, states_count, rng):
    model = pin.buildModelFromUrdf(urdf)
    if model.joints[1].shortname() != "JointModelFreeFlyer":
        raise RuntimeError(f"{urdf}: Pinocchio did not read a free-flyer root joint")
    data = model.createData()
    names = [line.split()[1] for line in subprocess.run(
        [os.path.join(root, "scripts", "nectl"), "model", "show", urdf], capture_output=True, text=True,
        check=True).stdout.splitlines()[3:]]
    states = random_states(model, names, rng, states_count)
    keep = ("base_pose", "base_twist", "q", "qd")
    lines = []
    for s in states:
        common = {k: s[k] for k in keep}
        lines.append(dict(common, qdd=s["qdd"]))
        lines.append(dict(common, tau=s["tau"]))
        lines.append(dict(common, qdd=s["qdd"], base_acceleration=s["base_acceleration"]))
    outputs = run_nectl(root, urdf, lines)
    worst = {"free base: wrench left by base_acceleration": 0.0, "free base: tau": 0.0,
             "free base: aba round trip": 0.0, "given tau: qdd and base_acceleration": 0.0,
             "given base_acceleration: tau and base_wrench": 0.0}
    for i, s in enumerate(states):
        free, direct, prescribed = outputs[3 * i:3 * i + 3]
        q, (v, a_free, a_prescribed, tau_full) = pinocchio_vectors(model, names, s, [
            (s["base_twist"], s["qd"]), (free["base_acceleration"], s["qdd"]),
            (s["base_acceleration"], s["qdd"]), (np.zeros(6), s["tau"])])
        rnea_free = pin.rnea(model, data, q, v, a_free)
        worst["free base: wrench left by base_acceleration"] = max(
            worst["free base: wrench left by base_acceleration"], error(np.zeros(6), rnea_free[0:6]) /
            max(1.0, float(np.max(np.abs(rnea_free[6:])))))
        worst["free base: tau"] = max(worst["free base: tau"], error(by_name(model, names, rnea_free), free["tau"]))
        _, (tau_free,) = pinocchio_vectors(model, names, s, [(np.zeros(6), free["tau"])])
        aba_free = pin.aba(model, data, q, v, tau_free)
        worst["free base: aba round trip"] = max(worst["free base: aba round trip"],
                                                 error(aba_free[0:6], free["base_acceleration"]),
                                                 error(by_name(model, names, aba_free), s["qdd"]))
        aba = pin.aba(model, data, q, v, tau_full)
        worst["given tau: qdd and base_acceleration"] = max(worst["given tau: qdd and base_acceleration"],
                                                           error(by_name(model, names, aba), direct["qdd"]),
                                                           error(aba[0:6], direct["base_acceleration"]))
        rnea = pin.rnea(model, data, q, v, a_prescribed)
        worst["given base_acceleration: tau and base_wrench"] = max(
            worst["given base_acceleration: tau and base_wrench"],
            error(by_name(model, names, rnea), prescribed["tau"]), error(rnea[0:6], prescribed["base_wrench"]))
    return model, worst


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("urdf", nargs="*")
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = args.urdf or [os.path.join(root, "config", "robots", f) for f in ("quadruped-12.urdf", "humanoid-31.urdf")]
    rng = np.random.default_rng(args.seed)
    failed = False
    for urdf in files:
        model, worst = check(root, urdf, args.states, rng)
        print(f"{os.path.basename(urdf)}: {model.nv - 6} joints + free flyer, {args.states} states (Pinocchio {pin.__version__})")
        for name, value in worst.items():
            flag = "" if value <= BOUND else "   EXCEEDS " + str(BOUND)
            failed |= value > BOUND
            print(f"  {name:48s} {value:.2e}{flag}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
