#!/usr/bin/python3
"""Makes and inspects images for share's tests (Debian's python3-pil).

  image_tool.py solid OUT WIDTH HEIGHT R G B   writes a solid-colour image: JPEG
                                               when OUT ends in .jpg, else PNG
  image_tool.py halves OUT WIDTH HEIGHT ORIENTATION
                                               writes a JPEG whose left half is red
                                               and right half blue, as stored, with
                                               EXIF orientation ORIENTATION (1-8)
  image_tool.py describe PATH                  prints JSON: format, size, mode,
                                               and the RGB of the centre and a corner
"""
import json
import sys

from PIL import Image


def solid(out, width, height, red, green, blue):
    format = "JPEG" if out.lower().endswith((".jpg", ".jpeg")) else "PNG"
    Image.new("RGB", (int(width), int(height)), (int(red), int(green), int(blue))).save(out, format=format)


def halves(out, width, height, orientation):
    width, height = int(width), int(height)
    image = Image.new("RGB", (width, height), (0, 0, 255))
    image.paste((255, 0, 0), (0, 0, width // 2, height))
    exif = Image.Exif()
    exif[0x0112] = int(orientation)
    image.save(out, format="JPEG", quality=95, exif=exif.tobytes())


def describe(path):
    image = Image.open(path)
    image.load()
    rgb = image.convert("RGB")
    width, height = rgb.size
    print(json.dumps({"format": image.format, "width": width, "height": height, "mode": image.mode,
                      "center": list(rgb.getpixel((width // 2, height // 2))),
                      "corner": list(rgb.getpixel((1, 1)))}))


if __name__ == "__main__":
    command, arguments = sys.argv[1], sys.argv[2:]
    if command == "solid":
        solid(*arguments)
    elif command == "halves":
        halves(*arguments)
    elif command == "describe":
        describe(*arguments)
    else:
        sys.exit("image_tool.py: unknown command %s" % command)
