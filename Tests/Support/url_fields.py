#!/usr/bin/python3
"""Splits each URL given on standard input (one per line) with Python's own
parser, and prints one JSON object per line: scheme, host, path, and the
query as a list of [name, value] pairs, decoded (an independent check of the
share links share builds)."""
import json
import sys
from urllib.parse import parse_qsl, urlsplit

for line in sys.stdin:
    url = line.rstrip("\n")
    parts = urlsplit(url)
    pairs = parse_qsl(parts.query, keep_blank_values=True, strict_parsing=bool(parts.query), errors="strict")
    print(json.dumps({"scheme": parts.scheme, "host": parts.netloc, "path": parts.path,
                      "query": [list(pair) for pair in pairs], "fragment": parts.fragment}, ensure_ascii=False))
