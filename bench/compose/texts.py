#!/usr/bin/python3
"""texts: the text bench/compose edits, and share's config for it.

LINES lines, every third one Korean, the rest ASCII, none wider than the
screen. In DIR: body.txt, the whole text (nano and vim open it at the
middle line); first.txt, its first half (share's body, above the cursor);
second.txt, the rest (share's signature, below the cursor), cut to fit
the signature's 1 MiB (at 50,000 lines the body then has 25,000 lines
above the cursor and about 17,000 below); and config, share's [mail]
config with that signature.

Usage: texts.py LINES DIR (run.sh); turns.py imports write.
"""
import os
import sys


def write(lines, work):
    """Writes the files into `work`; returns their paths by name."""
    rows = []
    for i in range(1, lines + 1):
        if i % 3 == 0:
            rows.append("%05d 3분기 보고서의 수치를 다시 확인했습니다 — 매출 %d원" % (i, i * 7))
        else:
            rows.append("%05d The quick brown fox jumps over the lazy dog; total %d" % (i, i * 13))
    middle = lines // 2
    second, size = [], 0
    for row in rows[middle:]:
        size += len(row.encode()) + 1
        if size > 1000000:
            break
        second.append(row)
    paths = {name: os.path.join(work, name) for name in ("body.txt", "first.txt", "second.txt", "config")}
    texts = {
        "body.txt": "\n".join(rows) + "\n",
        "first.txt": "\n".join(rows[:middle]),
        "second.txt": "\n".join(second),
        "config": "[mail]\nfrom = 김민수 <kim@example.com>\nsignature-file = %s\n" % paths["second.txt"],
    }
    for name, text in texts.items():
        with open(paths[name], "w") as f:
            f.write(text)
    return paths


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    os.makedirs(sys.argv[2], exist_ok=True)
    write(int(sys.argv[1]), sys.argv[2])
