#!/usr/bin/env bash
# Sweep benchmark: the same 16-point sweep with -j 1 and with -j 2; prints both wall times and
# the speedup (docs/PERFORMANCE.md). usage: sweep_bench.sh ANGARA_SWEEP
set -eu
sweep=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/bench.toml" <<'TOML'
[config.topology]
dims = [8, 8, 8]
[config.sim]
warmup_cycles = 1000
measure_cycles = 8000
[[axis]]
key = "traffic.rate"
range = [0.01, 0.16, 0.01]
TOML
seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" > /dev/null 2>&1
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }'
}
one=$(seconds "$sweep" run "$work/bench.toml" --out "$work/j1" -j 1)
two=$(seconds "$sweep" run "$work/bench.toml" --out "$work/j2" -j 2)
points=$(ls "$work/j2/points" | wc -l)
awk -v p="$points" -v a="$one" -v b="$two" -v c="$(nproc)" 'BEGIN {
  printf "sweep of %d points (8x8x8, AT): -j 1 %.2f s, -j 2 %.2f s, speedup %.2fx on %d cores\n", p, a, b, a / b, c }'
