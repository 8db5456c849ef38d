#!/usr/bin/python3
"""pty_bench: first paint and keystroke cost of full-screen terminal programs.

Each case runs in a fresh pseudo-terminal (COLS x ROWS, default 100 x 30) as
the leader of a new session with the pty as its controlling terminal, so
/dev/tty works.  For each run:

  first paint   seconds from just before spawn to the last byte of the first
                burst of output that contains MARKER; the burst ends when no
                byte has come for SILENCE seconds (default 0.1) after the
                marker.  Nothing is subtracted: the time is that of the last
                byte, the silence is not counted.
  paint bytes   bytes written up to and including that last byte.
  arrow bytes   bytes written in reply to one Down arrow sent after the
                first paint, collected until SILENCE seconds of quiet;
                arrow time is send to the reply's last byte (0 when no
                reply).  The arrow is what xterm sends: "\\x1b[B", or
                "\\x1bOB" when the program has switched the terminal to
                application cursor keys (DECCKM, "\\x1b[?1h", which ncurses
                does for keypad()); --arrow csi forces "\\x1b[B".
Then Esc is sent; a program still running 1.5 s later (dialog sometimes
takes about a second to act on a lone Esc) is sent SIGTERM, then SIGKILL
(the whole process group, a second apart), and reaped.

The marker is matched in the output with escape sequences and control
characters taken out, so attribute changes inside it (dialog highlights the
first letter of "<Cancel>") do not hide it.

Usage:
  pty_bench.py [--runs N] [--warmup N] [--cols C] [--rows R] [--silence S]
               [--timeout T] [--arrow auto|csi] [--raw FILE] [--dump DIR]
               --case NAME MARKER STDIN -- [NAME=VALUE...] COMMAND ARG... ;;
               [--case ...]
STDIN is a file fed to the program's standard input, or "-" for the pty.
Cases are run round-robin (one run of each case, then the next round), so
noise from other load on the machine spreads evenly over them.

Prints one line per case: NAME, then medians of first paint ms, paint
bytes, arrow bytes and arrow ms, the number of good runs, the number of
failed runs, the number of runs ended by Esc (not by a signal), the
arrow sequence sent (csi or ss3), and the median time to the read that
completed the marker (ms), tab-separated.
"""
import fcntl
import os
import re
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time

# DEC private modes set (h) or reset (l); mode 1 is DECCKM.
PRIVATE_MODES = re.compile(rb"\x1b\[\?([0-9;]*)([hl])")


def application_cursor_keys(output):
    """Whether the last DECCKM setting in `output` is "application"."""
    state = False
    for params, action in PRIVATE_MODES.findall(output):
        if b"1" in params.split(b";"):
            state = action == b"h"
    return state


STRIP = re.compile(
    rb"\x1b\[[0-?]*[ -/]*[@-~]"          # CSI
    rb"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC
    rb"|\x1bP[^\x1b]*\x1b\\"             # DCS
    rb"|\x1b[ -/]*[0-~]"                 # other escapes (charset selection, keypad modes)
    rb"|[\x00-\x1f\x7f]"                 # control characters (SO/SI line drawing, CR, LF)
)


def read_command(argv, start):
    """The words from argv[start] up to ";;": (command, environment, index
    after ";;"). Leading NAME=VALUE words set the program's environment, as
    in a shell: no env(1) process is started (and timed) in front of it."""
    end = start
    while end < len(argv) and argv[end] != ";;":
        end += 1
    cmd = argv[start:end]
    assignments = {}
    while cmd and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", cmd[0]):
        key, _, value = cmd.pop(0).partition("=")
        assignments[key] = value
    return cmd, assignments, end + 1


def parse(argv):
    opts = {"runs": 20, "warmup": 1, "cols": 100, "rows": 30, "silence": 0.1,
            "timeout": 10.0, "raw": None, "dump": None, "arrow": "auto"}
    cases = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--case":
            name, marker, stdin = argv[i + 1:i + 4]
            if argv[i + 4] != "--":
                sys.exit("pty_bench: expected -- after --case NAME MARKER STDIN")
            cmd, assignments, i = read_command(argv, i + 5)
            cases.append({"name": name, "marker": marker.encode(), "stdin": stdin, "cmd": cmd, "env": assignments})
        elif a in ("--runs", "--warmup", "--cols", "--rows"):
            opts[a[2:]] = int(argv[i + 1])
            i += 2
        elif a in ("--silence", "--timeout"):
            opts[a[2:]] = float(argv[i + 1])
            i += 2
        elif a in ("--raw", "--dump", "--arrow"):
            opts[a[2:]] = argv[i + 1]
            i += 2
        else:
            sys.exit("pty_bench: unknown argument %r" % a)
    if not cases:
        sys.exit(__doc__)
    return opts, cases


class Run:
    def __init__(self, case, opts, env):
        self.opts = opts
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", opts["rows"], opts["cols"], 0, 0))
        stdin = open(case["stdin"], "rb") if case["stdin"] != "-" else slave

        def child():
            os.setsid()
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)

        self.start = time.perf_counter()
        try:
            self.proc = subprocess.Popen(case["cmd"], stdin=stdin, stdout=slave, stderr=slave,
                                         preexec_fn=child, env=env, close_fds=True)
        finally:
            os.close(slave)
            if stdin is not slave:
                stdin.close()
        self.buf = bytearray()
        self.eof = False

    def read_until(self, deadline, quiet_after=None, since=None):
        """Reads the master.  Returns (last_byte_time, bytes) once `quiet_after`
        seconds pass with no byte (counted from `since` or the last byte),
        or None at `deadline` / end of output.  The time of the first byte
        read is kept in `first_byte`."""
        silence = self.opts["silence"]
        last = since
        got = bytearray()
        while True:
            now = time.perf_counter()
            if quiet_after is not None and last is not None and now - last >= silence:
                return last, got
            wait = deadline - now
            if last is not None:
                wait = min(wait, silence - (now - last))
            if wait <= 0 or self.eof:
                return None
            ready, _, _ = select.select([self.master], [], [], max(0.0, wait))
            if not ready:
                continue
            try:
                data = os.read(self.master, 65536)
            except OSError:  # EIO: every slave descriptor is closed
                data = b""
            stamp = time.perf_counter()
            if not data:
                self.eof = True
                return None
            self.buf += data
            if not got:
                self.first_byte = stamp
            got += data
            last = stamp
            if quiet_after is None:
                return stamp, got

    def first_paint(self, marker):
        deadline = self.start + self.opts["timeout"]
        found = False
        while not found:
            r = self.read_until(deadline)
            if r is None:
                return None
            found = marker in STRIP.sub(b"", bytes(self.buf))
        marker_at = r[0]
        r = self.read_until(deadline, quiet_after=True, since=r[0])
        if r is None:
            return None
        return r[0] - self.start, len(self.buf), marker_at - self.start

    def arrow(self):
        ss3 = self.opts["arrow"] == "auto" and application_cursor_keys(bytes(self.buf))
        self.arrow_sent = b"\x1bOB" if ss3 else b"\x1b[B"
        sent = time.perf_counter()
        os.write(self.master, self.arrow_sent)
        r = self.read_until(sent + self.opts["timeout"], quiet_after=True, since=sent)
        if r is None:
            return None
        last, got = r
        return (last - sent if got else 0.0), len(got), bytes(got)

    def finish(self):
        """Esc, then signals; returns True when Esc alone ended the program."""
        by_esc = True
        try:
            os.write(self.master, b"\x1b")
        except OSError:
            pass
        for sig in (None, signal.SIGTERM, signal.SIGKILL):
            if sig is not None:
                by_esc = False
                try:
                    os.killpg(self.proc.pid, sig)
                except ProcessLookupError:
                    pass
            deadline = time.perf_counter() + (1.5 if sig is None else 1.0)
            while self.proc.poll() is None and time.perf_counter() < deadline:
                # Drain so the program's last writes never block.
                if select.select([self.master], [], [], 0.02)[0]:
                    try:
                        self.buf += os.read(self.master, 65536)
                    except OSError:
                        time.sleep(0.01)
            if self.proc.poll() is not None:
                break
        self.proc.wait()
        os.close(self.master)
        return by_esc


def main():
    opts, cases = parse(sys.argv[1:])
    home = tempfile.mkdtemp(prefix="share-bench-tui-home.")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home,
           "TERM": "xterm-256color", "LANG": "C.UTF-8"}
    results = {c["name"]: [] for c in cases}
    failures = {c["name"]: 0 for c in cases}
    escs = {c["name"]: 0 for c in cases}
    arrows = {c["name"]: set() for c in cases}
    raw = open(opts["raw"], "w") if opts["raw"] else None
    if raw:
        raw.write("case\trun\tpaint_ms\tpaint_bytes\tarrow_bytes\tarrow_ms\tarrow_sent\tended_by_esc\tmarker_ms\n")
    if opts["dump"]:
        os.makedirs(opts["dump"], exist_ok=True)
    for round_ in range(-opts["warmup"], opts["runs"]):
        for case in cases:
            run = Run(case, opts, dict(env, **case["env"]))
            paint = run.first_paint(case["marker"])
            arrow = run.arrow() if paint else None
            paint_buf = bytes(run.buf[:paint[1]]) if paint else bytes(run.buf)
            by_esc = run.finish()
            name = case["name"]
            if opts["dump"] and round_ == 0:
                with open(os.path.join(opts["dump"], name + ".paint"), "wb") as f:
                    f.write(paint_buf)
                with open(os.path.join(opts["dump"], name + ".arrow"), "wb") as f:
                    f.write(arrow[2] if arrow else b"")
            if paint is None or arrow is None:
                failures[name] += 1
                sys.stderr.write("pty_bench: %s run %d: %s; output so far (%d bytes): %r\n" % (
                    name, round_, "no marker %r" % case["marker"] if paint is None else "no arrow reply",
                    len(run.buf), bytes(run.buf[-400:])))
                continue
            if round_ < 0:
                continue
            row = (paint[0] * 1000, paint[1], arrow[1], arrow[0] * 1000, paint[2] * 1000)
            results[name].append(row)
            escs[name] += by_esc
            kind = "ss3" if run.arrow_sent == b"\x1bOB" else "csi"
            arrows[name].add(kind)
            if raw:
                raw.write("%s\t%d\t%.2f\t%d\t%d\t%.2f\t%s\t%d\t%.2f\n" % ((name, round_) + row[:4] + (kind, int(by_esc), row[4])))
                raw.flush()
    for case in cases:
        rows = results[case["name"]]
        if rows:
            med = [statistics.median(col) for col in zip(*rows)]
        else:
            med = [float("nan")] * 5
        print("%s\t%.1f\t%.0f\t%.0f\t%.1f\t%d\t%d\t%d\t%s\t%.1f" % (
            case["name"], med[0], med[1], med[2], med[3], len(rows), failures[case["name"]], escs[case["name"]],
            ",".join(sorted(arrows[case["name"]])) or "-", med[4]))
    os.rmdir(home) if not os.listdir(home) else subprocess.run(["rm", "-rf", home])


if __name__ == "__main__":
    main()
