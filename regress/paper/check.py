#!/usr/bin/env python3
"""Checks a regenerated study (regress/paper/run): every figure and table is there and the
results have the study's shape: the subnet beats software on every basic collective, by more on
the largest machine than on the smallest, AT equals LT where both ran, heat never runs slower
over the subnet in LT, LT's SpMV allgather is AT's at the default buffers where both ran (within
10%: LT's trains through VCUp/VCDown depart by up to 8%, docs/LT.md), and in AT deeper
buffers never make SpMV slower, over the subnet or in software; SpMV in AT over 2 MPI ranks
(where the build has MPI) ran over 2 ranks, and the report names every point where LT is more
than 10% off it."""

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
if not summary["heat_gain"] or any(g < 1 for g in summary["heat_gain"].values()):
    failures.append(f"heat_gain: missing or below 1: {summary['heat_gain']}")
compared = 0
for point, at_us in summary["spmv_at_allgather_us"].items():
    lt_us = summary["spmv_allgather_us"].get(point)
    if lt_us is not None:
        compared += 1
        if abs(lt_us / at_us - 1) > 0.10:
            failures.append(f"SpMV {point}: LT's allgather {lt_us:.0f} us against AT's {at_us:.0f} us")
if not compared:
    failures.append("SpMV: no point ran in both LT and AT at the default buffers")
at_perf = {}
for series, perf in summary["spmv_at_perf"].items():
    alg, buffers, nodes = series.split()
    at_perf.setdefault((alg, int(nodes)), {})[int(buffers.split("/")[0])] = perf
for (alg, nodes), by_buffer in at_perf.items():
    perfs = [by_buffer[b] for b in sorted(by_buffer)]
    if len(perfs) < 2 or any(deeper < shallower for shallower, deeper in zip(perfs, perfs[1:])):
        failures.append(f"SpMV AT, {alg} at {nodes} nodes: GFlop/s by buffer depth {by_buffer}")
if not at_perf:
    failures.append("SpMV AT: no points")
# AT over MPI ranks (a build with MPI): every point ran over 2 ranks, and where LT's allgather
# departs from AT's by more than the 10% above, the report says so at that point.
report = open(os.path.join(out, "REPORT.md")).read()
for p in summary["spmv_at_ranks"]:
    if p["ranks"] != 2:
        failures.append(f"SpMV AT over ranks, {p['algorithm']} at {p['nodes']} nodes: {p['ranks']} ranks")
    lt, at = p["lt_allgather_us"], p["at_allgather_us"]
    said = f"its {p['algorithm'].replace('_', ' ')} allgather at {p['nodes']} nodes is"
    if lt is not None and abs(lt / at - 1) > 0.10 and said not in report:
        failures.append(f"SpMV AT over ranks, {p['algorithm']} at {p['nodes']} nodes: LT's allgather "
                        f"{lt:.0f} us against AT's {at:.0f} us, and REPORT.md does not say so")


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
