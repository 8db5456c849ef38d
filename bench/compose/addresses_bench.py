#!/usr/bin/python3
"""addresses_bench: address completion from a vdir of CARDS vCards (Korean
and Latin names, one to four e-mails each), share's compose screen beside
`khard email --parsable QUERY` on the same vdir.

share, in a fresh COLS x ROWS pseudo-terminal (bench/tui/pty_bench.py's
Run), with the vdir as `[contacts] vcard-dir`:
  first screen   spawn to the first screen settled (Mail's "New Message"),
                 with the vdir and without any contacts: reading the vCards
                 must not delay it.
  cold           right after the first screen, the query's first two
                 characters are typed: the time from the second key until
                 the expected address is on screen (the vCards are read on
                 a thread of their own meanwhile).
  per key        once loaded, the rest of the query one key at a time: the
                 time from each key to the screen settled (SILENCE seconds,
                 0.15 by default, with no byte); the expected address must
                 be on screen after the last.
khard: `khard email --parsable QUERY`, wall time per run (it reads the vdir
each time), and it must print the expected address.

Usage: addresses_bench.py --share BINARY [--cards N] [--runs N] [--silence S]
Prints medians over the runs, tab-separated.
"""
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tui"))
from pty_bench import STRIP, Run  # noqa: E402

FAMILY = ["김", "이", "박", "최", "정", "강", "조", "윤", "장", "임"]
GIVEN = ["민수", "지우", "서연", "하준", "도윤", "수아", "예준", "지민", "서준", "하은"]
LATIN_FIRST = ["Anna", "Ben", "Chloé", "David", "Émile", "Fatima", "Greta", "Hugo", "Ines", "Jonas"]
LATIN_LAST = ["Müller", "Smith", "García", "Rossi", "Dubois", "Novak", "Jensen", "Silva", "Kowalski", "Brown"]
DOMAINS = ["example.com", "example.org", "example.net", "mail.example.kr"]


def make_vdir(path, cards):
    """CARDS vCards; card 4711 is the one the query finds."""
    rng = random.Random(1)
    os.makedirs(path)
    for n in range(cards):
        if n % 3 == 0:
            family, given = rng.choice(FAMILY), rng.choice(GIVEN)
            full, structured = family + given, "%s;%s;;;" % (family, given)
            local = "user"
        else:
            first, last = rng.choice(LATIN_FIRST), rng.choice(LATIN_LAST)
            full, structured = "%s %s" % (first, last), "%s;%s;;;" % (last, first)
            local = first.lower().replace("é", "e").replace("É", "e")
        emails = ["%s.%05d.%d@%s" % (local, n, k, rng.choice(DOMAINS)) for k in range(1 + n % 4)]
        if n == 4711:
            full, structured, emails = "Jiwoo Unique", "Unique;Jiwoo;;;", ["jiwoo.unique@example.com"]
        lines = ["BEGIN:VCARD", "VERSION:3.0", "UID:bench-%05d" % n, "FN:" + full, "N:" + structured]
        lines += ["EMAIL;TYPE=%s:%s" % ("WORK" if k % 2 else "HOME", e) for k, e in enumerate(emails)]
        if n % 10 == 0:
            lines.append("NICKNAME:nick%05d" % n)
        lines.append("END:VCARD")
        with open(os.path.join(path, "bench-%05d.vcf" % n), "w", encoding="utf-8") as f:
            f.write("\r\n".join(lines) + "\r\n")


def main():
    opts = {"share": None, "cards": 10000, "runs": 5, "silence": 0.15, "timeout": 60.0, "rows": 30, "cols": 100}
    args = sys.argv[1:]
    while args:
        name = args.pop(0)
        if name not in ("--share", "--cards", "--runs", "--silence") or not args:
            sys.exit(__doc__)
        value = args.pop(0)
        opts[name[2:]] = value if name == "--share" else (float(value) if name == "--silence" else int(value))
    if not opts["share"]:
        sys.exit(__doc__)
    query, expected = "jiwoo.uni", b"jiwoo.unique@example.com"
    work = tempfile.mkdtemp(prefix="share-bench-addresses.")
    vdir = os.path.join(work, "contacts")
    make_vdir(vdir, opts["cards"])
    configs = {}
    for name, contacts in (("vdir", "[contacts]\nvcard-dir = %s\n" % vdir), ("none", "")):
        configs[name] = os.path.join(work, "config-" + name)
        with open(configs[name], "w") as f:
            f.write("[mail]\nfrom = 김민수 <kim@example.com>\n" + contacts)
    os.makedirs(os.path.join(work, "khard"))
    with open(os.path.join(work, "khard", "khard.conf"), "w") as f:
        f.write("[addressbooks]\n[[bench]]\npath = %s\n[general]\ndefault_action = list\n" % vdir)

    results = {"paint vdir": [], "paint none": [], "cold": [], "key": [], "khard": []}
    failures = []
    for run_index in range(opts["runs"]):
        for name in ("vdir", "none"):
            home = tempfile.mkdtemp(prefix="home.", dir=work)
            env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "TERM": "xterm-256color",
                   "LANG": "C.UTF-8", "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data",
                   "XDG_STATE_HOME": home + "/state", "XDG_CACHE_HOME": home + "/cache"}
            case = {"stdin": "-", "cmd": [opts["share"], "--config", configs[name], "--activity", "mail",
                                          "--subject", "Q4", "--body", "hello"]}
            run = Run(case, opts, env)
            paint = run.first_paint(b"New Message")
            if paint is None:
                failures.append("%s run %d: no first screen" % (name, run_index))
                run.finish()
                continue
            results["paint " + name].append(paint[0] * 1000)
            if name == "vdir":
                # Cold: the first two characters at once after the first screen.
                os.write(run.master, query[0].encode())
                sent = time.perf_counter()
                os.write(run.master, query[1].encode())
                seen = bytearray()
                found = None
                deadline = sent + opts["timeout"]
                while found is None:
                    r = run.read_until(deadline)
                    if r is None:
                        break
                    seen += r[1]
                    if b"jiwoo." in STRIP.sub(b"", bytes(seen)):
                        found = r[0]
                if found is None:
                    failures.append("run %d: no suggestion after %r" % (run_index, query[:2]))
                else:
                    results["cold"].append((found - sent) * 1000)
                    run.read_until(deadline, quiet_after=True, since=found)
                    # Loaded: the rest of the query, one key at a time.
                    for character in query[2:]:
                        sent = time.perf_counter()
                        os.write(run.master, character.encode())
                        r = run.read_until(sent + opts["timeout"], quiet_after=True, since=sent)
                        if r is None:
                            failures.append("run %d: no reply to %r" % (run_index, character))
                            break
                        results["key"].append((r[0] - sent) * 1000 if r[1] else 0.0)
                    screen = STRIP.sub(b"", bytes(run.buf[-4000:]))
                    if expected not in screen:
                        failures.append("run %d: %s not on screen after %r" % (run_index, expected.decode(), query))
            run.finish()
        start = time.perf_counter()
        khard = subprocess.run(["khard", "email", "--parsable", query], capture_output=True,
                               env=dict(os.environ, XDG_CONFIG_HOME=work, HOME=work))
        results["khard"].append((time.perf_counter() - start) * 1000)
        if expected not in khard.stdout:
            failures.append("khard run %d: %r" % (run_index, khard.stdout[:200] + khard.stderr[:200]))
    subprocess.run(["rm", "-rf", work])

    def median(values):
        return "%.1f" % statistics.median(values) if values else "nan"

    print("measure\tmedian_ms\tsamples")
    print("share first screen, %d vCards\t%s\t%d" % (opts["cards"], median(results["paint vdir"]), len(results["paint vdir"])))
    print("share first screen, no contacts\t%s\t%d" % (median(results["paint none"]), len(results["paint none"])))
    print("share first suggestions (cold)\t%s\t%d" % (median(results["cold"]), len(results["cold"])))
    print("share per key, loaded\t%s\t%d" % (median(results["key"]), len(results["key"])))
    if results["key"]:
        print("share per key, loaded, max\t%.1f\t%d" % (max(results["key"]), len(results["key"])))
    print("khard email --parsable\t%s\t%d" % (median(results["khard"]), len(results["khard"])))
    for failure in failures:
        sys.stderr.write("addresses_bench: %s\n" % failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
