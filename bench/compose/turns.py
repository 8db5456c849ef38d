#!/usr/bin/python3
"""turns: two or more builds of share (and nano) measured in the same
minutes, taking turns key by key: what one change is worth.

Separate runs of bench/compose/run.sh move every program by more than one
change does (the machine's load varies from minute to minute). Here every
program is started at once, each in its own 100x30 pty (keys_bench.py's
Run), on the text run.sh edits (texts.py: LINES lines, every third
Korean; share with the first half as the body and the second as the
signature, four Tabs to the body; nano at the middle line). Then each of run.sh's 200 keys
is sent to each program in turn, and settled (SILENCE seconds with no
byte) before the next; the order of the programs rotates through every
permutation from key to key, so that none is always first after the pause.

For each program, over every key of every round: the median and 95th
percentile of the time from the key's write to the reply's last byte, the
median bytes, and the median processor time of the program's busiest
thread (its loop) while the key was handled, from
/proc/PID/task/TID/schedstat (nanoseconds).

Usage: turns.py [--lines N] [--rounds R] [--silence S] PROGRAM...
PROGRAM is the path of a share binary, or "nano".
"""
import itertools
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tui"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pty_bench import Run, application_cursor_keys  # noqa: E402
from keys_bench import key_bytes  # noqa: E402
from texts import write as texts  # noqa: E402

KEYS = ["a", "b", " ", "가", "나", " ", "x", "1", "다", " ", "Down", "Right", "Up", "Left", "PgDn", "PgUp",
        "C-k", "C-k", "Enter", "BSpace"] * 10


def cpu_by_thread(pid):
    """Nanoseconds on the processor so far, by thread."""
    out = {}
    task = "/proc/%d/task" % pid
    for tid in os.listdir(task):
        try:
            with open("%s/%s/schedstat" % (task, tid)) as f:
                out[int(tid)] = int(f.read().split()[0])
        except OSError:
            pass  # the thread ended meanwhile
    return out


def start(program, paths, lines, opts, home):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "TERM": "xterm-256color",
           "LANG": "C.UTF-8", "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data",
           "XDG_STATE_HOME": home + "/state", "XDG_CACHE_HOME": home + "/cache"}
    if program == "nano":
        cmd, marker = ["nano", "--ignorercfiles", "+%d" % (lines // 2 + 1), paths["body.txt"]], b"Help"
    else:
        cmd = [program, "--config", paths["config"], "--activity", "mail", "--to", "park@example.com",
               "--subject", "Q4", "--body-file", paths["first.txt"]]
        marker = b"New Message"
    run = Run({"cmd": cmd, "stdin": "-", "env": {}}, opts, env)
    if run.first_paint(marker) is None:
        sys.exit("turns: %s drew no %r" % (program, marker))
    application = application_cursor_keys(bytes(run.buf))
    if program != "nano":
        for _ in range(4):
            sent = time.perf_counter()
            os.write(run.master, b"\t")
            run.read_until(sent + opts["timeout"], quiet_after=True, since=sent)
    return run, application


def main():
    args = sys.argv[1:]
    lines, rounds, silence = 5000, 1, 0.15
    while args and args[0].startswith("--"):
        if args[0] == "--lines":
            lines = int(args[1])
        elif args[0] == "--rounds":
            rounds = int(args[1])
        elif args[0] == "--silence":
            silence = float(args[1])
        else:
            sys.exit(__doc__)
        args = args[2:]
    if len(args) < 2:
        sys.exit(__doc__)
    programs = args
    opts = {"silence": silence, "timeout": 30.0, "rows": 30, "cols": 100}
    work = tempfile.mkdtemp(prefix="share-bench-turns.")
    paths = texts(lines, work)
    results = {p: {"ms": [], "bytes": [], "cpu": []} for p in programs}
    orders = list(itertools.permutations(range(len(programs))))
    for round_index in range(rounds):
        runs = [start(p, paths, lines, opts, tempfile.mkdtemp(dir=work)) for p in programs]
        per_key = [[] for _ in programs]
        for index, name in enumerate(KEYS):
            for which in orders[(index + round_index) % len(orders)]:
                run, application = runs[which]
                before = cpu_by_thread(run.proc.pid)
                sent = time.perf_counter()
                os.write(run.master, key_bytes(name, application))
                reply = run.read_until(sent + opts["timeout"], quiet_after=True, since=sent)
                if reply is None:
                    sys.exit("turns: %s: no end to the reply to key %d (%s)" % (programs[which], index, name))
                last, got = reply
                after = cpu_by_thread(run.proc.pid)
                results[programs[which]]["ms"].append((last - sent) * 1000 if got else 0.0)
                results[programs[which]]["bytes"].append(len(got))
                per_key[which].append({t: after[t] - before.get(t, 0) for t in after})
        for which, (run, _) in enumerate(runs):
            # The loop's thread: the one with the most processor time over all keys.
            totals = {}
            for deltas in per_key[which]:
                for tid, ns in deltas.items():
                    totals[tid] = totals.get(tid, 0) + ns
            loop = max(totals, key=totals.get)
            results[programs[which]]["cpu"] += [d.get(loop, 0) / 1000 for d in per_key[which]]
            run.proc.kill()
            run.proc.wait()
    subprocess.run(["rm", "-rf", work])
    print("program\tms_median\tms_p95\tbytes_median\tloop_cpu_us_median")
    for program in programs:
        r = results[program]
        ordered = sorted(r["ms"])
        print("%s\t%.3f\t%.3f\t%.0f\t%.1f" % (program, statistics.median(r["ms"]),
                                            ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))],
                                            statistics.median(r["bytes"]), statistics.median(r["cpu"])))


if __name__ == "__main__":
    main()
