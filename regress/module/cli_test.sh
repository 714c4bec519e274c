#!/usr/bin/env bash
# angara-sim as a user meets it: results file, determinism, bad-config errors, --help, --version,
# config, examples.
# usage: cli_test.sh ANGARA_SIM CONFIGS_DIR rtl|no-rtl   (the build's RTL co-simulation, ANGARA_RTL)
set -u
sim=$1
configs=$2
rtl=$3
. "$(dirname "$0")/../support/checks.sh"
quick=(--set sim.warmup_cycles=200 --set sim.measure_cycles=1000 -q)

# The default experiment writes every promised field.
if "$sim" run "${quick[@]}" --out "$work/a.json" > "$work/summary.txt"; then ok; else fail "default run exited $?"; fi
for key in packets_delivered latency_cycles latency_ns mean p50 p99 histogram \
           offered_flits_per_node_cycle accepted_flits_per_node_cycle sim_cycles wall_seconds config; do
  grep -q "\"$key\"" "$work/a.json" && ok || fail "results lack \"$key\""
done
grep -q "torus AT, uniform" "$work/summary.txt" && ok || fail "no one-line summary on stdout"

# Same config and seed: byte-identical results, wall time aside.
"$sim" run "${quick[@]}" --out "$work/b.json" > /dev/null
if diff <(grep -v wall_seconds "$work/a.json") <(grep -v wall_seconds "$work/b.json") > /dev/null; then
  ok
else
  fail "two runs of the same config differ"
fi
"$sim" run "${quick[@]}" --set sim.seed=7 --out "$work/c.json" > /dev/null
if diff <(grep -v wall_seconds "$work/a.json") <(grep -v wall_seconds "$work/c.json") > /dev/null; then
  fail "a different seed gave the same results"
else
  ok
fi

# The results' directory is synced after the rename onto them, so that their name outlasts a
# crash: the system calls as strace sees them (skipped where strace cannot run).
if command -v strace > /dev/null && strace -o /dev/null true 2> /dev/null; then
  mkdir "$work/synced"
  strace -f -e trace=rename,renameat,renameat2,open,openat,fsync -o "$work/strace.txt" \
    "$sim" run "${quick[@]}" --out "$work/synced/r.json" > /dev/null
  if python3 - "$work/strace.txt" "$work/synced" << 'EOF'; then
import re, sys
calls, directory = open(sys.argv[1]).read().splitlines(), sys.argv[2]
renamed = [i for i, c in enumerate(calls) if "rename" in c and f'"{directory}/r.json"' in c]
after = calls[renamed[0]:] if renamed else []
opened = re.compile(r'open(at)?\((AT_FDCWD, )?"%s", [^)]*O_DIRECTORY[^)]*\) = (\d+)' % re.escape(directory))
fds = [m.group(3) for c in after if (m := opened.search(c))]
sys.exit(0 if any(re.search(r"fsync\(%s\) += 0" % fd, c) for fd in fds for c in after) else 1)
EOF
    ok
  else
    fail "no fsync of the results' directory after the rename: $(grep -E 'rename|synced' "$work/strace.txt")"
  fi
else
  echo "strace cannot run here: the directory sync is not checked"
fi

# Bad configs: exit status 2, the key named on stderr, no results file.
expect_bad() {
  local key=$1
  shift
  rm -f "$work/bad.json"
  "$sim" run "$@" --out "$work/bad.json" > /dev/null 2> "$work/err.txt"
  local status=$?
  [ "$status" -eq 2 ] && ok || fail "'$*' exited $status, expected 2"
  grep -q "$key" "$work/err.txt" && ok || fail "'$*' did not name $key: $(cat "$work/err.txt")"
  [ ! -e "$work/bad.json" ] && ok || fail "'$*' wrote results"
}
expect_bad router.bufer_flits --set router.bufer_flits=8
expect_bad topology.dims --set 'topology.dims=[4,1]'
expect_bad topology.dims --set 'topology.dims=[2,2,2,2,2]'
expect_bad traffic.rate --set traffic.rate=-0.1
expect_bad traffic.rate --set traffic.rate=1.5
expect_bad traffic.packet_flits --set traffic.packet_flits=17
expect_bad router.routing --set router.routing=west_first
expect_bad router.deadlock --set router.deadlock=escape
printf '[router]\nvcs = 2\nmystery = 1\n' > "$work/unknown.toml"
expect_bad router.mystery "$work/unknown.toml"
expect_bad missing.toml "$work/missing.toml"

# RTL co-simulation (CMake option ANGARA_RTL): an RTL block runs in a build that has it; without
# it, a config asking for one is refused as bad config, naming the key and the option.
if [ "$rtl" = rtl ]; then
  if "$sim" run --set workload.kind=collective --set workload.op=allreduce \
       --set workload.repetitions=2 --set 'rtl.reducer="drive"' -q --out "$work/rtl.json" > /dev/null; then
    ok
  else
    fail "an allreduce with rtl.reducer = \"drive\" failed in a build with RTL co-simulation"
  fi
  grep -A3 '"rtl_reducer_checked"' "$work/rtl.json" | grep -q '"results": [1-9]' && ok \
    || fail "the RTL Reducer handed off no result: $(cat "$work/rtl.json")"
else
  for key in rtl.reducer rtl.vcup; do
    expect_bad "config key '$key' = \"check\": this build has no RTL co-simulation (configure with -DANGARA_RTL=ON; needs verilator)" \
      --set "$key=\"check\""
  done
fi

# A usage error is not a config error.
"$sim" frobnicate > /dev/null 2>&1
[ $? -eq 1 ] && ok || fail "an unknown command should exit 1"

# --help explains every option and config key, and every value of an enumerated key.
help=$("$sim" run --help)
for word in --set --mode --out --quiet sim.quantum_cycles topology.dims router.deadlock traffic.rate sim.seed \
            spmv heat subnet fat_tree recursive_doubling on_off 128b130b roofline; do
  grep -q -- "$word" <<< "$help" && ok || fail "--help does not mention $word"
done
# Every command's --help, required options missing or not: exit 0, its own options on stdout.
for args in "--help" "run --help" "diagram --help" "config --help" "diagram --node 0,0,0 --help" \
            "vcd-diff --help"; do
  # shellcheck disable=SC2086
  out=$("$sim" $args 2> "$work/err.txt")
  [ $? -eq 0 ] && [ ! -s "$work/err.txt" ] && grep -q "usage: angara-sim" <<< "$out" && ok \
    || fail "'angara-sim $args' did not print help and exit 0: $(cat "$work/err.txt")"
done
"$sim" diagram --help | grep -q -- "--block" && ok || fail "diagram --help lacks --block"
"$sim" --version | grep -q "^angara-sim [0-9]*\.[0-9]*\.[0-9]* (git [0-9a-z-]*)$" && ok \
  || fail "--version: $("$sim" --version)"

# Every results file says which angara-tlm wrote it.
for key in angara_tlm version git_revision results_schema; do
  grep -q "\"$key\"" "$work/a.json" && ok || fail "results lack \"$key\""
done

# Errors say what is at fault: a file, a flag or a config key, the nearest known key if any.
"$sim" run "$work/missing.toml" --out "$work/bad.json" > /dev/null 2> "$work/err.txt"
grep -q "bad config: file '$work/missing.toml': no such config file" "$work/err.txt" && ok \
  || fail "a missing config is not called a file: $(cat "$work/err.txt")"
"$sim" run --out "$work" "${quick[@]}" > /dev/null 2> "$work/err.txt"
grep -q "bad config: flag '--out'" "$work/err.txt" && ok || fail "--out is not called a flag: $(cat "$work/err.txt")"
"$sim" run --set router.bufer_flits=8 --out "$work/bad.json" > /dev/null 2> "$work/err.txt"
grep -q "config key 'router.bufer_flits' = 8: unknown key; did you mean router.buffer_flits?" "$work/err.txt" \
  && ok || fail "no suggestion for a misspelt key: $(cat "$work/err.txt")"

# config prints the resolved configuration as TOML, which loads back to itself.
if "$sim" config --set 'topology.dims=[8,8]' --mode lt > "$work/resolved.toml"; then ok; else fail "config failed"; fi
grep -q "^dims = \[8, 8\]$" "$work/resolved.toml" && grep -q '^mode = "lt"$' "$work/resolved.toml" && ok \
  || fail "config does not show the --set and --mode values"
"$sim" config "$work/resolved.toml" | cmp -s - "$work/resolved.toml" && ok \
  || fail "config's output does not load back to the same configuration"
# Every key, those at a default that results leave out too.
for key in '^switching = ' '^\[stats\]$' '^network = false$' '^\[faults\]$' '^source_queue_packets = '; do
  grep -q "$key" "$work/resolved.toml" && ok || fail "config leaves out $key"
done
"$sim" config --set traffic.rate=2 > /dev/null 2> "$work/err.txt"
[ $? -eq 2 ] && grep -q "traffic.rate" "$work/err.txt" && ok || fail "config of a bad value should exit 2"

# Every example config runs, in both timing modes, with the same results schema.
# Every key of a results file at any depth, once each, without LT's own (named lt_...).
json_keys() {
  python3 - "$1" <<'PY'
import json, sys

def walk(value, keys):
    if isinstance(value, dict):
        for key, inner in value.items():
            if not key.startswith("lt_"):
                keys.add(key)
                walk(inner, keys)
    elif isinstance(value, list):
        for inner in value:
            walk(inner, keys)
    return keys

print("\n".join(sorted(walk(json.load(open(sys.argv[1])), set()))))
PY
}
for config in "$configs"/*.toml; do
  for mode in at lt; do
    if "$sim" run "$config" --mode "$mode" "${quick[@]}" --out "$work/example_$mode.json" > /dev/null; then
      ok
    else
      fail "example $config failed in mode $mode"
    fi
  done
  # The same keys, but for LT's own on its run (its verdict, how far ahead it booked).
  if diff <(json_keys "$work/example_at.json") <(json_keys "$work/example_lt.json") > /dev/null; then
    ok
  else
    fail "AT and LT results of $config have different keys"
  fi
done
grep -q '"mode": "lt"' "$work/example_lt.json" && ok || fail "--mode lt did not reach the config"

# A timing diagram of one packet through VCUp, and a block that does not exist.
diagram=(diagram --set workload.kind=collective --set workload.op=allreduce --set 'topology.dims=[2,2,2]'
         --set workload.repetitions=1 --node 0,0,0 -q)
if "$sim" "${diagram[@]}" --block vcup_xm --out "$work/vcup.svg" > /dev/null; then ok; else fail "diagram failed"; fi
grep -q "<svg" "$work/vcup.svg" && grep -q "vcup_xm.stage" "$work/vcup.svg" && grep -q "issuing" "$work/vcup.svg" \
  && ok || fail "the VCUp diagram lacks its signals"
# Its waveform goes to a directory of its own under $TMPDIR, not to the predictable
# angara-diagram-PID.vcd that anyone could plant a directory or a link at (the subshell's
# $BASHPID is the pid the exec'd diagram runs as), and nothing of it is left there.
mkdir -p "$work/tmp" && echo keep > "$work/victim.txt"
(mkdir "$work/tmp/angara-diagram-$BASHPID.vcd"
 ln -s "$work/victim.txt" "$work/tmp/angara-diagram-$BASHPID.vcd.partial"
 TMPDIR="$work/tmp" exec "$sim" "${diagram[@]}" --block vcup_xm --out "$work/vcup2.svg" > /dev/null) \
  && cmp -s "$work/vcup.svg" "$work/vcup2.svg" && [ "$(cat "$work/victim.txt")" = keep ] \
  && [ "$(ls "$work/tmp" | wc -l)" -eq 2 ] && ok || fail "diagram used a predictable temporary"
"$sim" "${diagram[@]}" --block nowhere --out "$work/none.svg" > /dev/null 2> "$work/err.txt"
[ $? -eq 2 ] && grep -q -- "--block" "$work/err.txt" && [ ! -e "$work/none.svg" ] && ok || fail "a bad block should exit 2"
# A traced run writes the VCD, a GTKWave save file showing every signal and the stage names.
traced=(run "${quick[@]}" --set 'topology.dims=[4,4]' --set 'trace.nodes=[[1,0]]' --set 'trace.blocks=["vc","credit","vcup"]')
"$sim" "${traced[@]}" --set "trace.file=\"$work/w.vcd\"" --out "$work/w.json" > /dev/null
vars=$(grep -c '^\$var' "$work/w.vcd")
[ "$vars" -gt 0 ] && [ "$(grep -c '^router_1_0\.' "$work/w.gtkw")" -eq "$vars" ] && grep -q "^\[dumpfile\] \"$work/w.vcd\"" "$work/w.gtkw" \
  && grep -q "^\[savefile\] \"$work/w.gtkw\"" "$work/w.gtkw" \
  && ok || fail "w.gtkw should name $work/w.vcd and itself, and show its $vars signals"
grep -q "router_1_0.vc_xp.vc0\[15:0\]" "$work/w.gtkw" && grep -q "router_1_0.credits_ym.vc1\[15:0\]" "$work/w.gtkw" \
  && ok || fail "the point-to-point VCs' occupancy and credits are not traced"
grep -B1 "router_1_0.vcup_xp.stage" "$work/w.gtkw" | grep -q "^\^1 $work/w.stages.txt" && grep -q "^4 issuing$" "$work/w.stages.txt" \
  && ok || fail "the stage signals should be shown through w.stages.txt"
# vcd-diff: the same waveform, another one (exit 4, the first difference), a file that is not there.
"$sim" "${traced[@]}" --set "trace.file=\"$work/w2.vcd\"" --out "$work/w2.json" > /dev/null
"$sim" "${traced[@]}" --set traffic.rate=0.2 --set "trace.file=\"$work/w3.vcd\"" --out "$work/w3.json" > /dev/null
"$sim" vcd-diff "$work/w.vcd" "$work/w2.vcd" | grep -q "^same: $vars signals" && ok || fail "vcd-diff of equal waveforms"
"$sim" vcd-diff "$work/w.vcd" "$work/w3.vcd" > "$work/diff.txt"
[ $? -eq 4 ] && grep -q "^router_1_0\..* first differs at [0-9]* ps .*: expected [0-9]*, got [0-9]*$" "$work/diff.txt" \
  && ok || fail "vcd-diff of different waveforms: $(cat "$work/diff.txt")"
"$sim" vcd-diff "$work/w.vcd" "$work/nowhere.vcd" > /dev/null 2> "$work/err.txt"
[ $? -eq 2 ] && grep -q "nowhere.vcd" "$work/err.txt" && ok || fail "vcd-diff of a missing file should exit 2 naming it"
# A traced run the model stops (here its watchdog, in a credit stall) still writes its waveform,
# up to the failure, and says where.
"$sim" run "$(dirname "$0")/../golden/scenarios/credit_stall_4x4.toml" -q --set sim.watchdog_cycles=500 \
  --set "trace.file=\"$work/stopped.vcd\"" --out "$work/stopped.json" > /dev/null 2> "$work/err.txt"
[ $? -eq 3 ] && grep -q "^the waveform up to it: $work/stopped.vcd$" "$work/err.txt" && [ ! -e "$work/stopped.json" ] \
  && "$sim" vcd-diff "$work/stopped.vcd" "$work/stopped.vcd" > /dev/null \
  && [ "$(grep '^#' "$work/stopped.vcd" | tail -1 | tr -d '#')" -le $((3875 * 2000)) ] \
  && ok || fail "a stopped traced run should keep its waveform up to the failure: $(cat "$work/err.txt")"
"$sim" run "${quick[@]}" --set 'trace.nodes=[[0,0,0]]' --mode lt --out "$work/lt.json" > /dev/null 2> "$work/err.txt"
[ $? -eq 2 ] && grep -q "sim.mode" "$work/err.txt" && ok || fail "tracing in LT should be refused"

# The message tests write a CSV per size beside the JSON; a bad size is refused.
for kind in msgrate pingpong; do
  if "$sim" run "$configs/$kind.toml" --set 'workload.sizes=[8,4096]' --set workload.messages=20 -q \
       --out "$work/$kind.json" > /dev/null; then ok; else fail "$kind failed"; fi
  [ "$(wc -l < "$work/$kind.csv")" -eq 3 ] && head -1 "$work/$kind.csv" | grep -q "^bytes," \
    && ok || fail "$kind.csv should have a header and two sizes"
done
"$sim" run "$configs/msgrate.toml" --set 'workload.sizes=[0]' -q --out "$work/bad.json" > /dev/null 2> "$work/err.txt"
[ $? -eq 2 ] && grep -q "workload.sizes" "$work/err.txt" && [ ! -e "$work/bad.csv" ] && ok \
  || fail "a zero message size should exit 2 naming workload.sizes"

# Software collectives: the same results as the hardware subnet on the same inputs.
sw=(run "$configs/software_allreduce_8x8x8.toml" --set 'topology.dims=[4,4,4]' -q)
if "$sim" "${sw[@]}" --out "$work/sw.json" > /dev/null &&
   "$sim" "${sw[@]}" --set workload.kind=collective --out "$work/hw.json" > /dev/null; then
  ok
else
  fail "the software or hardware allreduce failed"
fi
grep -q '"workload": "software"' "$work/sw.json" && ok || fail "software results lack their workload"
digest() { grep -o '"results_digest": "[0-9a-f]*"' "$1"; }
[ -n "$(digest "$work/sw.json")" ] && [ "$(digest "$work/sw.json")" = "$(digest "$work/hw.json")" ] \
  && ok || fail "software and hardware allreduce results differ"
expect_bad workload.algorithm "$configs/software_allreduce_8x8x8.toml" --set workload.algorithm=binomial

summary
