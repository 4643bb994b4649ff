#!/usr/bin/env python3
"""A nectl planner in plain Python (standard library only), written from docs/PROTOCOL.md.

Enables the arm, sends one trajectory segment (a smooth out-and-back move of every joint, chunked
to the gateway's datagram limit) and prints the gateway's reply to every datagram. Every datagram
is signed with the planner's HMAC-SHA256 key (PROTOCOL.md, "Authentication"), read from a key file
of '<plannerId> <64 hex digits>' lines; the default is the shipped development key file, which must
never be used with a real robot. As the service does, it refuses a key file that group or others can
read or change, or whose directory they can write (scripts/nectl sets the shipped development keys
to mode 600 on its first run).

    python3 examples/python/planner.py --target 127.0.0.1:47600 --dof 7 --start 0,-0.8,0,-2.4,0,1.6,0.8

Exit status: 0 everything acknowledged, 1 a command rejected, 2 bad arguments, 3 no reply.
"""

import argparse
import hashlib
import hmac
import math
import os
import socket
import stat
import struct
import sys
import time

SCHEMA_ID = 1
SCHEMA_VERSION = 2
TAG_LENGTH = 32      # HMAC-SHA256 trailer
MAX_DATAGRAM = 1472  # gateway default, trailer included
DEVELOPMENT_KEYS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "config", "deploy", "keys",
                                "development.keys")

# Template ids and root block lengths (PROTOCOL.md, "Planner commands").
TRAJECTORY_SEGMENT, TRAJECTORY_SEGMENT_BLOCK = 10, 29
MODE_REQUEST, MODE_REQUEST_BLOCK = 12, 22
COMMAND_ACK, COMMAND_REJECT = 20, 21

MODE_ENABLE = 1
CONTROLLERS = {"unchanged": 0, "computed_torque": 1, "pd_gravity": 2, "mixed_elastic": 3}
REJECT_REASONS = ["TRUNCATED", "OVERSIZED", "MALFORMED", "WRONG_SCHEMA_ID", "WRONG_SCHEMA_VERSION",
                  "UNKNOWN_TEMPLATE", "BLOCK_LENGTH_MISMATCH", "WRONG_JOINT_COUNT", "NON_FINITE",
                  "LIMIT_EXCEEDED", "INVALID_FIELD", "QUEUE_FULL", "DISALLOWED_SOURCE", "AUTHENTICATION_FAILED",
                  "STALE", "REPLAYED"]
NO_JOINT = 255

HEADER = struct.Struct("<HHHH")               # blockLength, templateId, schemaId, version
PLANNER_HEADER = struct.Struct("<QqI")        # sequence, timestampNs, plannerId
GROUP_HEADER = struct.Struct("<HH")           # blockLength, numInGroup
WAYPOINT_JOINT = struct.Struct("<ddd")        # q, qd, qdd
ACK = struct.Struct("<QqIH")                  # commandSequence, gatewayTimestampNs, plannerId, commandTemplateId
REJECT = struct.Struct("<QqIHBB")             # ... and reason, jointIndex


class Planner:
    """Sends commands to one gateway and waits for the reply carrying each command's sequence."""

    def __init__(self, host, port, planner_id, key, timeout_s):
        self.address = (host, port)
        self.planner_id = planner_id
        self.key = key
        self.timeout_s = timeout_s
        # Wall-clock nanoseconds: keeps increasing across restarts of this planner id.
        self.sequence = time.time_ns()
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.socket.connect(self.address)

    def _next(self):
        self.sequence += 1
        return self.sequence

    def _planner_header(self, sequence):
        # UTC nanoseconds: the gateway rejects a timestamp outside its time window as STALE.
        return PLANNER_HEADER.pack(sequence, time.time_ns(), self.planner_id)

    def enable(self, controller):
        sequence = self._next()
        message = (HEADER.pack(MODE_REQUEST_BLOCK, MODE_REQUEST, SCHEMA_ID, SCHEMA_VERSION)
                   + self._planner_header(sequence) + struct.pack("<BB", MODE_ENABLE, controller))
        return self._exchange(sequence, message)

    def trajectory(self, segment_id, waypoints):
        """waypoints: list of (time_s, [(q, qd, qdd) per joint]). Returns the replies, stopping at the first refusal."""
        joint_count = len(waypoints[0][1])
        waypoint_length = 8 + GROUP_HEADER.size + WAYPOINT_JOINT.size * joint_count
        fixed = HEADER.size + TRAJECTORY_SEGMENT_BLOCK + GROUP_HEADER.size + TAG_LENGTH
        per_chunk = (MAX_DATAGRAM - fixed) // waypoint_length
        chunks = [waypoints[i:i + per_chunk] for i in range(0, len(waypoints), per_chunk)]
        replies = []
        for index, chunk in enumerate(chunks):
            sequence = self._next()
            message = bytearray(HEADER.pack(TRAJECTORY_SEGMENT_BLOCK, TRAJECTORY_SEGMENT, SCHEMA_ID, SCHEMA_VERSION))
            message += self._planner_header(sequence)
            message += struct.pack("<IHHB", segment_id, index, len(chunks), joint_count)
            message += GROUP_HEADER.pack(8, len(chunk))
            for time_s, joints in chunk:
                message += struct.pack("<q", round(time_s * 1e9))
                message += GROUP_HEADER.pack(WAYPOINT_JOINT.size, joint_count)
                for q, qd, qdd in joints:
                    message += WAYPOINT_JOINT.pack(q, qd, qdd)
            reply = self._exchange(sequence, bytes(message))
            replies.append(reply)
            if reply["outcome"] != "accepted":
                break
        return replies

    def _exchange(self, sequence, message):
        self.socket.send(message + hmac.new(self.key, message, hashlib.sha256).digest())
        deadline = time.monotonic() + self.timeout_s
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return {"outcome": "timeout", "sequence": sequence}
            self.socket.settimeout(remaining)
            try:
                data = self.socket.recv(64)
            except socket.timeout:
                return {"outcome": "timeout", "sequence": sequence}
            except ConnectionRefusedError:
                return {"outcome": "unreachable", "sequence": sequence}
            reply = decode_reply(data)
            if reply is not None and reply["sequence"] == sequence:
                return reply
            # Otherwise a late reply to an earlier command: keep waiting for ours.


def decode_reply(data):
    if len(data) < HEADER.size:
        return None
    _, template_id, schema_id, _ = HEADER.unpack_from(data, 0)
    if schema_id != SCHEMA_ID:
        return None
    if template_id == COMMAND_ACK and len(data) >= HEADER.size + ACK.size:
        sequence, gateway_ns, planner_id, command_template = ACK.unpack_from(data, HEADER.size)
        return {"outcome": "accepted", "sequence": sequence, "gateway_ns": gateway_ns, "planner_id": planner_id,
                "template": command_template}
    if template_id == COMMAND_REJECT and len(data) >= HEADER.size + REJECT.size:
        sequence, gateway_ns, planner_id, command_template, reason, joint = REJECT.unpack_from(data, HEADER.size)
        name = REJECT_REASONS[reason] if reason < len(REJECT_REASONS) else "REASON_%d" % reason
        return {"outcome": "rejected", "sequence": sequence, "gateway_ns": gateway_ns, "planner_id": planner_id,
                "template": command_template, "reason": name, "joint": None if joint == NO_JOINT else joint}
    return None


def describe(what, reply):
    text = "%s: sequence %d %s" % (what, reply["sequence"], reply["outcome"])
    if reply["outcome"] == "rejected":
        text += ": " + reply["reason"] + ("" if reply["joint"] is None else " (joint %d)" % reply["joint"])
    elif reply["outcome"] == "accepted":
        text += " (template %d, gateway clock %d ns)" % (reply["template"], reply["gateway_ns"])
    return text


def out_and_back(start, amplitude, duration_s, spacing_s):
    """Each joint moves by +/-amplitude and back: q = start + a (1 - cos(2 pi t / T)) / 2, exact derivatives."""
    count = int(math.ceil(duration_s / spacing_s - 1e-9)) + 1
    omega = 2.0 * math.pi / duration_s
    waypoints = []
    for p in range(count):
        t = min(p * spacing_s, duration_s)
        joints = []
        for k, q0 in enumerate(start):
            a = amplitude if k % 2 == 0 else -amplitude
            joints.append((q0 + 0.5 * a * (1.0 - math.cos(omega * t)),
                           0.5 * a * omega * math.sin(omega * t),
                           0.5 * a * omega * omega * math.cos(omega * t)))
        waypoints.append((t, joints))
    return waypoints


def check_private(path):
    """Refuse a key file others could read or replace, as the service does (DEPLOYMENT.md)."""
    real = os.path.realpath(path)
    status = os.stat(real)
    if not stat.S_ISREG(status.st_mode):
        raise ValueError("planner key file %s: not a regular file" % path)
    if status.st_uid not in (os.getuid(), 0):
        raise ValueError("planner key file %s: owned by uid %d, not by this user (uid %d) or root"
                         % (path, status.st_uid, os.getuid()))
    if status.st_mode & 0o077:
        raise ValueError("planner key file %s: mode %04o lets group or others read or change it; a key file must be "
                         "accessible by its owner only (chmod 600 %s)" % (path, stat.S_IMODE(status.st_mode), path))
    directory = os.path.dirname(real)
    if os.stat(directory).st_mode & 0o022:
        raise ValueError("planner key file %s: its directory %s is writable by group or others, who could replace the "
                         "file (chmod go-w %s)" % (path, directory, directory))


def read_key(path, planner_id):
    """The key of planner_id from a key file; never prints key text."""
    check_private(path)
    with open(path, encoding="ascii") as lines:
        for number, line in enumerate(lines, 1):
            fields = line.split()
            if not fields or fields[0].startswith("#"):
                continue
            if len(fields) != 2 or not fields[0].isdigit() or len(fields[1]) != 2 * TAG_LENGTH:
                raise ValueError("%s:%d: not '<plannerId> <64 hex digits>' (line not shown)" % (path, number))
            if int(fields[0]) == planner_id:
                return bytes.fromhex(fields[1])
    raise ValueError("%s has no key for planner %d" % (path, planner_id))


def exit_status(reply):
    return {"accepted": 0, "rejected": 1}.get(reply["outcome"], 3)


def main(argv):
    parser = argparse.ArgumentParser(description="Enable a nectl arm and send it one trajectory over UDP.")
    parser.add_argument("--target", default="127.0.0.1:47600", help="gateway HOST:PORT (default %(default)s)")
    parser.add_argument("--planner-id", type=int, default=2, help="planner id, uint32 (default %(default)s)")
    parser.add_argument("--key-file", default=DEVELOPMENT_KEYS,
                        help="planner key file (default: the shipped DEVELOPMENT keys, never for a real robot)")
    parser.add_argument("--timeout", type=float, default=1.0, help="reply timeout per command, s (default %(default)s)")
    parser.add_argument("--controller", choices=sorted(CONTROLLERS), default="computed_torque")
    parser.add_argument("--dof", type=int, default=7, help="joints of the arm (default %(default)s)")
    parser.add_argument("--start", default=None, help="current pose, comma separated, rad (default all 0)")
    parser.add_argument("--amplitude", type=float, default=0.2, help="excursion, rad (default %(default)s)")
    parser.add_argument("--duration", type=float, default=4.0, help="duration of the move, s (default %(default)s)")
    parser.add_argument("--spacing", type=float, default=0.1, help="waypoint spacing, s (default %(default)s)")
    args = parser.parse_args(argv)
    host, _, port = args.target.rpartition(":")
    start = [0.0] * args.dof if args.start is None else [float(v) for v in args.start.split(",")]
    if not host or not port.isdigit() or len(start) != args.dof or args.duration <= 0 or args.spacing <= 0:
        parser.error("need --target HOST:PORT, --start with --dof values, and positive --duration and --spacing")

    try:
        key = read_key(args.key_file, args.planner_id)
    except (OSError, ValueError) as error:
        parser.error(str(error))
    planner = Planner(host, int(port), args.planner_id, key, args.timeout)
    reply = planner.enable(CONTROLLERS[args.controller])
    print(describe("enable", reply), flush=True)
    if reply["outcome"] != "accepted":
        return exit_status(reply)
    waypoints = out_and_back(start, args.amplitude, args.duration, args.spacing)
    replies = planner.trajectory(segment_id=1, waypoints=waypoints)
    for index, chunk_reply in enumerate(replies):
        print(describe("trajectory chunk %d of %d waypoints" % (index, len(waypoints)), chunk_reply), flush=True)
    return exit_status(replies[-1])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
