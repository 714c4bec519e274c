#!/usr/bin/env python3
"""How one AT run would scale over many MPI ranks: a model whose inputs are measured runs.

A rank's wall time per window of W cycles is its kernel's work on its box plus the exchange:

    per window = c * (N / R) * W  +  a  +  r * q * L(R) * W

  c     kernel seconds per node and cycle          one-process run (--one)
  N, R  nodes of the torus, ranks                  --dims, --ranks
  a     an exchange with nothing in it (the neighbour swap and the ranks' agreement on the next
        event)                                     a split idle run (--idle), or --window-us
  q     records (packets and credits) per cut link and cycle, at the run's load
                                                    a split run of the same config (--split)
  r     exchange seconds per record beyond a       the same split run
  L(R)  cut links leaving a rank: the default grid (fewest cut links), as angara-sim picks it

and the efficiency at R ranks is c * N * W / (R * per window). The inputs measured on one
machine (shared memory) give the model of that machine; on a cluster, run the idle case over the
nodes (--idle from `srun --mpi=pmix -n R angara-sim run` of parallel_bench.py's idle8 config)
and the model takes the network's exchange cost from it.

usage: scaling_model.py --one ONE.json --split SPLIT.json --idle IDLE.json
                        [--dims 16x16x32] [--ranks 16 32 64 128 256] [--window 40]
"""
import argparse
import json
import math


def load(path):
    with open(path) as f:
        return json.load(f)


def splits(dims, ranks, d=None):
    """Every split of `ranks` into one factor per dimension, each dividing its ring."""
    d = len(dims) - 1 if d is None else d
    if d < 0:
        if ranks == 1:
            yield []
        return
    for p in range(min(ranks, dims[d]), 0, -1):
        if ranks % p == 0 and dims[d] % p == 0:
            for rest in splits(dims, ranks // p, d - 1):
                yield rest + [p]


def cut_links(dims, split):
    """Directed links cut by a grid (angara-sim's count: p cuts on each ring, both ways)."""
    nodes = math.prod(dims)
    return sum(2 * p * nodes // k for k, p in zip(dims, split) if p > 1)


def fewest_cuts(dims, ranks):
    best = None
    for split in splits(dims, ranks):
        if best is None or cut_links(dims, split) < cut_links(dims, best):
            best = split
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--one", required=True, help="results of the config run as one process")
    ap.add_argument("--split", required=True, help="results of the same config over 2 or more ranks")
    ap.add_argument("--idle", help="results of an idle run over ranks (parallel_bench.py's idle8)")
    ap.add_argument("--window-us", type=float, help="the cost of an empty exchange, instead of --idle")
    ap.add_argument("--dims", default="16x16x32", help="the torus to predict for")
    ap.add_argument("--ranks", type=int, nargs="+", default=[16, 32, 64, 128, 256])
    ap.add_argument("--window", type=int, default=40, help="cycles per window (the lookahead less one)")
    a = ap.parse_args()

    one, split = load(a.one), load(a.split)
    cycles = one["sim_cycles"]
    c = one["wall_seconds"] / (cycles * one["nodes"])
    each = split["ranks"]["each"]
    ranks_there = split["ranks"]["count"]
    dims_there = one["config"]["topology"]["dims"]
    grid_there = [int(p) for p in split["ranks"]["grid"].split("x")]
    links_there = cut_links(dims_there, grid_there) / ranks_there
    records = sum(e["records_sent"] for e in each) / ranks_there
    q = records / (cycles * links_there)
    if a.idle:
        idle = load(a.idle)["ranks"]["each"]
        window_s = sum(e["exchange_seconds"] / e["exchanges"] for e in idle) / len(idle)
    elif a.window_us is not None:
        window_s = a.window_us * 1e-6
    else:
        ap.error("give --idle IDLE.json or --window-us US")
    exchange = sum(e["exchange_seconds"] for e in each) / ranks_there
    exchanges = sum(e["exchanges"] for e in each) / ranks_there
    r = max(0.0, exchange - exchanges * window_s) / records if records else 0.0

    print(f"inputs: c = {c * 1e9:.1f} ns per node-cycle ({one['nodes']} nodes, {cycles} cycles, "
          f"{one['wall_seconds']:.1f} s); a = {window_s * 1e6:.2f} us per empty exchange; "
          f"q = {q:.4f} records per cut link and cycle; r = {r * 1e9:.0f} ns per record "
          f"({ranks_there} ranks, grid {split['ranks']['grid']}, {links_there:.0f} cut links a rank)")
    dims = [int(d) for d in a.dims.split("x")]
    n = math.prod(dims)
    w = a.window
    print(f"\n{a.dims}, windows of {w} cycles:\n")
    print("| ranks | grid | nodes a rank | cut links a rank | kernel, us a window | exchange, us a window | efficiency | speed-up |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for ranks in a.ranks:
        grid = fewest_cuts(dims, ranks)
        if grid is None:
            print(f"| {ranks} | (none: no equal boxes) | | | | | | |")
            continue
        links = cut_links(dims, grid) / ranks
        kernel = c * n / ranks * w
        swap = window_s + r * q * links * w
        efficiency = c * n * w / (ranks * (kernel + swap))
        print(f"| {ranks} | {'x'.join(map(str, grid))} | {n // ranks} | {links:.0f} | {kernel * 1e6:.1f} | "
              f"{swap * 1e6:.1f} | {efficiency:.2f} | {efficiency * ranks:.1f} |")


if __name__ == "__main__":
    main()
