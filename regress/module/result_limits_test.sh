#!/usr/bin/env bash
# What a synthetic run says about saturation when its measurement cannot judge it or its memory
# is bounded. A window shorter than the zero-load latency (a ring of 1024 nodes at light load:
# few packets can arrive inside 1000 cycles) must not claim SATURATED; it says the window is too
# short to judge. Past saturation a source queue stops at sim.source_queue_packets: the run says
# how many nodes' queues were full, calls itself saturated and names the key in its summary. The
# CPU programs' kinds measure the same with any cap, so they report none.
# usage: result_limits_test.sh ANGARA_SIM
set -u
sim=$1
. "$(dirname "$0")/../support/checks.sh"
field() { python3 -c "import json, sys; print(json.load(open(sys.argv[1])).get(sys.argv[2]))" "$@"; }

out="$work/short.json"
if summary_line=$("$sim" run --set "topology.dims=[1024]" --set sim.mode=lt --set sim.progress=false \
  --set sim.watchdog_cycles=200000 --set traffic.rate=0.0001 --set sim.warmup_cycles=0 \
  --set sim.measure_cycles=1000 --out "$out"); then
  ok
  [ "$(field "$out" saturated)" = "False" ] && ok || fail "short window: saturated is $(field "$out" saturated)"
  floor=$(field "$out" window_shorter_than_latency_cycles)
  [ "$floor" != "None" ] && [ "$floor" -gt 1000 ] && ok ||
    fail "short window: window_shorter_than_latency_cycles is $floor"
  case "$summary_line" in
    *SATURATED*) fail "short window: the summary claims saturation: $summary_line" ;;
    *"too short to judge saturation"*) ok ;;
    *) fail "short window: the summary does not say the window is too short: $summary_line" ;;
  esac
else
  fail "ring of 1024 at 0.0001: exit $?"
fi

out="$work/capped.json"
if summary_line=$("$sim" run --set "topology.dims=[4,4]" --set sim.mode=lt --set sim.progress=false \
  --set traffic.rate=0.9 --set sim.warmup_cycles=0 --set sim.measure_cycles=2000 \
  --set sim.source_queue_packets=2 --out "$out"); then
  ok
  capped=$(field "$out" source_queues_capped)
  [ "$capped" != "None" ] && [ "$capped" -gt 0 ] && ok || fail "source_queues_capped is $capped"
  [ "$(field "$out" saturated)" = "True" ] && ok || fail "saturated is $(field "$out" saturated)"
  case "$summary_line" in
    *"reached sim.source_queue_packets = 2"*) ok ;;
    *) fail "the summary does not name sim.source_queue_packets: $summary_line" ;;
  esac
else
  fail "4x4 at 0.9 with a queue of 2: exit $?"
fi
# Below saturation the cap is never reached and the results carry no such key.
out="$work/light.json"
if "$sim" run --set "topology.dims=[4,4]" --set sim.mode=lt --set sim.progress=false \
  --set traffic.rate=0.05 --set sim.warmup_cycles=500 --set sim.measure_cycles=2000 \
  --out "$out" > /dev/null; then
  [ "$(field "$out" source_queues_capped)" = "None" ] && ok || fail "light load capped"
else
  fail "4x4 at 0.05: exit $?"
fi

# The CPU programs' kinds: 10000 one-byte messages behind a slow injection channel fill the
# sender's queue past the default cap (4096; its CPU waits on node.tx_buffer_bytes, here 65536),
# and the results are the same with any cap, a queue of 1 or one never full: nothing to report.
strip() {
  python3 -c "import json, sys; d = json.load(open(sys.argv[1])); [d.pop(k) for k in ('config', 'wall_seconds')]; print(json.dumps(d))" "$1"
}
for cap in 1 4096 1048576; do
  out="$work/msgrate_$cap.json"
  if "$sim" run --set workload.kind=msgrate --set "topology.dims=[2,2]" --set "workload.sizes=[1]" \
    --set workload.messages=10000 --set endpoint.bandwidth_gbps=1 --set node.tx_buffer_bytes=65536 \
    --set sim.progress=false --set sim.source_queue_packets=$cap --out "$out" > "$work/msgrate.txt"; then
    ok
  else
    fail "msgrate with a queue of $cap: exit $?"
  fi
  [ "$(field "$out" source_queues_capped)" = "None" ] && ok || fail "msgrate reports a capped queue"
  grep -q SATURATED "$work/msgrate.txt" && fail "msgrate says: $(cat "$work/msgrate.txt")" || ok
done
for cap in 1 4096; do
  [ "$(strip "$work/msgrate_$cap.json")" = "$(strip "$work/msgrate_1048576.json")" ] && ok ||
    fail "msgrate's results with a queue of $cap differ from those with a queue never full"
done
summary
