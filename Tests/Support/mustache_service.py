#!/usr/bin/python3
"""A small image service on 127.0.0.1 for the Mustachify example's tests.

Prints "READY <port>" on stdout once it listens, then serves until stdin
closes. Run it with Debian's /usr/bin/python3 (python3-pil).

  POST /mustachify  with a PNG or JPEG body
      200, Content-Type: image/png: the same image with a dark mustache
      drawn across its middle third (PIL ImageDraw)
      400 for a body that is not an image; 415 for another image format
  any other path or method: 404 / 405

Every request is recorded in LOGDIR before the answer goes out, so a client
that has its answer finds its request on disk: N.json (method, path, content
type, length and SHA-256 of the body, the status answered), N.body (the
bytes received) and, for an image returned, N.reply (the bytes sent).

It also serves files, for the tests of activities that download (Save to
Pictures):
  GET /files/NAME   200 with the bytes of DIR/NAME (--serve DIR), typed by
                    NAME's extension only (a lie the client must see through);
                    404 when there is no such file
  GET /redirect/N/NAME  a chain of N redirects (302) ending at /files/NAME
GETs are recorded like POSTs.

Modes:
  --serve DIR     the folder GET /files/ serves
  --fail STATUS   answer every POST with STATUS and a one-line message
  --hold          record a POST, then never answer it (until the server stops):
                  a request that is still running when the client cancels
"""
import argparse
import hashlib
import io
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from PIL import Image, ImageDraw, UnidentifiedImageError

import test_server

# The mustache's colour: a dark brown, exact in the PNG the service returns.
MUSTACHE = (34, 24, 16)


def mustachify(image):
    """Draws a handlebar mustache across the middle third of `image` (in place)."""
    width, height = image.size
    draw = ImageDraw.Draw(image)
    fill = MUSTACHE + (255,) if image.mode == "RGBA" else MUSTACHE

    def box(left, top, right, bottom):
        return [width * left, height * top, width * right, height * bottom]

    # Two lobes that meet under the nose, covering the centre.
    draw.ellipse(box(0.14, 0.40, 0.53, 0.60), fill=fill)
    draw.ellipse(box(0.47, 0.40, 0.86, 0.60), fill=fill)
    # The tips curl up, staying inside the middle third.
    for left, tip, inner in ((0.16, 0.04, 0.27), (0.84, 0.96, 0.73)):
        draw.polygon([(width * left, height * 0.52), (width * tip, height * 0.36),
                      (width * (tip + (0.06 if tip < 0.5 else -0.06)), height * 0.345),
                      (width * inner, height * 0.45)], fill=fill)
    return image


class Recorder:
    def __init__(self, logdir):
        self.logdir = logdir
        self.count = 0
        self.lock = threading.Lock()

    def record(self, entry, body, reply=None):
        with self.lock:
            self.count += 1
            base = os.path.join(self.logdir, str(self.count))
        with open(base + ".body", "wb") as f:
            f.write(body)
        if reply is not None:
            with open(base + ".reply", "wb") as f:
                f.write(reply)
        # The JSON appears whole (rename), and last: once it is there, so is the body.
        with open(base + ".json.tmp", "w") as f:
            json.dump(entry, f)
        os.rename(base + ".json.tmp", base + ".json")


TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".html": "text/html; charset=utf-8"}


def make_handler(recorder, fail_status, hold, stopping, served):
    class Handler(BaseHTTPRequestHandler):
        server_version = "mustache-service/1"

        def log_message(self, format, *args):
            sys.stderr.write("mustache_service: " + (format % args) + "\n")

        def answer(self, status, body, content_type="text/plain; charset=utf-8"):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            entry = {"method": "GET", "path": self.path, "content_type": None, "length": 0,
                     "sha256": hashlib.sha256(b"").hexdigest()}
            parts = self.path.split("/")
            if served and len(parts) == 5 and parts[1] == "redirect" and parts[2].isdigit():
                left = int(parts[2])
                target = "/files/" + parts[4] if left <= 1 else "/redirect/%d/x/%s" % (left - 1, parts[4])
                entry["status"] = 302
                recorder.record(entry, b"")
                self.send_response(302)
                self.send_header("Location", target)
                self.send_header("Content-Length", "0")
                self.send_header("Connection", "close")
                self.end_headers()
                return
            name = self.path[len("/files/"):] if self.path.startswith("/files/") else None
            path = os.path.join(served, name) if served and name and "/" not in name and not name.startswith(".") else None
            if path is None or not os.path.isfile(path):
                entry["status"] = 404 if served else 405
                recorder.record(entry, b"")
                self.answer(entry["status"], b"no such file\n" if served else b"POST an image to /mustachify\n")
                return
            with open(path, "rb") as file:
                body = file.read()
            entry["status"] = 200
            recorder.record(entry, b"", body)
            self.answer(200, body, TYPES.get(os.path.splitext(name)[1], "application/octet-stream"))

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length > 0 else b""
            entry = {"method": "POST", "path": self.path, "content_type": self.headers.get("Content-Type"),
                     "length": len(body), "sha256": hashlib.sha256(body).hexdigest()}

            if hold:
                entry["status"] = None
                recorder.record(entry, body)
                stopping.wait()
                return
            if fail_status:
                status, reply, kind = fail_status, b"the mustache service is refusing work today\n", None
            elif self.path != "/mustachify":
                status, reply, kind = 404, b"no such service: POST to /mustachify\n", None
            else:
                status, reply, kind = self.transform(body)
            entry["status"] = status
            recorder.record(entry, body, reply if kind else None)
            if kind:
                self.answer(status, reply, kind)
            else:
                self.answer(status, reply)

        def transform(self, body):
            try:
                image = Image.open(io.BytesIO(body))
                image.load()
            except (UnidentifiedImageError, OSError, ValueError):
                return 400, b"the body is not an image\n", None
            if image.format not in ("PNG", "JPEG"):
                return 415, ("only PNG and JPEG images, not %s\n" % image.format).encode(), None
            if image.mode not in ("RGB", "RGBA"):
                image = image.convert("RGBA" if "A" in image.mode or "transparency" in image.info else "RGB")
            out = io.BytesIO()
            mustachify(image).save(out, format="PNG")
            return 200, out.getvalue(), "image/png"

    return Handler


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("logdir")
    parser.add_argument("--fail", type=int, metavar="STATUS")
    parser.add_argument("--hold", action="store_true")
    parser.add_argument("--serve", metavar="DIR")
    args = parser.parse_args()

    # A held request waits for the server to stop.
    stopping = test_server.stop_event()
    server = ThreadingHTTPServer(("127.0.0.1", 0),
                                 make_handler(Recorder(args.logdir), args.fail, args.hold, stopping, args.serve))
    test_server.run_http(server, stopping)


if __name__ == "__main__":
    main()
