"""What the test servers in Tests/Support share: the line that says one is
ready, serving on threads of its own, and stopping.

The Swift side (Tests/ShareCLITests/ServerScript.swift) starts a server,
reads its first line, "READY <port>", and from then on connects to
127.0.0.1:<port>; it stops the server by closing its stdin. A server here
also stops on SIGTERM, SIGINT or SIGHUP, whichever comes first.

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    test_server.run_http(server)      # READY, serve, return once stopped

A server that does more (asyncio, a child program to start first) uses the
pieces: stop_event() or stop_event_async(), ready(), report(), and for a
child program free_port(), accepts(), die_with_parent() and stop_child().
"""
import asyncio
import ctypes
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)

_output = threading.Lock()


def say(line):
    """One line on stdout, whole and flushed, whichever thread says it."""
    with _output:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def ready(port):
    """Says READY <port>: the server accepts connections on 127.0.0.1:<port>."""
    say("READY %d" % port)


def report(record):
    """Reports what the server received: one JSON object (keys sorted, ASCII)
    on one line of stdout, before the server answers, so that a client that
    has its answer finds its request reported."""
    say(json.dumps(record, sort_keys=True))


def _on_stop(callback, loop=None):
    """Calls callback once, when stdin closes or on a stop signal: on a
    thread of its own (loop None) or in loop's thread, never inside a signal
    handler (which could find the main thread holding a lock that callback
    takes). Call from the main thread, which signal handlers are set from."""
    wake, woken = os.pipe()
    for number in STOP_SIGNALS:
        signal.signal(number, lambda *_: os.write(woken, b"."))

    def watch():
        # os.read, not sys.stdin: a thread blocked inside sys.stdin's buffer
        # holds its lock, and Python aborts at exit waiting for that lock.
        while True:
            readable = select.select([0, wake], [], [])[0]
            if wake in readable or not os.read(0, 4096):
                break
        if loop:
            loop.call_soon_threadsafe(callback)
        else:
            callback()
    threading.Thread(target=watch, daemon=True).start()


def stop_event():
    """A threading.Event set when stdin closes or on a stop signal. Call it
    once, from the main thread."""
    stopping = threading.Event()
    _on_stop(stopping.set)
    return stopping


def stop_event_async():
    """The same as an asyncio.Event of the running loop (in the main thread)."""
    stopping = asyncio.Event()
    _on_stop(stopping.set, asyncio.get_running_loop())
    return stopping


def run_http(server, stopping=None):
    """Serves server (an http.server ThreadingHTTPServer bound to 127.0.0.1,
    port 0) on a thread of its own and a thread a request, says READY with
    its port, and returns once stopped, the server shut down and closed.
    stopping: the stop_event() to use when the handlers wait on it too."""
    stopping = stopping or stop_event()
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    ready(server.server_address[1])
    stopping.wait()
    server.shutdown()
    server.server_close()


def free_port(taken=()):
    """A port on 127.0.0.1 that nothing listens on now (a child binds it next),
    none of taken."""
    while True:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        if port not in taken:
            return port


def accepts(port, timeout=1):
    """Whether something accepts TCP connections on 127.0.0.1:port."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout):
            return True
    except OSError:
        return False


def die_with_parent():
    """For a child's preexec_fn: SIGTERM the child if this script dies, so
    that even a script killed with SIGKILL leaves no server behind. No signal
    stays blocked either: a parent that started this script with signals
    blocked (as Foundation's Process does) would pass the mask on, and the
    child would never see the SIGTERM that stops it."""
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def stop_child(process, seconds, log=None):
    """Stops a child: SIGTERM, then SIGKILL when it has not exited after
    seconds (which log, when given, is told)."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(seconds)
        except subprocess.TimeoutExpired:
            if log:
                log("%s did not stop within %d s of SIGTERM; killing it" % (os.path.basename(process.args[0]), seconds))
            process.kill()
            process.wait()
