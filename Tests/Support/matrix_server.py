#!/usr/bin/python3
"""A real Matrix homeserver for Message's tests: Synapse (PyPI matrix-synapse)
in a virtual environment these tests make once (.build/test-venvs/synapse,
under a lock, so parallel tests install it once), on 127.0.0.1 with SQLite.

  matrix_server.py serve DIR     starts Synapse with its data in DIR; registers
                                 kim (password kim-pass) and lee (lee-pass) by the
                                 shared secret; kim makes #team:localhost (lee in it
                                 too) and #secret:localhost (end-to-end encrypted);
                                 prints READY <port>, serves until stdin closes
  matrix_server.py lossy URL      a proxy to the homeserver at URL that passes every
                                 request on, but answers the first event sent (PUT
                                 …/send/…) with 502 after the homeserver took it, as
                                 a connection that fails on the way back would;
                                 reports each request's method and path
  matrix_server.py token URL USER PASSWORD      an access token of USER
  matrix_server.py media URL USER PASSWORD MXC  the bytes of an mxc:// URI
  matrix_server.py messages URL USER PASSWORD ROOM
                                 the room's message events as USER reads them back
                                 (ROOM an alias, or @person for USER's direct room
                                 with them, joined first when invited), newest last
"""
import fcntl
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

import test_server

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
VENV = os.path.join(ROOT, ".build", "test-venvs", "synapse")


def venv():
    """The virtual environment with Synapse, made on first use."""
    os.makedirs(os.path.dirname(VENV), exist_ok=True)
    with open(VENV + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(os.path.join(VENV, ".ready")):
            subprocess.run([sys.executable, "-m", "venv", VENV], check=True, stdout=sys.stderr)
            subprocess.run([os.path.join(VENV, "bin", "pip"), "install", "-q", "matrix-synapse"], check=True, stdout=sys.stderr,
                           timeout=900)
            open(os.path.join(VENV, ".ready"), "w").close()
    return os.path.join(VENV, "bin", "python")


def call(url, method, path, token=None, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        raise SystemExit("%s %s: HTTP %d %s" % (method, path, error.code, error.read().decode(errors="replace")))


def login(url, user, password):
    return call(url, "POST", "/_matrix/client/v3/login",
                body={"type": "m.login.password", "identifier": {"type": "m.id.user", "user": user}, "password": password})["access_token"]


def serve(directory):
    python = venv()
    port = test_server.free_port()
    config = os.path.join(directory, "homeserver.yaml")
    subprocess.run([python, "-m", "synapse.app.homeserver", "--server-name", "localhost", "--config-path", config,
                    "--data-directory", directory, "--generate-config", "--report-stats=no"],
                   cwd=directory, check=True, stdout=sys.stderr, stderr=sys.stderr, timeout=120)
    with open(config) as file:
        text = file.read()
    text = text.replace("port: 8008", "port: %d" % port).replace("bind_addresses: ['::1', '127.0.0.1']", "bind_addresses: ['127.0.0.1']")
    limits = {name: {"per_second": 1000, "burst_count": 1000} for name in
              ("rc_message", "rc_registration", "rc_joins", "rc_invites", "rc_3pid_validation", "rc_admin_redaction")}
    limits["rc_login"] = {name: {"per_second": 1000, "burst_count": 1000} for name in ("address", "account", "failed_attempts")}
    text += "\n" + "".join("%s: %s\n" % (key, json.dumps(value)) for key, value in limits.items())
    text += "max_upload_size: 50M\nenable_registration: false\nsuppress_key_server_warning: true\ntrusted_key_servers: []\n"
    with open(config, "w") as file:
        file.write(text)
    process = subprocess.Popen([python, "-m", "synapse.app.homeserver", "--config-path", config], cwd=directory,
                               stdin=subprocess.DEVNULL, stdout=sys.stderr, stderr=sys.stderr, preexec_fn=test_server.die_with_parent)
    url = "http://127.0.0.1:%d" % port
    deadline = time.time() + 120
    while True:
        try:
            urllib.request.urlopen(url + "/_matrix/client/versions", timeout=2).read()
            break
        except OSError:
            if process.poll() is not None or time.time() > deadline:
                raise SystemExit("Synapse did not start; its log is in %s" % directory)
            time.sleep(0.2)
    for user, password in (("kim", "kim-pass"), ("lee", "lee-pass")):
        subprocess.run([os.path.join(VENV, "bin", "register_new_matrix_user"), "-u", user, "-p", password, "--no-admin", "-c", config, url],
                       check=True, stdout=sys.stderr, stderr=sys.stderr, timeout=60)
    kim = login(url, "kim", "kim-pass")
    lee = login(url, "lee", "lee-pass")
    team = call(url, "POST", "/_matrix/client/v3/createRoom", kim, {"room_alias_name": "team", "name": "Team", "preset": "public_chat"})
    call(url, "POST", "/_matrix/client/v3/join/" + urllib.parse.quote(team["room_id"]), lee, {})
    call(url, "POST", "/_matrix/client/v3/createRoom", kim, {
        "room_alias_name": "secret", "name": "Secret", "preset": "private_chat",
        "initial_state": [{"type": "m.room.encryption", "state_key": "", "content": {"algorithm": "m.megolm.v1.aes-sha2"}}]})
    stopping = test_server.stop_event()
    test_server.ready(port)
    stopping.wait()
    test_server.stop_child(process, 10)


def has_alias(url, token, room_id):
    request = urllib.request.Request(url + "/_matrix/client/v3/rooms/%s/state/m.room.canonical_alias" % urllib.parse.quote(room_id))
    request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return bool(json.loads(response.read()).get("alias"))
    except urllib.error.HTTPError:
        return False


def messages(url, user, password, room):
    token = login(url, user, password)
    if room.startswith("@"):
        # The direct room the other one made: an invitation to take, or a room joined already.
        sync = call(url, "GET", "/_matrix/client/v3/sync?timeout=0", token)
        invited = list(sync.get("rooms", {}).get("invite", {}).keys())
        for room_id in invited:
            call(url, "POST", "/_matrix/client/v3/join/" + urllib.parse.quote(room_id), token, {})
        joined = call(url, "GET", "/_matrix/client/v3/joined_rooms", token)["joined_rooms"]
        # A direct room: the two of them, and no alias (#team has the two of them too).
        room_id = next((r for r in joined
                        if set(call(url, "GET", "/_matrix/client/v3/rooms/%s/joined_members" % urllib.parse.quote(r), token)
                               .get("joined", {})) == {room, "@%s:localhost" % user} and not has_alias(url, token, r)), None)
        if room_id is None:
            raise SystemExit("no direct room with %s" % room)
    else:
        room_id = call(url, "GET", "/_matrix/client/v3/directory/room/" + urllib.parse.quote(room), token)["room_id"]
    events = call(url, "GET", "/_matrix/client/v3/rooms/%s/messages?dir=b&limit=50" % urllib.parse.quote(room_id), token)["chunk"]
    found = [{"id": e["event_id"], "sender": e["sender"], "content": e.get("content", {}),
              # A redacted event keeps no content (and says why in unsigned).
              "redacted": "redacted_because" in e.get("unsigned", {}) or not e.get("content")}
             for e in reversed(events) if e["type"] == "m.room.message"]
    print(json.dumps({"room": room_id, "events": found}))


def lossy(target):
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    lost = {"done": False}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def relay(self):
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            test_server.report({"method": self.command, "path": self.path})
            request = urllib.request.Request(target + self.path, data=body if self.command in ("POST", "PUT") else None,
                                             method=self.command)
            for name, value in self.headers.items():
                if name.lower() not in ("host", "content-length", "connection"):
                    request.add_header(name, value)
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    status, content, kind = response.status, response.read(), response.headers.get("Content-Type", "")
            except urllib.error.HTTPError as error:
                status, content, kind = error.code, error.read(), error.headers.get("Content-Type", "")
            if self.command == "PUT" and "/send/" in self.path and not lost["done"]:
                lost["done"] = True
                status, content, kind = 502, b"bad gateway", "text/plain"
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(content)))
            self.end_headers()
            self.wfile.write(content)

        do_GET = do_POST = do_PUT = do_DELETE = relay

        def log_message(self, format, *args):
            pass

    test_server.run_http(ThreadingHTTPServer(("127.0.0.1", 0), Handler))


def main():
    if sys.argv[1] == "serve":
        serve(sys.argv[2])
    elif sys.argv[1] == "lossy":
        lossy(sys.argv[2])
    elif sys.argv[1] == "messages":
        messages(*sys.argv[2:6])
    elif sys.argv[1] == "token":
        # An access token of USER, from a login of its own.
        print(login(*sys.argv[2:5]))
    elif sys.argv[1] == "media":
        # The bytes of an mxc:// URI, downloaded as USER (the authenticated media API).
        url, user, password, uri = sys.argv[2:6]
        token = login(url, user, password)
        server, media = uri[len("mxc://"):].split("/", 1)
        request = urllib.request.Request("%s/_matrix/client/v1/media/download/%s/%s" % (url, server, media))
        request.add_header("Authorization", "Bearer " + token)
        with urllib.request.urlopen(request, timeout=30) as response:
            sys.stdout.buffer.write(response.read())


main()
