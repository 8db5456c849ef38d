#!/usr/bin/python3
"""Reads the photos of a vCard 3.0 file with Debian's python3-vobject, as
a program other than share would, for Assign to Contact's tests.

  vcard_tool.py photos PATH
      prints JSON: one object per card, in file order:
      {"fn": FN, "photos": [{"params": {NAME: [VALUES]}, "sha256": HEX,
                             "length": BYTES, "format": PIL's format,
                             "width": W, "height": H,
                             "top_left": [R, G, B], "bottom_right": [R, G, B]}]}
      (format, width and height are null when the bytes are no image), and
      the RGB of pixels near the top left and the bottom right corners
      The photo's bytes are what vobject decodes from ENCODING=b.
"""
import hashlib
import io
import json
import sys

import vobject
from PIL import Image


def photos(path):
    with open(path, encoding="utf-8", newline="") as handle:
        text = handle.read()
    cards = []
    for card in vobject.readComponents(text):
        found = []
        for photo in card.contents.get("photo", []):
            data = photo.value
            if isinstance(data, str):
                data = data.encode("latin-1")
            facts = {"params": {name: list(values) for name, values in photo.params.items()},
                     "sha256": hashlib.sha256(data).hexdigest(), "length": len(data),
                     "format": None, "width": None, "height": None}
            try:
                image = Image.open(io.BytesIO(data))
                rgb = image.convert("RGB")
                facts.update(format=image.format, width=image.size[0], height=image.size[1],
                             top_left=list(rgb.getpixel((min(2, image.size[0] - 1), min(2, image.size[1] - 1)))),
                             bottom_right=list(rgb.getpixel((max(0, image.size[0] - 3), max(0, image.size[1] - 3)))))
            except Exception:
                pass  # a URI or other bytes that are no image: format stays null
            found.append(facts)
        cards.append({"fn": card.fn.value if hasattr(card, "fn") else None, "photos": found})
    print(json.dumps(cards, ensure_ascii=False))


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "photos":
        sys.exit(__doc__)
    photos(sys.argv[2])
