#!/usr/bin/python3
"""OpenPGP for share's tests, with gpg itself as the independent judge.

  keys HOME [--passphrase WORD]   make a keyring in HOME (mode 0700) with keys for
                                  kim@, lee@ and boss@example.com (ed25519 to sign,
                                  cv25519 to encrypt; kim's key protected by WORD
                                  when given), trust-model always, the curses
                                  pinentry; prints {name: {fpr, encryption keyid}}
  check HOME MESSAGE              what a message is: a multipart/signed's signed
                                  part verified by gpg --verify exactly as it stands
                                  (and whether its lines all end in CRLF, and the
                                  micalg against the hash gpg reports), or a
                                  multipart/encrypted decrypted by gpg --decrypt
                                  with the key ids it is encrypted to; the inner
                                  parts read by Python's email and mblaze's mshow
  peak COMMAND…                    runs COMMAND and prints its exit status and the
                                  peak resident memory (KiB) of it and of what it ran
  stop HOME                       stops the keyring's gpg-agent
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from email import policy
from email.parser import BytesParser

HASHES = {"1": "md5", "2": "sha1", "3": "ripemd160", "8": "sha256", "9": "sha384", "10": "sha512", "11": "sha224"}
PEOPLE = [("kim", "Kim <kim@example.com>"), ("lee", "Lee <lee@example.com>"), ("boss", "Boss <boss@example.com>")]


def gpg(home, *arguments, data=None):
    return subprocess.run(["gpg", "--homedir", home, "--batch", "--status-fd", "2"] + list(arguments),
                          input=data, capture_output=True, timeout=60)


def keys(home, passphrase):
    os.makedirs(home, mode=0o700, exist_ok=True)
    os.chmod(home, 0o700)
    with open(os.path.join(home, "gpg.conf"), "w") as conf:
        conf.write("trust-model always\n")
    with open(os.path.join(home, "gpg-agent.conf"), "w") as conf:
        conf.write("pinentry-program /usr/bin/pinentry-curses\nallow-loopback-pinentry\n")
    made = {}
    for name, uid in PEOPLE:
        word = passphrase if name == "kim" and passphrase else ""
        for step in (["--quick-gen-key", uid, "ed25519", "sign", "1d"], None):
            if step is None:
                fpr = fingerprint(home, uid)
                step = ["--quick-add-key", fpr, "cv25519", "encr", "1d"]
            result = gpg(home, "--pinentry-mode", "loopback", "--passphrase", word, *step)
            if result.returncode != 0:
                sys.exit("gpg %s: %s" % (" ".join(step), result.stderr.decode()))
        made[name] = {"fpr": fingerprint(home, uid), "encryption": encryption_keyid(home, uid)}
    print(json.dumps(made))


def fingerprint(home, uid):
    listing = gpg(home, "--with-colons", "--list-keys", uid).stdout.decode()
    return next(line.split(":")[9] for line in listing.splitlines() if line.startswith("fpr:"))


def encryption_keyid(home, uid):
    listing = gpg(home, "--with-colons", "--list-keys", uid).stdout.decode()
    subkeys = [line.split(":") for line in listing.splitlines() if line.startswith("sub:")]
    return next(fields[4] for fields in subkeys if "e" in fields[11])


def parts_of(raw):
    """The header and the body parts of a multipart message, as bytes exactly as they stand."""
    head, _, body = raw.partition(b"\r\n\r\n")
    message = BytesParser(policy=policy.default).parsebytes(head + b"\r\n\r\n")
    boundary = message.get_param("boundary").encode()
    delimiter = b"\r\n--" + boundary
    start = body.index(b"--" + boundary + b"\r\n") + len(boundary) + 4
    pieces = []
    while True:
        end = body.index(delimiter, start)
        pieces.append(body[start:end])
        if body[end + len(delimiter):end + len(delimiter) + 2] == b"--":
            break
        start = end + len(delimiter) + 2
    return message, pieces


def mshow(data):
    with tempfile.NamedTemporaryFile(suffix=".eml") as file:
        file.write(data)
        file.flush()
        return subprocess.run(["mshow", "-t", file.name], capture_output=True, timeout=30).stdout.decode(errors="replace")


def inner(data):
    message = BytesParser(policy=policy.default).parsebytes(data)
    types, text = [], None
    for part in message.walk():
        types.append(part.get_content_type())
        if text is None and part.get_content_type() == "text/plain" and part.get_filename() is None:
            text = part.get_content().replace("\r\n", "\n")
    return types, text, [str(d) for d in message.defects]


def check(home, path):
    raw = open(path, "rb").read()
    message, pieces = parts_of(raw)
    report = {"type": message.get_content_type(), "mshow": mshow(raw)}
    if report["type"] == "multipart/signed":
        signed, signature = pieces[0], pieces[1].partition(b"\r\n\r\n")[2]
        report["micalg"] = message.get_param("micalg")
        report["protocol"] = message.get_param("protocol")
        report["signatureType"] = BytesParser(policy=policy.default).parsebytes(pieces[1]).get_content_type()
        report["crlf"] = re.search(rb"(?<!\r)\n", signed) is None and b"\r\n" in signed
        with tempfile.TemporaryDirectory() as folder:
            open(os.path.join(folder, "part"), "wb").write(signed)
            open(os.path.join(folder, "sig.asc"), "wb").write(signature)
            result = gpg(home, "--verify", os.path.join(folder, "sig.asc"), os.path.join(folder, "part"))
        status = result.stderr.decode()
        valid = re.search(r"VALIDSIG (\S+) \S+ \S+ \S+ \S+ \S+ \S+ (\S+)", status)
        report["verified"] = result.returncode == 0 and valid is not None
        report["signer"] = valid.group(1) if valid else None
        report["hash"] = "pgp-" + HASHES.get(valid.group(2), "?") if valid else None
        report["inner"], report["text"], report["defects"] = inner(signed)
    elif report["type"] == "multipart/encrypted":
        report["protocol"] = message.get_param("protocol")
        control = pieces[0].partition(b"\r\n\r\n")
        report["control"] = [BytesParser(policy=policy.default).parsebytes(pieces[0]).get_content_type(),
                             control[2].decode().strip()]
        armored = pieces[1].partition(b"\r\n\r\n")[2]
        packets = gpg(home, "--list-packets", data=armored)
        report["keyids"] = re.findall(r"pubkey enc packet: .*keyid (\w+)", packets.stdout.decode())
        result = gpg(home, "--decrypt", data=armored)
        status = result.stderr.decode()
        report["decrypted"] = result.returncode == 0 and "DECRYPTION_OKAY" in status
        valid = re.search(r"VALIDSIG (\S+)", status)
        report["signer"] = valid.group(1) if valid else None
        report["inner"], report["text"], report["defects"] = inner(result.stdout)
    print(json.dumps(report))


def main():
    if sys.argv[1] == "keys":
        passphrase = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--passphrase" else None
        keys(sys.argv[2], passphrase)
    elif sys.argv[1] == "check":
        check(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "peak":
        import resource
        status = subprocess.run(sys.argv[2:], stdin=subprocess.DEVNULL, capture_output=True, timeout=600).returncode
        print(json.dumps({"status": status, "share": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
    elif sys.argv[1] == "stop":
        subprocess.run(["gpgconf", "--homedir", sys.argv[2], "--kill", "all"], timeout=30)


main()
