#!/usr/bin/python3
"""bench/nearby: a large file downloaded by curl over loopback from share's
Nearby server, nginx (sendfile on) and python3 -m http.server, in one run,
the servers taking turns; throughput per run, medians and ratios to nginx;
share's peak memory (VmHWM) for each file size.

Usage: nearby_bench.py --share PATH [--sizes MiB,MiB] [--runs N] [--work DIR]"""
import argparse
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, deadline=20.0):
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit("nothing listens on port %d" % port)


def curl(url):
    """Bytes per second of one download to /dev/null, and its size."""
    out = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{speed_download} %{size_download}", url],
                         check=True, capture_output=True, text=True).stdout.split()
    return float(out[0]), int(out[1])


def make_file(path, mib):
    block = os.urandom(1 << 20)
    with open(path, "wb") as f:
        for _ in range(mib):
            f.write(block)
    # Read once so that every server starts from the page cache.
    with open(path, "rb") as f:
        while f.read(1 << 24):
            pass


class Served:
    """A peer serving the folder on self.port, ended by self.process."""

    def url(self, name):
        return "http://127.0.0.1:%d/%s" % (self.port, name)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


class Nginx(Served):
    def __init__(self, work, folder):
        self.port = free_port()
        prefix = os.path.join(work, "nginx")
        os.makedirs(os.path.join(prefix, "logs"), exist_ok=True)
        conf = os.path.join(prefix, "nginx.conf")
        with open(conf, "w") as f:
            f.write("""daemon off; master_process off; worker_processes 1; error_log %s/logs/error.log; pid %s/nginx.pid;
events { worker_connections 64; }
http { access_log off; sendfile on; tcp_nopush on; default_type application/octet-stream;
  server { listen 127.0.0.1:%d; root %s; } }
""" % (prefix, prefix, self.port, folder))
        self.process = subprocess.Popen(["nginx", "-p", prefix, "-c", conf], stdin=subprocess.DEVNULL)
        wait_port(self.port)


class PythonServer(Served):
    def __init__(self, folder):
        self.port = free_port()
        self.process = subprocess.Popen(["/usr/bin/python3", "-m", "http.server", "--bind", "127.0.0.1", str(self.port),
                                         "--directory", folder], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_port(self.port)


class Share:
    def __init__(self, binary, path, work):
        env = {"PATH": "/nonexistent", "HOME": work, "LANG": "C.UTF-8", "XDG_STATE_HOME": os.path.join(work, "state"),
               "XDG_CONFIG_HOME": os.path.join(work, "config"), "XDG_DATA_HOME": os.path.join(work, "data")}
        self.process = subprocess.Popen([binary, "--activity", "airDrop", "--bind", "127.0.0.1", "--keep", "--json", path],
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        line = b""
        while b"http://" not in line:
            line = self.process.stderr.readline()
            if not line:
                raise SystemExit("share printed no link")
        self.link = re.search(rb"http://\S+", line).group(0).decode()

    def url(self, _name):
        return self.link

    def peak_kib(self):
        with open("/proc/%d/status" % self.process.pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        return 0

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=10)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--share", required=True)
    parser.add_argument("--sizes", default="256,1024")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--work")
    args = parser.parse_args()
    for tool in ("curl", "nginx"):
        if not shutil.which(tool) and not os.path.exists("/usr/sbin/" + tool):
            raise SystemExit("bench/nearby: %s not found (make bench-deps)" % tool)
    work = args.work or tempfile.mkdtemp(prefix="share-bench-nearby.")
    folder = os.path.join(work, "files")
    os.makedirs(folder, exist_ok=True)
    print("size\tserver\tmedian MB/s\tmin\tmax\tshare ÷ nginx\tshare peak RSS")
    try:
        for mib in [int(size) for size in args.sizes.split(",")]:
            name = "file-%d.bin" % mib
            path = os.path.join(folder, name)
            make_file(path, mib)
            servers = {"nginx": Nginx(work, folder), "python": PythonServer(folder), "share": Share(args.share, path, work)}
            speeds = {key: [] for key in servers}
            try:
                for _ in range(args.runs):
                    # Taking turns: each run measures every server once.
                    for key, server in servers.items():
                        speed, size = curl(server.url(name))
                        if size != mib << 20:
                            raise SystemExit("%s sent %d bytes of %d" % (key, size, mib << 20))
                        speeds[key].append(speed / 1e6)
                peak = servers["share"].peak_kib()
            finally:
                for server in servers.values():
                    server.stop()
            nginx = statistics.median(speeds["nginx"])
            for key in ("share", "nginx", "python"):
                median = statistics.median(speeds[key])
                ratio = "%.2f×" % (median / nginx) if key != "nginx" else "1.00×"
                memory = "%.1f MiB" % (peak / 1024) if key == "share" else ""
                print("%d MiB\t%s\t%.0f\t%.0f\t%.0f\t%s\t%s" % (mib, key, median, min(speeds[key]), max(speeds[key]), ratio, memory),
                      flush=True)
            os.unlink(path)
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
