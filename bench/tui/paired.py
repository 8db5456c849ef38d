#!/usr/bin/python3
"""paired.py: how sure a first-paint ratio is, from pty_bench's raw runs.

pty_bench runs its cases round-robin, so run i of every case was measured
within a few milliseconds of the others, under the same load on the machine.
For each CASE this prints the median over rounds of CASE_i / BASE_i, and a
95 % bootstrap interval of that median (2,000 resamples of the rounds, fixed
seed, so the same file always gives the same figures).  The interval is how
far the machine's noise leaves the ratio open: when it spans 1.00, one run
cannot tell the two tools apart.

Usage: paired.py RAW.tsv BASE CASE...
Prints one line per CASE: CASE, paired median, low, high, rounds (tab-separated).
"""
import csv
import random
import statistics
import sys


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: paired.py RAW.tsv BASE CASE...")
    path, base, cases = sys.argv[1], sys.argv[2], sys.argv[3:]
    paint = {}
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            paint.setdefault(row["case"], {})[int(row["run"])] = float(row["paint_ms"])
    if base not in paint:
        sys.exit(f"paired.py: no runs of {base!r} in {path}")
    for case in cases:
        rounds = sorted(set(paint.get(case, {})) & set(paint[base]))
        ratios = [paint[case][i] / paint[base][i] for i in rounds if paint[base][i] > 0]
        if not ratios:
            print(f"{case}\t0\t0\t0\t0")
            continue
        generator = random.Random(20261201)
        medians = sorted(statistics.median(generator.choices(ratios, k=len(ratios))) for _ in range(2000))
        low, high = medians[int(0.025 * len(medians))], medians[int(0.975 * len(medians)) - 1]
        print(f"{case}\t{statistics.median(ratios):.3f}\t{low:.3f}\t{high:.3f}\t{len(ratios)}")


if __name__ == "__main__":
    main()
