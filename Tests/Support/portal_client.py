"""An application asking the desktop's Email portal for a mail, as a
sandboxed program does: xdg-desktop-portal (Debian's) started on this
session bus, then org.freedesktop.portal.Email.ComposeEmail called on it,
by `gdbus call` (--gdbus) or through Gio with the attachments' descriptors
(attachment_fds), and the request's Response signal awaited.

Usage (inside dbus-run-session; it starts itself under one when there is
no session bus): portal_client.py [--gdbus] [--to A]... [--cc A]...
[--bcc A]... [--subject S] [--body B] [--attach PATH]...

Prints `READY <pid of xdg-desktop-portal>` once the call is made, then
`HANDLE <the request's object path>`, then (not with --gdbus: the portal
signals the answer to the caller alone, and gdbus has gone by then)
`RESPONSE <code>` when the portal answers. Ends when stdin closes, or
after the answer."""

import os
import signal
import subprocess
import sys
import threading

# The test runner starts this with most signals blocked (its thread's mask);
# the bus, the portal and what they start get the mask a desktop session has.
signal.pthread_sigmask(signal.SIG_SETMASK, [])
if "DBUS_SESSION_BUS_ADDRESS" not in os.environ:
    # A bus of the test's own: D-Bus starts only the services of its folders
    # ($XDG_DATA_DIRS/dbus-1/services: share-portal), none of the machine's
    # (the document portal would mount a FUSE file system in the test's folder).
    config = os.path.join(os.environ["XDG_RUNTIME_DIR"], "bus.conf")
    folders = "".join("<servicedir>%s/dbus-1/services</servicedir>" % folder
                      for folder in os.environ.get("XDG_DATA_DIRS", "").split(":") if folder and folder != "/usr/share")
    with open(config, "w") as file:
        file.write("<busconfig><type>session</type><listen>unix:tmpdir=%s</listen>%s"
                   "<policy context='default'><allow send_destination='*' eavesdrop='true'/><allow eavesdrop='true'/>"
                   "<allow own='*'/></policy></busconfig>" % (os.environ["XDG_RUNTIME_DIR"], folders))
    os.execvp("dbus-run-session", ["dbus-run-session", "--config-file=" + config, "--", sys.executable] + sys.argv)

from gi.repository import Gio, GLib  # noqa: E402


def main():
    arguments = sys.argv[1:]
    use_gdbus = "--gdbus" in arguments
    to, cc, bcc, attach = [], [], [], []
    subject = body = None
    index = 0
    while index < len(arguments):
        word = arguments[index]
        if word == "--gdbus":
            index += 1
            continue
        value = arguments[index + 1]
        if word == "--to":
            to.append(value)
        elif word == "--cc":
            cc.append(value)
        elif word == "--bcc":
            bcc.append(value)
        elif word == "--subject":
            subject = value
        elif word == "--body":
            body = value
        elif word == "--attach":
            attach.append(value)
        else:
            sys.exit("unknown argument " + word)
        index += 2

    portal = subprocess.Popen(["/usr/libexec/xdg-desktop-portal", "-r", "-v"], stdout=sys.stderr, stderr=sys.stderr)
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    loop = GLib.MainLoop()

    def owner_appeared(*_):
        loop.quit()

    watch = Gio.bus_watch_name_on_connection(bus, "org.freedesktop.portal.Desktop", Gio.BusNameWatcherFlags.NONE,
                                             owner_appeared, None)
    def too_late():
        print("xdg-desktop-portal did not take its name in 20 s", file=sys.stderr, flush=True)
        os._exit(1)

    timeout = GLib.timeout_add_seconds(20, too_late)
    loop.run()
    GLib.source_remove(timeout)
    Gio.bus_unwatch_name(watch)

    answer = {}

    def response(_connection, _sender, path, _interface, _signal, parameters):
        answer[path] = parameters.unpack()[0]
        if answer.get(handle[0]) is not None:
            print("RESPONSE %d" % answer[handle[0]], flush=True)
            loop.quit()

    handle = [None]
    bus.signal_subscribe(None, "org.freedesktop.portal.Request", "Response", None, None,
                         Gio.DBusSignalFlags.NONE, response)

    if use_gdbus:
        fields = []
        if to:
            fields.append("'addresses': <%s>" % to)
        if cc:
            fields.append("'cc': <%s>" % cc)
        if bcc:
            fields.append("'bcc': <%s>" % bcc)
        if subject is not None:
            fields.append("'subject': <%s>" % GLib.Variant("s", subject).print_(False))
        if body is not None:
            fields.append("'body': <%s>" % GLib.Variant("s", body).print_(False))
        called = subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.portal.Desktop", "--object-path",
                                 "/org/freedesktop/portal/desktop", "--method",
                                 "org.freedesktop.portal.Email.ComposeEmail", "", "{" + ", ".join(fields) + "}"],
                                capture_output=True, text=True)
        if called.returncode != 0:
            sys.exit("gdbus call failed: " + called.stderr)
        handle[0] = GLib.Variant.parse(None, called.stdout.strip(), None, None).unpack()[0]
    else:
        descriptors = Gio.UnixFDList()
        indices = []
        for path in attach:
            fd = os.open(path, os.O_RDONLY)
            indices.append(descriptors.append(fd))
            os.close(fd)
        options = {"attachment_fds": GLib.Variant("ah", indices)}
        if to:
            options["addresses"] = GLib.Variant("as", to)
        if cc:
            options["cc"] = GLib.Variant("as", cc)
        if bcc:
            options["bcc"] = GLib.Variant("as", bcc)
        if subject is not None:
            options["subject"] = GLib.Variant("s", subject)
        if body is not None:
            options["body"] = GLib.Variant("s", body)
        reply, _ = bus.call_with_unix_fd_list_sync(
            "org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop", "org.freedesktop.portal.Email",
            "ComposeEmail", GLib.Variant("(sa{sv})", ("", options)), GLib.VariantType("(o)"), Gio.DBusCallFlags.NONE, -1,
            descriptors, None)
        handle[0] = reply.unpack()[0]

    print("READY %d" % portal.pid, flush=True)
    print("HANDLE " + handle[0], flush=True)
    if answer.get(handle[0]) is not None:
        print("RESPONSE %d" % answer[handle[0]], flush=True)
    elif use_gdbus:
        sys.stdin.read()
    else:
        # The test closes stdin to stop early.
        def stdin_closed():
            sys.stdin.read()
            GLib.idle_add(loop.quit)
        threading.Thread(target=stdin_closed, daemon=True).start()
        loop.run()
    portal.terminate()
    portal.wait()


main()
