#!/usr/bin/python3
"""A private, real CUPS scheduler on 127.0.0.1 for one of share's tests.

    cups_server.py DIR [--queue NAME:OUTFILE]... [--default NAME]
                       [--stopped NAME[:REASON]]...

Runs Debian's cupsd (packages cups-daemon, cups-client, cups-filters) in the
foreground as a child, with all of its state in DIR, a fresh folder the test
owns: DIR/cupsd.conf and DIR/cups-files.conf (written here), printers.conf,
ppd/, spool/ (jobs: cNNNNN control files, dNNNNN-NNN documents), spool/tmp/,
state/, cache/ and the logs DIR/error_log (LogLevel debug: print it when a
test fails), DIR/access_log, DIR/page_log. cupsd listens only on 127.0.0.1 at
a free port chosen here (never 631) and on no Unix socket, browses and
advertises nothing, and lets anyone on localhost print, cancel and administer
without authentication. A system cupsd, running or not, is neither used nor
touched.

Prints "READY <port>" on stdout once a real IPP request has been answered and
every queue below exists, then serves until stdin closes (or SIGTERM), then
stops cupsd (SIGTERM, then SIGKILL after 10 s) and exits 0. DIR is left as it
is (logs, spool) for the test to read and remove. Point CUPS clients at it
with CUPS_SERVER=127.0.0.1:<port> or `-h 127.0.0.1:<port>`.

  --queue NAME:OUTFILE    a queue NAME printing to the file OUTFILE, with
                          share-test-printer.ppd beside this script: a job of
                          PDF, PNG, JPEG or text leaves as PDF (%PDF-...) in
                          OUTFILE. Repeatable.
  --default NAME          makes NAME the default destination (lpadmin -d).
  --held NAME             holds every job of queue NAME until released
                          (job-hold-until-default=indefinite): jobs stay
                          held (job-state 4) until cancelled.
  --stopped NAME[:REASON] stops queue NAME (cupsdisable -r REASON): it still
                          accepts jobs, which stay pending (job-state 3) for
                          as long as the server runs; `lpstat -p NAME` says
                          "printer NAME disabled since DATE -" and, on the
                          next line, REASON (default "Paused for share
                          tests"). Repeatable.

OUTFILE, as cupsd treats a file: device:
  - cupsd opens it without creating it: it is created (empty) here, and a
    job to a queue whose OUTFILE is gone stops (job-state 6, "job-printing",
    error_log: "the scheduler could not open the output file").
  - cupsd does not truncate it: a shorter PDF printed over a longer one
    leaves the old tail behind. Empty OUTFILE before each job to one queue.
  - a job of several documents (lp a.pdf b.png) appends one PDF per
    document; a raw job (lp -o raw) writes nothing at all.

Reading jobs (separate commands, print JSON on stdout):

  cups_server.py --job-attributes DIR JOBID
      the attributes cupsd keeps for job JOBID, decoded from its control file
      DIR/spool/cNNNNN (IPP binary): what the job was submitted with
      (copies, page-ranges, sides, fit-to-page, media, document-format,
      job-name, job-originating-user-name...) and its last saved job-state.
  cups_server.py --get-job PORT JOBID
      the same job asked of the running scheduler (IPP Get-Job-Attributes):
      its live job-state, job-state-reasons and job-printer-state-message too.

  Both print one object: attribute name -> list of values. Integers and
  enums are numbers (job-state: 3 pending, 4 pending-held, 5 processing,
  6 processing-stopped, 7 canceled, 8 aborted, 9 completed), rangeOfInteger
  is [low, high], booleans are true/false, dateTime is an ISO 8601 string,
  a collection is an object of the same shape, and "no value" is null.

  What CUPS 2.4 reports: a job on a stopped queue stays 3 with reasons
  ["none"]; a finished job is 9 and a cancelled one 7, both with reasons
  ["processing-to-stop-point"] (so `lpstat -l` cannot tell them apart, and
  `lpstat -W completed` lists both); a job whose filter failed (a damaged
  PDF) stops at 6, ["job-completed-with-errors"], the filter's message in
  job-printer-state-message, and stays there.

Must run as root (cupsd sets up its spool with root:lp ownership). Filters
run as the user lp, never root, so lp must be able to reach DIR: DIR itself
is made 0755 (cupsd insists on that for its ServerRoot anyway), and every
folder above DIR must be searchable by others, as /tmp is.
"""
import argparse
import datetime
import grp
import http.client
import json
import os
import pwd
import struct
import subprocess
import sys
import time

import test_server

CUPSD = "/usr/sbin/cupsd"
LPADMIN = "/usr/sbin/lpadmin"
CUPSDISABLE = "/usr/sbin/cupsdisable"
PPD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "share-test-printer.ppd")

# How long cupsd may take to answer its first request, and to stop.
START_SECONDS = 30
STOP_SECONDS = 10
# Environment for cupsd and the CUPS commands run here: no systemd socket
# activation (LISTEN_FDS), no CUPS_* overrides from the test's environment.
CLEAN_ENV = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C", "HOME": pwd.getpwuid(os.geteuid()).pw_dir}


def log(message):
    sys.stderr.write("cups_server: %s\n" % message)
    sys.stderr.flush()


# ---------------------------------------------------------------------------
# IPP binary encoding (RFC 8010): enough to probe the scheduler and to read a
# job's attributes, from a control file or from a Get-Job-Attributes answer.
# A message is: version (2 bytes), operation or status (2), request-id (4),
# then groups, each a delimiter tag (0x01-0x0F; 0x03 ends the attributes)
# followed by attributes: value-tag (1), name length (2), name, value length
# (2), value. A further value of the same attribute has an empty name.

TAG_END = 0x03
TAG_BEGIN_COLLECTION = 0x34
TAG_END_COLLECTION = 0x37
TAG_MEMBER_NAME = 0x4A
TAG_EXTENSION = 0x7F


def decode_value(tag, value):
    if 0x10 <= tag <= 0x1F:                      # out-of-band: no-value, unknown...
        return None
    if tag in (0x21, 0x23):                      # integer, enum
        return struct.unpack(">i", value)[0]
    if tag == 0x22:                              # boolean
        return value != b"\x00"
    if tag == 0x31 and len(value) == 11:         # dateTime (RFC 2579)
        year, month, day, hour, minute, second, decis, sign, utc_h, utc_m = struct.unpack(">HBBBBBBcBB", value)
        offset = datetime.timedelta(hours=utc_h, minutes=utc_m) * (-1 if sign == b"-" else 1)
        return datetime.datetime(year, month, day, hour, minute, second, decis * 100000,
                                 datetime.timezone(offset)).isoformat()
    if tag == 0x32:                              # resolution
        x, y, units = struct.unpack(">iib", value)
        return {"x": x, "y": y, "units": "dpi" if units == 3 else "dpcm" if units == 4 else units}
    if tag == 0x33:                              # rangeOfInteger
        return list(struct.unpack(">ii", value))
    if tag in (0x35, 0x36):                      # text/nameWithLanguage: skip the language
        (length,) = struct.unpack(">H", value[:2])
        (text_length,) = struct.unpack(">H", value[2 + length:4 + length])
        return value[4 + length:4 + length + text_length].decode("utf-8", "replace")
    if tag == 0x30:                              # octetString
        return value.decode("utf-8", "replace")
    if 0x40 <= tag <= 0x5F:                      # text, name, keyword, uri, charset...
        return value.decode("utf-8", "replace")
    return value.hex()


class Reader:
    def __init__(self, data):
        self.data = data
        self.at = 0

    def take(self, count):
        if self.at + count > len(self.data):
            raise ValueError("truncated IPP message at byte %d" % self.at)
        chunk = self.data[self.at:self.at + count]
        self.at += count
        return chunk

    def attribute(self):
        """The next (tag, name, value bytes); tag < 0x10 is a group delimiter."""
        (tag,) = self.take(1)
        if tag < 0x10:
            return tag, None, None
        if tag == TAG_EXTENSION:
            (tag,) = struct.unpack(">I", self.take(4))
        (name_length,) = struct.unpack(">H", self.take(2))
        name = self.take(name_length).decode("utf-8", "replace")
        (value_length,) = struct.unpack(">H", self.take(2))
        return tag, name, self.take(value_length)

    def collection(self):
        """The members of a collection, up to its endCollection."""
        members, current = {}, None
        while True:
            tag, _, value = self.attribute()
            if tag < 0x10 or tag == TAG_END_COLLECTION:
                return members
            if tag == TAG_MEMBER_NAME:
                current = value.decode("utf-8", "replace")
                members[current] = []
            elif current is not None:
                members[current].append(self.collection() if tag == TAG_BEGIN_COLLECTION
                                        else decode_value(tag, value))


def parse_ipp(data):
    """(version, operation-or-status, request-id, groups): groups is a list of
    (delimiter tag, {name: [values]})."""
    reader = Reader(data)
    major, minor, code, request_id = struct.unpack(">BBHI", reader.take(8))
    groups, attributes, name = [], None, None
    while reader.at < len(data):
        tag, new_name, value = reader.attribute()
        if tag < 0x10:
            if tag == TAG_END:
                break
            attributes = {}
            groups.append((tag, attributes))
            continue
        if attributes is None:
            raise ValueError("IPP attribute outside a group")
        if new_name:
            name = new_name
            attributes.setdefault(name, [])
        attributes[name].append(reader.collection() if tag == TAG_BEGIN_COLLECTION else decode_value(tag, value))
    return (major, minor), code, request_id, groups


def encode_attribute(tag, name, value):
    name, value = name.encode(), value if isinstance(value, bytes) else value.encode()
    return struct.pack(">BH", tag, len(name)) + name + struct.pack(">H", len(value)) + value


def ipp_request(port, path, operation, attributes, timeout=5.0):
    """Sends one IPP/2.0 request to 127.0.0.1:port; returns parse_ipp(answer).
    `attributes` are extra operation attributes: (tag, name, value)."""
    body = struct.pack(">BBHI", 2, 0, operation, 1) + b"\x01"
    body += encode_attribute(0x47, "attributes-charset", "utf-8")
    body += encode_attribute(0x48, "attributes-natural-language", "en")
    for tag, name, value in attributes:
        body += encode_attribute(tag, name, value)
    body += bytes([TAG_END])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("POST", path, body, {"Content-Type": "application/ipp"})
        answer = connection.getresponse()
        data = answer.read()
        if answer.status != 200 or answer.getheader("Content-Type", "") != "application/ipp":
            raise ValueError("HTTP %d %s" % (answer.status, answer.getheader("Content-Type")))
        return parse_ipp(data)
    finally:
        connection.close()


def scheduler_answers(port):
    """Whether cupsd answers a real IPP request (CUPS-Get-Default: any IPP
    status, even "not found" when there is no default yet, means it works)."""
    try:
        ipp_request(port, "/", 0x4001, [], timeout=2.0)
        return True
    except (OSError, ValueError, http.client.HTTPException):
        return False


def flatten(groups, wanted=None):
    """One {name: [values]} from the groups of a message (all, or only those
    with a delimiter in `wanted`); the first of a repeated name wins."""
    merged = {}
    for tag, attributes in groups:
        if wanted is None or tag in wanted:
            for name, values in attributes.items():
                merged.setdefault(name, values)
    return merged


def job_attributes(directory, job_id):
    """The attributes in DIR/spool/cNNNNN, the control file of job `job_id`."""
    with open(os.path.join(directory, "spool", "c%05d" % job_id), "rb") as file:
        return flatten(parse_ipp(file.read())[3])


def get_job(port, job_id):
    """The job's attributes from the running scheduler (Get-Job-Attributes)."""
    _, status, _, groups = ipp_request(port, "/jobs/", 0x0009, [
        (0x45, "job-uri", "ipp://127.0.0.1:%d/jobs/%d" % (port, job_id)),
        (0x42, "requesting-user-name", pwd.getpwuid(os.geteuid()).pw_name)])
    if status >= 0x0400:
        message = flatten(groups).get("status-message", [""])[0]
        raise ValueError("Get-Job-Attributes: IPP status 0x%04x %s" % (status, message))
    return flatten(groups, wanted={0x02})


# ---------------------------------------------------------------------------
# The scheduler.

def write_config(directory, port):
    """Writes DIR/cupsd.conf and DIR/cups-files.conf and the folders they name."""
    lp_group = grp.getgrnam("lp").gr_gid
    spool = os.path.join(directory, "spool")
    temp = os.path.join(spool, "tmp")
    for path in (os.path.join(directory, "state"), os.path.join(directory, "cache"), spool, temp):
        os.makedirs(path, exist_ok=True)
    # The spool as cupsd makes it (root:lp 0710); TempDir root:lp 1770 like
    # Debian's /var/spool/cups/tmp, so that filters (user lp) can write there.
    # cupsd repairs DIR, spool, state and cache itself, but not TempDir.
    os.chown(spool, 0, lp_group)
    os.chmod(spool, 0o710)
    os.chown(temp, 0, lp_group)
    os.chmod(temp, 0o1770)

    with open(os.path.join(directory, "cups-files.conf"), "w") as conf:
        conf.write(f"""# cups-files.conf of a private scheduler for one test (cups_server.py)
ServerRoot {directory}
StateDir {directory}/state
CacheDir {directory}/cache
RequestRoot {spool}
TempDir {temp}
DataDir /usr/share/cups
ServerBin /usr/lib/cups
ErrorLog {directory}/error_log
AccessLog {directory}/access_log
PageLog {directory}/page_log
# Not /run/cups/printcap, which is the system scheduler's.
Printcap {directory}/printcap
# cupsd refuses to run filters as root: they run as lp, group lp.
User lp
Group lp
SystemGroup root
# Queues whose device is a plain file (file:OUTFILE).
FileDevice Yes
""")

    with open(os.path.join(directory, "cupsd.conf"), "w") as conf:
        conf.write(f"""# cupsd.conf of a private scheduler for one test (cups_server.py)
LogLevel debug
MaxLogSize 0
# TCP on the loopback only, at a private port; no Unix domain socket.
Listen 127.0.0.1:{port}
ServerAlias *
Browsing No
BrowseLocalProtocols none
WebInterface No
DefaultAuthType None
DefaultEncryption Never
# Save job and printer state at once, not up to 30 s later.
DirtyCleanInterval 0
# Keep finished jobs, their control files and their documents in spool/.
PreserveJobHistory Yes
PreserveJobFiles Yes

<Location />
  Order allow,deny
  Allow from 127.0.0.1
</Location>

# Anyone on localhost may do anything, without authentication.
<Policy default>
  JobPrivateAccess all
  JobPrivateValues none
  SubscriptionPrivateAccess all
  SubscriptionPrivateValues none
  <Limit All>
    Order deny,allow
  </Limit>
</Policy>
""")


def error_log_tail(directory, lines=40):
    """The last `lines` lines of DIR/error_log (all of it for None)."""
    try:
        with open(os.path.join(directory, "error_log"), errors="replace") as file:
            return "".join(file.readlines()[-lines:] if lines else file.readlines())
    except OSError:
        return "(no error_log)\n"


def start_cupsd(directory):
    """Starts cupsd on a free port; returns (process, port) once it answers IPP."""
    for _ in range(3):
        port = test_server.free_port()
        write_config(directory, port)
        process = subprocess.Popen(
            [CUPSD, "-f", "-c", os.path.join(directory, "cupsd.conf"), "-s", os.path.join(directory, "cups-files.conf")],
            stdin=subprocess.DEVNULL, stdout=sys.stderr, stderr=sys.stderr, env=CLEAN_ENV,
            preexec_fn=test_server.die_with_parent)
        # A cupsd that cannot bind its port logs so and goes on running, deaf.
        taken = "Unable to open listen socket for address 127.0.0.1:%d " % port
        deadline = time.monotonic() + START_SECONDS
        while process.poll() is None and time.monotonic() < deadline:
            if scheduler_answers(port):
                return process, port
            if taken in error_log_tail(directory, lines=None):
                break
            time.sleep(0.05)
        running = process.poll() is None
        test_server.stop_child(process, STOP_SECONDS, log)
        tail = error_log_tail(directory)
        if taken in error_log_tail(directory, lines=None):
            # Another process took the port between free_port() and cupsd: again.
            log("port %d was taken; trying another" % port)
            continue
        if running:
            raise RuntimeError("cupsd did not answer within %d s; error_log ends:\n%s" % (START_SECONDS, tail))
        raise RuntimeError("cupsd exited with status %d; error_log ends:\n%s" % (process.returncode, tail))
    raise RuntimeError("cupsd found no free port")


def run(command):
    """Runs a CUPS command; its output is shown only if it fails."""
    done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          env=CLEAN_ENV, timeout=START_SECONDS)
    if done.returncode != 0:
        raise RuntimeError("%s failed (%d): %s%s" % (" ".join(command), done.returncode, done.stdout, done.stderr))


def configure(port, queues, default, stopped, held):
    server = "127.0.0.1:%d" % port
    for name, outfile in queues:
        # cupsd (root) opens a file: device for writing but does not create it.
        if not os.path.exists(outfile):
            with open(outfile, "wb"):
                pass
        run([LPADMIN, "-h", server, "-p", name, "-E", "-v", "file:" + outfile, "-P", PPD])
    if default:
        run([LPADMIN, "-h", server, "-d", default])
    for name, reason in stopped:
        run([CUPSDISABLE, "-h", server, "-r", reason, name])
    for name in held:
        run([LPADMIN, "-h", server, "-p", name, "-o", "job-hold-until-default=indefinite"])


def check_reachable(directory):
    """Fails unless the user lp can reach DIR (filters run as lp)."""
    parent = os.path.dirname(directory)
    while True:
        if not os.stat(parent).st_mode & 0o001:
            raise RuntimeError("%s is not searchable by others (mode %o): the filters, which run as the user lp, "
                               "could not reach %s; use a folder under /tmp"
                               % (parent, os.stat(parent).st_mode & 0o7777, directory))
        if parent == "/":
            return
        parent = os.path.dirname(parent)


def serve(args):
    directory = os.path.realpath(args.dir)
    if os.geteuid() != 0:
        raise RuntimeError("must run as root")
    os.makedirs(directory, exist_ok=True)
    os.chmod(directory, 0o755)
    check_reachable(directory)
    queues = []
    for spec in args.queue:
        name, sep, outfile = spec.partition(":")
        if not sep or not name or not outfile:
            raise RuntimeError("--queue wants NAME:OUTFILE, not %r" % spec)
        queues.append((name, os.path.abspath(outfile)))
    stopped = []
    for spec in args.stopped:
        name, _, reason = spec.partition(":")
        stopped.append((name, reason or "Paused for share tests"))

    stopping = test_server.stop_event()
    process, port = start_cupsd(directory)
    try:
        configure(port, queues, args.default, stopped, args.held)
        test_server.ready(port)
        while not stopping.wait(0.5):
            if process.poll() is not None:
                log("cupsd exited by itself (status %d); error_log ends:\n%s"
                    % (process.returncode, error_log_tail(directory)))
                stopping.wait()
                return 1
    finally:
        test_server.stop_child(process, STOP_SECONDS, log)
    return 0


def main():
    if len(sys.argv) == 4 and sys.argv[1] in ("--job-attributes", "--get-job"):
        try:
            job_id = int(sys.argv[3])
            if sys.argv[1] == "--job-attributes":
                attributes = job_attributes(sys.argv[2], job_id)
            else:
                attributes = get_job(int(sys.argv[2]), job_id)
        except (OSError, ValueError, http.client.HTTPException) as error:
            log(str(error))
            return 1
        json.dump(attributes, sys.stdout, indent=1, sort_keys=True)
        sys.stdout.write("\n")
        return 0

    parser = argparse.ArgumentParser(description="A private cupsd on 127.0.0.1 for one test.")
    parser.add_argument("dir")
    parser.add_argument("--queue", action="append", default=[], metavar="NAME:OUTFILE")
    parser.add_argument("--default", metavar="NAME")
    parser.add_argument("--stopped", action="append", default=[], metavar="NAME[:REASON]")
    parser.add_argument("--held", action="append", default=[], metavar="NAME")
    args = parser.parse_args()
    try:
        return serve(args)
    except (RuntimeError, OSError, subprocess.SubprocessError) as error:
        log(str(error))
        return 1


if __name__ == "__main__":
    sys.exit(main())
