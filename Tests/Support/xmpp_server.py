#!/usr/bin/python3
"""A private, real XMPP server (prosody) on 127.0.0.1 for one of share's tests,
with an independent client that receives what is sent to it.

    xmpp_server.py DIR --user LOCAL:PASSWORD... [--receiver LOCAL:PASSWORD]
                       [--upload-limit BYTES] [--no-tls-cert-for-client]

Runs Debian's prosody 0.12 (packages prosody, lua-sec) in the foreground as a
child, with all of its state in DIR, a fresh folder the test owns:

  DIR/prosody.cfg.lua   the configuration (written here)
  DIR/cert.pem          a self-signed certificate for CN=localhost with the
  DIR/key.pem           names localhost and upload.localhost, valid 2 days;
                        cert.pem doubles as the CA file a client trusts
  DIR/certs/            empty (prosody's certificate folder, so that it finds
                        no certificate of the system's)
  DIR/data/             accounts, rosters, offline messages, uploaded files
  DIR/prosody.log       prosody's log at level debug: print it when a test
                        fails
  DIR/https-port        the HTTPS port of the upload service, as text
  DIR/direct-tls-port   a second client port speaking TLS from the first
                        byte (XEP-0368 direct TLS), same certificate, as text
  DIR/upload-jid        "upload.localhost", the upload service's address
  DIR/receiver-jid      the receiver's full JID (LOCAL@localhost/RESOURCE),
                        with --receiver, written before READY

The one domain is "localhost": accounts are LOCAL@localhost, created with
`prosodyctl register` before prosody starts, one per --user and one for the
--receiver. Clients connect to 127.0.0.1 at the port of the READY line
(client-to-server, RFC 6120): the server offers STARTTLS with the
certificate above, requires it before authentication (SASL SCRAM-SHA-1 and
PLAIN over TLS; no in-band registration) and offers stream management
(XEP-0198, <sm xmlns='urn:xmpp:sm:3'/>, and sm:2) after authentication,
beside <bind/>. A wrong password gets <failure
xmlns='urn:ietf:params:xml:ns:xmpp-sasl'><not-authorized/><text>…</text>
</failure> (the stream stays open); PLAIN before STARTTLS gets <failure>
<encryption-required/></failure>. The same accounts are also served with TLS
from the first byte at DIR/direct-tls-port. There is no server-to-server
traffic. A system prosody, running or
not, is neither used nor touched.

HTTP file upload (XEP-0363, urn:xmpp:http:upload:0) is served by the
component upload.localhost (mod_http_file_share) on its own HTTPS port
(DIR/https-port), same certificate. A slot request

    <iq type='get' to='upload.localhost' id='…'>
      <request xmlns='urn:xmpp:http:upload:0' filename='a.txt' size='5'
               content-type='text/plain'/></iq>

is answered with <slot><put url='https://localhost:HPORT/file_share/ID/a.txt'>
<header name='Authorization'>Bearer …</header></put><get url='…same URL…'/>
</slot>; PUT the bytes there with that header within 5 minutes: 201
Created. A Content-Length other than the slot's size gets 413, a second PUT
409, a bad token 401. GET (no authentication) then answers 200 with the
bytes and the slot request's content-type; 410 Gone before the PUT, 404 for
an unknown slot ID. A size above --upload-limit BYTES
(default 1048576; exactly BYTES is allowed) is refused with
<error type='modify'><not-acceptable
xmlns='urn:ietf:params:xml:ns:xmpp-stanzas'/><text …>File too large</text>
<file-too-large xmlns='urn:xmpp:http:upload:0'><max-file-size>BYTES
</max-file-size></file-too-large></error>. There is no daily quota to hit.
Note that the URLs name "localhost", which must resolve to 127.0.0.1 for
the client (or the client must connect there itself).

The receiver (--receiver LOCAL:PASSWORD) is a slixmpp client (Debian's
python3-slixmpp) logged in as LOCAL@localhost with a random resource, over
STARTTLS verifying the certificate against DIR/cert.pem, with initial
presence sent (priority 0) and processed by the server, so messages to the
bare JID LOCAL@localhost reach it rather than offline storage.

Prints "READY <c2s port>" on stdout once prosody accepts connections on
both ports and, with --receiver, the receiver's session has started. Then,
for every <message> of type chat, normal (or none) or error the receiver
gets, one JSON object on one line of stdout (ASCII, keys sorted), flushed:

    {"body": "hi", "error": null, "from": "alice@localhost/res", "id": "m1",
     "oob": ["https://…"], "to": "bob@localhost", "type": "chat"}

  from       the sender's full JID (the server stamps it)
  to         the to attribute as the sender wrote it: "bob@localhost" for a
             message to the bare JID, the full JID for one to the resource
  id         the id attribute, or null
  type       the type attribute; "normal" when it has none
  body       the text of the first <body>, or null without one ("" when
             empty); chat states and other bodiless messages are printed too
  oob        the <url> of every <x xmlns='jabber:x:oob'> (XEP-0066), in order
  error      for a message of type error, the condition element's name
             (e.g. "service-unavailable"), otherwise null. The server drops
             an error message sent to the bare JID (RFC 6121 8.5.2.1.1), so
             only one sent to DIR/receiver-jid arrives.

Messages of type headline or groupchat are only logged on stderr. Nothing
is printed for presence or IQs (the receiver answers IQs it does not know
with an error, as slixmpp does). Messages sent to an account that is not
online (or to a --user) are kept by the server as offline messages and
printed by no one; to an account that does not exist they bounce as
<message type='error'><error type='cancel'><service-unavailable/>.

Serves until stdin closes (or SIGTERM/SIGINT/SIGHUP), then disconnects the
receiver, stops prosody (SIGTERM, then SIGKILL after 10 s) and exits 0. If
prosody stops by itself, or the receiver cannot log in, prosody's log goes to
stderr and the exit status is 1 (without READY, if that happened first;
stdin closing before READY also ends it with status 1).
DIR is left as it is for the test to read and remove. Logs go to stderr,
each line starting "xmpp_server: ".

  --user LOCAL:PASSWORD   an account LOCAL@localhost (the sender, usually).
                          Repeatable.
  --receiver LOCAL:PASSWORD
                          an account LOCAL@localhost, logged in by the
                          receiver described above.
  --upload-limit BYTES    the largest file the upload service accepts.
  --no-tls-cert-for-client
                          gives client connections no certificate (and no
                          mod_tls): the server offers no STARTTLS at all and
                          lets clients authenticate in clear, SCRAM-SHA-1
                          only (PLAIN is never offered without TLS), for
                          testing a client that must refuse such a server.
                          The receiver then logs in without TLS. Uploads
                          stay on HTTPS with the certificate.

One-shot download (prints the body on stdout, binary):

  xmpp_server.py --fetch URL --ca CAFILE
      GETs URL (https://localhost:HPORT/file_share/…), connecting to
      127.0.0.1 whatever the host name, verifying the server's certificate
      for that host name against CAFILE (DIR/cert.pem). Exits 1 with the
      HTTP status on stderr if it is not 200.

Runs as root (prosody is told run_as_root; DIR/data ends up root-only) or
as any user that can write DIR.
"""
import argparse
import asyncio
import http.client
import logging
import os
import pwd
import socket
import ssl
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

import test_server

PROSODY = "/usr/bin/prosody"
PROSODYCTL = "/usr/bin/prosodyctl"
OPENSSL = "/usr/bin/openssl"

DOMAIN = "localhost"
UPLOAD_JID = "upload.localhost"
DEFAULT_UPLOAD_LIMIT = 1048576

# How long prosody and the receiver may take to start, and prosody to stop.
START_SECONDS = 30
STOP_SECONDS = 10
# Environment for prosody and the commands run here, whatever the test's.
CLEAN_ENV = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8",
             "HOME": pwd.getpwuid(os.geteuid()).pw_dir}
# What prosody logs when it cannot listen on a port (it then runs on, deaf).
PORT_TAKEN = "Failed to open server port"

NS_CLIENT = "jabber:client"
NS_OOB = "jabber:x:oob"
NS_STANZAS = "urn:ietf:params:xml:ns:xmpp-stanzas"


def log(message):
    sys.stderr.write("xmpp_server: %s\n" % message)
    sys.stderr.flush()


def account(spec, option):
    """LOCAL:PASSWORD -> (local, password)."""
    local, sep, password = spec.partition(":")
    if not sep or not local or not password or "@" in local or "/" in local:
        raise RuntimeError("%s wants LOCAL:PASSWORD, not %r" % (option, spec))
    return local, password


# ---------------------------------------------------------------------------
# The server.

def lua_string(text):
    """A Lua string literal: printable ASCII as is, any other byte (and the
    quote and backslash) as a decimal escape."""
    return '"%s"' % "".join(chr(byte) if 32 <= byte < 127 and byte not in b'"\\' else "\\%03d" % byte
                            for byte in text.encode())


def make_certificate(directory):
    """DIR/cert.pem and DIR/key.pem, self-signed for localhost and upload.localhost."""
    done = subprocess.run(
        [OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=" + DOMAIN,
         "-addext", "subjectAltName=DNS:%s,DNS:%s" % (DOMAIN, UPLOAD_JID),
         "-keyout", os.path.join(directory, "key.pem"), "-out", os.path.join(directory, "cert.pem")],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, env=CLEAN_ENV, timeout=START_SECONDS)
    if done.returncode != 0:
        raise RuntimeError("openssl req failed (%d): %s%s" % (done.returncode, done.stdout, done.stderr))


def write_config(directory, port, https_port, upload_limit, client_tls, direct_port=None):
    """Writes DIR/prosody.cfg.lua for c2s on `port` (STARTTLS) and
    `direct_port` (direct TLS, XEP-0368; none with --no-tls-cert-for-client)
    and HTTPS on `https_port`."""
    path = lambda name: lua_string(os.path.join(directory, name))
    tls = "{certificate = %s; key = %s}" % (path("cert.pem"), path("key.pem"))
    if client_tls:
        client = ("-- Client connections: STARTTLS with DIR/cert.pem, required before SASL.\n"
                  "ssl = %s\nc2s_require_encryption = true" % tls)
        modules = '"roster"; "saslauth"; "tls"; "disco"; "ping"; "smacks"'
    else:
        # Without a certificate prosody 0.12 still offers STARTTLS (hoping
        # for SNI) and then fails the handshake; without mod_tls it offers
        # none at all.
        client = ("-- --no-tls-cert-for-client: no certificate and no mod_tls for client\n"
                  "-- connections, so no STARTTLS; SASL (SCRAM-SHA-1 only) in clear.\n"
                  "c2s_require_encryption = false")
        modules = '"roster"; "saslauth"; "disco"; "ping"; "smacks"'
    config = f"""-- prosody.cfg.lua of a private server for one test (xmpp_server.py)
run_as_root = true
-- In the foreground: prosody is started with -F (the config option
-- "daemonize" is deprecated in 0.12).
data_path = {path("data")}
-- Only this folder, so that no certificate of the system's is picked up.
certificates = {path("certs")}
log = {{ {{ levels = {{ min = "debug" }}, to = "file", filename = {path("prosody.log")} }} }}

-- The loopback only, at private ports; no s2s, no plain HTTP.
interfaces = {{ "127.0.0.1" }}
c2s_interfaces = {{ "127.0.0.1" }}
https_interfaces = {{ "127.0.0.1" }}
http_interfaces = {{ "127.0.0.1" }}
c2s_ports = {{ {port} }}
c2s_direct_tls_ports = {{ {direct_port if client_tls and direct_port else ""} }}
legacy_ssl_ports = {{ }}
s2s_ports = {{ }}
http_ports = {{ }}
https_ports = {{ {https_port} }}
https_ssl = {tls}

{client}
allow_registration = false
authentication = "internal_hashed"
storage = "internal"

modules_enabled = {{ {modules} }}
-- No s2s; no mod_posix (a child of this script, in the foreground: no
-- daemon, no pidfile; SIGTERM ends it).
modules_disabled = {{ "s2s"; "posix" }}

VirtualHost "{DOMAIN}"

-- XEP-0363 HTTP file upload, served at https://localhost:{https_port}/file_share/
Component "{UPLOAD_JID}" "http_file_share"
    http_host = "{DOMAIN}"
    http_file_share_size_limit = {upload_limit}
    -- The default daily quota is 10 uploads' worth of the limit: none here.
    http_file_share_daily_quota = 1e15
"""
    with open(os.path.join(directory, "prosody.cfg.lua"), "w") as file:
        file.write(config)


def register(directory, local, password):
    """Creates the account LOCAL@localhost (prosody need not run)."""
    done = subprocess.run([PROSODYCTL, "--config", os.path.join(directory, "prosody.cfg.lua"),
                           "register", local, DOMAIN, password],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, env=CLEAN_ENV,
                          cwd=directory, timeout=START_SECONDS)
    if done.returncode != 0:
        raise RuntimeError("prosodyctl register %s failed (%d): %s%s"
                           % (local, done.returncode, done.stdout, done.stderr))


def prosody_log(directory):
    try:
        with open(os.path.join(directory, "prosody.log"), errors="replace") as file:
            return file.read()
    except OSError:
        return "(no prosody.log)\n"


async def start_prosody(directory, args, stopping):
    """Starts prosody on free ports; returns (process, port, https_port) once
    both ports accept connections. None if `stopping` is set meanwhile."""
    for _ in range(3):
        port = test_server.free_port()
        https_port = test_server.free_port(taken=(port,))
        direct_port = test_server.free_port(taken=(port, https_port))
        write_config(directory, port, https_port, args.upload_limit, not args.no_tls_cert_for_client, direct_port)
        try:
            os.remove(os.path.join(directory, "prosody.log"))
        except FileNotFoundError:
            pass
        process = subprocess.Popen([PROSODY, "-F", "--config", os.path.join(directory, "prosody.cfg.lua")],
                                   cwd=directory, stdin=subprocess.DEVNULL, stdout=sys.stderr, stderr=sys.stderr,
                                   env=CLEAN_ENV, preexec_fn=test_server.die_with_parent)
        deadline = time.monotonic() + START_SECONDS
        taken = False
        while process.poll() is None and time.monotonic() < deadline and not stopping.is_set():
            if test_server.accepts(port) and test_server.accepts(https_port) \
                    and (args.no_tls_cert_for_client or test_server.accepts(direct_port)):
                with open(os.path.join(directory, "direct-tls-port"), "w") as file:
                    file.write("%d\n" % direct_port)
                return process, port, https_port
            if PORT_TAKEN in prosody_log(directory):
                taken = True
                break
            # Poll again soon, still answering signals and stdin meanwhile.
            try:
                await asyncio.wait_for(stopping.wait(), 0.05)
            except asyncio.TimeoutError:
                pass
        running = process.poll() is None
        test_server.stop_child(process, STOP_SECONDS, log)
        if stopping.is_set():
            return None
        if taken:
            # Another process took a port between free_port() and prosody: again.
            log("port %d or %d was taken; trying others" % (port, https_port))
            continue
        if running:
            raise RuntimeError("prosody did not listen within %d s; prosody.log:\n%s"
                               % (START_SECONDS, prosody_log(directory)))
        raise RuntimeError("prosody exited with status %d; prosody.log:\n%s"
                           % (process.returncode, prosody_log(directory)))
    raise RuntimeError("prosody found no free ports")


# ---------------------------------------------------------------------------
# The receiver.

def message_record(message):
    """The JSON object printed for one <message> element (an ElementTree)."""
    body = message.find("{%s}body" % NS_CLIENT)
    error, condition = message.find("{%s}error" % NS_CLIENT), None
    if error is not None:
        for child in error:
            if child.tag.startswith("{%s}" % NS_STANZAS) and child.tag != "{%s}text" % NS_STANZAS:
                condition = child.tag.split("}", 1)[1]
                break
    return {
        "from": message.get("from"),
        "to": message.get("to"),
        "id": message.get("id"),
        "type": message.get("type") or "normal",
        "body": None if body is None else (body.text or ""),
        "oob": [url.text or "" for x in message.findall("{%s}x" % NS_OOB) for url in x.findall("{%s}url" % NS_OOB)],
        "error": condition,
    }


def make_receiver(directory, local, password, c2s_port, use_tls):
    """A slixmpp client for LOCAL@localhost that connects to 127.0.0.1:c2s_port
    and prints every message it gets. Imported here so that the one-shot
    mode needs no slixmpp."""
    import slixmpp
    from slixmpp.xmlstream.handler import Callback
    from slixmpp.xmlstream.matcher import MatchXPath

    class Receiver(slixmpp.ClientXMPP):
        def __init__(self):
            super().__init__("%s@%s" % (local, DOMAIN), password)
            self.ready = asyncio.get_running_loop().create_future()
            self.leaving = False
            if use_tls:
                # Verified against DIR/cert.pem, for the name "localhost"
                # (the stream's domain: SNI and the certificate check).
                self.ca_certs = Path(directory, "cert.pem")
            self.register_handler(Callback("every message", MatchXPath("{%s}message" % NS_CLIENT), self.on_message))
            self.add_event_handler("session_start", self.on_session_start)
            self.add_event_handler("failed_auth", lambda failure: log("receiver: SASL failure: %s"
                                                                      % failure["condition"]))
            self.add_event_handler("failed_all_auth", lambda _: self.fail("authentication failed"))
            self.add_event_handler("connection_failed", lambda error: self.fail("connection failed: %s" % error))
            self.add_event_handler("ssl_invalid_chain", lambda error: self.fail("certificate not trusted: %s" % error))
            self.add_event_handler("stream_error", lambda error: log("receiver: stream error %s" % error))
            self.add_event_handler("disconnected", self.on_disconnected)

        async def get_dns_records(self, domain, default_port=None):
            # Wherever "localhost" resolves, the server is at 127.0.0.1:c2s_port.
            return [(domain, "127.0.0.1", c2s_port)]

        def start(self):
            # Connects to the domain (so TLS checks the name "localhost"),
            # at the address get_dns_records gives.
            self.connect((DOMAIN, c2s_port), force_starttls=use_tls, disable_starttls=not use_tls)

        def fail(self, reason):
            self.leaving = True
            if not self.ready.done():
                self.ready.set_exception(RuntimeError("receiver %s@%s: %s" % (local, DOMAIN, reason)))
            self.abort()

        def on_disconnected(self, reason):
            if self.ready.done():
                if not self.leaving:
                    log("receiver: disconnected (%s)" % (reason or "no reason"))
            else:
                self.fail("disconnected (%s)" % (reason or "no reason"))

        async def on_session_start(self, _):
            ssl_object = self.transport.get_extra_info("ssl_object") if self.transport else None
            if use_tls and ssl_object is None:
                self.fail("the session is not encrypted")
                return
            self.send_presence()
            # A round trip after the presence: once the roster arrives, the
            # server has processed the presence, so the resource is available.
            try:
                await self.get_roster(timeout=START_SECONDS)
            except Exception as error:  # IqError, IqTimeout
                self.fail("no roster: %r" % error)
                return
            log("receiver: online as %s (%s)" % (self.boundjid.full,
                                                 ssl_object.version() if ssl_object else "no TLS"))
            with open(os.path.join(directory, "receiver-jid"), "w") as file:
                file.write(self.boundjid.full + "\n")
            if not self.ready.done():
                self.ready.set_result(None)

        def on_message(self, message):
            record = message_record(message.xml)
            if record["type"] not in ("chat", "normal", "error"):
                log("receiver: ignoring a message of type %s from %s" % (record["type"], record["from"]))
                return
            test_server.report(record)

        async def stop(self):
            self.leaving = True
            if self.transport is None:
                return
            try:
                await asyncio.wait_for(self.disconnect(wait=2.0), 5)
            except asyncio.TimeoutError:
                self.abort()

    return Receiver()


# ---------------------------------------------------------------------------
# Serving.

async def serve(args):
    directory = os.path.realpath(args.dir)
    started = time.monotonic()
    users = [account(spec, "--user") for spec in args.user]
    receiver_account = account(args.receiver, "--receiver") if args.receiver else None
    loop = asyncio.get_running_loop()
    stopping = test_server.stop_event_async()

    os.makedirs(os.path.join(directory, "data"), exist_ok=True)
    os.makedirs(os.path.join(directory, "certs"), exist_ok=True)
    make_certificate(directory)
    # prosodyctl reads the configuration (data_path) only: any ports will do.
    write_config(directory, 1, 2, args.upload_limit, not args.no_tls_cert_for_client)
    for local, password in users + ([receiver_account] if receiver_account else []):
        register(directory, local, password)

    begun = await start_prosody(directory, args, stopping)
    if begun is None:
        log("stopped before prosody was ready")
        return 1
    process, port, https_port = begun
    receiver = None
    died = asyncio.Event()

    def watch_prosody():
        process.wait()
        loop.call_soon_threadsafe(died.set)
    threading.Thread(target=watch_prosody, daemon=True).start()

    try:
        with open(os.path.join(directory, "https-port"), "w") as file:
            file.write("%d\n" % https_port)
        with open(os.path.join(directory, "upload-jid"), "w") as file:
            file.write(UPLOAD_JID + "\n")
        log("prosody listens on 127.0.0.1:%d (c2s) and 127.0.0.1:%d (https) after %.2f s"
            % (port, https_port, time.monotonic() - started))

        if receiver_account:
            receiver = make_receiver(directory, receiver_account[0], receiver_account[1], port,
                                     not args.no_tls_cert_for_client)
            receiver.start()
            waits = [receiver.ready, asyncio.ensure_future(stopping.wait()), asyncio.ensure_future(died.wait())]
            await asyncio.wait(waits, timeout=START_SECONDS, return_when=asyncio.FIRST_COMPLETED)
            for waiting in waits[1:]:
                waiting.cancel()
            if not receiver.ready.done():
                receiver.abort()
                if stopping.is_set():
                    log("stopped before the receiver was online")
                    return 1
                if died.is_set():
                    raise RuntimeError("prosody exited with status %d; prosody.log:\n%s"
                                       % (process.returncode, prosody_log(directory)))
                raise RuntimeError("the receiver was not online within %d s; prosody.log:\n%s"
                                   % (START_SECONDS, prosody_log(directory)))
            if receiver.ready.exception():
                raise RuntimeError("%s; prosody.log:\n%s" % (receiver.ready.exception(), prosody_log(directory)))

        log("ready after %.2f s" % (time.monotonic() - started))
        test_server.ready(port)
        waits = [asyncio.ensure_future(stopping.wait()), asyncio.ensure_future(died.wait())]
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        for waiting in waits:
            waiting.cancel()
        if died.is_set() and not stopping.is_set():
            log("prosody exited by itself (status %d); prosody.log:\n%s"
                % (process.returncode, prosody_log(directory)))
            if receiver:
                receiver.abort()
            await stopping.wait()
            return 1
        if receiver:
            await receiver.stop()
    finally:
        test_server.stop_child(process, STOP_SECONDS, log)
    return 0


# ---------------------------------------------------------------------------
# One-shot download.

class LoopbackHTTPSConnection(http.client.HTTPSConnection):
    """HTTPS to 127.0.0.1, whatever the URL's host, which TLS still checks."""

    def connect(self):
        raw = socket.create_connection(("127.0.0.1", self.port), self.timeout)
        self.sock = self._context.wrap_socket(raw, server_hostname=self.host)


def fetch(url, ca_file):
    parts = urllib.parse.urlsplit(url)
    if parts.scheme != "https" or not parts.hostname:
        log("--fetch wants an https:// URL, not %r" % url)
        return 1
    context = ssl.create_default_context(cafile=ca_file)
    connection = LoopbackHTTPSConnection(parts.hostname, parts.port or 443, timeout=30, context=context)
    try:
        connection.request("GET", urllib.parse.urlunsplit(("", "", parts.path or "/", parts.query, "")))
        answer = connection.getresponse()
        body = answer.read()
    except (OSError, http.client.HTTPException) as error:
        log("GET %s: %s" % (url, error))
        return 1
    finally:
        connection.close()
    if answer.status != 200:
        log("GET %s: HTTP %d %s" % (url, answer.status, answer.reason))
        return 1
    sys.stdout.buffer.write(body)
    sys.stdout.buffer.flush()
    return 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--fetch":
        parser = argparse.ArgumentParser(description="Downloads one uploaded file.")
        parser.add_argument("--fetch", required=True, metavar="URL")
        parser.add_argument("--ca", required=True, metavar="CAFILE")
        args = parser.parse_args()
        return fetch(args.fetch, args.ca)

    parser = argparse.ArgumentParser(description="A private prosody on 127.0.0.1 for one test.")
    parser.add_argument("dir")
    parser.add_argument("--user", action="append", default=[], metavar="LOCAL:PASSWORD")
    parser.add_argument("--receiver", metavar="LOCAL:PASSWORD")
    parser.add_argument("--upload-limit", type=int, default=DEFAULT_UPLOAD_LIMIT, metavar="BYTES")
    parser.add_argument("--no-tls-cert-for-client", action="store_true")
    args = parser.parse_args()
    # slixmpp's own warnings and errors, on stderr like ours.
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="xmpp_server: receiver: %(message)s")
    try:
        return asyncio.run(serve(args))
    except (RuntimeError, OSError, subprocess.SubprocessError) as error:
        log(str(error))
        return 1


if __name__ == "__main__":
    sys.exit(main())
