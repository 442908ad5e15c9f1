#!/usr/bin/env python3
"""Reads `git diff -U0` on stdin; prints clang-tidy's -line-filter JSON for the added or changed
lines of C++ files, so the gate judges the lines a change touched, not the whole of every file
it touched (those may hold older findings the change did not make)."""
import json
import re
import sys

ranges = {}
name = None
for line in sys.stdin:
    if line.startswith("+++ "):
        path = line[4:].strip()
        name = path[2:] if path.startswith("b/") else None
        if name and not re.search(r"\.(cpp|h)$", name):
            name = None
    elif name and line.startswith("@@"):
        m = re.match(r"@@ -\S+ \+(\d+)(?:,(\d+))? @@", line)
        start, count = int(m.group(1)), int(m.group(2) or 1)
        if count:
            ranges.setdefault(name, []).append([start, start + count - 1])

root = sys.argv[1] if len(sys.argv) > 1 else ""
print(json.dumps([{"name": (root + "/" + f) if root else f, "lines": r} for f, r in sorted(ranges.items())]))
