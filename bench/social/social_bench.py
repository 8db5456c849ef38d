#!/usr/bin/python3
"""bench/social: a video posted to Vimeo's tus upload by share, beside curl
sending the same file to the same kind of upload link, against the test
suite's Vimeo API on 127.0.0.1 (Tests/Support/social_servers.py, TLS).

For each size, share runs in tmux (its form needs a terminal) under GNU
time, Ctrl-X posts, and the run ends when share exits; curl then PATCHes
the same file (one request, -T FILE, which curl streams) to a
fresh upload link. Printed per size: peak RSS and wall time of both, and
the ratios. share's peak must stay flat as the file grows (it reads the
file as it sends it); so must curl's.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SERVER = os.path.join(ROOT, "Tests", "Support", "social_servers.py")
TOKEN = "s3cret-token"


def video(path, mib):
    """An MP4 to libmagic (an ftyp box), then zeros: written sparse, read as bytes."""
    with open(path, "wb") as out:
        out.write(b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom")
        out.truncate(mib << 20)


def timed(command, output):
    return ["/usr/bin/time", "-f", "%M %e", "-o", output] + command


def read_time(path):
    for _ in range(600):
        if os.path.exists(path) and os.path.getsize(path) > 0:
            words = open(path).read().split()
            if len(words) >= 2:
                return int(words[-2]), float(words[-1])
        time.sleep(0.1)
    raise SystemExit("bench/social: no time report in %s" % path)


def run_share(share, config, file, work, name):
    report = os.path.join(work, name + ".time")
    socket = os.path.join(work, "tmux")
    command = timed([share, "--config", config, "--json", "--activity", "postToVimeo", file], report)
    script = " ".join("'%s'" % word.replace("'", "'\\''") for word in command) + " > " + os.path.join(work, name + ".json")
    subprocess.run(["tmux", "-S", socket, "new-session", "-d", "-x", "100", "-y", "30", script], check=True,
                   env=dict(os.environ, TERM="xterm-256color"))
    deadline = time.time() + 30
    while True:
        screen = subprocess.run(["tmux", "-S", socket, "capture-pane", "-p"], capture_output=True, text=True).stdout
        if "Post to Vimeo" in screen:
            break
        if time.time() > deadline:
            raise SystemExit("bench/social: the form did not open:\n" + screen)
        time.sleep(0.05)
    subprocess.run(["tmux", "-S", socket, "send-keys", "C-x"], check=True)
    rss, seconds = read_time(report)
    subprocess.run(["tmux", "-S", socket, "kill-server"], capture_output=True)
    outcome = json.load(open(os.path.join(work, name + ".json")))
    if outcome.get("outcome") != "sent":
        raise SystemExit("bench/social: share did not post: %s" % outcome)
    return rss, seconds


def run_curl(origin, cert, file, size, work, name):
    made = subprocess.run(["curl", "-sS", "--cacert", cert, "-H", "Authorization: bearer " + TOKEN,
                           "-H", "Accept: application/vnd.vimeo.*+json;version=3.4", "-H", "Content-Type: application/json",
                           "--data", json.dumps({"upload": {"approach": "tus", "size": size}, "name": name}),
                           origin + "/me/videos"], capture_output=True, text=True, check=True)
    link = json.loads(made.stdout)["upload"]["upload_link"]
    report = os.path.join(work, name + ".time")
    subprocess.run(timed(["curl", "-sS", "-o", "/dev/null", "--cacert", cert, "-X", "PATCH", "-H", "Tus-Resumable: 1.0.0",
                          "-H", "Upload-Offset: 0", "-H", "Content-Type: application/offset+octet-stream",
                          "-H", "Expect:", "-T", file, link], report), check=True)
    return read_time(report)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--share", required=True)
    parser.add_argument("--sizes", default="64,1024")
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    for tool in ("tmux", "curl", "/usr/bin/time", "openssl"):
        if not shutil.which(tool):
            raise SystemExit("bench/social: %s is missing (make bench installs it)" % tool)
    work = tempfile.mkdtemp(prefix="share-bench-social-")
    cert, key = os.path.join(work, "cert.pem"), os.path.join(work, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], check=True, capture_output=True)
    server = subprocess.Popen(["/usr/bin/python3", SERVER, "--api", "vimeo", "--cert", cert, "--key", key],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    port = int(server.stdout.readline().split()[1])
    # The reports of each request are not read here: drained so that the server never blocks on a full pipe.
    import threading
    threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
    origin = "https://localhost:%d" % port
    config = os.path.join(work, "config")
    with open(config, "w") as out:
        out.write("[social]\nenabled = vimeo\n\n[social.vimeo]\napi = %s\nca-file = %s\ntoken-command = printf '%%s\\n' '%s'\n"
                  % (origin, cert, TOKEN))
    print("bench/social: share %s; %d runs per size, taking turns with curl" % (options.share, options.runs))
    print("%8s  %22s  %22s  %12s  %12s" % ("size", "share peak / time", "curl peak / time", "peak ratio", "time ratio"))
    try:
        for mib in [int(size) for size in options.sizes.split(",")]:
            file = os.path.join(work, "clip-%d.mp4" % mib)
            video(file, mib)
            shares, curls = [], []
            for run in range(options.runs):
                shares.append(run_share(options.share, config, file, work, "share-%d-%d" % (mib, run)))
                curls.append(run_curl(origin, cert, file, mib << 20, work, "curl-%d-%d" % (mib, run)))
            share_rss = statistics.median(rss for rss, _ in shares) / 1024
            share_time = statistics.median(seconds for _, seconds in shares)
            curl_rss = statistics.median(rss for rss, _ in curls) / 1024
            curl_time = statistics.median(seconds for _, seconds in curls)
            print("%5d MiB  %9.1f MiB %7.2f s  %9.1f MiB %7.2f s  %11.2fx  %11.2fx"
                  % (mib, share_rss, share_time, curl_rss, curl_time, share_rss / curl_rss, share_time / curl_time))
            os.remove(file)
    finally:
        server.stdin.close()
        server.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
