#!/usr/bin/env python3
"""Checks a regenerated torus-against-fat-tree study (regress/torus_fat_tree/run): every figure,
table and CSV is there; along every curve no point ran past its first saturated one and the mean
latency does not fall as the load grows (beyond 3%: the window's noise); adaptive routing on the
torus accepts at least as much uniform traffic as dimension order; and where a sweep also ran in
AT, LT with buffers is within 3% of AT at the lightest load."""

import csv
import glob
import json
import os
import sys

out = sys.argv[1]
failures = []
csvs = sorted(glob.glob(os.path.join(out, "*.csv")))
if not csvs:
    sys.exit(f"check.py: no CSV in {out}")
for path in csvs:
    name = os.path.basename(path)[:-4]
    if not name.endswith("_at"):
        for ext in ("png", "svg"):
            if not os.path.exists(os.path.join(out, f"{name}.{ext}")):
                failures.append(f"{name}.{ext} missing")
    lines = {}
    for r in csv.DictReader(open(path, newline="")):
        key = tuple(v for k, v in r.items() if k in ("topology.kind", "router.routing")
                    or (k.startswith("traffic.") and k != "traffic.rate"))
        lines.setdefault(key, []).append(r)
    for key, rows in lines.items():
        rows.sort(key=lambda r: float(r["traffic.rate"]))
        ran = [r for r in rows if r["status"] == "ok"]
        if len(ran) + sum(r["status"] == "beyond_saturation" for r in rows) != len(rows):
            failures.append(f"{name} {key}: points neither run nor beyond saturation")
        first_saturated = next((i for i, r in enumerate(ran) if r["saturated"] == "true"), None)
        if first_saturated is not None and first_saturated != len(ran) - 1:
            failures.append(f"{name} {key}: points ran after the first saturated one")
        sustained = [float(r["latency_cycles.mean"]) for r in ran if r["saturated"] != "true"]
        for a, b in zip(sustained, sustained[1:]):
            if b < 0.97 * a:
                failures.append(f"{name} {key}: latency falls with load: {sustained}")
                break
if not os.path.exists(os.path.join(out, "REPORT.md")):
    failures.append("REPORT.md missing")
summary = json.load(open(os.path.join(out, "summary.json")))
for name, curves in summary.items():
    if not name.startswith("uniform_") or not isinstance(curves, dict):
        continue
    dor, adaptive = curves.get("torus DOR|"), curves.get("torus adaptive|")
    if dor and adaptive and adaptive["saturation_throughput"] < dor["saturation_throughput"]:
        failures.append(f"{name}: adaptive accepts less than dimension order: "
                        f"{adaptive['saturation_throughput']} < {dor['saturation_throughput']}")
for at_path in glob.glob(os.path.join(out, "*_at.csv")):
    lt_rows = list(csv.DictReader(open(at_path[:-len("_at.csv")] + ".csv", newline="")))
    for r in csv.DictReader(open(at_path, newline="")):
        twin = [t for t in lt_rows if t["point"] == r["point"]]
        if r["status"] != "ok" or not twin or twin[0]["status"] != "ok":
            continue
        if float(r["traffic.rate"]) == min(float(t["traffic.rate"]) for t in lt_rows):
            at, lt = float(r["latency_cycles.mean"]), float(twin[0]["latency_cycles.mean"])
            if abs(lt / at - 1) > 0.03:
                failures.append(f"{r['point']}: LT {lt} against AT {at} at the lightest load")
if failures:
    print("\n".join(failures))
    sys.exit(1)
print(f"check.py: {out}: {len(csvs)} sweeps as expected")
