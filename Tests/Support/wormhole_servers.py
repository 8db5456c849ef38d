#!/usr/bin/python3
"""Debian's magic-wormhole mailbox server and transit relay on 127.0.0.1,
for Nearby's tests: prints `READY <mailbox port>`, then `TRANSIT <port>`,
once both accept connections; stops them when stdin closes."""
import os
import subprocess
import sys
import tempfile
import time

import test_server

stopping = test_server.stop_event()
work = tempfile.mkdtemp(prefix="wormhole-servers-")
mailbox = test_server.free_port()
transit = test_server.free_port(taken=(mailbox,))
servers = [
    subprocess.Popen(["twistd3", "-n", "--pidfile=", "--logfile", os.path.join(work, "mailbox.log"), "wormhole-mailbox",
                      "--port=tcp:%d:interface=127.0.0.1" % mailbox, "--channel-db", os.path.join(work, "relay.sqlite")],
                     cwd=work, stdin=subprocess.DEVNULL),
    subprocess.Popen(["twistd3", "-n", "--pidfile=", "--logfile", os.path.join(work, "transit.log"), "transitrelay",
                      "--port=tcp:%d:interface=127.0.0.1" % transit], cwd=work, stdin=subprocess.DEVNULL),
]
deadline = time.monotonic() + 20
while not (test_server.accepts(mailbox, timeout=0.2) and test_server.accepts(transit, timeout=0.2)):
    if time.monotonic() > deadline or stopping.is_set() or any(server.poll() is not None for server in servers):
        for server in servers:
            server.kill()
        for name in ("mailbox.log", "transit.log"):
            path = os.path.join(work, name)
            if os.path.exists(path):
                sys.stderr.write(open(path).read())
        sys.exit(1)
    stopping.wait(0.05)
test_server.ready(mailbox)
test_server.say("TRANSIT %d" % transit)
stopping.wait()
for server in servers:
    server.terminate()
for server in servers:
    test_server.stop_child(server, 2)
