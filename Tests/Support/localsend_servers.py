#!/usr/bin/python3
"""LocalSend receivers for Nearby's tests, each in a network namespace of
its own so that multicast stays on that namespace's loopback and nothing
leaves the machine.

  localsend_servers.py serve NS cli DIR [--pin PIN]
      localsend-cli (PyPI, in a virtual environment these tests make once:
      .build/test-venvs/localsend) receiving into DIR with --json, its HOME
      in DIR/home; its JSON events are passed on, a line each.
  localsend_servers.py serve NS own DIR [OPTIONS]
      this file's own receiver, which checks each request against the text
      of the protocol (localsend/protocol README, v2.1) and reports every
      departure as {"event": "violation", "what": ...}; options:
        --pin PIN          prepare-upload needs ?pin=PIN (401; 429 after 3 wrong)
        --answer WORD      accept (default), decline (403) or busy (409)
        --alias NAME       its alias (default "Test Phone")
        --wrong-fingerprint  announce the fingerprint of another certificate
        --slow             read uploads slowly (for a cancel to come in between)
        --text-204         take text from the preview alone: 204, no upload
        --http             serve plain HTTP and say protocol http
        --no-multicast     neither announce nor hear multicast: only a scan finds it
        --reply-multicast  answer share's announcement by a multicast reply
                           (announce: false), the protocol's fallback, not by register
      It also answers share's announcement by register, checking that the
      certificate of share's listener is the one share announced.

Either way the script makes the namespace NS (loopback up, a multicast route
with source 127.0.0.1), starts the receiver inside it, says READY 53317 once
it listens, and deletes the namespace when stopped. Share runs in it with
`ip netns exec NS share ...`.
"""
import fcntl
import hashlib
import http.server
import json
import os
import re
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid

import test_server

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
VENV = os.path.join(ROOT, ".build", "test-venvs", "localsend")
GROUP = "224.0.0.167"
PORT = 53317
DEVICE_TYPES = ("mobile", "desktop", "web", "headless", "server")


def venv():
    """The virtual environment with localsend-cli (Debian's python3-cryptography and python3-requests serving it: localsend-cli imports both without declaring them), made on first use."""
    os.makedirs(os.path.dirname(VENV), exist_ok=True)
    with open(VENV + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(os.path.join(VENV, ".ready")):
            subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", VENV], check=True, stdout=sys.stderr)
            subprocess.run([os.path.join(VENV, "bin", "pip"), "install", "-q", "localsend-cli"], check=True, stdout=sys.stderr,
                           timeout=600)
            open(os.path.join(VENV, ".ready"), "w").close()
    return os.path.join(VENV, "bin", "localsend-cli")


def remove_stale():
    """Deletes the namespaces of test runs that are gone (share-ls-PID-N whose PID no longer runs):
    a server killed by a watchdog after a failure had no chance to."""
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    for line in listed.splitlines():
        name = line.split(" ")[0]
        match = re.fullmatch(r"share-ls-(\d+)-\d+", name)
        if match and not os.path.exists("/proc/" + match.group(1)):
            subprocess.run(["ip", "netns", "del", name])


def netns(name):
    """Makes the namespace: loopback up, multicast routed on it from 127.0.0.1 (without a source,
    datagrams leave from 0.0.0.0, which names no one to answer)."""
    subprocess.run(["ip", "netns", "add", name], check=True)
    subprocess.run(["ip", "netns", "exec", name, "ip", "link", "set", "lo", "up"], check=True)
    subprocess.run(["ip", "netns", "exec", name, "ip", "route", "add", "224.0.0.0/4", "dev", "lo", "src", "127.0.0.1"], check=True)


def serve(name, kind, directory, options):
    remove_stale()
    netns(name)
    child = None
    try:
        if kind == "cli":
            program = venv()
            home = os.path.join(directory, "home")
            os.makedirs(home, exist_ok=True)
            environment = dict(os.environ, HOME=home)
            command = [program, "receive", "--json", "--output", os.path.join(directory, "received")] + options
        else:
            environment = dict(os.environ)
            command = [sys.executable, os.path.abspath(__file__), "receiver", directory] + options
        # The receiver's stdin stays open while it is to run (this file's own stops when it closes).
        child = subprocess.Popen(["ip", "netns", "exec", name] + command, env=environment, stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=sys.stderr, text=True, preexec_fn=test_server.die_with_parent)
        lines = iter(child.stdout.readline, "")
        for line in lines:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if event.get("event") == "ready":
                break
        else:
            raise SystemExit("the receiver stopped before it was ready")
        stopping = test_server.stop_event()
        test_server.ready(PORT)
        threading.Thread(target=lambda: [test_server.say(line.rstrip("\n")) for line in lines], daemon=True).start()
        stopping.wait()
    finally:
        if child:
            test_server.stop_child(child, 5)
        subprocess.run(["ip", "netns", "del", name])


# MARK: - the tests' own receiver


def make_certificate(directory, name):
    cert, key = os.path.join(directory, name + ".pem"), os.path.join(directory, name + ".key")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key,
                    "-out", cert, "-days", "2", "-subj", "/CN=" + name], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(cert) as file:
        der = ssl.PEM_cert_to_DER_cert(file.read())
    return cert, key, hashlib.sha256(der).hexdigest()


class Receiver:
    def __init__(self, directory, options):
        self.directory = directory
        self.pin = None
        self.answer = "accept"
        self.alias = "Test Phone"
        self.slow = False
        self.text_204 = False
        self.http = False
        self.multicast_on = True
        self.reply_multicast = False
        wrong = False
        words = list(options)
        while words:
            word = words.pop(0)
            if word == "--pin":
                self.pin = words.pop(0)
            elif word == "--answer":
                self.answer = words.pop(0)
            elif word == "--alias":
                self.alias = words.pop(0)
            elif word == "--wrong-fingerprint":
                wrong = True
            elif word == "--slow":
                self.slow = True
            elif word == "--text-204":
                self.text_204 = True
            elif word == "--http":
                self.http = True
            elif word == "--no-multicast":
                self.multicast_on = False
            elif word == "--reply-multicast":
                self.reply_multicast = True
            else:
                raise SystemExit("unknown option " + word)
        self.received = os.path.join(directory, "received")
        os.makedirs(self.received, exist_ok=True)
        self.cert, self.key, self.fingerprint = make_certificate(directory, "receiver")
        if wrong:
            self.fingerprint = make_certificate(directory, "other")[2]
        self.sessions = {}
        self.wrong_pins = 0
        self.lock = threading.Lock()

    def info(self, announce=None):
        info = {"alias": self.alias, "version": "2.1", "deviceModel": "Pixel", "deviceType": "mobile",
                "fingerprint": self.fingerprint, "port": PORT, "protocol": "http" if self.http else "https", "download": False}
        if announce is not None:
            info["announce"] = announce
        return info

    def violation(self, what):
        test_server.report({"event": "violation", "what": what})

    def check_info(self, info, where, needs_port=True):
        """A device's info as the protocol text writes it."""
        if not isinstance(info, dict):
            self.violation(where + ": info is not an object")
            return False
        ok = True
        for key, kind in (("alias", str), ("version", str), ("fingerprint", str)):
            if not isinstance(info.get(key), kind) or not info.get(key):
                self.violation("%s: %s missing or not a %s" % (where, key, kind.__name__))
                ok = False
        if not re.fullmatch(r"2\.\d+", info.get("version") or ""):
            self.violation(where + ": version is not 2.x")
            ok = False
        if info.get("deviceType") not in DEVICE_TYPES + (None,):
            self.violation(where + ": deviceType %r" % info.get("deviceType"))
            ok = False
        if needs_port:
            if not isinstance(info.get("port"), int) or info.get("protocol") not in ("http", "https"):
                self.violation(where + ": port or protocol missing")
                ok = False
        return ok

    # multicast: announce, and answer share's announcement by register
    def multicast(self, stopping):
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(("", PORT))
        sock.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, socket.inet_aton(GROUP) + socket.inet_aton("127.0.0.1"))
        sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton("127.0.0.1"))
        sock.settimeout(0.2)
        if not self.reply_multicast:
            sock.sendto(json.dumps(self.info(announce=True)).encode(), (GROUP, PORT))
        while not stopping.is_set():
            try:
                data, sender = sock.recvfrom(65536)
            except socket.timeout:
                continue
            try:
                info = json.loads(data)
            except ValueError:
                self.violation("multicast: not JSON")
                continue
            if info.get("fingerprint") == self.fingerprint:
                continue
            if not self.check_info(info, "multicast"):
                continue
            if info.get("announce") is True and self.reply_multicast:
                test_server.report({"event": "replied"})
                sock.sendto(json.dumps(self.info(announce=False)).encode(), (GROUP, PORT))
            elif info.get("announce") is True:
                threading.Thread(target=self.register_with, args=(sender[0], info), daemon=True).start()

    def register_with(self, host, info):
        """Answers an announcement as LocalSend does: POST register to it, its certificate checked against its fingerprint."""
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        try:
            with socket.create_connection((host, info["port"]), timeout=5) as raw:
                with context.wrap_socket(raw) as tls:
                    der = tls.getpeercert(binary_form=True)
                    body = json.dumps(self.info()).encode()
                    tls.sendall(b"POST /api/localsend/v2/register HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"
                                b"Content-Length: %d\r\nConnection: close\r\n\r\n" % (host.encode(), len(body)) + body)
                    answer = b""
                    while True:
                        chunk = tls.recv(65536)
                        if not chunk:
                            break
                        answer += chunk
        except OSError as error:
            # Share may be done and gone by the time its announcement is answered.
            test_server.report({"event": "unanswered", "why": str(error)})
            return
        if not answer:
            test_server.report({"event": "unanswered", "why": "closed"})
            return
        head, _, body = answer.partition(b"\r\n\r\n")
        status = head.split(b" ")[1] if b" " in head else b""
        try:
            answered = json.loads(body)
        except ValueError:
            answered = None
        if status != b"200" or not self.check_info(answered, "register answer", needs_port=False):
            self.violation("register answer: %r" % answer[:200])
            return
        test_server.report({"event": "registered", "alias": answered["alias"], "deviceType": answered.get("deviceType"),
                            "certificateMatches": hashlib.sha256(der).hexdigest() == info["fingerprint"].lower()})

    def serve(self):
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def reply(self, status, body=None):
                data = json.dumps(body).encode() if body is not None else b""
                self.send_response(status)
                if body is not None:
                    self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def body(self):
                length = int(self.headers.get("Content-Length") or 0)
                return self.rfile.read(length)

            def do_GET(self):
                if urllib.parse.urlparse(self.path).path == "/api/localsend/v2/info":
                    return self.reply(200, receiver.info())
                self.reply(404)

            def do_POST(self):
                url = urllib.parse.urlparse(self.path)
                query = urllib.parse.parse_qs(url.query)
                test_server.report({"event": "request", "path": url.path})
                if url.path == "/api/localsend/v2/register":
                    try:
                        info = json.loads(self.body())
                    except ValueError:
                        receiver.violation("register: not JSON")
                        return self.reply(400, {"message": "Invalid body"})
                    receiver.check_info(info, "register")
                    return self.reply(200, receiver.info())
                if url.path == "/api/localsend/v2/prepare-upload":
                    return self.prepare(query)
                if url.path == "/api/localsend/v2/upload":
                    return self.upload(query)
                if url.path == "/api/localsend/v2/cancel":
                    self.body()
                    session = (query.get("sessionId") or [None])[0]
                    with receiver.lock:
                        known = receiver.sessions.pop(session, None)
                    if known is None:
                        receiver.violation("cancel: unknown session %r" % session)
                    test_server.report({"event": "cancelled", "known": known is not None})
                    return self.reply(200)
                receiver.violation("unknown path " + url.path)
                self.reply(404)

            def prepare(self, query):
                try:
                    request = json.loads(self.body())
                except ValueError:
                    receiver.violation("prepare-upload: not JSON")
                    return self.reply(400, {"message": "Invalid body"})
                if not isinstance(request, dict) or not receiver.check_info(request.get("info"), "prepare-upload info"):
                    return self.reply(400, {"message": "Invalid body"})
                files = request.get("files")
                if not isinstance(files, dict) or not files:
                    receiver.violation("prepare-upload: no files")
                    return self.reply(400, {"message": "Invalid body"})
                for key, entry in files.items():
                    problems = []
                    if not isinstance(entry, dict) or entry.get("id") != key:
                        problems.append("id is not its key")
                    elif not isinstance(entry.get("fileName"), str) or not entry["fileName"] or "/" in entry["fileName"]:
                        problems.append("fileName")
                    elif not isinstance(entry.get("size"), int) or entry["size"] < 0:
                        problems.append("size")
                    elif not isinstance(entry.get("fileType"), str) or "/" not in entry["fileType"]:
                        problems.append("fileType is not a MIME type")
                    elif entry.get("sha256") is not None and not re.fullmatch(r"[0-9a-fA-F]{64}", entry["sha256"]):
                        problems.append("sha256")
                    elif entry.get("preview") is not None and not isinstance(entry["preview"], str):
                        problems.append("preview")
                    if problems:
                        receiver.violation("prepare-upload file %s: %s" % (key, ", ".join(problems)))
                        return self.reply(400, {"message": "Invalid body"})
                if receiver.pin is not None:
                    given = (query.get("pin") or [None])[0]
                    with receiver.lock:
                        if receiver.wrong_pins >= 3:
                            test_server.report({"event": "refused", "status": 429})
                            return self.reply(429, {"message": "Too many requests"})
                        if given != receiver.pin:
                            if given is not None:
                                receiver.wrong_pins += 1
                            test_server.report({"event": "refused", "status": 401, "pin": given})
                            return self.reply(401, {"message": "PIN required"})
                if receiver.answer == "decline":
                    test_server.report({"event": "refused", "status": 403})
                    return self.reply(403, {"message": "Rejected"})
                if receiver.answer == "busy":
                    test_server.report({"event": "refused", "status": 409})
                    return self.reply(409, {"message": "Blocked by another session"})
                texts = {key: entry for key, entry in files.items() if entry["fileType"] == "text/plain" and entry.get("preview") is not None}
                for entry in texts.values():
                    test_server.report({"event": "text", "text": entry["preview"]})
                test_server.report({"event": "incoming", "sender": request["info"]["alias"],
                                    "files": sorted(entry["fileName"] for entry in files.values())})
                if receiver.text_204 and len(texts) == len(files):
                    return self.reply(204)
                session = str(uuid.uuid4())
                tokens = {key: str(uuid.uuid4()) for key in files}
                with receiver.lock:
                    receiver.sessions[session] = {"files": files, "tokens": tokens}
                self.reply(200, {"sessionId": session, "files": tokens})

            def upload(self, query):
                session, file_id, token = ((query.get(name) or [None])[0] for name in ("sessionId", "fileId", "token"))
                with receiver.lock:
                    known = receiver.sessions.get(session)
                if not session or not file_id or not token:
                    receiver.violation("upload: missing parameters")
                    self.body()
                    return self.reply(400, {"message": "Missing parameters"})
                if known is None or known["tokens"].get(file_id) != token:
                    receiver.violation("upload: invalid token")
                    self.body()
                    return self.reply(403, {"message": "Invalid token or IP address"})
                entry = known["files"][file_id]
                length = int(self.headers.get("Content-Length") or -1)
                if length != entry["size"]:
                    receiver.violation("upload %s: Content-Length %d, size %d" % (file_id, length, entry["size"]))
                digest = hashlib.sha256()
                path = os.path.join(receiver.received, os.path.basename(entry["fileName"]))
                got = 0
                with open(path, "wb") as file:
                    while got < length:
                        chunk = self.rfile.read(min(65536, length - got))
                        if not chunk:
                            break
                        if got == 0:
                            test_server.report({"event": "receiving", "name": entry["fileName"]})
                        got += len(chunk)
                        digest.update(chunk)
                        file.write(chunk)
                        if receiver.slow:
                            # A slow reader, so a cancel comes while bytes still flow.
                            time.sleep(0.05)
                if got < length:
                    test_server.report({"event": "cut", "name": entry["fileName"], "bytes": got})
                    return
                if entry.get("sha256") and entry["sha256"].lower() != digest.hexdigest():
                    receiver.violation("upload %s: the bytes' SHA-256 is not the one announced" % file_id)
                test_server.report({"event": "saved", "name": entry["fileName"], "size": got, "sha256": digest.hexdigest()})
                self.reply(200)

        server = http.server.ThreadingHTTPServer(("0.0.0.0", PORT), Handler)
        server.daemon_threads = True
        if not self.http:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(self.cert, self.key)
            server.socket = context.wrap_socket(server.socket, server_side=True)
        stopping = test_server.stop_event()
        threading.Thread(target=server.serve_forever, daemon=True).start()
        if self.multicast_on:
            threading.Thread(target=self.multicast, args=(stopping,), daemon=True).start()
        test_server.report({"event": "ready", "fingerprint": self.fingerprint})
        stopping.wait()
        server.shutdown()


def main():
    if len(sys.argv) >= 5 and sys.argv[1] == "serve":
        serve(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    elif len(sys.argv) >= 3 and sys.argv[1] == "receiver":
        Receiver(sys.argv[2], sys.argv[3:]).serve()
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
