#!/usr/bin/env bash
# The RTL blocks' recordings on a traced node (docs/RTL.md): the Reducer's own waveform beside
# the model's, and a replay file that collectives/rtl/reducer_replay_tb.sv replays through the same
# block in another simulator (Verilator's --binary here) with every output equal, and through a
# wrong block with the difference named. A run whose check fails keeps all of them up to the
# failing cycle. VCUp's the same: its waveform and replay file, every port's in one, replayed by
# collectives/rtl/vcup_replay_tb.sv through the shipped VCUp and one freeing space early.
# Usage: replay_test.sh ANGARA_SIM VERILATOR RTL_DIR WRONG_MINMAX_SV WRONG_FREE_VCUP_SV
set -uo pipefail
sim=$1
verilator=$2
rtl=$3
wrong=$4
wrong_vcup=$5
source "$(dirname "$0")/../support/checks.sh"
cd "$work" || exit 1

run() { # run NAME NODE SETTINGS...: a min allreduce on 4x4 with the RTL Reducer checked, NODE
  local name=$1 node=$2 # ("x, y") traced, or none when empty
  shift 2
  local trace=()
  [ -n "$node" ] && trace=(--set "trace.nodes=[[$node]]" --set "trace.file=\"$name.vcd\"")
  "$sim" run --set workload.kind=collective --set workload.op=allreduce \
    --set workload.reduction=min --set 'topology.dims=[4, 4]' --set workload.repetitions=3 \
    --set rtl.reducer=check "${trace[@]}" "$@" -q --out "$name.json" > "$name.out" 2>&1
}
# replay TB_NAME BLOCK.sv REPLAY [TESTBENCH]: the testbench (reducer_replay_tb by default) built
# around BLOCK (once per TB_NAME) and run on REPLAY
replay() {
  local tb=${4:-reducer_replay_tb}
  [ -x "obj_$1/tb" ] || "$verilator" --binary --timing -j 2 --Mdir "obj_$1" --top-module "$tb" \
    -o tb "$rtl/$tb.sv" "$2" > "$1.build" 2>&1 || {
    fail "the replay testbench did not build with $2: $(tail -5 "$1.build")"
    return 1
  }
  "obj_$1/tb" "+replay=$3" > "$1.log" 2>&1
}

run passed "1, 0"
check "the traced run failed: $(cat passed.out)" [ $? -eq 0 ]
for f in passed.rtl_reducer_1_0.vcd passed.rtl_reducer_1_0.replay; do
  check "$f was not written" [ -s "$f" ]
done
# Verilator's waveform: the block's ports and its inside, in ps as the model's.
"$sim" vcd-diff passed.rtl_reducer_1_0.vcd passed.rtl_reducer_1_0.vcd > /dev/null
check "vcd-diff cannot read the RTL's waveform" [ $? -eq 0 ]
grep -q '^\$timescale 1ps \$end' passed.rtl_reducer_1_0.vcd && ok ||
  fail "the RTL's waveform is not in ps: $(grep timescale passed.rtl_reducer_1_0.vcd)"
for signal in in_ready res_valid state timer slot_op; do
  grep -Eq "\\\$var wire +[0-9]+ \S+ $signal( |\[)" passed.rtl_reducer_1_0.vcd && ok ||
    fail "the RTL's waveform lacks $signal"
done
lines=$(grep -vc '^#' passed.rtl_reducer_1_0.replay)
check "the replay file has $lines lines" [ "$lines" -gt 100 ]

# The same block replays with every output equal; a wrong one (min as max) differs on res_flit.
if replay same "$rtl/reducer.sv" passed.rtl_reducer_1_0.replay; then
  grep -q "^replayed $((lines - 1)) cycles of passed.rtl_reducer_1_0.replay .*: 0 outputs differ" \
    same.log && ok || fail "the replay: $(tail -2 same.log)"
else
  fail "the shipped Reducer's replay differs: $(tail -5 same.log)"
fi
if replay wrong "$wrong" passed.rtl_reducer_1_0.replay; then
  fail "a Reducer computing min as max replayed with no difference: $(tail -2 wrong.log)"
else
  grep -q "res_flit: model" wrong.log && ok || fail "the wrong Reducer's replay: $(tail -3 wrong.log)"
fi

# A check that fails (the model hands results off a cycle later than this RTL does): the run
# stops naming the node and the cycle; run again with that node traced, as the message says,
# every file goes up to that cycle.
run untraced '' --set collective.reducer_result_cycles=1
check "the failing run exited $? (expected 3, a model failure)" [ $? -eq 3 ]
grep -q "with this node among trace.nodes the run records the RTL's waveform" untraced.out && ok ||
  fail "the failure does not say how to record the RTL: $(cat untraced.out)"
node=$(sed -n 's/.*node (\([0-9]*\),\([0-9]*\)) Reducer RTL: res_valid at cycle.*/\1, \2/p' untraced.out)
cycle=$(sed -n 's/.*Reducer RTL: res_valid at cycle \([0-9]*\).*/\1/p' untraced.out)
check "no res_valid difference reported: $(cat untraced.out)" [ -n "$node" -a -n "$cycle" ]
run failed "$node" --set collective.reducer_result_cycles=1
check "the traced failing run exited $?" [ $? -eq 3 ]
stem=failed.rtl_reducer_${node/, /_}
grep -q "at cycle $cycle " failed.out && ok || fail "traced, it failed elsewhere: $(cat failed.out)"
grep -q "the RTL waveform of ${stem#failed.}: $stem.vcd, its replay file: $stem.replay" failed.out &&
  ok ||
  fail "the failure does not name the RTL's files: $(cat failed.out)"
check "the replay does not end at the failing cycle $cycle" \
  [ "$(tail -1 "$stem.replay" | cut -d' ' -f1)" = "$cycle" ]
last_ps=$(grep '^#[0-9]' "$stem.vcd" | tail -1 | tr -d '#')
check "the RTL's waveform stops at $last_ps ps, not within cycle $cycle (2000 ps a cycle)" \
  [ "$last_ps" -le $((cycle * 2000)) -a "$last_ps" -ge $(((cycle - 1) * 2000)) ]
check "the model's waveform was not written" [ -s failed.vcd ]
if replay failed "$rtl/reducer.sv" "$stem.replay"; then
  grep -q "up to the model's cycle $cycle: 0 outputs differ" failed.log && ok ||
    fail "the failed run's replay: $(tail -2 failed.log)"
else
  fail "the failed run's replay differs: $(tail -5 failed.log)"
fi
# The RTL VCUp's waveform and replay file: every direction port's block of the node in one each,
# checked and driving.
for mode in check drive; do
  "$sim" run --set workload.kind=collective --set workload.op=allreduce \
    --set 'topology.dims=[4, 4]' --set workload.repetitions=2 --set rtl.vcup=$mode \
    --set 'trace.nodes=[[1, 0]]' --set "trace.file=\"$mode.vcd\"" -q --out $mode.json > $mode.out 2>&1
  check "the run with the RTL VCUp traced ($mode) failed: $(cat $mode.out)" [ $? -eq 0 ]
  check "its waveform was not written ($mode)" [ -s $mode.rtl_vcup_1_0.vcd ]
  for port in 0 1 2 3; do
    grep -q "\$scope module rtl_vcup_1_0.vcup_$port.rtl " $mode.rtl_vcup_1_0.vcd && ok ||
      fail "no scope for port $port ($mode)"
  done
  "$sim" vcd-diff $mode.rtl_vcup_1_0.vcd $mode.rtl_vcup_1_0.vcd > /dev/null
  check "vcd-diff cannot read the RTL VCUp's waveform ($mode)" [ $? -eq 0 ]
  lines=$(grep -vc '^#' $mode.rtl_vcup_1_0.replay)
  check "the VCUp replay file ($mode) has $lines lines" [ "$lines" -gt 100 ]
  if replay vcup "$rtl/vcup.sv" $mode.rtl_vcup_1_0.replay vcup_replay_tb; then
    grep -q "^replayed $((lines - 1)) cycles of $mode.rtl_vcup_1_0.replay .*: 0 outputs differ" \
      vcup.log && ok || fail "the VCUp replay ($mode): $(tail -2 vcup.log)"
  else
    fail "the shipped VCUp's replay ($mode) differs: $(tail -5 vcup.log)"
  fi
done
if replay vcup_wrong "$wrong_vcup" check.rtl_vcup_1_0.replay vcup_replay_tb; then
  fail "a VCUp freeing space early replayed with no difference: $(tail -2 vcup_wrong.log)"
else
  grep -q "port [0-9]: free_valid: model 0, here 1" vcup_wrong.log && ok ||
    fail "the wrong VCUp's replay: $(tail -3 vcup_wrong.log)"
fi
summary
