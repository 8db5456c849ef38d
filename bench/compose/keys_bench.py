#!/usr/bin/python3
"""keys_bench: the cost of each keystroke in a long body, share's compose
screen beside nano and vim, each in a fresh COLS x ROWS pseudo-terminal
(bench/tui/pty_bench.py's Run: the program is a session leader with the pty
as its controlling terminal).

For each case and run: the program starts with the cursor in the middle of
the text; once its first screen has MARKER and has been quiet for SILENCE
seconds, the case's setup keys (--setup, before its --case: to bring the
cursor where the keys go) are sent and each left to settle, unmeasured; then
the keys of KEYS are sent one at a time, and for each the time from
the write to the last byte of the reply (the screen settled: SILENCE seconds,
0.15 by default, with no byte) and the reply's bytes are kept. A key with no
reply costs 0 ms. SILENCE must be longer than the slowest program takes to
start its reply, or a reply is counted with the next key.

Usage:
  keys_bench.py [--runs N] [--silence S] [--timeout T] [--raw FILE]
                --keys KEYS [--setup "KEY KEY..."] --case NAME MARKER -- [NAME=VALUE...] COMMAND ARG... ;; [--case ...]
KEYS is a file of one key a line: a character, or one of Up Down Left Right
PgUp PgDn Enter BSpace C-k Tab. Arrows are sent as the terminal would after the
program's DECCKM choice (ESC O A in application cursor mode, else ESC [ A).

Prints, per case: the median and 95th percentile of the milliseconds (to
the microsecond: a key takes about 0.2 ms, so hundredths would be steps of
5 %) and the bytes per key over every key of every run, the processor time the program
spent (all its threads, those that ended too, from /proc/PID/stat: 10 ms
ticks) from the first key to the settling of the last, per key and as the
median of the runs, the
median first-screen time, the good and failed runs, and the median time to
the first byte of a reply, over the keys that had one (nano hides its cursor before it redraws, and
share begins the frame's synchronized update as soon as it reads a key: their
first byte is about the time a key takes to reach a program that writes at
once and its reply to come back), tab-separated.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tui"))
from pty_bench import Run, application_cursor_keys, read_command  # noqa: E402

ARROWS = {"Up": b"A", "Down": b"B", "Right": b"C", "Left": b"D"}
NAMED = {"PgUp": b"\x1b[5~", "PgDn": b"\x1b[6~", "Enter": b"\r", "BSpace": b"\x7f", "C-k": b"\x0b", "Tab": b"\t"}


def key_bytes(name, application):
    if name in ARROWS:
        return (b"\x1bO" if application else b"\x1b[") + ARROWS[name]
    if name in NAMED:
        return NAMED[name]
    return name.encode()


def cpu_seconds(pid):
    """Processor time of `pid` so far, user and system, its threads that
    ended included (/proc/PID/stat; in clock ticks, 10 ms: over 200 keys,
    0.05 ms a key)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    # utime and stime are the stat file's 14th and 15th fields; the split starts at the 3rd.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def parse(argv):
    opts = {"runs": 1, "silence": 0.15, "timeout": 60.0, "raw": None, "keys": None, "rows": 30, "cols": 100}
    cases = []
    setup = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--case":
            name, marker = argv[i + 1:i + 3]
            if argv[i + 3] != "--":
                sys.exit("keys_bench: expected -- after --case NAME MARKER")
            cmd, assignments, i = read_command(argv, i + 4)
            cases.append({"name": name, "marker": marker.encode(), "stdin": "-", "cmd": cmd, "env": assignments,
                          "setup": setup})
            setup = []
        elif a == "--setup":
            setup = argv[i + 1].split()
            i += 2
        elif a in ("--runs",):
            opts["runs"] = int(argv[i + 1])
            i += 2
        elif a in ("--silence", "--timeout"):
            opts[a[2:]] = float(argv[i + 1])
            i += 2
        elif a in ("--raw", "--keys"):
            opts[a[2:]] = argv[i + 1]
            i += 2
        else:
            sys.exit("keys_bench: unknown argument %r" % a)
    if not cases or not opts["keys"]:
        sys.exit(__doc__)
    return opts, cases


def main():
    opts, cases = parse(sys.argv[1:])
    with open(opts["keys"], encoding="utf-8") as f:
        keys = [line.rstrip("\n") for line in f if line.rstrip("\n")]
    raw = open(opts["raw"], "w") if opts["raw"] else None
    if raw:
        raw.write("case\trun\tkey\tname\tms\tbytes\tfirst_ms\n")
    results = {c["name"]: {"ms": [], "bytes": [], "first": [], "paint": [], "cpu": [], "good": 0, "failed": 0} for c in cases}
    for run_index in range(opts["runs"]):
        for case in cases:
            home = tempfile.mkdtemp(prefix="share-bench-compose-home.")
            env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "TERM": "xterm-256color",
                   "LANG": "C.UTF-8", "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data",
                   "XDG_STATE_HOME": home + "/state", "XDG_CACHE_HOME": home + "/cache"}
            env.update(case["env"])
            run = Run(case, opts, env)
            result = results[case["name"]]
            paint = run.first_paint(case["marker"])
            if paint is None:
                result["failed"] += 1
                sys.stderr.write("keys_bench: %s run %d: no %r; last output: %r\n" % (
                    case["name"], run_index, case["marker"], bytes(run.buf[-400:])))
                run.finish()
                subprocess.run(["rm", "-rf", home])
                continue
            result["paint"].append(paint[0] * 1000)
            application = application_cursor_keys(bytes(run.buf))
            ok = True
            for name in case["setup"]:
                sent = time.perf_counter()
                os.write(run.master, key_bytes(name, application))
                if run.read_until(sent + opts["timeout"], quiet_after=True, since=sent) is None:
                    ok = False
                    sys.stderr.write("keys_bench: %s run %d: no end to the reply to setup key %s\n" % (
                        case["name"], run_index, name))
                    break
            cpu_before = cpu_seconds(run.proc.pid) if ok else 0.0
            for index, name in enumerate(keys if ok else []):
                data = key_bytes(name, application)
                sent = time.perf_counter()
                os.write(run.master, data)
                r = run.read_until(sent + opts["timeout"], quiet_after=True, since=sent)
                if r is None:
                    ok = False
                    sys.stderr.write("keys_bench: %s run %d: no end to the reply to key %d (%s)\n" % (
                        case["name"], run_index, index, name))
                    break
                last, got = r
                ms = (last - sent) * 1000 if got else 0.0
                result["ms"].append(ms)
                result["bytes"].append(len(got))
                if got:
                    result["first"].append((run.first_byte - sent) * 1000)
                if raw:
                    raw.write("%s\t%d\t%d\t%s\t%.3f\t%d\t%.3f\n" % (case["name"], run_index, index, name, ms, len(got),
                                                                (run.first_byte - sent) * 1000 if got else 0.0))
            if ok:
                result["cpu"].append((cpu_seconds(run.proc.pid) - cpu_before) * 1000 / len(keys))
            run.finish()
            subprocess.run(["rm", "-rf", home])
            result["good" if ok else "failed"] += 1
    print("case\tms_median\tms_p95\tbytes_median\tbytes_p95\tcpu_ms_per_key\tfirst_screen_ms\truns\tfailed\tfirst_byte_ms_median")
    for case in cases:
        r = results[case["name"]]
        if r["ms"]:
            print("%s\t%.3f\t%.3f\t%.0f\t%.0f\t%.3f\t%.0f\t%d\t%d\t%.3f" % (
                case["name"], statistics.median(r["ms"]), percentile(r["ms"], 0.95), statistics.median(r["bytes"]),
                percentile(r["bytes"], 0.95), statistics.median(r["cpu"]) if r["cpu"] else float("nan"),
                statistics.median(r["paint"]), r["good"], r["failed"],
                statistics.median(r["first"]) if r["first"] else float("nan")))
        else:
            print("%s\tnan\tnan\tnan\tnan\tnan\tnan\t0\t%d\tnan" % (case["name"], r["failed"]))


if __name__ == "__main__":
    main()
