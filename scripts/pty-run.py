#!/usr/bin/env python3
"""Run a program under a real pseudo-terminal and record everything it writes.

Used by the end-to-end tests of `btc-price --live`: the program sees a terminal of the given size
on stdin/stdout/stderr. Optionally sends SIGINT (or SIGTERM) once the output contains a marker a
given number of times. Writes the raw output to --out and prints {"status": N} (128 + signal when killed).
"""
import argparse
import fcntl
import json
import os
import pty
import select
import signal
import struct
import sys
import termios
import time


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cols", type=int, default=80)
    parser.add_argument("--rows", type=int, default=24)
    parser.add_argument("--out", required=True)
    parser.add_argument("--interrupt-after", type=int, default=0,
                        help="send SIGINT once the marker appeared this many times (0: never)")
    parser.add_argument("--marker", default="BTC/USD")
    parser.add_argument("--signal", choices=["INT", "TERM"], default="INT",
                        help="the signal --interrupt-after sends")
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command

    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack("HHHH", args.rows, args.cols, 0, 0))
        os.execv(command[0], command)

    output = bytearray()
    interrupted = False
    deadline = time.monotonic() + args.timeout
    marker = args.marker.encode()
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break  # EIO: the child closed the terminal
            if not chunk:
                break
            output.extend(chunk)
        if (args.interrupt_after and not interrupted
                and output.count(marker) >= args.interrupt_after):
            os.kill(pid, signal.SIGINT if args.signal == "INT" else signal.SIGTERM)
            interrupted = True
    else:
        os.kill(pid, signal.SIGKILL)

    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    with open(args.out, "wb") as out:
        out.write(bytes(output))
    print(json.dumps({"status": code if code >= 0 else 128 - code}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
