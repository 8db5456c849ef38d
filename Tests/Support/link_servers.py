#!/usr/bin/python3
"""The places of Link's tests, on 127.0.0.1.

    link_servers.py paste [--status N] [--answer TEXT] [--silent]
    link_servers.py silent
    link_servers.py fiche DIR
    link_servers.py webdav DIR --user U --pass P [--cert PEM --key PEM]
    link_servers.py nextcloud DIR --user U --pass P
    link_servers.py fetch URL [--unzip]

Each server prints "READY <port>" once it listens, then serves until stdin
closes (test_server.py). Servers that check a request report it first, as
one JSON line on stdout.

paste: a 0x0-style form. A POST of multipart/form-data is read with
Python's email parser; the report names each part (name, filename, type,
the bytes in base64). The file is kept and the answer is its link,
http://127.0.0.1:PORT/f/NAME, which a GET serves. --status answers that
status with a line of words instead; --answer answers TEXT; --silent reads
the request and never answers.

silent: a TCP server that takes connections and what they send, and
never answers (a place that hangs).

fiche: Debian's fiche on a free port, writing DIR/SLUG/index.txt and
answering http://127.0.0.1:HTTP/SLUG, and an HTTP server that serves DIR
on HTTP. READY names fiche's port.

webdav: `rclone serve webdav DIR` with basic authentication (HTTPS with
--cert and --key).

nextcloud: what Link and rclone ask of Nextcloud: WebDAV under
/remote.php/dav/files/USER/ (`rclone serve webdav DIR` behind, each PUT
reported) and the OCS share API's POST, checked here (basic
authentication, OCS-APIRequest, path, shareType=3) and reported; the
share's link, http://127.0.0.1:PORT/s/TOKEN, serves the file from DIR.

fetch: GET URL and write its body on stdout; with --unzip, the zip's
members as one JSON object (name: the bytes in base64), read by Python's
zipfile.
"""
import argparse
import base64
import email.parser
import email.policy
import http.client
import io
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
import zipfile
from functools import partial
from http.server import BaseHTTPRequestHandler, SimpleHTTPRequestHandler, ThreadingHTTPServer

import test_server


class Quiet:
    def log_message(self, format, *args):
        sys.stderr.write("link_servers: %s\n" % (format % args))


def answer(handler, status, body, kind="text/plain"):
    handler.send_response(status)
    handler.send_header("Content-Type", kind)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def read_body(handler):
    length = handler.headers.get("Content-Length")
    if length is not None:
        return handler.rfile.read(int(length))
    if handler.headers.get("Transfer-Encoding", "").lower() == "chunked":
        body = b""
        while True:
            size = int(handler.rfile.readline().split(b";")[0], 16)
            if size == 0:
                handler.rfile.readline()
                return body
            body += handler.rfile.read(size)
            handler.rfile.readline()
    return b""


def paste(options):
    stored = {}
    stopping = test_server.stop_event()

    class Handler(Quiet, BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            body = read_body(self)
            message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
                b"Content-Type: " + self.headers.get("Content-Type", "").encode() + b"\r\n\r\n" + body)
            parts = []
            for part in message.iter_parts() if message.is_multipart() else []:
                content = part.get_payload(decode=True) or b""
                record = {"name": part.get_param("name", header="content-disposition"),
                          "filename": part.get_filename(), "type": part.get_content_type(), "size": len(content)}
                if len(content) <= 4096:
                    record["bytes"] = base64.b64encode(content).decode("ascii")
                parts.append(record)
                if part.get_filename():
                    stored[part.get_filename()] = content
            test_server.report({"path": self.path, "type": self.headers.get("Content-Type", ""), "parts": parts})
            if options.silent:
                stopping.wait()
                return
            if options.status:
                answer(self, options.status, b"the file is too large for this test\n")
            elif options.answer is not None:
                answer(self, 200, options.answer.encode() + b"\n")
            else:
                name = next((p["filename"] for p in parts if p["filename"]), "none")
                link = "http://127.0.0.1:%d/f/%s" % (self.server.server_address[1], urllib.parse.quote(name))
                answer(self, 200, link.encode() + b"\n")

        def do_GET(self):
            name = urllib.parse.unquote(self.path[len("/f/"):])
            if self.path.startswith("/f/") and name in stored:
                answer(self, 200, stored[name], "application/octet-stream")
            else:
                answer(self, 404, b"no such paste\n")

    test_server.run_http(ThreadingHTTPServer(("127.0.0.1", 0), Handler), stopping)


def silent(options):
    """Takes connections and what they send, and never answers."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    held = []

    def take():
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            held.append(connection)
            threading.Thread(target=lambda: [None for _ in iter(lambda: connection.recv(65536), b"")], daemon=True).start()
    stopping = test_server.stop_event()
    threading.Thread(target=take, daemon=True).start()
    test_server.ready(listener.getsockname()[1])
    stopping.wait()
    listener.close()


def wait_for(port, process, name):
    deadline = time.monotonic() + 20
    while not test_server.accepts(port, timeout=0.5):
        if process.poll() is not None or time.monotonic() > deadline:
            sys.stderr.write("%s did not start\n" % name)
            sys.exit(1)
        time.sleep(0.05)


def fiche(options):
    http_port = test_server.free_port()
    web = ThreadingHTTPServer(("127.0.0.1", http_port), partial(type("Files", (Quiet, SimpleHTTPRequestHandler), {}),
                                                                directory=options.dir))
    web.daemon_threads = True
    threading.Thread(target=web.serve_forever, daemon=True).start()
    port = test_server.free_port((http_port,))
    process = subprocess.Popen(["/usr/bin/fiche", "-d", "127.0.0.1:%d" % http_port, "-p", str(port), "-o", options.dir,
                                "-l", os.path.join(options.dir, "..", "fiche.log")],
                               preexec_fn=test_server.die_with_parent, stdout=sys.stderr, stderr=sys.stderr)
    wait_for(port, process, "fiche")
    stopping = test_server.stop_event()
    test_server.ready(port)
    stopping.wait()
    test_server.stop_child(process, 5)
    web.shutdown()


def webdav(options):
    tls = (options.cert, options.key) if options.cert else None
    process, port = start_rclone_webdav(options.dir, options.user, options.password, tls=tls)
    stopping = test_server.stop_event()
    test_server.ready(port)
    stopping.wait()
    test_server.stop_child(process, 5)


def start_rclone_webdav(directory, user, password, baseurl=None, tls=None):
    """`rclone serve webdav DIRECTORY` on a free port, once it accepts: (process, port).
    tls: (certificate, key), to serve HTTPS."""
    port = test_server.free_port()
    environment = dict(os.environ, RCLONE_CONFIG=os.path.join(directory, "..", "rclone-none.conf"))
    command = ["/usr/bin/rclone", "serve", "webdav", directory, "--addr", "127.0.0.1:%d" % port, "--user", user, "--pass", password]
    if baseurl:
        command += ["--baseurl", baseurl]
    if tls:
        command += ["--cert", tls[0], "--key", tls[1]]
    process = subprocess.Popen(command, env=environment, preexec_fn=test_server.die_with_parent, stdout=sys.stderr, stderr=sys.stderr)
    wait_for(port, process, "rclone serve webdav")
    return process, port


def nextcloud(options):
    """WebDAV under /remote.php/dav/files/USER/ is rclone's (passed through
    as it is), the OCS share API is this server's own."""
    prefix = "/remote.php/dav/files/%s" % options.user
    rclone, dav_port = start_rclone_webdav(options.dir, options.user, options.password, prefix)
    shares = {}
    expected = "Basic " + base64.b64encode(("%s:%s" % (options.user, options.password)).encode()).decode()

    class Handler(Quiet, BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def relay(self):
            body = read_body(self)
            if self.command == "PUT":
                test_server.report({"method": "PUT", "path": urllib.parse.unquote(self.path), "bytes": len(body)})
            connection = http.client.HTTPConnection("127.0.0.1", dav_port, timeout=30)
            headers = {name: value for name, value in self.headers.items() if name.lower() not in ("transfer-encoding", "content-length")}
            headers["Content-Length"] = str(len(body))
            connection.request(self.command, self.path, body=body, headers=headers)
            response = connection.getresponse()
            content = response.read()
            self.send_response(response.status)
            for name, value in response.getheaders():
                if name.lower() not in ("transfer-encoding", "content-length", "connection"):
                    self.send_header(name, value)
            self.send_header("Content-Length", str(len(content)))
            self.end_headers()
            self.wfile.write(content)
            connection.close()

        def do_POST(self):
            if self.path.startswith(prefix):
                self.relay()
                return
            body = read_body(self).decode()
            form = urllib.parse.parse_qs(body)
            record = {"method": "POST", "path": self.path, "ocs": self.headers.get("OCS-APIRequest"),
                      "form": {key: values[0] for key, values in form.items()}}
            test_server.report(record)
            if self.headers.get("Authorization") != expected:
                answer(self, 401, b"wrong user or password\n")
                return
            if not self.path.startswith("/ocs/v2.php/apps/files_sharing/api/v1/shares") or self.headers.get("OCS-APIRequest") != "true":
                answer(self, 400, b'{"ocs":{"meta":{"status":"failure","statuscode":400,"message":"not an OCS request"},"data":[]}}',
                       "application/json")
                return
            path = record["form"].get("path", "")
            if record["form"].get("shareType") != "3" or not os.path.isfile(os.path.join(options.dir, path.lstrip("/"))):
                meta = {"status": "failure", "statuscode": 404, "message": "Wrong path, file/folder does not exist"}
                answer(self, 404, json.dumps({"ocs": {"meta": meta, "data": []}}).encode(), "application/json")
                return
            token = "T%d" % (len(shares) + 1)
            shares[token] = path
            url = "http://127.0.0.1:%d/s/%s" % (self.server.server_address[1], token)
            meta = {"status": "ok", "statuscode": 200, "message": "OK"}
            answer(self, 200, json.dumps({"ocs": {"meta": meta, "data": {"id": token, "share_type": 3, "url": url}}}).encode(),
                   "application/json")

        def do_GET(self):
            if self.path.startswith(prefix):
                self.relay()
                return
            token = self.path[len("/s/"):]
            if self.path.startswith("/s/") and token in shares:
                with open(os.path.join(options.dir, shares[token].lstrip("/")), "rb") as file:
                    answer(self, 200, file.read(), "application/octet-stream")
            else:
                answer(self, 404, b"no such share\n")

        do_PUT = do_PROPFIND = do_MKCOL = do_DELETE = do_MOVE = do_HEAD = relay

    test_server.run_http(ThreadingHTTPServer(("127.0.0.1", 0), Handler))
    test_server.stop_child(rclone, 5)


def fetch(options):
    with urllib.request.urlopen(options.url, timeout=20) as response:
        body = response.read()
    if options.unzip:
        with zipfile.ZipFile(io.BytesIO(body)) as archive:
            members = {info.filename: base64.b64encode(archive.read(info)).decode("ascii") for info in archive.infolist()}
        sys.stdout.write(json.dumps(members, sort_keys=True))
    else:
        sys.stdout.buffer.write(body)


def main():
    parser = argparse.ArgumentParser()
    modes = parser.add_subparsers(dest="mode", required=True)
    one = modes.add_parser("paste")
    one.add_argument("--status", type=int)
    one.add_argument("--answer")
    one.add_argument("--silent", action="store_true")
    one.set_defaults(run=paste)
    one = modes.add_parser("silent")
    one.set_defaults(run=silent)
    one = modes.add_parser("fiche")
    one.add_argument("dir")
    one.set_defaults(run=fiche)
    one = modes.add_parser("webdav")
    one.add_argument("dir")
    one.add_argument("--user", required=True)
    one.add_argument("--pass", dest="password", required=True)
    one.add_argument("--cert")
    one.add_argument("--key")
    one.set_defaults(run=webdav)
    one = modes.add_parser("nextcloud")
    one.add_argument("dir")
    one.add_argument("--user", required=True)
    one.add_argument("--pass", dest="password", required=True)
    one.set_defaults(run=nextcloud)
    one = modes.add_parser("fetch")
    one.add_argument("url")
    one.add_argument("--unzip", action="store_true")
    one.set_defaults(run=fetch)
    options = parser.parse_args()
    options.run(options)


if __name__ == "__main__":
    main()
