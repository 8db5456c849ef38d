#!/usr/bin/python3
"""A real SMTP server on 127.0.0.1 for share's tests (aiosmtpd).

Prints "READY <port>" on stdout once it listens, then serves until stdin
closes. Every accepted message is written to OUTDIR as N.eml (the bytes
received, after SMTP dot-unstuffing) and N.json (the envelope) before the
server answers 250, so a client that has finished has its message on disk.
The envelope holds the sender, the recipients, the login, whether TLS was
on, and the name the client greeted with (EHLO).

Modes:
  --rcpt-reply "451 4.3.0 Try again later"   answer RCPT TO with this
  --data-reply "554 5.7.1 Rejected"          answer the end of DATA with this
  --drop-mid-data                            close the connection during DATA
  --starttls CERT KEY --auth USER:PASS       require STARTTLS and AUTH
  --size-limit BYTES                         state SIZE in EHLO and refuse bigger messages (552)
  --oauth USER:TOKEN                         require AUTH XOAUTH2 or OAUTHBEARER for USER with TOKEN;
                                             another token is refused as stale (334 with an error JSON,
                                             then 535); each attempt is a line of OUTDIR/auth.log:
                                             "accepted MECHANISM USER" or "refused MECHANISM USER"
"""
import argparse
import asyncio
import base64
import json
import os
import ssl

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

import test_server


class Store:
    def __init__(self, outdir, rcpt_reply, data_reply):
        self.outdir = outdir
        self.rcpt_reply = rcpt_reply
        self.data_reply = data_reply
        self.count = 0

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.rcpt_reply:
            return self.rcpt_reply
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.data_reply:
            return self.data_reply
        self.count += 1
        base = os.path.join(self.outdir, str(self.count))
        with open(base + ".eml.tmp", "wb") as f:
            f.write(envelope.original_content)
        os.rename(base + ".eml.tmp", base + ".eml")
        with open(base + ".json", "w") as f:
            json.dump({"mail_from": envelope.mail_from, "rcpt_tos": envelope.rcpt_tos,
                       "login": session.auth_data.login.decode() if isinstance(session.auth_data, LoginPassword) else None,
                       "tls": session.ssl is not None, "ehlo": session.host_name,
                       "mechanism": getattr(session, "mechanism", None)}, f)
        return "250 2.0.0 Message accepted"


class OAuthStore(Store):
    """A store whose server takes OAuth2 bearer tokens (XOAUTH2, RFC 7628's OAUTHBEARER)."""

    def __init__(self, outdir, rcpt_reply, data_reply, user, token):
        super().__init__(outdir, rcpt_reply, data_reply)
        self.user = user
        self.token = token

    def note(self, line):
        with open(os.path.join(self.outdir, "auth.log"), "a") as f:
            f.write(line + "\n")

    async def check(self, server, args, mechanism, parse):
        if len(args) > 1:
            try:
                blob = base64.b64decode(args[1], validate=True)
            except ValueError:
                return AuthResult(success=False, handled=False, message="501 5.5.2 Cannot decode base64")
        else:
            blob = await server.challenge_auth("")
        user, token = parse(blob.decode("utf-8", "replace"))
        if user == self.user and token == self.token:
            self.note("accepted %s %s" % (mechanism, user))
            server.session.mechanism = mechanism
            return AuthResult(success=True, auth_data=LoginPassword(login=user.encode(), password=b""))
        self.note("refused %s %s" % (mechanism, user))
        # RFC 7628 §3.2.2 and Google's XOAUTH2: an error as a challenge, answered by a dummy line, then 535.
        error = json.dumps({"status": "401", "schemes": "bearer", "scope": "https://mail.test/"})
        await server.challenge_auth(error)
        return AuthResult(success=False, handled=False, message="535 5.7.8 Username and Password not accepted")

    async def auth_XOAUTH2(self, server, args):
        def parse(text):
            fields = dict(part.split("=", 1) for part in text.split("\x01") if "=" in part)
            return fields.get("user"), fields.get("auth", "").removeprefix("Bearer ")
        return await self.check(server, args, "XOAUTH2", parse)

    async def auth_OAUTHBEARER(self, server, args):
        def parse(text):
            header, _, rest = text.partition("\x01")
            user = next((part[2:] for part in header.split(",") if part.startswith("a=")), None)
            fields = dict(part.split("=", 1) for part in rest.split("\x01") if "=" in part)
            return user, fields.get("auth", "").removeprefix("Bearer ")
        return await self.check(server, args, "OAUTHBEARER", parse)


class DropMidData(asyncio.Protocol):
    """Speaks just enough SMTP to reach DATA, then hangs up after some bytes."""

    def connection_made(self, transport):
        self.transport = transport
        self.buffer = b""
        self.in_data = 0
        transport.write(b"220 drop.test ESMTP\r\n")

    def data_received(self, data):
        if self.in_data:
            self.in_data += len(data)
            if self.in_data > 200:
                self.transport.abort()
            return
        self.buffer += data
        while b"\r\n" in self.buffer:
            line, self.buffer = self.buffer.split(b"\r\n", 1)
            verb = line[:4].upper()
            if verb in (b"EHLO", b"HELO"):
                self.transport.write(b"250-drop.test\r\n250 SIZE 100000000\r\n")
            elif verb == b"DATA":
                self.transport.write(b"354 go ahead\r\n")
                self.in_data = 1 + len(self.buffer)
                self.buffer = b""
                return
            elif verb == b"QUIT":
                self.transport.write(b"221 bye\r\n")
                self.transport.close()
            else:
                self.transport.write(b"250 OK\r\n")


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("outdir")
    parser.add_argument("--rcpt-reply")
    parser.add_argument("--data-reply")
    parser.add_argument("--drop-mid-data", action="store_true")
    parser.add_argument("--starttls", nargs=2, metavar=("CERT", "KEY"))
    parser.add_argument("--auth")
    parser.add_argument("--size-limit", type=int, default=0)
    parser.add_argument("--oauth")
    args = parser.parse_args()
    loop = asyncio.get_running_loop()
    stopping = test_server.stop_event_async()

    if args.drop_mid_data:
        server = await loop.create_server(DropMidData, "127.0.0.1", 0)
    else:
        if args.oauth:
            user, token = args.oauth.split(":", 1)
            store = OAuthStore(args.outdir, args.rcpt_reply, args.data_reply, user, token)
        else:
            store = Store(args.outdir, args.rcpt_reply, args.data_reply)
        options = {"hostname": "smtp.test", "data_size_limit": args.size_limit}
        if args.oauth:
            options.update(auth_required=True, auth_require_tls=bool(args.starttls), auth_exclude_mechanism=["LOGIN", "PLAIN"])
        if args.starttls:
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(args.starttls[0], args.starttls[1])
            options.update(tls_context=context, require_starttls=True)
        if args.auth:
            user, password = args.auth.split(":", 1)

            def authenticate(server, session, envelope, mechanism, auth_data):
                ok = isinstance(auth_data, LoginPassword) and auth_data.login.decode() == user \
                    and auth_data.password.decode() == password
                return AuthResult(success=ok, handled=False, auth_data=auth_data)

            options.update(authenticator=authenticate, auth_required=True, auth_require_tls=bool(args.starttls))
        server = await loop.create_server(lambda: SMTP(store, **options), "127.0.0.1", 0)

    test_server.ready(server.sockets[0].getsockname()[1])
    await stopping.wait()
    server.close()


asyncio.run(main())
