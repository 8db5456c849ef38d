#!/usr/bin/python3
"""The places of Link's tests, on 127.0.0.1.

    link_servers.py paste [--status N] [--answer TEXT] [--silent]
    link_servers.py silent
    link_servers.py fiche DIR
    link_servers.py webdav DIR --user U --pass P [--cert PEM --key PEM]
    link_servers.py nextcloud DIR --user U --pass P
    link_servers.py s3 --access-key ID --secret-key KEY --bucket NAME... [--region R]
    link_servers.py fetch URL [--unzip | --status]

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

s3: an S3 service of its own, path-style (/BUCKET/KEY), keeping objects
in memory in the buckets named. It checks AWS Signature Version 4 itself,
written here from the published algorithm: the Authorization header of a
PUT, GET or DELETE (host, x-amz-date and x-amz-content-sha256 among the
signed headers, the time within 15 minutes, and x-amz-content-sha256
the SHA-256 of the body received), and the query of a presigned request
(X-Amz-Algorithm, -Credential, -Date, -Expires, -SignedHeaders with host,
-Signature; refused once expired). The canonical URI is made from the
decoded path, each segment encoded again, so a client that encodes a
key otherwise than the algorithm says fails. Failures answer S3's XML
errors (SignatureDoesNotMatch, InvalidAccessKeyId, NoSuchBucket,
NoSuchKey, AccessDenied, RequestTimeTooSkewed, XAmzContentSHA256Mismatch).
Each request is reported after it is checked: method, bucket, key,
status, the error's code, and for a PUT its size, SHA-256 and signed
headers. GET /_test/clock?advance=SECONDS moves the server's clock, so
that a link's expiry is tested without waiting.

fetch: GET URL and write its body on stdout; with --unzip, the zip's
members as one JSON object (name: the bytes in base64), read by Python's
zipfile; with --status, the answer's status on a line of its own, then
its body, whatever the status.
"""
import argparse
import base64
import calendar
import email.parser
import email.policy
import hashlib
import hmac
import http.client
import io
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
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
    tokens = {}
    stopping = test_server.stop_event()

    class Handler(Quiet, BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            body = read_body(self)
            if self.path.startswith("/f/"):
                self.delete(body)
                return
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
                # 0x0 hands back a token that deletes the file (POST token=…&delete= to its link).
                tokens[name] = "tok-%d" % (len(tokens) + 1)
                self.send_response(200)
                self.send_header("Content-Type", "text/plain")
                self.send_header("X-Token", tokens[name])
                self.send_header("Content-Length", str(len(link) + 1))
                self.end_headers()
                self.wfile.write(link.encode() + b"\n")

        def delete(self, body):
            """0x0's deletion: a form with token and delete, posted to the file's link."""
            message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
                b"Content-Type: " + self.headers.get("Content-Type", "").encode() + b"\r\n\r\n" + body)
            fields = {part.get_param("name", header="content-disposition"): (part.get_payload(decode=True) or b"").decode()
                      for part in (message.iter_parts() if message.is_multipart() else [])}
            name = urllib.parse.unquote(self.path[len("/f/"):])
            test_server.report({"path": self.path, "delete": fields})
            if "delete" not in fields or name not in stored:
                answer(self, 404, b"no such paste\n")
            elif fields.get("token") != tokens.get(name):
                answer(self, 401, b"wrong token\n")
            else:
                del stored[name]
                answer(self, 200, b"")

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

        def do_DELETE(self):
            if self.path.startswith(prefix):
                self.relay()
                return
            read_body(self)
            share = "/ocs/v2.php/apps/files_sharing/api/v1/shares/"
            token = self.path[len(share):].split("?")[0]
            test_server.report({"method": "DELETE", "path": self.path, "ocs": self.headers.get("OCS-APIRequest")})
            if self.headers.get("Authorization") != expected:
                answer(self, 401, b"wrong user or password\n")
            elif not self.path.startswith(share) or self.headers.get("OCS-APIRequest") != "true" or token not in shares:
                meta = {"status": "failure", "statuscode": 404, "message": "Wrong share ID, share does not exist"}
                answer(self, 404, json.dumps({"ocs": {"meta": meta, "data": []}}).encode(), "application/json")
            else:
                del shares[token]
                meta = {"status": "ok", "statuscode": 200, "message": "OK"}
                answer(self, 200, json.dumps({"ocs": {"meta": meta, "data": []}}).encode(), "application/json")

        do_PUT = do_PROPFIND = do_MKCOL = do_MOVE = do_HEAD = relay

    test_server.run_http(ThreadingHTTPServer(("127.0.0.1", 0), Handler))
    test_server.stop_child(rclone, 5)


S3_ALGORITHM = "AWS4-HMAC-SHA256"
S3_UNRESERVED = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


def s3_encode(text):
    """RFC 3986's unreserved characters as they are, every other UTF-8 byte %XX (upper case)."""
    return "".join(chr(byte) if byte in S3_UNRESERVED else "%%%02X" % byte for byte in text.encode("utf-8"))


def s3_signature(secret, region, time, canonical_request):
    """The signature (hex) of a canonical request made at time (YYYYMMDDTHHMMSSZ)."""
    scope = "%s/%s/s3/aws4_request" % (time[:8], region)
    to_sign = "\n".join([S3_ALGORITHM, time, scope, hashlib.sha256(canonical_request.encode("utf-8")).hexdigest()])
    key = ("AWS4" + secret).encode("utf-8")
    for part in (time[:8], region, "s3", "aws4_request"):
        key = hmac.new(key, part.encode("utf-8"), hashlib.sha256).digest()
    return hmac.new(key, to_sign.encode("utf-8"), hashlib.sha256).hexdigest()


def s3_canonical_request(method, segments, query, headers, signed, payload_hash):
    """segments: the path decoded, split at '/'; query: decoded (name, value)
    pairs; headers: the request's (name in lower case: value); signed: the
    signed headers' names as the client listed them."""
    uri = "/" + "/".join(s3_encode(segment) for segment in segments)
    pairs = sorted((s3_encode(name), s3_encode(value)) for name, value in query)
    canonical_query = "&".join("%s=%s" % pair for pair in pairs)
    lines = ["%s:%s" % (name, " ".join(headers.get(name, "").split())) for name in signed]
    return "\n".join([method, uri, canonical_query] + lines + ["", ";".join(signed), payload_hash])


class S3Refusal(Exception):
    def __init__(self, status, code, message):
        Exception.__init__(self, message)
        self.status, self.code, self.message = status, code, message


def s3(options):
    buckets = {name: {} for name in options.bucket}
    clock = {"offset": 0}
    lock = threading.Lock()

    def now():
        return time.time() + clock["offset"]

    def parse_time(text):
        try:
            return calendar.timegm(time.strptime(text, "%Y%m%dT%H%M%SZ"))
        except (ValueError, TypeError):
            raise S3Refusal(403, "AccessDenied", "X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\"")

    def check_credential(credential, time_text):
        parts = credential.split("/")
        if len(parts) != 5 or parts[3] != "s3" or parts[4] != "aws4_request":
            raise S3Refusal(400, "AuthorizationHeaderMalformed", "the credential is not ID/DATE/REGION/s3/aws4_request: %s" % credential)
        if parts[0] != options.access_key:
            raise S3Refusal(403, "InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist in our records.")
        if parts[2] != options.region:
            raise S3Refusal(400, "AuthorizationHeaderMalformed", "the region '%s' is wrong; expecting '%s'" % (parts[2], options.region))
        if parts[1] != time_text[:8]:
            raise S3Refusal(403, "SignatureDoesNotMatch", "the credential's date is not the request's")

    class Handler(Quiet, BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def refuse(self, refusal, record):
            record.update(status=refusal.status, code=refusal.code)
            test_server.report(record)
            body = ('<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>%s</Code><Message>%s</Message>'
                    '<Resource>%s</Resource><RequestId>TEST</RequestId></Error>') % (
                refusal.code, refusal.message.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"),
                urllib.parse.urlsplit(self.path).path)
            answer(self, refusal.status, body.encode(), "application/xml")

        def handle_s3(self):
            target = urllib.parse.urlsplit(self.path)
            if target.path == "/_test/clock" and self.command == "GET":
                advance = float(urllib.parse.parse_qs(target.query)["advance"][0])
                with lock:
                    clock["offset"] += advance
                answer(self, 200, b"the clock moved\n")
                return
            body = read_body(self) if self.command == "PUT" else b""
            segments = [urllib.parse.unquote(segment, errors="strict") for segment in target.path[1:].split("/")]
            bucket, key = segments[0], "/".join(segments[1:])
            record = {"method": self.command, "bucket": bucket, "key": key}
            query = urllib.parse.parse_qsl(target.query, keep_blank_values=True)
            headers = {name.lower(): value for name, value in self.headers.items()}
            try:
                if any(name == "X-Amz-Algorithm" for name, _ in query):
                    self.check_presigned(segments, query, headers, record)
                else:
                    self.check_header(segments, query, headers, body, record)
                objects = buckets.get(bucket)
                if objects is None:
                    raise S3Refusal(404, "NoSuchBucket", "The specified bucket does not exist")
                if self.command == "PUT":
                    with lock:
                        objects[key] = body
                    record.update(size=len(body), sha256=hashlib.sha256(body).hexdigest(), status=200)
                    test_server.report(record)
                    self.send_response(200)
                    self.send_header("ETag", '"%s"' % hashlib.md5(body).hexdigest())
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                elif self.command == "GET":
                    with lock:
                        content = objects.get(key)
                    if content is None:
                        raise S3Refusal(404, "NoSuchKey", "The specified key does not exist.")
                    record.update(status=200)
                    test_server.report(record)
                    answer(self, 200, content, "application/octet-stream")
                elif self.command == "DELETE":
                    with lock:
                        objects.pop(key, None)
                    record.update(status=204)
                    test_server.report(record)
                    self.send_response(204)
                    self.end_headers()
                else:
                    raise S3Refusal(405, "MethodNotAllowed", "The specified method is not allowed against this resource.")
            except S3Refusal as refusal:
                self.refuse(refusal, record)

        def check_header(self, segments, query, headers, body, record):
            authorization = headers.get("authorization")
            if authorization is None:
                raise S3Refusal(403, "AccessDenied", "Access Denied")
            if not authorization.startswith(S3_ALGORITHM + " "):
                raise S3Refusal(400, "InvalidArgument", "Unsupported Authorization Type")
            fields = {}
            for part in authorization[len(S3_ALGORITHM) + 1:].split(","):
                name, _, value = part.strip().partition("=")
                fields[name] = value
            if set(fields) != {"Credential", "SignedHeaders", "Signature"}:
                raise S3Refusal(400, "AuthorizationHeaderMalformed", "The authorization header is malformed: %s" % sorted(fields))
            signed = fields["SignedHeaders"].split(";")
            record["signedHeaders"] = signed
            if signed != sorted(signed) or any(name != name.lower() for name in signed):
                raise S3Refusal(403, "SignatureDoesNotMatch", "the signed headers are not in lower case and sorted")
            for needed in ("host", "x-amz-content-sha256", "x-amz-date"):
                if needed not in signed:
                    raise S3Refusal(400, "AuthorizationHeaderMalformed", "%s is not among the signed headers" % needed)
            time_text = headers.get("x-amz-date", "")
            signed_at = parse_time(time_text)
            check_credential(fields["Credential"], time_text)
            if abs(now() - signed_at) > 15 * 60:
                raise S3Refusal(403, "RequestTimeTooSkewed", "The difference between the request time and the current time is too large.")
            payload_hash = headers.get("x-amz-content-sha256", "")
            record["contentSha256"] = payload_hash
            canonical = s3_canonical_request(self.command, segments, query, headers, signed, payload_hash)
            if not hmac.compare_digest(s3_signature(options.secret_key, options.region, time_text, canonical), fields["Signature"]):
                raise S3Refusal(403, "SignatureDoesNotMatch",
                                "The request signature we calculated does not match the signature you provided. Check your key and signing method.")
            if payload_hash != hashlib.sha256(body).hexdigest():
                raise S3Refusal(400, "XAmzContentSHA256Mismatch", "The provided 'x-amz-content-sha256' header does not match what was computed.")

        def check_presigned(self, segments, query, headers, record):
            values = dict(query)
            record["presigned"] = True
            for needed in ("X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Date", "X-Amz-Expires", "X-Amz-SignedHeaders", "X-Amz-Signature"):
                if needed not in values:
                    raise S3Refusal(400, "AuthorizationQueryParametersError", "%s is missing" % needed)
            if values["X-Amz-Algorithm"] != S3_ALGORITHM:
                raise S3Refusal(400, "AuthorizationQueryParametersError", "X-Amz-Algorithm only supports \"AWS4-HMAC-SHA256\"")
            time_text = values["X-Amz-Date"]
            signed_at = parse_time(time_text)
            check_credential(values["X-Amz-Credential"], time_text)
            expires = values["X-Amz-Expires"]
            if not expires.isdigit() or not 1 <= int(expires) <= 604800:
                raise S3Refusal(400, "AuthorizationQueryParametersError", "X-Amz-Expires must be from 1 to 604800 seconds")
            signed = values["X-Amz-SignedHeaders"].split(";")
            if "host" not in signed or signed != sorted(signed):
                raise S3Refusal(400, "AuthorizationQueryParametersError", "X-Amz-SignedHeaders must list host, sorted")
            if now() > signed_at + int(expires):
                raise S3Refusal(403, "AccessDenied", "Request has expired")
            if signed_at > now() + 15 * 60:
                raise S3Refusal(403, "AccessDenied", "Request is not valid yet")
            unsigned = [(name, value) for name, value in query if name != "X-Amz-Signature"]
            canonical = s3_canonical_request(self.command, segments, unsigned, headers, signed, "UNSIGNED-PAYLOAD")
            if not hmac.compare_digest(s3_signature(options.secret_key, options.region, time_text, canonical), values["X-Amz-Signature"]):
                raise S3Refusal(403, "SignatureDoesNotMatch",
                                "The request signature we calculated does not match the signature you provided. Check your key and signing method.")

        do_PUT = do_GET = do_DELETE = do_POST = handle_s3

    test_server.run_http(ThreadingHTTPServer(("127.0.0.1", 0), Handler))


def fetch(options):
    if options.status:
        try:
            with urllib.request.urlopen(options.url, timeout=20) as response:
                status, body = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, body = error.code, error.read()
        sys.stdout.buffer.write(b"%d\n" % status + body)
        return
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
    one = modes.add_parser("s3")
    one.add_argument("--access-key", required=True)
    one.add_argument("--secret-key", required=True)
    one.add_argument("--region", default="us-east-1")
    one.add_argument("--bucket", action="append", default=[])
    one.set_defaults(run=s3)
    one = modes.add_parser("fetch")
    one.add_argument("url")
    one.add_argument("--unzip", action="store_true")
    one.add_argument("--status", action="store_true")
    one.set_defaults(run=fetch)
    options = parser.parse_args()
    options.run(options)


if __name__ == "__main__":
    main()
