#!/usr/bin/python3
"""A real IMAP server on 127.0.0.1 for share's tests: Debian's dovecot
(dovecot-imapd), started with a config of its own in DIR.

    imap_server.py DIR --cert CERT KEY --user USER:PASS [--oauth TOKEN]

Prints "READY <port>" (plain IMAP, LOGIN allowed on loopback) and then
"TLS <port>" (imaps with the tests' certificate) once dovecot greets on
both, and serves until stdin closes. The user's mail is a Maildir under
DIR/mail owned by nobody; the folders carry SPECIAL-USE attributes:
"Sent Messages" is \\Sent (not called Sent, so imap:auto must find it)
and "Drafts" is \\Drafts. With --oauth, XOAUTH2 and OAUTHBEARER log USER
in with TOKEN: dovecot's oauth2 passdb asks an introspection endpoint this
script serves, which writes each token it is asked about to DIR/tokens.log
("active" or "refused"), without the token.

    imap_server.py --silent

Listens and never says a word (prints "READY <port>"): an IMAP server that
hangs, for a client to be killed while it waits.

    imap_server.py --append PORT USER:PASS FOLDER FILE

APPENDs FILE to FOLDER with imaplib, flagged \\Seen, as another client would.

    imap_server.py --read PORT USER:PASS FOLDER

Reads FOLDER with Python's imaplib and prints one JSON object: "messages",
each with its UID, flags, Message-ID, Subject, From, To, Bcc (as Python's
email with policy.default reads them), defects and the SHA-256 of its bytes.
"""
import argparse
import email
import email.policy
import hashlib
import imaplib
import json
import os
import pwd
import socket
import subprocess
import sys
import time

import test_server

DOVECOT = "/usr/sbin/dovecot"
START_SECONDS = 20
STOP_SECONDS = 10


def log(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


CONFIG = """\
base_dir = {dir}/run
state_dir = {dir}/state
log_path = {dir}/dovecot.log
listen = 127.0.0.1
protocols = imap
ssl = yes
ssl_cert = <{cert}
ssl_key = <{key}
disable_plaintext_auth = no
auth_mechanisms = plain login{oauth_mechanisms}
default_internal_user = {internal}
default_login_user = {login}
mail_location = maildir:{dir}/mail/%n
first_valid_uid = 1
{oauth_passdb}passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {dir}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={dir}/mail/%n
}}
namespace inbox {{
  inbox = yes
  separator = /
  mailbox "Sent Messages" {{
    special_use = \\Sent
    auto = create
  }}
  mailbox Drafts {{
    special_use = \\Drafts
    auto = create
  }}
  mailbox Trash {{
    special_use = \\Trash
    auto = create
  }}
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {tls_port}
    ssl = yes
  }}
}}
service stats {{
  unix_listener stats-reader {{
    mode = 0666
  }}
  unix_listener stats-writer {{
    mode = 0666
  }}
}}
"""


OAUTH_PASSDB = """\
passdb {{
  driver = oauth2
  mechanisms = xoauth2 oauthbearer
  args = {dir}/oauth2.conf
}}
"""

OAUTH_CONFIG = """\
introspection_mode = post
introspection_url = http://127.0.0.1:{port}/introspect
force_introspection = yes
username_attribute = username
active_attribute = active
active_value = true
"""


def introspection(directory, user, token):
    """An OAuth2 introspection endpoint (RFC 7662) for dovecot: TOKEN is USER's."""
    import http.server
    import threading
    import urllib.parse

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            fields = urllib.parse.parse_qs(self.rfile.read(length).decode())
            active = fields.get("token", [""])[0] == token
            with open(os.path.join(directory, "tokens.log"), "a") as f:
                f.write(("active" if active else "refused") + "\n")
            body = json.dumps({"active": "true", "username": user} if active else {"active": "false"}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_address[1]


def greets(port):
    """Whether dovecot answers with its IMAP greeting on port."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as connection:
            return connection.recv(64).startswith(b"* OK")
    except OSError:
        return False


def start(directory, cert, key, user, password, oauth=None):
    nobody = pwd.getpwnam("nobody")
    internal = "dovecot" if user_exists("dovecot") else "root"
    login = "dovenull" if user_exists("dovenull") else "root"
    # The mail is the user's (nobody's); every folder above it must let nobody through.
    os.makedirs(os.path.join(directory, "mail"), exist_ok=True)
    os.chown(os.path.join(directory, "mail"), nobody.pw_uid, nobody.pw_gid)
    path = os.path.abspath(directory)
    while path != "/":
        os.chmod(path, os.stat(path).st_mode | 0o011)
        path = os.path.dirname(path)
    with open(os.path.join(directory, "passwd"), "w") as f:
        f.write("%s:{PLAIN}%s\n" % (user, password))
    for _ in range(3):
        port = test_server.free_port()
        tls_port = test_server.free_port((port,))
        oauth_passdb = ""
        if oauth:
            with open(os.path.join(directory, "oauth2.conf"), "w") as f:
                f.write(OAUTH_CONFIG.format(port=introspection(directory, user, oauth)))
            oauth_passdb = OAUTH_PASSDB.format(dir=directory)
        with open(os.path.join(directory, "dovecot.conf"), "w") as f:
            f.write(CONFIG.format(dir=directory, cert=cert, key=key, internal=internal, login=login, uid=nobody.pw_uid,
                                  gid=nobody.pw_gid, port=port, tls_port=tls_port, oauth_passdb=oauth_passdb,
                                  oauth_mechanisms=" xoauth2 oauthbearer" if oauth else ""))
        process = subprocess.Popen([DOVECOT, "-F", "-c", os.path.join(directory, "dovecot.conf")],
                                   stdin=subprocess.DEVNULL, stdout=sys.stderr, stderr=sys.stderr,
                                   preexec_fn=test_server.die_with_parent)
        deadline = time.monotonic() + START_SECONDS
        while process.poll() is None and time.monotonic() < deadline:
            if greets(port) and test_server.accepts(tls_port):
                return process, port, tls_port
            time.sleep(0.02)
        test_server.stop_child(process, STOP_SECONDS, log)
        tail = dovecot_log(directory)
        if "Address already in use" in tail:
            log("a port was taken; trying others")
            continue
        raise RuntimeError("dovecot did not start; its log:\n" + tail)
    raise RuntimeError("dovecot found no free ports")


def user_exists(name):
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


def dovecot_log(directory):
    try:
        with open(os.path.join(directory, "dovecot.log"), errors="replace") as f:
            return f.read()[-4000:]
    except OSError:
        return "(no dovecot.log)"


def serve(args):
    os.makedirs(args.dir, exist_ok=True)
    user, password = args.user.split(":", 1)
    stopping = test_server.stop_event()
    process, port, tls_port = start(os.path.abspath(args.dir), args.cert[0], args.cert[1], user, password, args.oauth)
    try:
        test_server.ready(port)
        test_server.say("TLS %d" % tls_port)
        stopping.wait()
    finally:
        test_server.stop_child(process, STOP_SECONDS, log)


def silent():
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    stopping = test_server.stop_event()
    held = []

    def accept():
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            held.append(connection)

    import threading
    threading.Thread(target=accept, daemon=True).start()
    test_server.ready(listener.getsockname()[1])
    stopping.wait()
    listener.close()


def read(port, credentials, folder):
    user, password = credentials.split(":", 1)
    connection = imaplib.IMAP4("127.0.0.1", port)
    connection.login(user, password)
    status, _ = connection.select('"%s"' % folder, readonly=True)
    if status != "OK":
        raise RuntimeError("cannot select %s" % folder)
    _, data = connection.uid("SEARCH", None, "ALL")
    messages = []
    for uid in data[0].split():
        _, fetched = connection.uid("FETCH", uid, "(FLAGS BODY.PEEK[])")
        raw = next(part[1] for part in fetched if isinstance(part, tuple))
        flags = [flag.decode() for flag in imaplib.ParseFlags(fetched[0][0])]
        message = email.message_from_bytes(raw, policy=email.policy.default)
        messages.append({
            "uid": int(uid), "flags": flags, "message_id": message["Message-ID"], "subject": message["Subject"],
            "from": str(message["From"]), "to": str(message["To"]), "bcc": message["Bcc"] and str(message["Bcc"]),
            "defects": [type(d).__name__ for d in message.defects], "sha256": hashlib.sha256(raw).hexdigest(),
            "size": len(raw), "crlf": raw.count(b"\r\n") == raw.count(b"\n"),
        })
    connection.logout()
    print(json.dumps({"messages": messages}))


def append(port, credentials, folder, path):
    user, password = credentials.split(":", 1)
    connection = imaplib.IMAP4("127.0.0.1", port)
    connection.login(user, password)
    with open(path, "rb") as f:
        status, data = connection.append('"%s"' % folder, "(\\Seen)", None, f.read())
    if status != "OK":
        raise RuntimeError("APPEND failed: %r" % data)
    connection.logout()


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--append":
        append(int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5])
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--silent":
        silent()
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--read":
        read(int(sys.argv[2]), sys.argv[3], sys.argv[4])
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("--cert", nargs=2, required=True, metavar=("CERT", "KEY"))
    parser.add_argument("--user", required=True)
    parser.add_argument("--oauth")
    serve(parser.parse_args())


main()
