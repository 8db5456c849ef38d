#!/usr/bin/python3
"""Social services' APIs on 127.0.0.1 over TLS, for the direct posting tests.

    social_servers.py --api mastodon|bluesky --cert CERT --key KEY [--fail MODE]

Prints "READY <port>" once it listens, then serves until stdin closes.
Each request is checked the way the service checks it (a wrong one is
answered 400 with the reason, so the client's test fails), then reported
on stdout before the answer goes out, one JSON object a line:

    {"method": "POST", "path": "/api/v2/media", "headers": {...},
     "body": {"kind": "multipart", "parts": [...]} | {"kind": "json", ...}
             | {"kind": "form", "fields": [[name, value], ...]}
             | {"kind": "bytes", "size": N, "sha256": "..."},
     "status": 200}

A multipart part is {"name", "filename", "type", "size", "sha256", "text"}
(text only for a part without a file name). The credentials expected are
those of TOKEN (Mastodon's bearer token; Bluesky's app password for the
handle HANDLE).

MODE makes the service fail on purpose:
  auth       every request is refused 401
  rate       the post is refused 429 with Retry-After: 90
  media      an upload is refused 422 (media rejected)
  slow       an upload's body is read slowly (64 KiB each 50 ms), for a
             cancel halfway
"""
import argparse
import email.parser
import email.policy
import hashlib
import json
import ssl
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOKEN = "s3cret-token"
HANDLE = "kim.test"
DID = "did:plc:kim3test"
LOCK = threading.Lock()


def multipart(content_type, body):
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + content_type.encode("latin-1") + b"\r\n\r\n" + body)
    if not message.is_multipart():
        raise ValueError("not a multipart body")
    parts = []
    for part in message.iter_parts():
        data = part.get_payload(decode=True) or b""
        entry = {"name": part.get_param("name", header="content-disposition"),
                 "filename": part.get_filename(), "type": part.get_content_type() if part.get("content-type") else None,
                 "size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
        if entry["filename"] is None:
            entry["text"] = data.decode("utf-8")
        parts.append(entry)
    return parts


class State:
    def __init__(self):
        self.media = {}      # id -> polls left before ready
        self.blobs = {}      # link -> mime type
        self.count = 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--api", required=True, choices=["mastodon", "bluesky"])
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--fail", default=None, choices=["auth", "rate", "media", "slow"])
    options = parser.parse_args()
    state = State()

    class Refusal(Exception):
        def __init__(self, status, body, headers=()):
            self.status, self.body, self.headers = status, body, headers

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def read_body(self, slow):
            length = int(self.headers.get("Content-Length") or 0)
            if not slow:
                return self.rfile.read(length)
            chunks = []
            while length > 0:
                chunk = self.rfile.read(min(65536, length))
                if not chunk:
                    break
                chunks.append(chunk)
                length -= len(chunk)
                time.sleep(0.05)
            return b"".join(chunks)

        def handle_any(self):
            url = urllib.parse.urlsplit(self.path)
            uploading = url.path in ("/api/v2/media", "/xrpc/com.atproto.repo.uploadBlob")
            raw = self.read_body(options.fail == "slow" and uploading)
            if len(raw) != int(self.headers.get("Content-Length") or 0):
                return  # the client went away halfway
            kind = (self.headers.get("Content-Type") or "").split(";")[0].strip()
            record = {"method": self.command, "path": url.path, "query": urllib.parse.parse_qsl(url.query),
                      "headers": {name.lower(): value for name, value in self.headers.items()}}
            try:
                if kind == "multipart/form-data":
                    record["body"] = {"kind": "multipart", "parts": multipart(self.headers["Content-Type"], raw)}
                elif kind == "application/json":
                    record["body"] = {"kind": "json", "value": json.loads(raw)}
                elif kind == "application/x-www-form-urlencoded":
                    record["body"] = {"kind": "form", "fields": urllib.parse.parse_qsl(raw.decode("ascii"), strict_parsing=True)}
                else:
                    record["body"] = {"kind": "bytes", "size": len(raw), "sha256": hashlib.sha256(raw).hexdigest()}
                if options.fail == "auth":
                    raise Refusal(401, {"error": "The access token is invalid"})
                status, answer, headers = (mastodon if options.api == "mastodon" else bluesky)(self, url, record, raw)
            except Refusal as refusal:
                status, answer, headers = refusal.status, refusal.body, refusal.headers
            except (ValueError, KeyError, TypeError, UnicodeDecodeError) as problem:
                status, answer, headers = 400, {"error": "bad request: %s" % problem}, ()
            record["status"] = status
            with LOCK:
                sys.stdout.write(json.dumps(record, sort_keys=True) + "\n")
                sys.stdout.flush()
            body = json.dumps(answer).encode("utf-8")
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def bearer(self, expected):
            if self.headers.get("Authorization") != "Bearer " + expected:
                raise Refusal(401, {"error": "The access token is invalid"})

        do_GET = do_POST = do_PUT = do_PATCH = do_HEAD = handle_any

        def log_message(self, format, *args):
            sys.stderr.write("social_servers: %s\n" % (format % args))

    def mastodon(handler, url, record, raw):
        if url.path == "/api/v2/instance":
            return 200, {"domain": "localhost", "configuration": {"statuses": {"max_characters": 1000}}}, ()
        handler.bearer(TOKEN)
        if url.path == "/api/v2/media" and handler.command == "POST":
            parts = record["body"]["parts"]
            files = [part for part in parts if part["name"] == "file"]
            if len(files) != 1 or not files[0]["filename"]:
                raise Refusal(422, {"error": "Validation failed: File can't be blank"})
            if options.fail == "media":
                raise Refusal(422, {"error": "Validation failed: File content type is invalid"})
            with LOCK:
                state.count += 1
                media_id = "m%d" % state.count
                state.media[media_id] = 1  # one 206 before it is ready
            return 202, {"id": media_id, "type": "image", "url": None}, ()
        if url.path.startswith("/api/v1/media/") and handler.command == "GET":
            media_id = url.path.rsplit("/", 1)[1]
            with LOCK:
                if media_id not in state.media:
                    raise Refusal(404, {"error": "Record not found"})
                left = state.media[media_id]
                state.media[media_id] = max(0, left - 1)
            if left > 0:
                return 206, {"id": media_id, "url": None}, ()
            return 200, {"id": media_id, "url": "https://localhost/media/%s.png" % media_id}, ()
        if url.path == "/api/v1/statuses" and handler.command == "POST":
            fields = record["body"]["fields"]
            if not handler.headers.get("Idempotency-Key"):
                raise Refusal(400, {"error": "no Idempotency-Key"})
            for name, value in fields:
                if name == "media_ids[]" and state.media.get(value) != 0:
                    raise Refusal(422, {"error": "media %s is not processed" % value})
            if options.fail == "rate":
                raise Refusal(429, {"error": "Too many requests"}, [("Retry-After", "90")])
            return 200, {"id": "109", "url": "https://localhost/@kim/109"}, ()
        raise Refusal(404, {"error": "no such endpoint"})

    def bluesky(handler, url, record, raw):
        if url.path == "/xrpc/com.atproto.server.createSession":
            value = record["body"]["value"]
            if value != {"identifier": HANDLE, "password": TOKEN}:
                raise Refusal(401, {"error": "AuthenticationRequired", "message": "Invalid identifier or password"})
            return 200, {"did": DID, "handle": HANDLE, "accessJwt": "jwt-access", "refreshJwt": "jwt-refresh"}, ()
        handler.bearer("jwt-access")
        if url.path == "/xrpc/com.atproto.repo.uploadBlob":
            kind = handler.headers.get("Content-Type", "")
            if not kind.startswith("image/"):
                raise Refusal(400, {"error": "InvalidMimeType", "message": "not an image: %s" % kind})
            if options.fail == "media":
                raise Refusal(400, {"error": "BlobTooLarge", "message": "This file is too large"})
            link = "bafkrei" + hashlib.sha256(raw).hexdigest()[:40]
            with LOCK:
                state.blobs[link] = kind
            return 200, {"blob": {"$type": "blob", "ref": {"$link": link}, "mimeType": kind, "size": len(raw)}}, ()
        if url.path == "/xrpc/com.atproto.repo.createRecord":
            value = record["body"]["value"]
            if value["repo"] != DID or value["collection"] != "app.bsky.feed.post":
                raise Refusal(400, {"error": "InvalidRequest", "message": "wrong repo or collection"})
            post = value["record"]
            if post["$type"] != "app.bsky.feed.post" or not post["createdAt"].endswith("Z"):
                raise Refusal(400, {"error": "InvalidRequest", "message": "not a post record"})
            text = post["text"].encode("utf-8")
            # Each facet's bytes, decoded, for the test to compare with the link as shown.
            record["facetText"] = [text[f["index"]["byteStart"]:f["index"]["byteEnd"]].decode("utf-8")
                                   for f in post.get("facets", [])]
            for image in post.get("embed", {}).get("images", []):
                if image["image"]["ref"]["$link"] not in state.blobs:
                    raise Refusal(400, {"error": "InvalidRequest", "message": "unknown blob"})
            if options.fail == "rate":
                raise Refusal(429, {"error": "RateLimitExceeded", "message": "Rate Limit Exceeded"},
                              [("ratelimit-reset", str(int(time.time()) + 300))])
            return 200, {"uri": "at://%s/app.bsky.feed.post/3kpost" % DID, "cid": "bafyreipost"}, ()
        raise Refusal(404, {"error": "MethodNotImplemented"})

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(options.cert, options.key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdout.write("READY %d\n" % server.server_address[1])
    sys.stdout.flush()
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
