#!/usr/bin/python3
"""Parses a message with Python's email package (policy.default), the
independent judge of share's MIME output, and prints what it found as JSON."""
import hashlib
import json
import re
import sys
from email import policy
from email.parser import BytesParser

raw = open(sys.argv[1], "rb").read()
message = BytesParser(policy=policy.default).parsebytes(raw)

defects = [f"message: {type(d).__name__}" for d in message.defects]
headers = {}
for name in message.keys():
    value = message[name]
    defects += [f"{name}: {type(d).__name__}" for d in getattr(value, "defects", [])]
    headers.setdefault(name.lower(), []).append(str(value))

addresses = {}
for name in ("from", "to", "cc", "bcc"):
    if message[name] is not None:
        addresses[name] = [{"name": a.display_name, "addr": a.addr_spec} for a in message[name].addresses]

parts = []
for part in message.walk():
    defects += [f"part {part.get_content_type()}: {type(d).__name__}" for d in part.defects]
    if part.is_multipart():
        parts.append({"type": part.get_content_type()})
        continue
    payload = part.get_payload(decode=True) or b""
    entry = {"type": part.get_content_type(), "cte": part.get("Content-Transfer-Encoding", ""),
             "filename": part.get_filename(), "sha256": hashlib.sha256(payload).hexdigest(), "size": len(payload),
             "charset": part.get_param("charset")}
    if part.get_content_maintype() == "text" and part.get_filename() is None:
        entry["text"] = part.get_content()
    parts.append(entry)

lines = raw.split(b"\r\n")
header_block = raw.split(b"\r\n\r\n", 1)[0]
words = re.findall(rb"=\?[^?\s]+\?[bBqQ]\?[^?\s]*\?=", raw)
print(json.dumps({
    "defects": defects,
    "headers": headers,
    "addresses": addresses,
    "parts": parts,
    "max_line": max(len(l) for l in lines),
    "max_header_line": max(len(l) for l in header_block.split(b"\r\n")),
    "bare_lf": raw.replace(b"\r\n", b"").count(b"\n"),
    "longest_encoded_word": max((len(w) for w in words), default=0),
    "has_bcc_header": any(l.lower().startswith(b"bcc:") for l in header_block.split(b"\r\n")),
}, ensure_ascii=False))
