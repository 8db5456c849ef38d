#!/usr/bin/python3
"""A fast SMTP sink on 127.0.0.1 for benchmarks: speaks just enough SMTP,
discards the message bytes, and answers 250 at the end of DATA. Prints
"READY <port>" and serves until stdin closes."""
import socket
import sys
import threading


def serve(conn):
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    f = conn.makefile("rb", buffering=1 << 20)
    conn.sendall(b"220 sink ESMTP\r\n")
    while True:
        line = f.readline()
        if not line:
            break
        verb = line[:4].upper()
        if verb in (b"EHLO", b"HELO"):
            conn.sendall(b"250-sink\r\n250-8BITMIME\r\n250 SIZE 0\r\n")
        elif verb == b"DATA":
            conn.sendall(b"354 go\r\n")
            tail = b""
            while True:
                chunk = f.read1(1 << 20)
                if not chunk:
                    return
                tail = (tail + chunk[-5:])[-5:] if len(chunk) < 5 else chunk[-5:]
                if tail == b"\r\n.\r\n":
                    break
            conn.sendall(b"250 accepted\r\n")
        elif verb == b"QUIT":
            conn.sendall(b"221 bye\r\n")
            break
        else:
            conn.sendall(b"250 OK\r\n")
    conn.close()


server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", 0))
server.listen(8)
print("READY", server.getsockname()[1], flush=True)


def accept():
    while True:
        conn, _ = server.accept()
        threading.Thread(target=serve, args=(conn,), daemon=True).start()


threading.Thread(target=accept, daemon=True).start()
sys.stdin.read()
