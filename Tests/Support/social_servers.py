#!/usr/bin/python3
"""Social services' APIs on 127.0.0.1 over TLS, for the direct posting tests.

    social_servers.py --api mastodon|bluesky|flickr|x|vimeo --cert CERT --key KEY [--fail MODE]

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
those of TOKEN (Mastodon's and Vimeo's bearer token; Bluesky's app
password for the handle HANDLE), and for Flickr and X OAuth 1.0a's
CONSUMER_KEY/CONSUMER_SECRET and ACCESS_TOKEN/TOKEN_SECRET: each
signature is checked by oauthlib (Debian python3-oauthlib), an
implementation independent of share's, and a nonce used twice or a
timestamp more than ten minutes off is refused.

MODE makes the service fail on purpose:
  auth       every request is refused 401
  rate       the post is refused 429 with Retry-After: 90
  media      an upload is refused 422 (media rejected)
  slow       an upload's body is read slowly (64 KiB each 50 ms), for a
             cancel halfway
  second     Flickr: the second photo is refused (the first is posted)
  broken     Vimeo: every PATCH is answered 500
  drop       Vimeo: the second PATCH is cut off halfway (the bytes that
             came are kept, as a tus server keeps them) without an answer
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

from oauthlib.oauth1.rfc5849 import signature as oauth_signature

import test_server

TOKEN = "s3cret-token"
CONSUMER_KEY = "consumer-key-1"
CONSUMER_SECRET = "consumer&secret 2"
ACCESS_TOKEN = "72157-access"
TOKEN_SECRET = "token/secret+3"
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
        self.nonces = set()
        self.videos = {}     # id -> [bytes received, their running SHA-256] (never the bytes: a video may be large)
        self.patches = 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--api", required=True, choices=["mastodon", "bluesky", "flickr", "x", "vimeo"])
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--fail", default=None, choices=["auth", "rate", "media", "slow", "drop", "second", "broken"])
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
            if options.api == "vimeo" and url.path.startswith("/tus/") and self.command == "PATCH" and self.drop_patch(url):
                return
            uploading = url.path in ("/api/v2/media", "/xrpc/com.atproto.repo.uploadBlob", "/services/upload/", "/2/media/upload")
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
                if options.fail == "auth" and options.api not in ("flickr", "x"):
                    raise Refusal(401, {"error": "The access token is invalid"})
                api = {"mastodon": mastodon, "bluesky": bluesky, "flickr": flickr, "x": x, "vimeo": vimeo}[options.api]
                status, answer, headers = api(self, url, record, raw)
            except Refusal as refusal:
                status, answer, headers = refusal.status, refusal.body, refusal.headers
            except (ValueError, KeyError, TypeError, UnicodeDecodeError) as problem:
                status, answer, headers = 400, {"error": "bad request: %s" % problem}, ()
            record["status"] = status
            test_server.report(record)
            body = answer if isinstance(answer, bytes) else json.dumps(answer).encode("utf-8")
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            if not any(name.lower() == "content-type" for name, _ in headers):
                self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def drop_patch(self, url):
            """With --fail drop, cuts the second PATCH off halfway: keeps what came, answers nothing."""
            with LOCK:
                state.patches += 1
                number = state.patches
            if options.fail != "drop" or number != 2:
                return False
            video = state.videos.get(url.path.rsplit("/", 1)[1])
            length = int(self.headers.get("Content-Length") or 0)
            if video is None or int(self.headers.get("Upload-Offset", "-1")) != video[0]:
                return False
            half = self.rfile.read(length // 2)
            with LOCK:
                video[0] += len(half)
                video[1].update(half)
                test_server.report({"method": "PATCH", "path": url.path, "dropped": True,
                                    "offset": video[0] - len(half), "kept": len(half)})
            self.close_connection = True
            self.connection.shutdown(2)
            return True

        def oauth(self, method, uri, params):
            """Checks an OAuth 1.0a signature with oauthlib: params are the signed ones (the header's, the query's, a form's)."""
            signed = dict(params)
            if signed.get("oauth_consumer_key") != CONSUMER_KEY or signed.get("oauth_token") != ACCESS_TOKEN:
                return "unknown consumer key or token"
            if signed.get("oauth_signature_method") != "HMAC-SHA1" or signed.get("oauth_version") != "1.0":
                return "not HMAC-SHA1 / 1.0"
            if abs(int(signed.get("oauth_timestamp", "0")) - time.time()) > 600:
                return "timestamp too far off"
            with LOCK:
                if signed.get("oauth_nonce") in state.nonces:
                    return "nonce used before"
                state.nonces.add(signed.get("oauth_nonce"))

            class Signed:
                pass
            request = Signed()
            request.params = [(name, value) for name, value in params if name != "oauth_signature"]
            request.uri, request.http_method, request.signature = uri, method, signed.get("oauth_signature", "")
            if not oauth_signature.verify_hmac_sha1(request, CONSUMER_SECRET, TOKEN_SECRET):
                return "invalid signature"
            return None

        def here(self, path):
            return "https://localhost:%d%s" % (self.server.server_address[1], path)

        def bearer_lower(self, expected):
            if self.headers.get("Authorization") != "bearer " + expected:
                raise Refusal(401, {"error": "A valid user token must be passed.", "error_code": 8003})

        def bearer(self, expected):
            if self.headers.get("Authorization") != "Bearer " + expected:
                raise Refusal(401, {"error": "The access token is invalid"})

        do_GET = do_POST = do_PUT = do_PATCH = do_HEAD = do_DELETE = handle_any

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

    def flickr_fail(code, message):
        return 200, ('<?xml version="1.0" encoding="utf-8" ?>\n<rsp stat="fail">\n\t<err code="%d" msg="%s" />\n</rsp>\n'
                     % (code, message)).encode("utf-8"), [("Content-Type", "text/xml; charset=utf-8")]

    def flickr(handler, url, record, raw):
        if url.path == "/services/upload/" and handler.command == "POST":
            parts = record["body"]["parts"]
            fields = [(part["name"], part["text"]) for part in parts if part["filename"] is None]
            problem = handler.oauth("POST", handler.here(url.path), fields)
            if problem:
                record["oauth"] = problem
                return flickr_fail(96, "Invalid signature")
            if not any(part["name"] == "photo" and part["filename"] for part in parts):
                return flickr_fail(2, "No photo specified")
            with LOCK:
                state.count += 1
                photo = "5234%d" % state.count
            if options.fail == "media" or (options.fail == "second" and state.count == 2):
                return flickr_fail(5, "Filetype was not recognised")
            return 200, ('<?xml version="1.0" encoding="utf-8" ?>\n<rsp stat="ok">\n<photoid>%s</photoid>\n</rsp>\n'
                         % photo).encode("utf-8"), [("Content-Type", "text/xml; charset=utf-8")]
        if url.path == "/services/rest/" and handler.command == "GET":
            query = urllib.parse.parse_qsl(url.query)
            problem = handler.oauth("GET", handler.here(url.path), query)
            if problem:
                record["oauth"] = problem
                return 200, {"stat": "fail", "code": 96, "message": "Invalid signature"}, ()
            values = dict(query)
            if values.get("method") != "flickr.photos.getInfo" or values.get("format") != "json":
                raise Refusal(400, {"stat": "fail", "code": 112, "message": "Method not found"})
            page = "https://www.flickr.com/photos/kim/%s/" % values["photo_id"]
            return 200, {"stat": "ok", "photo": {"id": values["photo_id"], "urls": {"url": [{"type": "photopage", "_content": page}]}}}, ()
        raise Refusal(404, {"stat": "fail", "message": "no such endpoint"})

    def x(handler, url, record, raw):
        params = oauth_signature.collect_parameters(headers={"Authorization": handler.headers.get("Authorization", "")},
                                                    exclude_oauth_signature=False)
        problem = handler.oauth(handler.command, handler.here(url.path), params)
        if problem:
            record["oauth"] = problem
            raise Refusal(401, {"title": "Unauthorized", "type": "about:blank", "status": 401, "detail": "Unauthorized"})
        if url.path == "/2/media/upload" and handler.command == "POST":
            parts = record["body"]["parts"]
            if not any(part["name"] == "media" and part["filename"] for part in parts):
                raise Refusal(400, {"title": "Invalid Request", "detail": "no media"})
            if options.fail == "media":
                raise Refusal(400, {"errors": [{"message": "media type unrecognized."}], "title": "Invalid Request"})
            with LOCK:
                state.count += 1
                media_id = "18800281060205158%02d" % state.count
                state.media[media_id] = 0
            return 200, {"data": {"id": media_id, "media_key": "3_" + media_id, "size": len(raw)}}, ()
        if url.path == "/2/tweets" and handler.command == "POST":
            value = record["body"]["value"]
            for media_id in value.get("media", {}).get("media_ids", []):
                if media_id not in state.media:
                    raise Refusal(400, {"title": "Invalid Request", "detail": "unknown media id %s" % media_id})
            if options.fail == "rate":
                raise Refusal(429, {"title": "Too Many Requests", "detail": "Too Many Requests", "type": "about:blank", "status": 429},
                              [("x-rate-limit-reset", str(int(time.time()) + 600))])
            return 201, {"data": {"id": "1445880548472328192", "text": value["text"]}}, ()
        raise Refusal(404, {"title": "Not Found"})

    def vimeo(handler, url, record, raw):
        if url.path == "/me/videos" and handler.command == "POST":
            handler.bearer_lower(TOKEN)
            if "version=3.4" not in handler.headers.get("Accept", ""):
                raise Refusal(400, {"error": "no API version asked for"})
            value = record["body"]["value"]
            if value["upload"]["approach"] != "tus" or not isinstance(value["upload"]["size"], int):
                raise Refusal(400, {"error": "The upload approach is not tus"})
            if options.fail == "media":
                raise Refusal(400, {"error": "Your video's size exceeds your upload quota.", "error_code": 4102})
            with LOCK:
                state.count += 1
                video = "7697987%d" % state.count
                state.videos[video] = [0, hashlib.sha256()]
                state.media[video] = value["upload"]["size"]
            return 200, {"uri": "/videos/" + video, "link": "https://vimeo.com/" + video,
                         "upload": {"approach": "tus", "size": value["upload"]["size"], "upload_link": handler.here("/tus/" + video)}}, ()
        if url.path.startswith("/videos/") and handler.command == "DELETE":
            handler.bearer_lower(TOKEN)
            if url.path.rsplit("/", 1)[1] not in state.videos:
                raise Refusal(404, {"error": "The requested video couldn't be found."})
            return 204, b"", ()
        if url.path.startswith("/tus/"):
            video = url.path.rsplit("/", 1)[1]
            if video not in state.videos or handler.headers.get("Tus-Resumable") != "1.0.0":
                raise Refusal(404 if video not in state.videos else 412, {"error": "no such upload or no Tus-Resumable"})
            received = state.videos[video]
            if handler.command == "HEAD":
                return 200, b"", [("Upload-Offset", str(received[0])), ("Upload-Length", str(state.media[video])),
                                  ("Tus-Resumable", "1.0.0"), ("Cache-Control", "no-store")]
            if handler.command == "PATCH":
                if options.fail == "broken":
                    raise Refusal(500, {"error": "Something strange occurred. Please try again."})
                if handler.headers.get("Content-Type") != "application/offset+octet-stream":
                    raise Refusal(415, {"error": "not application/offset+octet-stream"})
                offset = int(handler.headers.get("Upload-Offset", "-1"))
                record["offset"] = offset
                if offset != received[0]:
                    raise Refusal(409, {"error": "Upload-Offset %d is not the server's %d" % (offset, received[0])})
                received[0] += len(raw)
                received[1].update(raw)
                if received[0] == state.media[video]:
                    record["complete"] = received[1].copy().hexdigest()
                return 204, b"", [("Upload-Offset", str(received[0])), ("Tus-Resumable", "1.0.0")]
        raise Refusal(404, {"error": "no such endpoint"})

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(options.cert, options.key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    test_server.run_http(server)


if __name__ == "__main__":
    main()
