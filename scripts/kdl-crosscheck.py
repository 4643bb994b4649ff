#!/usr/bin/env python3
"""Cross-checks `nectl dynamics` against Orocos KDL, an independent rigid-body library, on random
URDF robots that are not in this repository (docs/VALIDATION.md, "Against an independent library").

    scripts/kdl-crosscheck.py [--robots N] [--states N] [--seed S] [--keep DIR] [--urdf FILE...]

Needs Debian's python3-pykdl and python3-numpy (apt-get install python3-pykdl python3-numpy) and
runs with /usr/bin/python3. Each robot is a serial chain of 3-9 joints written as URDF: revolute,
continuous, prismatic and fixed joints, origins with arbitrary rpy, axes in arbitrary and in
(signed) coordinate directions, inertias with products and rotated inertial frames, some massless
links. The same numbers build a KDL chain the way kdl_parser maps URDF (joint axis and origin in
the parent frame, inertia about the centre of mass re-expressed in the link frame). For random
states it compares
  tau       with KDL's ChainIdSolver_RNE,
  M         with KDL's ChainDynParam.JntToMass,
  qdd       (forward dynamics of a given tau) with numpy.linalg.solve(M_kdl, tau - RNE(q, qd, 0)),
  dtau_dq and dtau_dqd with 4th-order central differences of KDL's RNE (step 1e-4),
  tau_dot   (the torque derivative, given qddd) with 4th-order central differences in time of
            KDL's RNE along q(t) = q + qd t + qdd t^2/2 + qddd t^3/6 (step 1e-4 s),
--urdf checks given serial-chain URDF files (the path from the root link to the one leaf) instead
of random robots. Each is compared as the largest entry error relative to the largest entry of KDL's value (or to 1e-3 when
that is smaller, in the output's SI unit). Exit status 1 when
any error exceeds its bound (1e-9 for tau, M and qdd; 1e-6 for the differenced ones).
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

import numpy as np
import PyKDL as kdl

GRAVITY = (0.0, 0.0, -9.81)
BOUND_EXACT = 1e-9
BOUND_DIFFERENCED = 1e-6
STEP = 1e-4
SCALE_FLOOR = 1e-3
DIFFERENCED = ("dtau_dq", "dtau_dqd", "tau_dot")


def rpy_matrix(roll, pitch, yaw):
    """URDF's fixed-axis roll-pitch-yaw: Rz(yaw) Ry(pitch) Rx(roll)."""
    cr, sr = math.cos(roll), math.sin(roll)
    cp, sp = math.cos(pitch), math.sin(pitch)
    cy, sy = math.cos(yaw), math.sin(yaw)
    return np.array([
        [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
        [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
        [-sp, cp * sr, cp * cr]])


def random_robot(rng, index):
    """A serial chain: a list of joints, each with its child link's inertial data (or None)."""
    count = int(rng.integers(3, 10))
    joints = []
    for j in range(count):
        if j == 0:
            kind = "revolute"
        else:
            kind = rng.choice(["revolute", "continuous", "prismatic", "fixed"], p=[0.55, 0.1, 0.2, 0.15])
        if rng.random() < 0.3:
            axis = np.zeros(3)
            axis[int(rng.integers(0, 3))] = rng.choice([-1.0, 1.0])
        else:
            axis = rng.normal(size=3)
            axis /= np.linalg.norm(axis)
        last = j == count - 1
        massless = kind == "fixed" and not last and rng.random() < 0.5
        inertial = None
        if not massless:
            a, b = rng.uniform(0.002, 0.05, size=2)
            c = rng.uniform(abs(a - b) + 1e-4, a + b)
            principal = np.diag([a, b, c])
            if rng.random() < 0.5:
                # principal moments in a rotated inertial frame
                inertial_rpy = rng.uniform(-math.pi, math.pi, size=3)
                tensor = principal
            else:
                # products of inertia written out, inertial frame aligned with the link
                inertial_rpy = np.zeros(3)
                turn = rpy_matrix(*rng.uniform(-math.pi, math.pi, size=3))
                tensor = turn @ principal @ turn.T
            inertial = {
                "mass": float(rng.uniform(0.2, 4.0)),
                "xyz": rng.uniform(-0.1, 0.1, size=3),
                "rpy": inertial_rpy,
                "tensor": tensor,
            }
        joints.append({
            "name": f"j{j}",
            "kind": str(kind),
            "xyz": rng.uniform(-0.25, 0.25, size=3),
            "rpy": rng.uniform(-math.pi, math.pi, size=3),
            "axis": axis,
            "inertial": inertial,
        })
    return {"name": f"random{index}", "joints": joints}


def numbers(element, attribute, default):
    if element is None or element.get(attribute) is None:
        return np.array(default, dtype=float)
    return np.array([float(v) for v in element.get(attribute).split()])


def read_urdf(path):
    """A serial-chain URDF as the joints list random_robot makes (root link's inertia ignored)."""
    root = ElementTree.parse(path).getroot()
    links = {link.get("name"): link for link in root.findall("link")}
    joints = {}
    children = set()
    for joint in root.findall("joint"):
        parent = joint.find("parent").get("link")
        if parent in joints:
            raise ValueError(f"{path}: link {parent} has several child joints; only chains are checked")
        joints[parent] = joint
        children.add(joint.find("child").get("link"))
    roots = [name for name in links if name not in children]
    if len(roots) != 1:
        raise ValueError(f"{path}: expected one root link, found {roots}")
    chain = []
    link = roots[0]
    while link in joints:
        joint = joints[link]
        kind = joint.get("type")
        if kind not in ("revolute", "continuous", "prismatic", "fixed"):
            raise ValueError(f"{path}: joint {joint.get('name')} of type {kind} is not checked")
        child = joint.find("child").get("link")
        origin = joint.find("origin")
        axis = numbers(joint.find("axis"), "xyz", [1.0, 0.0, 0.0])
        inertial = None
        element = links[child].find("inertial")
        if element is not None:
            i = element.find("inertia")
            io = element.find("origin")
            get = lambda name: float(i.get(name, "0"))
            inertial = {
                "mass": float(element.find("mass").get("value")),
                "xyz": numbers(io, "xyz", [0.0, 0.0, 0.0]),
                "rpy": numbers(io, "rpy", [0.0, 0.0, 0.0]),
                "tensor": np.array([[get("ixx"), get("ixy"), get("ixz")],
                                    [get("ixy"), get("iyy"), get("iyz")],
                                    [get("ixz"), get("iyz"), get("izz")]]),
            }
        chain.append({
            "name": joint.get("name"),
            "kind": kind,
            "xyz": numbers(origin, "xyz", [0.0, 0.0, 0.0]),
            "rpy": numbers(origin, "rpy", [0.0, 0.0, 0.0]),
            "axis": axis / np.linalg.norm(axis),
            "inertial": inertial,
        })
        link = child
    return {"name": os.path.basename(path), "joints": chain}


def fmt(values):
    return " ".join(repr(float(v)) for v in values)


def urdf(robot):
    lines = [f'<robot name="{robot["name"]}">', '  <link name="base"/>']
    for j, joint in enumerate(robot["joints"]):
        link = f"l{j}"
        inertial = joint["inertial"]
        if inertial is None:
            lines.append(f'  <link name="{link}"/>')
        else:
            t = inertial["tensor"]
            lines += [
                f'  <link name="{link}">',
                '    <inertial>',
                f'      <origin xyz="{fmt(inertial["xyz"])}" rpy="{fmt(inertial["rpy"])}"/>',
                f'      <mass value="{inertial["mass"]!r}"/>',
                f'      <inertia ixx="{t[0, 0]!r}" ixy="{t[0, 1]!r}" ixz="{t[0, 2]!r}" iyy="{t[1, 1]!r}" '
                f'iyz="{t[1, 2]!r}" izz="{t[2, 2]!r}"/>',
                '    </inertial>',
                '  </link>']
        parent = "base" if j == 0 else f"l{j - 1}"
        lines += [
            f'  <joint name="{joint["name"]}" type="{joint["kind"]}">',
            f'    <parent link="{parent}"/>',
            f'    <child link="{link}"/>',
            f'    <origin xyz="{fmt(joint["xyz"])}" rpy="{fmt(joint["rpy"])}"/>']
        if joint["kind"] != "fixed":
            lines.append(f'    <axis xyz="{fmt(joint["axis"])}"/>')
        if joint["kind"] == "revolute":
            lines.append('    <limit lower="-3.1" upper="3.1" effort="200" velocity="3"/>')
        elif joint["kind"] == "prismatic":
            lines.append('    <limit lower="-1" upper="1" effort="500" velocity="1"/>')
        elif joint["kind"] == "continuous":
            lines.append('    <limit effort="200" velocity="3"/>')
        lines.append('  </joint>')
    lines.append('</robot>')
    return "\n".join(lines) + "\n"


def vector(values):
    return kdl.Vector(*(float(v) for v in values))


def kdl_chain(robot):
    """The chain kdl_parser would build from the URDF."""
    chain = kdl.Chain()
    for joint in robot["joints"]:
        rot = rpy_matrix(*joint["rpy"])
        frame = kdl.Frame(kdl.Rotation(*(float(v) for v in rot.flatten())), vector(joint["xyz"]))
        axis_in_parent = vector(rot @ joint["axis"])
        if joint["kind"] in ("revolute", "continuous"):
            k_joint = kdl.Joint(joint["name"], frame.p, axis_in_parent, kdl.Joint.RotAxis)
        elif joint["kind"] == "prismatic":
            k_joint = kdl.Joint(joint["name"], frame.p, axis_in_parent, kdl.Joint.TransAxis)
        else:
            k_joint = kdl.Joint(joint["name"], kdl.Joint.Fixed)
        inertial = joint["inertial"]
        if inertial is None:
            inertia = kdl.RigidBodyInertia()
        else:
            turn = rpy_matrix(*inertial["rpy"])
            t = turn @ inertial["tensor"] @ turn.T
            inertia = kdl.RigidBodyInertia(
                inertial["mass"], vector(inertial["xyz"]),
                kdl.RotationalInertia(t[0, 0], t[1, 1], t[2, 2], t[0, 1], t[0, 2], t[1, 2]))
        chain.addSegment(kdl.Segment(joint["name"] + "_child", k_joint, frame, inertia))
    return chain


class KdlDynamics:
    def __init__(self, chain):
        self.chain = chain
        self.n = chain.getNrOfJoints()
        self.rne = kdl.ChainIdSolver_RNE(chain, vector(GRAVITY))
        self.params = kdl.ChainDynParam(chain, vector(GRAVITY))

    def _array(self, values):
        a = kdl.JntArray(self.n)
        for i, v in enumerate(values):
            a[i] = float(v)
        return a

    def tau(self, q, qd, qdd):
        out = kdl.JntArray(self.n)
        wrenches = [kdl.Wrench() for _ in range(self.chain.getNrOfSegments())]
        status = self.rne.CartToJnt(self._array(q), self._array(qd), self._array(qdd), wrenches, out)
        if status < 0:
            raise RuntimeError(f"KDL RNE failed: {status}")
        return np.array([out[i] for i in range(self.n)])

    def mass_matrix(self, q):
        m = kdl.JntSpaceInertiaMatrix(self.n)
        self.params.JntToMass(self._array(q), m)
        return np.array([[m[i, j] for j in range(self.n)] for i in range(self.n)])

    def rate(self, q, qd, qdd, qddd):
        """d tau/dt along q(t) = q + qd t + qdd t^2/2 + qddd t^3/6, by 4th-order central differences."""
        def at(t):
            return self.tau(q + qd * t + qdd * t * t / 2 + qddd * t ** 3 / 6, qd + qdd * t + qddd * t * t / 2,
                            qdd + qddd * t)
        return (-at(2 * STEP) + 8 * at(STEP) - 8 * at(-STEP) + at(-2 * STEP)) / (12 * STEP)

    def differenced(self, q, qd, qdd, which):
        """4th-order central differences of tau by q (which = 0) or qd (which = 1); row i = d tau_i."""
        columns = []
        for k in range(self.n):
            def at(offset):
                args = [np.array(q, dtype=float), np.array(qd, dtype=float)]
                args[which][k] += offset
                return self.tau(args[0], args[1], qdd)
            columns.append((-at(2 * STEP) + 8 * at(STEP) - 8 * at(-STEP) + at(-2 * STEP)) / (12 * STEP))
        return np.array(columns).T


def relative_error(actual, expected):
    """Largest entry error over the largest expected entry, or over 1e-3 when that is smaller: a
    1-dof robot's dtau_dqd is exactly 0, and its differenced value is rounding noise."""
    expected = np.asarray(expected, dtype=float)
    scale = max(np.max(np.abs(expected)), SCALE_FLOOR)
    return float(np.max(np.abs(np.asarray(actual, dtype=float) - expected)) / scale)


def run_nectl(root, model_path, states):
    lines = "".join(json.dumps(s) + "\n" for s in states)
    result = subprocess.run([os.path.join(root, "scripts", "nectl"), "dynamics", f"--model={model_path}"],
                            input=lines, capture_output=True, text=True, cwd=root)
    outputs = [json.loads(line) for line in result.stdout.splitlines() if line.strip().startswith("{")]
    if result.returncode != 0 or len(outputs) != len(states):
        raise RuntimeError(f"nectl dynamics failed on {model_path} (exit {result.returncode}):\n"
                           f"{result.stdout[-2000:]}\n{result.stderr[-2000:]}")
    return outputs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--robots", type=int, default=20)
    parser.add_argument("--states", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep", help="directory to keep the generated URDF files in")
    parser.add_argument("--urdf", nargs="+", help="serial-chain URDF files to check instead of random robots")
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        return check(root, args, args.keep)
    with tempfile.TemporaryDirectory(prefix="kdl-crosscheck-") as directory:
        return check(root, args, directory)


def check(root, args, directory):
    rng = np.random.default_rng(args.seed)
    worst = {"tau": 0.0, "M": 0.0, "qdd": 0.0, "dtau_dq": 0.0, "dtau_dqd": 0.0, "tau_dot": 0.0}
    failed = False
    jobs = [(os.path.abspath(p), read_urdf(p)) for p in args.urdf] if args.urdf else range(args.robots)
    for job in jobs:
        if args.urdf:
            path, robot = job
        else:
            robot = random_robot(rng, job)
            path = os.path.join(directory, robot["name"] + ".urdf")
            with open(path, "w") as f:
                f.write(urdf(robot))
        model = KdlDynamics(kdl_chain(robot))
        n = model.n
        states = []
        for _ in range(args.states):
            states.append({"q": list(rng.uniform(-1, 1, n)), "qd": list(rng.uniform(-2, 2, n)),
                           "qdd": list(rng.uniform(-3, 3, n)), "qddd": list(rng.uniform(-10, 10, n)),
                           "tau": list(rng.uniform(-20, 20, n))})
        outputs = run_nectl(root, path, states)
        errors = {k: 0.0 for k in worst}
        for state, out in zip(states, outputs):
            q, qd, qdd, qddd, tau = (np.array(state[k]) for k in ("q", "qd", "qdd", "qddd", "tau"))
            m = model.mass_matrix(q)
            bias = model.tau(q, qd, np.zeros(n))
            checks = {
                "tau": (out["tau"], model.tau(q, qd, qdd)),
                "M": (out["M"], m),
                "qdd": (out["qdd"], np.linalg.solve(m, tau - bias)),
                "dtau_dq": (out["dtau_dq"], model.differenced(q, qd, qdd, 0)),
                "dtau_dqd": (out["dtau_dqd"], model.differenced(q, qd, qdd, 1)),
                "tau_dot": (out["tau_dot"], model.rate(q, qd, qdd, qddd)),
            }
            for key, (actual, expected) in checks.items():
                errors[key] = max(errors[key], relative_error(actual, expected))
        kinds = "".join(j["kind"][0] for j in robot["joints"])
        print(f"{robot['name']}: {n} dof, joints {kinds}: "
              + ", ".join(f"{k} {v:.1e}" for k, v in errors.items()))
        for key, value in errors.items():
            worst[key] = max(worst[key], value)
            bound = BOUND_DIFFERENCED if key in DIFFERENCED else BOUND_EXACT
            if not value <= bound:
                failed = True
                print(f"  {key}: relative error {value:.3e} exceeds {bound:.0e}"
                      + (f" ({path})" if args.keep else " (--keep DIR keeps the URDF)"))
    print("largest relative errors over all robots: " + ", ".join(f"{k} {v:.1e}" for k, v in worst.items()))
    print("FAILED" if failed else "OK")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
