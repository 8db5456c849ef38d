#!/usr/bin/python3
"""Makes and inspects images for share's tests (Debian's python3-pil).

  image_tool.py solid OUT WIDTH HEIGHT R G B   writes a solid-colour image: JPEG
                                               when OUT ends in .jpg, WebP in .webp, else PNG
  image_tool.py halves OUT WIDTH HEIGHT ORIENTATION
                                               writes a JPEG whose left half is red
                                               and right half blue, as stored, with
                                               EXIF orientation ORIENTATION (1-8)
  image_tool.py describe PATH                  prints JSON: format, size, mode,
                                               and the RGB of the centre and a corner
  image_tool.py camera OUT WIDTH HEIGHT ORIENTATION [QUALITY [noise]]
                                               writes a picture as a phone leaves it: JPEG
                                               (or PNG when OUT ends in .png) of four coloured
                                               quarters, EXIF with a camera, the orientation and
                                               a GPS directory (Pillow), then through exiftool
                                               XMP and IPTC naming a city and a country, a
                                               comment, IPTC keywords, and for a JPEG a thumbnail;
                                               with noise, grain over the quarters makes it as
                                               large as a camera's
  image_tool.py scan PATH                      prints the SHA-256 of a JPEG's bytes from its
                                               first SOS marker to EOI, or of a PNG's IDAT data
  image_tool.py compare ORIGINAL COPY          prints JSON: both sizes and the largest and mean
                                               difference of the pixels, the original turned
                                               upright by its EXIF orientation first
  image_tool.py quantization PATH              prints a JPEG's quantization tables as JSON
  image_tool.py attachments MESSAGE OUT        writes a mail's attachments into the folder
                                               OUT (Python's email parser), one name a line
"""
import email
import email.policy
import hashlib
import io
import json
import os
import subprocess
import sys

from PIL import Image, ImageOps


def solid(out, width, height, red, green, blue):
    format = "JPEG" if out.lower().endswith((".jpg", ".jpeg")) else "WEBP" if out.lower().endswith(".webp") else "PNG"
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


def camera(out, width, height, orientation, quality="90", texture=""):
    width, height = int(width), int(height)
    image = Image.new("RGB", (width, height), (0, 0, 255))
    image.paste((255, 0, 0), (0, 0, width // 2, height // 2))
    image.paste((0, 200, 0), (width // 2, 0, width, height // 2))
    image.paste((250, 250, 250), (0, height // 2, width // 2, height))
    if texture == "noise":
        image = Image.blend(image, Image.effect_noise((width, height), 64).convert("RGB"), 0.25)
    exif = Image.Exif()
    exif[0x010F] = "Share Test Camera"
    exif[0x0110] = "Model 48"
    exif[0x0132] = "2024:05:01 10:00:00"
    exif[0x0112] = int(orientation)
    exif[0x8825] = {1: "N", 2: (37.0, 33.0, 59.4), 3: "E", 4: (126.0, 58.0, 40.8), 5: 0, 6: 38.0}
    png = out.lower().endswith(".png")
    if png:
        image.save(out, format="PNG", exif=exif.tobytes())
    else:
        image.save(out, format="JPEG", quality=int(quality), exif=exif.tobytes())
    tags = ["-XMP-photoshop:City=Seoul", "-XMP-photoshop:Country=Korea", "-XMP-dc:Title=Market",
            "-IPTC:City=Seoul", "-IPTC:Country-PrimaryLocationName=Korea", "-IPTC:Province-State=Seoul",
            "-IPTC:Keywords=market", "-Comment=taken at home"]
    if png:
        tags.append("-PNG:ModifyDate=2024:05:01 10:00:00")
    else:
        thumbnail = out + ".thumb.jpg"
        image.resize((16, 12)).save(thumbnail, format="JPEG")
        tags.append("-ThumbnailImage<=" + thumbnail)
    subprocess.run(["exiftool", "-q", "-q", "-overwrite_original"] + tags + [out], check=True)
    if not png:
        os.remove(thumbnail)


def scan(path):
    data = open(path, "rb").read()
    if data.startswith(b"\x89PNG"):
        at, idat = 8, b""
        while at + 8 <= len(data):
            length = int.from_bytes(data[at:at + 4], "big")
            if data[at + 4:at + 8] == b"IDAT":
                idat += data[at + 8:at + 8 + length]
            at += 12 + length
        print(hashlib.sha256(idat).hexdigest())
        return
    at = 2
    while data[at + 1] != 0xDA:
        at += 2 + int.from_bytes(data[at + 2:at + 4], "big")
    end = data.rfind(b"\xff\xd9") + 2
    print(hashlib.sha256(data[at:end]).hexdigest())


def compare(original, copy):
    upright = ImageOps.exif_transpose(Image.open(original)).convert("RGB")
    other = Image.open(copy).convert("RGB")
    result = {"original": list(upright.size), "copy": list(other.size), "max": None, "mean": None}
    if upright.size == other.size:
        differences = [abs(a - b) for p, q in zip(upright.getdata(), other.getdata()) for a, b in zip(p, q)]
        result["max"] = max(differences)
        result["mean"] = sum(differences) / len(differences)
    print(json.dumps(result))


def quantization(path):
    image = Image.open(path)
    print(json.dumps({str(k): list(v) for k, v in image.quantization.items()}))


def attachments(message, out):
    with open(message, "rb") as handle:
        parsed = email.message_from_binary_file(handle, policy=email.policy.default)
    for part in parsed.iter_attachments():
        name = part.get_filename()
        with open(os.path.join(out, name), "wb") as handle:
            handle.write(part.get_content())
        print(name)


if __name__ == "__main__":
    command, arguments = sys.argv[1], sys.argv[2:]
    if command == "solid":
        solid(*arguments)
    elif command == "halves":
        halves(*arguments)
    elif command == "describe":
        describe(*arguments)
    elif command == "camera":
        camera(*arguments)
    elif command == "scan":
        scan(*arguments)
    elif command == "compare":
        compare(*arguments)
    elif command == "quantization":
        quantization(*arguments)
    elif command == "attachments":
        attachments(*arguments)
    else:
        sys.exit("image_tool.py: unknown command %s" % command)
