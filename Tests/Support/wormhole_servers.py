#!/usr/bin/python3
"""Debian's magic-wormhole mailbox server and transit relay on 127.0.0.1,
for Nearby's tests: prints `READY <mailbox port>`, then `TRANSIT <port>`,
once both accept connections; stops them when stdin closes."""
import os
import socket
import subprocess
import sys
import tempfile
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def accepting(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


work = tempfile.mkdtemp(prefix="wormhole-servers-")
mailbox, transit = free_port(), free_port()
servers = [
    subprocess.Popen(["twistd3", "-n", "--pidfile=", "--logfile", os.path.join(work, "mailbox.log"), "wormhole-mailbox",
                      "--port=tcp:%d:interface=127.0.0.1" % mailbox, "--channel-db", os.path.join(work, "relay.sqlite")],
                     cwd=work, stdin=subprocess.DEVNULL),
    subprocess.Popen(["twistd3", "-n", "--pidfile=", "--logfile", os.path.join(work, "transit.log"), "transitrelay",
                      "--port=tcp:%d:interface=127.0.0.1" % transit], cwd=work, stdin=subprocess.DEVNULL),
]
deadline = time.monotonic() + 20
while not (accepting(mailbox) and accepting(transit)):
    if time.monotonic() > deadline or any(server.poll() is not None for server in servers):
        for server in servers:
            server.kill()
        for name in ("mailbox.log", "transit.log"):
            path = os.path.join(work, name)
            if os.path.exists(path):
                sys.stderr.write(open(path).read())
        sys.exit(1)
    time.sleep(0.05)
print("READY %d" % mailbox, flush=True)
print("TRANSIT %d" % transit, flush=True)
sys.stdin.read()
for server in servers:
    server.terminate()
for server in servers:
    try:
        server.wait(timeout=2)
    except subprocess.TimeoutExpired:
        server.kill()
