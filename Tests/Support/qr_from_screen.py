#!/usr/bin/python3
"""Reads a terminal screen (tmux capture-pane text) on standard input, finds
the QR code drawn in half blocks (▀ dark above, ▄ dark below, █ both), and
writes it as a PNG (4 pixels a module, a quiet zone of 4) to the path given,
for zbarimg to decode. Exits 1 when the screen holds no code."""
import struct
import sys
import zlib

lines = sys.stdin.read().split("\n")
blocks = "▀▄█"
cells = [(y, x) for y, line in enumerate(lines) for x, ch in enumerate(line) if ch in blocks]
if not cells:
    sys.exit(1)
top, bottom = min(y for y, _ in cells), max(y for y, _ in cells)
left, right = min(x for _, x in cells), max(x for _, x in cells)
rows = []
for y in range(top, bottom + 1):
    line = lines[y].ljust(right + 1)
    upper = [line[x] in "▀█" for x in range(left, right + 1)]
    lower = [line[x] in "▄█" for x in range(left, right + 1)]
    rows += [upper, lower]
while rows and not any(rows[-1]):
    rows.pop()
scale, quiet = 4, 4
width = (len(rows[0]) + 2 * quiet) * scale
blank = [False] * len(rows[0])
padded = [blank] * quiet + rows + [blank] * quiet
raw = b""
for row in padded:
    pixels = bytes(0 if dark else 255 for dark in ([False] * quiet + row + [False] * quiet) for _ in range(scale))
    raw += (b"\x00" + pixels) * scale


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, len(padded) * scale, 8, 0, 0, 0, 0))
png += chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
with open(sys.argv[1], "wb") as out:
    out.write(png)
