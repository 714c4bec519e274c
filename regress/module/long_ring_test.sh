#!/usr/bin/env bash
# LT on a ring whose paths are too long for a call per hop (16384 nodes: paths of 8191 hops,
# which overflowed the stack; nightly 65536): a point-to-point path half round the ring, with
# and without buffers, a broadcast and an allreduce down and up its tree, each delivered whole.
# usage: long_ring_test.sh ANGARA_SIM NODES
set -u
sim=$1
nodes=$2
. "$(dirname "$0")/../support/checks.sh"
half=$((nodes / 2))
ring=(--set "topology.dims=[$nodes]" --set sim.mode=lt --set sim.progress=false
  --set sim.watchdog_cycles=$((nodes * 200)) --set sim.quantum_cycles=100000)
field() { python3 -c "import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$@"; }

for buffers in true false; do
  out="$work/tornado_$buffers.json"
  # Tornado on a ring: every packet goes half the ring less one hop, the same way round.
  if "$sim" run "${ring[@]}" --set sim.lt_buffers=$buffers --set traffic.pattern=tornado \
    --set traffic.rate=0.00001 --set sim.warmup_cycles=0 --set sim.measure_cycles=100 \
    --out "$out" > /dev/null; then
    ok
    [ "$(field "$out" mean_hops)" = "$((half - 1)).0" ] && ok ||
      fail "tornado, buffers $buffers: mean hops $(field "$out" mean_hops), not $((half - 1))"
    injected=$(field "$out" packets_injected_total)
    [ "$injected" -gt 0 ] && [ "$(field "$out" packets_delivered_total)" = "$injected" ] && ok ||
      fail "tornado, buffers $buffers: $(field "$out" packets_delivered_total) of $injected delivered"
  else
    fail "tornado on a ring of $nodes, buffers $buffers: exit $?"
  fi
done

for op in broadcast allreduce; do
  out="$work/$op.json"
  want=$([ $op = broadcast ] && echo $((nodes - 1)) || echo "$nodes")
  if "$sim" run "${ring[@]}" --set workload.kind=collective --set workload.op=$op \
    --set workload.repetitions=1 --set sim.lt_buffers=$([ $op = broadcast ] && echo true || echo false) \
    --out "$out" > /dev/null; then
    [ "$(field "$out" deliveries_checked)" = "$want" ] && ok ||
      fail "$op: $(field "$out" deliveries_checked) deliveries checked, not $want"
  else
    fail "$op on a ring of $nodes: exit $?"
  fi
done
summary
