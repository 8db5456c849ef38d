#!/usr/bin/python3
"""A team chat's webhook on 127.0.0.1 for Message's tests.

    webhook_server.py [--fail STATUS]
    webhook_server.py --service telegram --token TOKEN [--busy-after N]
    webhook_server.py --service discord [--busy-after N]

Prints "READY <port>" on stdout once it listens, then serves until stdin
closes. Every request (any method, any path) is answered 200 with "ok"
(or STATUS with a one-line message, with --fail), and reported on stdout
before the answer goes out, so a client that has its answer finds its
request reported: one JSON object on one line, flushed, keys sorted:

    {"body": "<base64 of the body>", "headers": {"content-type": "…", …},
     "method": "POST", "path": "/hooks/team"}

Header names are lowercased; a header sent twice keeps its last value. A
body is read by its Content-Length (chunked bodies are refused with 411, as
no client of share's sends one).

With --service, the server answers as the published API does and checks
each request against it, answering 400 with the reason when it breaks it:
  telegram  /botTOKEN/sendMessage (JSON chat_id, text), sendPhoto and
            sendDocument (multipart chat_id and photo/document), deleteMessage
            (JSON chat_id, message_id; 48 hours are not checked); another token
            is 401; answers {"ok": true, "result": {"message_id": N}}
  discord   POST /api/webhooks/ID/TOKEN?wait=true (multipart payload_json and
            files[N], each attachment of payload_json naming its file part),
            answering {"id": "…"}; DELETE …/messages/ID answers 204
After --busy-after N requests, every request is answered 429 as the service
does. Reports of multipart requests carry "parts": name, filename, type,
size, and the text of a part without a filename.
"""
import argparse
import base64
import email.parser
import email.policy
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import test_server


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fail", type=int, default=None)
    parser.add_argument("--service", choices=["telegram", "discord"])
    parser.add_argument("--token", default="")
    parser.add_argument("--busy-after", type=int, default=None)
    options = parser.parse_args()
    state = {"count": 0, "next": 100, "messages": set()}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def handle_any(self):
            length = self.headers.get("Content-Length")
            if length is None and self.command in ("POST", "PUT"):
                self.answer(411, b"Content-Length required\n")
                return
            body = self.rfile.read(int(length or 0))
            record = {"method": self.command, "path": self.path,
                      "headers": {name.lower(): value for name, value in self.headers.items()},
                      "body": base64.b64encode(body).decode("ascii")}
            parts = multipart(self.headers.get("Content-Type", ""), body)
            if parts is not None:
                record["parts"] = parts
            test_server.report(record)
            state["count"] += 1
            if options.service:
                busy = options.busy_after is not None and state["count"] > options.busy_after
                status, answer = (telegram if options.service == "telegram" else discord)(self, body, parts, busy)
                self.answer(status, json.dumps(answer).encode() if answer is not None else b"", "application/json")
                return
            if options.fail:
                self.answer(options.fail, b"the webhook refuses this on purpose\n")
            else:
                self.answer(200, b"ok\n")

        def answer(self, status, body, kind="text/plain"):
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_POST = do_PUT = do_GET = do_DELETE = handle_any

        def log_message(self, format, *args):
            sys.stderr.write("webhook_server: %s\n" % (format % args))

    def made():
        state["next"] += 1
        state["messages"].add(state["next"])
        return state["next"]

    def telegram(handler, body, parts, busy):
        prefix = "/bot%s/" % options.token
        if not handler.path.startswith(prefix):
            return 401, {"ok": False, "error_code": 401, "description": "Unauthorized"}
        if busy:
            return 429, {"ok": False, "error_code": 429, "description": "Too Many Requests: retry after 7",
                         "parameters": {"retry_after": 7}}
        method = handler.path[len(prefix):]
        if method in ("sendMessage", "deleteMessage"):
            if handler.headers.get("Content-Type") != "application/json":
                return 400, {"ok": False, "error_code": 400, "description": "Bad Request: JSON expected"}
            fields = json.loads(body)
            if not fields.get("chat_id"):
                return 400, {"ok": False, "error_code": 400, "description": "Bad Request: chat_id is empty"}
            if method == "sendMessage":
                if not fields.get("text"):
                    return 400, {"ok": False, "error_code": 400, "description": "Bad Request: message text is empty"}
                return 200, {"ok": True, "result": {"message_id": made(), "chat": {"id": fields["chat_id"]}, "text": fields["text"]}}
            if fields.get("message_id") not in state["messages"]:
                return 400, {"ok": False, "error_code": 400, "description": "Bad Request: message to delete not found"}
            state["messages"].discard(fields["message_id"])
            return 200, {"ok": True, "result": True}
        if method in ("sendPhoto", "sendDocument"):
            field = "photo" if method == "sendPhoto" else "document"
            names = {part["name"]: part for part in parts or []}
            if "chat_id" not in names or field not in names or not names[field].get("filename"):
                return 400, {"ok": False, "error_code": 400, "description": "Bad Request: there is no %s in the request" % field}
            return 200, {"ok": True, "result": {"message_id": made()}}
        return 404, {"ok": False, "error_code": 404, "description": "Not Found"}

    def discord(handler, body, parts, busy):
        if not handler.path.startswith("/api/webhooks/1234/good-token"):
            return 401, {"message": "Invalid Webhook Token", "code": 50027}
        if busy:
            return 429, {"message": "You are being rate limited.", "retry_after": 1.5, "global": False}
        if handler.command == "DELETE":
            message = handler.path.rsplit("/", 1)[-1]
            if not message.isdigit() or int(message) not in state["messages"]:
                return 404, {"message": "Unknown Message", "code": 10008}
            state["messages"].discard(int(message))
            return 204, None
        if handler.command != "POST" or not handler.path.endswith("?wait=true") or parts is None:
            return 400, {"message": "Cannot send an empty message", "code": 50006}
        payload = next((part for part in parts if part["name"] == "payload_json"), None)
        if payload is None or payload["type"] != "application/json":
            return 400, {"message": "payload_json is missing", "code": 50109}
        fields = json.loads(payload["text"])
        files = {part["name"]: part for part in parts if part["name"].startswith("files[")}
        for attachment in fields.get("attachments", []):
            part = files.get("files[%d]" % attachment["id"])
            if part is None or part["filename"] != attachment["filename"]:
                return 400, {"message": "attachment %s names no file part" % attachment["id"], "code": 50035}
        if not fields.get("content") and not files:
            return 400, {"message": "Cannot send an empty message", "code": 50006}
        return 200, {"id": str(made()), "content": fields.get("content", ""), "attachments": len(files)}

    test_server.run_http(ThreadingHTTPServer(("127.0.0.1", 0), Handler))


def multipart(kind, body):
    """The parts of a multipart/form-data body, or None for another body."""
    if not kind.startswith("multipart/"):
        return None
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + kind.encode() + b"\r\n\r\n" + body)
    parts = []
    for part in message.iter_parts():
        content = part.get_payload(decode=True) or b""
        record = {"name": part.get_param("name", header="content-disposition"), "filename": part.get_filename(),
                  "type": part.get_content_type(), "size": len(content)}
        if part.get_filename() is None:
            record["text"] = content.decode("utf-8", "replace")
        parts.append(record)
    return parts


if __name__ == "__main__":
    main()
