#!/usr/bin/env python3
"""Checks a regenerated study (regress/paper/run): every figure and table is there and the
results have the study's shape: the subnet beats software on every basic collective, by more on
the largest machine than on the smallest, AT equals LT where both ran, the applications never
run slower over the subnet in LT, and in AT deeper collective buffers never make SpMV slower."""

import csv
import json
import os
import sys

out = sys.argv[1]
failures = []
for name in ("REPORT.md", "summary.json", "basic_time.png", "basic_time.svg", "basic_speedup.png",
             "basic_speedup.svg", "heat_performance.png", "heat_performance.svg",
             "spmv_performance.png", "spmv_performance.svg", "spmv_at_performance.png",
             "spmv_at_performance.svg"):
    if not os.path.exists(os.path.join(out, name)):
        failures.append(f"{name} missing")
summary = json.load(open(os.path.join(out, "summary.json")))
for series, by_nodes in summary["basic_speedup"].items():
    points = sorted((int(n), s) for n, s in by_nodes.items())
    if any(s <= 1 for _, s in points):
        failures.append(f"basic {series}: a speedup <= 1: {points}")
    if len(points) > 1 and points[-1][1] <= points[0][1]:
        failures.append(f"basic {series}: speedup does not grow with nodes: {points}")
for kind in ("heat_gain", "spmv_gain"):
    if not summary[kind] or any(g < 1 for g in summary[kind].values()):
        failures.append(f"{kind}: missing or below 1: {summary[kind]}")
at_gain = {}
for series, gain in summary["spmv_at_gain"].items():
    buffer_flits, nodes = map(int, series.split())
    at_gain.setdefault(nodes, {})[buffer_flits] = gain
for nodes, by_buffer in at_gain.items():
    gains = [by_buffer[b] for b in sorted(by_buffer)]
    if len(gains) < 2 or any(deeper < shallower for shallower, deeper in zip(gains, gains[1:])):
        failures.append(f"SpMV AT at {nodes} nodes: gain by collective buffer {by_buffer}")
if not at_gain:
    failures.append("SpMV AT: no points")


def times(name):
    rows = csv.DictReader(open(os.path.join(out, name)))
    return {(r["topology.dims"], r["workload.op"], r["workload.algorithm"]): r["completion_cycles.mean"]
            for r in rows}


at = times("basic_at.csv")
lt = {**times("basic_3d.csv"), **times("basic_4d.csv")}
for key, cycles in at.items():
    if key in lt and lt[key] != cycles:
        failures.append(f"AT {cycles} != LT {lt[key]} cycles for {key}")
if failures:
    sys.exit("regress/paper/check.py: " + "; ".join(failures))
print(f"regress/paper/check.py: {out} complete; {len(summary['basic_speedup'])} speedup series, "
      f"{len(at)} AT points equal to LT")
