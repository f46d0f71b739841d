#!/usr/bin/env python3
"""Run a program under a real pseudo-terminal and record everything it writes.

Used by the end-to-end tests of `btc-price --live`: the program sees a terminal of the given size
on stdin/stdout/stderr. It can be driven by a script of steps, as a person at a terminal would:

  --steps '[{"after": 2, "do": "TSTP"}, {"wait": "stopped"}, {"sleep": 0.5}, {"do": "CONT"},
            {"after": 3, "do": "WINCH", "cols": 40}, {"after": 4, "do": "INT"}]'

- "after": N waits until the output holds the marker N times (counted over all output so far);
- "do": sends that signal (INT, TERM, TSTP, CONT, WINCH); WINCH first resizes the terminal;
- "wait": "stopped" / "continued" waits until the kernel reports the child so (like a shell does);
- "sleep": seconds.

--interrupt-after N is the old shorthand for [{"after": N, "do": <--signal>}].

Writes the raw output to --out and prints {"status": N, "events": [...]}: status is 128 + signal
when killed; each event is {"step": i, "offset": bytes of output before it, "at": seconds since
start}, so a test can split the output at the moment of each step.
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
                        help="send --signal once the marker appeared this many times (0: never)")
    parser.add_argument("--marker", default="BTC/USD")
    parser.add_argument("--signal", choices=["INT", "TERM"], default="INT",
                        help="the signal --interrupt-after sends")
    parser.add_argument("--steps", default="[]", help="a JSON list of steps, see above")
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    steps = json.loads(args.steps)
    if args.interrupt_after:
        steps.append({"after": args.interrupt_after, "do": args.signal})

    # Like a terminal with a shell in it: the session leader on the pty plays the shell, and the
    # program runs in a process group of its own in the foreground. (Run as the session leader
    # itself, its process group would be orphaned, and the kernel discards SIGTSTP's stop.)
    reports, report_writer = os.pipe()
    shell, fd = pty.fork()
    if shell == 0:
        os.close(reports)
        run_shell(command, args.cols, args.rows, report_writer)
    os.close(report_writer)
    os.set_blocking(reports, False)

    started = time.monotonic()
    output = bytearray()
    events = []
    marker = args.marker.encode()
    child = None
    exit_code = None
    stopped = False
    step_index = 0
    sleep_until = None
    deadline = started + args.timeout
    pending = b""

    def read_available(wait):
        ready, _, _ = select.select([fd], [], [], wait)
        if not ready:
            return True
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            return False  # EIO: every process on the terminal closed it
        if not chunk:
            return False
        output.extend(chunk)
        return True

    open_ = True
    while time.monotonic() < deadline:
        if open_:
            open_ = read_available(0.02)
        else:
            time.sleep(0.02)
        try:
            pending += os.read(reports, 4096)
        except BlockingIOError:
            pass
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            word, _, value = line.decode().partition(" ")
            if word == "pid":
                child = int(value)
            elif word == "stopped":
                stopped = True
            elif word == "continued":
                stopped = False
            elif word == "exit":
                exit_code = int(value)
        if exit_code is not None and not open_:
            break
        if step_index >= len(steps):
            if exit_code is not None:
                while open_ and read_available(0.05):
                    pass
                break
            continue
        if child is None:
            continue
        step = steps[step_index]
        if "after" in step and output.count(marker) < step["after"]:
            continue
        if step.get("wait") == "stopped" and not stopped:
            continue
        if step.get("wait") == "continued" and stopped:
            continue
        if "sleep" in step:
            if sleep_until is None:
                sleep_until = time.monotonic() + step["sleep"]
            if time.monotonic() < sleep_until:
                continue
            sleep_until = None
        if "do" in step:
            name = step["do"]
            if name == "WINCH":
                fcntl.ioctl(fd, termios.TIOCSWINSZ,
                            struct.pack("HHHH", step.get("rows", args.rows), step["cols"], 0, 0))
            os.kill(child, getattr(signal, "SIG" + name))
        events.append({"step": step_index, "offset": len(output),
                       "at": round(time.monotonic() - started, 3)})
        step_index += 1
    else:
        if child is not None:
            os.kill(child, signal.SIGKILL)
        os.kill(shell, signal.SIGKILL)

    os.waitpid(shell, 0)
    with open(args.out, "wb") as out:
        out.write(bytes(output))
    print(json.dumps({"status": exit_code if exit_code is not None else -1, "events": events}))
    return 0


def run_shell(command, cols, rows, report):
    """The pty's session leader: starts the program in its own foreground process group, reports
    its pid, stops, continues and exit status on `report`, and, when it stops, takes the terminal
    back and prints what a shell prints, as bash does."""
    for name in ("SIGTTOU", "SIGTTIN", "SIGTSTP"):
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    child = os.fork()
    if child == 0:
        os.setpgid(0, 0)
        os.tcsetpgrp(0, os.getpgrp())
        for name in ("SIGTTOU", "SIGTTIN", "SIGTSTP"):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
        os.execv(command[0], command)
    try:
        os.setpgid(child, child)
    except OSError:
        pass  # the child did it first
    os.write(report, f"pid {child}\n".encode())
    while True:
        _, status = os.waitpid(child, os.WUNTRACED | os.WCONTINUED)
        if os.WIFSTOPPED(status):
            os.tcsetpgrp(0, os.getpgrp())
            os.write(1, b"\r\n[1]+  Stopped\r\n$ ")
            os.write(report, b"stopped\n")
        elif os.WIFCONTINUED(status):
            os.tcsetpgrp(0, child)
            os.write(report, b"continued\n")
        else:
            code = os.waitstatus_to_exitcode(status)
            os.write(report, f"exit {code if code >= 0 else 128 - code}\n".encode())
            os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
