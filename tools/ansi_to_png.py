#!/usr/bin/python3
"""Render a tmux capture (`capture-pane -e -p`) to a PNG, cell by cell.

    ansi_to_png.py [--cols N] [--rows N] [--cursor X,Y] CAPTURE.ans OUT.png

Each character is drawn at its grid position: East Asian Wide and Fullwidth
characters over two cells, combining marks, variation selectors and
zero-width joiner sequences with the cell before them (a ZWJ sequence shows
its first emoji), as tmux 3.3a places them. SGR state carries across lines,
as tmux writes only the changes. Honoured: the 8/16 colours with a fixed
dark palette, the 256-colour palette, 24-bit colours, bold, dim, italic (as
regular), underline and reverse. Box drawing and block elements are drawn
as shapes so lines meet across cells; everything else comes from fonts:
DejaVu Sans Mono (fonts-dejavu-core), then NanumGothicCoding for Hangul
(fonts-nanum), then DejaVu Sans, then Symbola (fonts-symbola, optional) for
symbols and monochrome emoji. A character no font has is drawn as an empty
box. Nothing depends on time or environment: the same capture gives the
same bytes.

Needs Debian's python3-pil (run with /usr/bin/python3).
"""

import argparse
import os
import struct
import sys
import unicodedata

from PIL import Image, ImageDraw, ImageFont

FONT_SIZE = 16
CELL_W = 10
CELL_H = 20
MARGIN = 12

FONT_DIRS = ["/usr/share/fonts/truetype"]
# (regular, bold, pixel size), in fallback order; Hangul a little larger, so a
# syllable fills its two cells as in a terminal.
FONT_CHAIN = [
    ("dejavu/DejaVuSansMono.ttf", "dejavu/DejaVuSansMono-Bold.ttf", FONT_SIZE),
    ("nanum/NanumGothicCoding.ttf", "nanum/NanumGothicCodingBold.ttf", FONT_SIZE + 2),
    ("dejavu/DejaVuSans.ttf", "dejavu/DejaVuSans-Bold.ttf", FONT_SIZE),
    ("ancient-scripts/Symbola_hint.ttf", "ancient-scripts/Symbola_hint.ttf", FONT_SIZE),
]
REQUIRED = {"dejavu/DejaVuSansMono.ttf": "fonts-dejavu-core", "nanum/NanumGothicCoding.ttf": "fonts-nanum"}

# A fixed dark palette (Tomorrow Night), so screenshots do not depend on a theme.
DEFAULT_FG = (0xC5, 0xC8, 0xC6)
DEFAULT_BG = (0x1D, 0x1F, 0x21)
PALETTE16 = [
    (0x1D, 0x1F, 0x21), (0xCC, 0x66, 0x66), (0xB5, 0xBD, 0x68), (0xF0, 0xC6, 0x74),
    (0x81, 0xA2, 0xBE), (0xB2, 0x94, 0xBB), (0x8A, 0xBE, 0xB7), (0xC5, 0xC8, 0xC6),
    (0x66, 0x66, 0x66), (0xD5, 0x4E, 0x53), (0xB9, 0xCA, 0x4A), (0xE7, 0xC5, 0x47),
    (0x7A, 0xA6, 0xDA), (0xC3, 0x97, 0xD8), (0x70, 0xC0, 0xB1), (0xEA, 0xEA, 0xEA),
]


def palette256(index):
    if index < 16:
        return PALETTE16[index]
    if index < 232:
        index -= 16
        levels = [0, 95, 135, 175, 215, 255]
        return (levels[index // 36], levels[(index // 6) % 6], levels[index % 6])
    grey = 8 + 10 * (index - 232)
    return (grey, grey, grey)


# ---------------------------------------------------------------- fonts


def cmap_codepoints(path):
    """The code points a TrueType font maps (cmap formats 4 and 12)."""
    with open(path, "rb") as handle:
        data = handle.read()
    count = struct.unpack(">H", data[4:6])[0]
    cmap = None
    for i in range(count):
        tag, _, offset, _ = struct.unpack(">4sIII", data[12 + 16 * i:28 + 16 * i])
        if tag == b"cmap":
            cmap = offset
    if cmap is None:
        return set()
    subtables = struct.unpack(">H", data[cmap + 2:cmap + 4])[0]
    best = None
    for i in range(subtables):
        platform, encoding, offset = struct.unpack(">HHI", data[cmap + 4 + 8 * i:cmap + 12 + 8 * i])
        fmt = struct.unpack(">H", data[cmap + offset:cmap + offset + 2])[0]
        if (platform, fmt) in ((3, 12), (0, 12)):
            best = (12, cmap + offset)
            break
        if (platform, encoding, fmt) in ((3, 1, 4), (0, 3, 4)) and best is None:
            best = (4, cmap + offset)
    points = set()
    if best is None:
        return points
    fmt, start = best
    if fmt == 12:
        groups = struct.unpack(">I", data[start + 12:start + 16])[0]
        for i in range(groups):
            first, last, _ = struct.unpack(">III", data[start + 16 + 12 * i:start + 28 + 12 * i])
            points.update(range(first, last + 1))
    else:
        segments = struct.unpack(">H", data[start + 6:start + 8])[0] // 2
        ends = start + 14
        starts = ends + 2 * segments + 2
        deltas = starts + 2 * segments
        ranges = deltas + 2 * segments
        for i in range(segments):
            end = struct.unpack(">H", data[ends + 2 * i:ends + 2 * i + 2])[0]
            begin = struct.unpack(">H", data[starts + 2 * i:starts + 2 * i + 2])[0]
            delta = struct.unpack(">h", data[deltas + 2 * i:deltas + 2 * i + 2])[0]
            range_offset = struct.unpack(">H", data[ranges + 2 * i:ranges + 2 * i + 2])[0]
            for code in range(begin, min(end, 0xFFFE) + 1):
                if range_offset == 0:
                    glyph = (code + delta) & 0xFFFF
                else:
                    at = ranges + 2 * i + range_offset + 2 * (code - begin)
                    glyph = struct.unpack(">H", data[at:at + 2])[0]
                    if glyph:
                        glyph = (glyph + delta) & 0xFFFF
                if glyph:
                    points.add(code)
    return points


class Fonts:
    def __init__(self):
        self.chain = []
        missing = []
        for regular, bold, size in FONT_CHAIN:
            paths = [self.find(regular), self.find(bold)]
            if paths[0] is None:
                if regular in REQUIRED:
                    missing.append(REQUIRED[regular])
                continue
            fonts = [ImageFont.truetype(p or paths[0], size) for p in paths]
            self.chain.append((cmap_codepoints(paths[0]), fonts))
        if missing:
            sys.exit("ansi_to_png: missing fonts; apt-get install " + " ".join(missing))
        self.ascent = self.chain[0][1][0].getmetrics()[0]

    @staticmethod
    def find(name):
        for directory in FONT_DIRS:
            path = os.path.join(directory, name)
            if os.path.exists(path):
                return path
        return None

    def font_for(self, code, bold):
        for points, fonts in self.chain:
            if code in points:
                return fonts[1 if bold else 0]
        return None


# ---------------------------------------------------------------- parsing


class Style:
    __slots__ = ("fg", "bg", "bold", "dim", "italic", "underline", "reverse")

    def __init__(self):
        self.reset()

    def reset(self):
        self.fg = None
        self.bg = None
        self.bold = self.dim = self.italic = self.underline = self.reverse = False

    def copy(self):
        other = Style()
        for name in Style.__slots__:
            setattr(other, name, getattr(self, name))
        return other

    # SGR codes that turn attributes on or off.
    ATTRIBUTES = {
        1: (("bold",), True), 2: (("dim",), True), 3: (("italic",), True), 4: (("underline",), True), 7: (("reverse",), True),
        22: (("bold", "dim"), False), 23: (("italic",), False), 24: (("underline",), False), 27: (("reverse",), False),
    }
    # SGR codes that pick one of the 16 colours: the first code of each run, the attribute and the palette's first index.
    COLOURS16 = ((30, "fg", 0), (40, "bg", 0), (90, "fg", 8), (100, "bg", 8))

    def apply(self, params):
        codes = [int(p) if p.isdigit() else 0 for p in params.replace(":", ";").split(";")] if params else [0]
        i = 0
        while i < len(codes):
            code = codes[i]
            if code == 0:
                self.reset()
            elif code in Style.ATTRIBUTES:
                names, value = Style.ATTRIBUTES[code]
                for name in names:
                    setattr(self, name, value)
            elif code in (39, 49):
                setattr(self, "fg" if code == 39 else "bg", None)
            elif code in (38, 48):
                colour = None
                if i + 2 < len(codes) and codes[i + 1] == 5:
                    colour = palette256(codes[i + 2] & 0xFF)
                    i += 2
                elif i + 4 < len(codes) and codes[i + 1] == 2:
                    colour = tuple(c & 0xFF for c in codes[i + 2:i + 5])
                    i += 4
                setattr(self, "fg" if code == 38 else "bg", colour)
            else:
                for first, name, index in Style.COLOURS16:
                    if first <= code <= first + 7:
                        setattr(self, name, PALETTE16[code - first + index])
            i += 1


def is_zero_width(code):
    if code in (0x200D, 0x200C) or 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF:
        return True
    if 0x1F3FB <= code <= 0x1F3FF:  # skin tone modifiers join their emoji
        return True
    return unicodedata.category(chr(code)) in ("Mn", "Me", "Cf")


def char_width(code):
    return 2 if unicodedata.east_asian_width(chr(code)) in ("W", "F") else 1


def parse(text, cols, rows):
    """The capture as a rows×cols grid of (text, style, width) or None (blank / continuation)."""
    grid = [[None] * cols for _ in range(rows)]
    style = Style()
    row = col = 0
    last = None  # (row, col) of the last cell written, for combining characters
    joining = False  # the previous code point was a ZWJ
    i = 0
    while i < len(text):
        ch = text[i]
        code = ord(ch)
        if ch == "\x1b":
            if i + 1 < len(text) and text[i + 1] == "[":
                j = i + 2
                while j < len(text) and not ("@" <= text[j] <= "~"):
                    j += 1
                if j < len(text) and text[j] == "m":
                    style.apply(text[i + 2:j])
                i = j + 1
            elif i + 1 < len(text) and text[i + 1] in "()":
                i += 3
            else:
                i += 2
            continue
        i += 1
        if ch == "\n":
            row += 1
            col = 0
            last = None
            joining = False
            continue
        if code < 0x20 or 0x7F <= code < 0xA0:
            continue
        if joining or is_zero_width(code):
            if last is not None:
                r, c = last
                cell_text, cell_style, width = grid[r][c]
                grid[r][c] = (cell_text + ch, cell_style, width)
            joining = code == 0x200D
            continue
        width = char_width(code)
        if row < rows and col + width <= cols:
            grid[row][col] = (ch, style.copy(), width)
            if width == 2:
                grid[row][col + 1] = ("", style.copy(), 0)
            last = (row, col)
        col += width
    return grid


def infer_size(text):
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    cols = 0
    for line in lines:
        plain = []
        i = 0
        while i < len(line):
            if line[i] == "\x1b" and i + 1 < len(line) and line[i + 1] == "[":
                j = i + 2
                while j < len(line) and not ("@" <= line[j] <= "~"):
                    j += 1
                i = j + 1
                continue
            plain.append(line[i])
            i += 1
        width = sum(0 if is_zero_width(ord(c)) else char_width(ord(c)) for c in plain if ord(c) >= 0x20)
        cols = max(cols, width)
    return cols, len(lines)


# ---------------------------------------------------------------- drawing


def blend(a, b, amount):
    return tuple(round(x + (y - x) * amount) for x, y in zip(a, b))


# Box drawing: light lines as (left, right, up, down); rounded corners by arc.
BOX = {
    "─": "lr", "│": "ud", "┌": "rd", "┐": "ld", "└": "ru", "┘": "lu", "├": "udr", "┤": "udl",
    "┬": "lrd", "┴": "lru", "┼": "lrud", "╴": "l", "╶": "r", "╵": "u", "╷": "d",
    "━": "LR", "┃": "UD", "┏": "RD", "┓": "LD", "┗": "RU", "┛": "LU",
    "═": "lr2", "║": "ud2", "╔": "rd2", "╗": "ld2", "╚": "ru2", "╝": "lu2",
}
ROUND = {"╭": "rd", "╮": "ld", "╯": "lu", "╰": "ru"}


def draw_box(draw, ch, x, y, w, h, colour):
    cx, cy = x + w // 2, y + h // 2
    if ch in ROUND:
        r = w // 2
        sides = ROUND[ch]
        # Centre of the arc's circle: towards the two sides the corner joins.
        ox = cx + (r if "r" in sides else -r)
        oy = cy + (r if "d" in sides else -r)
        start = {"rd": 180, "ld": 270, "lu": 0, "ru": 90}[sides]
        draw.arc([ox - r, oy - r, ox + r, oy + r], start, start + 90, fill=colour, width=1)
        if "d" in sides:
            draw.line([cx, oy, cx, y + h - 1], fill=colour)
        if "u" in sides:
            draw.line([cx, y, cx, oy], fill=colour)
        return True
    spec = BOX.get(ch)
    if spec is None:
        return False
    double = spec.endswith("2")
    heavy = spec.isupper()
    sides = spec.rstrip("2").lower()
    offsets = [-1, 1] if double else ([0, 1] if heavy else [0])
    for d in offsets:
        if "l" in sides:
            draw.line([x, cy + d, cx, cy + d], fill=colour)
        if "r" in sides:
            draw.line([cx, cy + d, x + w - 1, cy + d], fill=colour)
        if "u" in sides:
            draw.line([cx + d, y, cx + d, cy], fill=colour)
        if "d" in sides:
            draw.line([cx + d, cy, cx + d, y + h - 1], fill=colour)
    return True


def draw_block(draw, ch, x, y, w, h, fg, bg):
    code = ord(ch)
    def rect(x0, y0, x1, y1, colour=fg):
        if x1 > x0 and y1 > y0:
            draw.rectangle([x0, y0, x1 - 1, y1 - 1], fill=colour)
    if code == 0x2580:  # ▀
        rect(x, y, x + w, y + h // 2)
    elif 0x2581 <= code <= 0x2588:  # ▁ … █: lower eighths
        eighths = code - 0x2580
        rect(x, y + h - round(h * eighths / 8), x + w, y + h)
    elif 0x2589 <= code <= 0x258F:  # ▉ … ▏: left eighths
        eighths = 0x2590 - code
        rect(x, y, x + round(w * eighths / 8), y + h)
    elif code == 0x2590:  # ▐
        rect(x + w // 2, y, x + w, y + h)
    elif code in (0x2591, 0x2592, 0x2593):  # ░ ▒ ▓
        rect(x, y, x + w, y + h, blend(bg, fg, (code - 0x2590) / 4))
    elif code == 0x2594:  # ▔
        rect(x, y, x + w, y + round(h / 8))
    elif code == 0x2595:  # ▕
        rect(x + w - round(w / 8), y, x + w, y + h)
    elif 0x2596 <= code <= 0x259F:  # quadrants
        quads = {0x2596: "3", 0x2597: "4", 0x2598: "1", 0x2599: "134", 0x259A: "14", 0x259B: "123",
                 0x259C: "124", 0x259D: "2", 0x259E: "23", 0x259F: "234"}[code]
        hw, hh = w // 2, h // 2
        for q in quads:
            qx = x if q in "13" else x + hw
            qy = y if q in "12" else y + hh
            rect(qx, qy, qx + (hw if q in "13" else w - hw), qy + (hh if q in "12" else h - hh))
    else:
        return False
    return True


def render(grid, fonts, cursor):
    rows, cols = len(grid), len(grid[0]) if grid else 0
    image = Image.new("RGB", (2 * MARGIN + cols * CELL_W, 2 * MARGIN + rows * CELL_H), DEFAULT_BG)
    draw = ImageDraw.Draw(image)
    for r in range(rows):
        for c in range(cols):
            cell = grid[r][c]
            if cell is not None and cell[2] == 0:
                continue  # the right half of a wide character
            text, style, width = cell if cell is not None else (" ", Style(), 1)
            fg = style.fg or DEFAULT_FG
            bg = style.bg or DEFAULT_BG
            if style.reverse:
                fg, bg = bg, fg
            if cursor == (c, r):
                fg, bg = bg, fg
            if style.dim:
                fg = blend(fg, bg, 0.45)
            x, y = MARGIN + c * CELL_W, MARGIN + r * CELL_H
            w = CELL_W * width
            draw.rectangle([x, y, x + w - 1, y + CELL_H - 1], fill=bg)
            if text.strip():
                first = text[0]
                if not (draw_box(draw, first, x, y, w, CELL_H, fg) or draw_block(draw, first, x, y, w, CELL_H, fg, bg)):
                    font = fonts.font_for(ord(first), style.bold)
                    if font is None:
                        draw.rectangle([x + 2, y + 3, x + w - 3, y + CELL_H - 4], outline=fg)
                    else:
                        # Combining marks stay with their base; a ZWJ sequence shows its first emoji.
                        shown = first + "".join(ch for ch in text[1:] if unicodedata.category(ch) in ("Mn", "Me"))
                        advance = font.getlength(shown)
                        baseline = y + (CELL_H - FONT_SIZE) // 2 + fonts.ascent - 1
                        left = x + (w - advance) / 2
                        draw.text((round(left), baseline), shown, font=font, fill=fg, anchor="ls")
            if style.underline:
                draw.line([x, y + CELL_H - 3, x + w - 1, y + CELL_H - 3], fill=fg)
    return image


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cols", type=int)
    parser.add_argument("--rows", type=int)
    parser.add_argument("--cursor", help="X,Y of a visible cursor (0-based), drawn as a block")
    parser.add_argument("capture")
    parser.add_argument("output")
    args = parser.parse_args()
    with open(args.capture, "rb") as handle:
        text = handle.read().decode("utf-8", errors="replace")
    cols, rows = infer_size(text)
    cols, rows = args.cols or cols, args.rows or rows
    cursor = tuple(int(v) for v in args.cursor.split(",")) if args.cursor else None
    image = render(parse(text, cols, rows), Fonts(), cursor)
    image.save(args.output, format="PNG", optimize=False)


if __name__ == "__main__":
    main()
