#!/usr/bin/python3
"""A team chat's webhook on 127.0.0.1 for Message's tests.

    webhook_server.py [--fail STATUS]

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
"""
import argparse
import base64
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import test_server


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fail", type=int, default=None)
    options = parser.parse_args()

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
            test_server.report(record)
            if options.fail:
                self.answer(options.fail, b"the webhook refuses this on purpose\n")
            else:
                self.answer(200, b"ok\n")

        def answer(self, status, body):
            self.send_response(status)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_POST = do_PUT = do_GET = handle_any

        def log_message(self, format, *args):
            sys.stderr.write("webhook_server: %s\n" % (format % args))

    test_server.run_http(ThreadingHTTPServer(("127.0.0.1", 0), Handler))


if __name__ == "__main__":
    main()
