#!/usr/bin/env bash
# A measurement window shorter than the zero-load latency: on a ring of 1024 nodes at light load
# few packets can arrive inside 1000 cycles, so accepted falls short of offered without any
# saturation. The run must not claim SATURATED; it says the window is too short to judge.
# usage: short_window_test.sh ANGARA_SIM
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
summary
