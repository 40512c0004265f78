#!/usr/bin/env python3
"""Prints a Markdown table (variants x mask sizes, kernel Gpixel/s) from the
JSON that `liveconv bench --json` writes. Usage: scripts/bench-table.py BENCH.json"""
import collections
import json
import sys

data = json.load(open(sys.argv[1]))
table = collections.OrderedDict()
masks = []
for r in data["results"]:
    if r["mask"] not in masks:
        masks.append(r["mask"])
    cell = "-" if r["error"] else "%.1f" % (r["kernel_mpix_s"] / 1000.0)
    if r["variant"] == "auto" and not r["error"]:
        cell += " (%s)" % r["chosen"] if r.get("chosen") else ""
    table.setdefault(r["variant"], {})[r["mask"]] = cell
print("| variant | " + " | ".join(masks) + " |")
print("|---" * (len(masks) + 1) + "|")
for variant, cells in table.items():
    print("| %s | %s |" % (variant, " | ".join(cells.get(m, "") for m in masks)))
