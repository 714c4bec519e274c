#!/usr/bin/env python3
"""Partitions ([[partition]]) in AT, LT and LT with buffers: each partition's results equal the
standalone run of the torus it is cabled into (the config `angara-sim config --partition i`
prints, run by itself), and nothing leaves a partition: every packet a partition's endpoints
injected was delivered by its own endpoints (the conservation checker is on in every run and
fails a run that loses or duplicates one), each collective delivery is checked exact, and the
node counts are the boxes'. Seeds are sim.seed + index unless a partition gives its own, and the
partitioned config written by `angara-sim config` loads back to itself.

usage: partition_test.py ANGARA_SIM CONFIGS_DIR
"""

import json
import os
import subprocess
import sys
import tempfile

failures = []
checks = 0


def check(condition, message):
    global checks
    checks += 1
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def run(sim, args, **kw):
    return subprocess.run([sim] + args, capture_output=True, text=True, timeout=600, **kw)


def without_wall(value):
    """The results with the wall-clock times, the only field that may differ, taken out."""
    if isinstance(value, dict):
        return {k: without_wall(v) for k, v in value.items() if k != "wall_seconds"}
    if isinstance(value, list):
        return [without_wall(v) for v in value]
    return value


def nodes_of(dims):
    n = 1
    for d in dims:
        n *= d
    return n


def main():
    sim, configs = sys.argv[1], sys.argv[2]
    base = os.path.join(configs, "partitions.toml")
    modes = {
        "at": ["--mode", "at"],
        "lt": ["--mode", "lt"],
        "lt_buffers": ["--mode", "lt", "--set", "sim.lt_buffers=true"],
    }
    quick = ["--set", "sim.warmup_cycles=300", "--set", "sim.measure_cycles=1500", "-q"]
    with tempfile.TemporaryDirectory() as work:
        for mode, flags in modes.items():
            out = os.path.join(work, f"{mode}.json")
            r = run(sim, ["run", base, "--out", out] + flags + quick)
            check(r.returncode == 0, f"{mode}: partitioned run exited {r.returncode}: {r.stderr}")
            if r.returncode != 0:
                continue
            whole = json.load(open(out))
            parts = whole["partitions"]
            check(len(parts) == 3, f"{mode}: {len(parts)} partitions, expected 3")
            check(whole["nodes"] == 64 and whole["idle_nodes"] == 8,
                  f"{mode}: nodes {whole['nodes']} idle {whole['idle_nodes']}, expected 64 and 8")
            check([p["seed"] for p in parts] == [1, 2, 42],
                  f"{mode}: seeds {[p['seed'] for p in parts]}, expected sim.seed + i or its own")
            check(whole["sim_cycles"] == max(p["results"]["sim_cycles"] for p in parts),
                  f"{mode}: the machine's sim_cycles is not its longest partition's")
            for p in parts:
                i = p["partition"]
                res = p["results"]
                check(res["nodes"] == nodes_of(p["dims"]),
                      f"{mode}: partition {i} ran {res['nodes']} nodes, its box has "
                      f"{nodes_of(p['dims'])}")
                check(res["config"]["topology"]["dims"] == p["dims"],
                      f"{mode}: partition {i} ran a torus of {res['config']['topology']['dims']}")
                check(res["config"]["sim"]["seed"] == p["seed"],
                      f"{mode}: partition {i} ran with seed {res['config']['sim']['seed']}")
                # Standalone: the partition's own config, printed, loaded and run by itself.
                own = os.path.join(work, f"{mode}_p{i}.toml")
                c = run(sim, ["config", base, "--partition", str(i)] + flags + quick)
                check(c.returncode == 0, f"{mode}: config --partition {i}: {c.stderr}")
                open(own, "w").write(c.stdout)
                check("[[partition]]" not in c.stdout,
                      f"{mode}: partition {i}'s standalone config is still partitioned")
                alone = os.path.join(work, f"{mode}_p{i}.json")
                s = run(sim, ["run", own, "--out", alone, "-q"])
                check(s.returncode == 0, f"{mode}: standalone partition {i}: {s.stderr}")
                if s.returncode != 0:
                    continue
                standalone = json.load(open(alone))
                check(without_wall(res) == without_wall(standalone),
                      f"{mode}: partition {i}'s results differ from its standalone run")
                kind = res["config"]["workload"]["kind"]
                if kind == "synthetic":
                    # No packet crossed: all it injected, its own endpoints delivered.
                    check(res["packets_injected_total"] == res["packets_delivered_total"] > 0,
                          f"{mode}: partition {i} injected {res['packets_injected_total']}, "
                          f"delivered {res['packets_delivered_total']}")
                elif kind == "collective":
                    check(res["deliveries_checked"] > 0 and res["operations"] == 4,
                          f"{mode}: partition {i}'s allreduces were not all checked")
                else:
                    side = os.path.join(work, f"{mode}.partition{i}.csv")
                    check(os.path.exists(side) and
                          open(side).read() == open(os.path.join(work, f"{mode}_p{i}.csv")).read(),
                          f"{mode}: partition {i}'s CSV differs from its standalone run's")
            # Partitions are independent: the 4x4x2 one under the same traffic but another
            # workload beside it gives the same results.
            if mode == "at":
                lone = os.path.join(work, "lone.toml")
                text = open(base).read()
                lone_text = text[: text.index("[[partition]]")] + (
                    "[[partition]]\norigin = [0, 0, 0]\ndims = [4, 4, 2]\n"
                )
                open(lone, "w").write(lone_text)
                lone_out = os.path.join(work, "lone.json")
                r = run(sim, ["run", lone, "--out", lone_out] + flags + quick)
                check(r.returncode == 0, f"lone partition run: {r.stderr}")
                if r.returncode == 0:
                    lone_res = json.load(open(lone_out))["partitions"][0]["results"]
                    check(without_wall(lone_res) == without_wall(parts[0]["results"]),
                          "the 4x4x2 partition's results change with its neighbours' workloads")

        # The partitioned config prints as TOML that loads back to the same config.
        printed = run(sim, ["config", base])
        check(printed.returncode == 0 and "[[partition]]" in printed.stdout,
              f"config of the partitioned file: {printed.stderr}")
        again_path = os.path.join(work, "again.toml")
        open(again_path, "w").write(printed.stdout)
        again = run(sim, ["config", again_path])
        check(again.stdout == printed.stdout, "the partitioned config does not load back")

        # --partition needs partitions, and one that exists.
        bad = run(sim, ["config", base, "--partition", "3"])
        check(bad.returncode == 2 and "--partition" in bad.stderr,
              f"--partition 3 of 3 partitions: exit {bad.returncode}, {bad.stderr}")
        bad = run(sim, ["config", "--partition", "0"])
        check(bad.returncode == 2 and "--partition" in bad.stderr,
              f"--partition without partitions: exit {bad.returncode}, {bad.stderr}")

    print(f"{checks - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
