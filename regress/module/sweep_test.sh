#!/usr/bin/env bash
# angara-sweep as a user meets it: plan, a run killed halfway and resumed, reruns that run only
# what is missing or changed, a failing point, collect, plot, bad input, Slurm scripts.
# usage: sweep_test.sh ANGARA_SWEEP CONFIGS_DIR
set -u
sweep=$1
configs=$(cd "$2" && pwd)  # absolute: the sweep files name their base by it
work=$(mktemp -d)
bg=""  # the pid (and process group) of a run started in the background
cleanup() {
  if [ -n "$bg" ]; then kill -KILL -- "-$bg" 2> /dev/null; fi
  rm -rf "$work"
}
trap cleanup EXIT
passed=0
failed=0
ok() { passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
check() {  # check DESCRIPTION COMMAND...: passes when the command succeeds
  local what=$1
  shift
  if "$@"; then ok; else fail "$what"; fi
}
results() { find "$1/points" -name results.json 2> /dev/null | wc -l; }
# "md5 mtime path" of every results.json under $1, sorted.
fingerprints() {
  find "$1/points" -name results.json -exec sh -c 'echo "$(md5sum < "$1" | cut -c1-32) $(date -r "$1" +%s.%N) $1"' _ {} \; |
    sort -k3
}
# The value of column $2 (by header name) in row $3 (1 = first data row) of CSV file $1.
csv_cell() {
  awk -F, -v col="$2" -v row="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i }
    NR == row + 1 { print (c ? $c : "NO_COLUMN") }' "$1"
}

# 8 points of a few milliseconds each: a 4x4 torus at rates 0.05 .. 0.40.
cat > "$work/quick.toml" << EOF
[sweep]
base = "$configs/default.toml"
[config.topology]
dims = [4, 4]
[config.sim]
warmup_cycles = 200
measure_cycles = 1000
progress = false
[[axis]]
key = "traffic.rate"
range = [0.05, 0.40, 0.05]
EOF

# 8 points of about 0.4 s each (8x8x8 torus, 5000 measured cycles), long enough to kill a run
# halfway.
cat > "$work/slow.toml" << EOF
[sweep]
base = "$configs/default.toml"
[config.topology]
dims = [8, 8, 8]
[config.sim]
warmup_cycles = 200
measure_cycles = 5000
progress = false
[[axis]]
key = "sim.seed"
values = [1, 2, 3, 4, 5, 6, 7, 8]
EOF

# Every command's --help, its required options missing: exit 0, its options on stdout.
for command in plan run slurm task collect plot; do
  out=$("$sweep" "$command" --help 2> "$work/help.err")
  status=$?
  check "'$command --help' exited $status: $(cat "$work/help.err")" [ "$status" -eq 0 ]
  check "'$command --help' wrote to stderr" [ ! -s "$work/help.err" ]
  check "'$command --help' lacks its options" grep -q "$command options" <<< "$out"
done
check "--version: $("$sweep" --version)" grep -q "^angara-sweep [0-9.]* (git " <("$sweep" --version)
"$sweep" collect "$work" > /dev/null 2> "$work/dir.err"
check "a directory that is no sweep is not called a directory: $(cat "$work/dir.err")" \
  grep -q "bad input: directory '$work': no manifest.json" "$work/dir.err"

# plan: one line per point and the count, without running anything.
"$sweep" plan "$work/quick.toml" > "$work/plan.txt"
check "plan exited $?" [ $? -eq 0 ]
check "plan did not end with '8 points': $(tail -1 "$work/plan.txt")" \
  [ "$(tail -1 "$work/plan.txt")" = "8 points" ]
check "plan listed $(grep -c 'traffic.rate=' "$work/plan.txt") points, not 8" \
  [ "$(grep -c 'traffic.rate=' "$work/plan.txt")" -eq 8 ]
grep -q "point_7  traffic.rate=0.4$" "$work/plan.txt" && ok || fail "plan lacks the last point: $(cat "$work/plan.txt")"
"$sweep" plan "$work/slow.toml" | tail -1 | grep -qx "8 points" && ok || fail "plan of slow.toml"

# run -j 2, killed (the whole process group, SIGKILL) once 2 to 7 points are done.
slow=$work/slow
setsid "$sweep" run "$work/slow.toml" --out "$slow" -j 2 > "$work/killed.txt" 2>&1 &
bg=$!
check "the background run is not its own process group" \
  [ "$(ps -o pgid= -p "$bg" | tr -d ' ')" = "$bg" ]
for _ in $(seq 1 600); do # at most ~15 s, less if the run ends
  [ "$(results "$slow")" -ge 2 ] && break
  kill -0 "$bg" 2> /dev/null || break
  sleep 0.025
done
kill -KILL -- "-$bg" 2> /dev/null
wait "$bg" 2> /dev/null
bg=""
before=$(results "$slow")
echo "killed the run with $before of 8 points done"
check "$before points were done when the run was killed, expected 2 to 7" \
  [ "$before" -ge 2 -a "$before" -lt 8 ]
fingerprints "$slow" > "$work/before.txt"

# run again: the done points are skipped and untouched, the rest finish.
"$sweep" run "$work/slow.toml" --out "$slow" -j 2 > "$work/resume.txt" 2> "$work/resume.err"
check "resumed run exited $?: $(cat "$work/resume.err")" [ $? -eq 0 ]
grep -q "^8 points: $before already done, $((8 - before)) run, 0 failed" "$work/resume.txt" && ok ||
  fail "resumed run summary, expected $before done: $(cat "$work/resume.txt")"
grep -q "$before of 8 points already done, $((8 - before)) to run" "$work/resume.err" && ok ||
  fail "resumed run did not report the skipped points: $(cat "$work/resume.err")"
check "resumed run left $(results "$slow") results, not 8" [ "$(results "$slow")" -eq 8 ]
fingerprints "$slow" | grep -F -f <(awk '{print $3}' "$work/before.txt") > "$work/after.txt"
diff "$work/before.txt" "$work/after.txt" > /dev/null && ok ||
  fail "results done before the kill changed: $(diff "$work/before.txt" "$work/after.txt")"

# A finished sweep runs nothing.
fingerprints "$slow" > "$work/finished.txt"
"$sweep" run "$work/slow.toml" --out "$slow" -j 2 > "$work/again.txt" 2> /dev/null
check "rerun of a finished sweep exited $?" [ $? -eq 0 ]
grep -q "^8 points: 8 already done, 0 run, 0 failed" "$work/again.txt" && ok ||
  fail "rerun of a finished sweep: $(cat "$work/again.txt")"
diff "$work/finished.txt" <(fingerprints "$slow") > /dev/null && ok || fail "a rerun touched results"

# Change one axis value (seed 8 -> 9): only that point reruns.
sed -i 's/values = \[1, 2, 3, 4, 5, 6, 7, 8\]/values = [1, 2, 3, 4, 5, 6, 7, 9]/' "$work/slow.toml"
"$sweep" run "$work/slow.toml" --out "$slow" -j 2 > "$work/changed.txt" 2> /dev/null
check "run after a change exited $?" [ $? -eq 0 ]
grep -q "^8 points: 7 already done, 1 run, 0 failed" "$work/changed.txt" && ok ||
  fail "changing one value did not rerun just one point: $(cat "$work/changed.txt")"
grep -qx "seed = 9" "$slow/points/point_7/config.toml" && ok || fail "point_7 config not updated"
diff <(grep -v point_7 "$work/finished.txt") <(fingerprints "$slow" | grep -v point_7) > /dev/null &&
  ok || fail "unchanged points were rerun"
check "point_7 results were not rewritten" \
  [ "$(grep point_7 "$work/finished.txt" | cut -c1-32)" != "$(fingerprints "$slow" | grep point_7 | cut -c1-32)" ]

# collect: a header with the point, the axis keys, result fields, the run's peak memory and
# status; rows in plan order.
# A link planted at results.csv is replaced, not written through.
echo keep > "$work/victim.txt" && ln -sf "$work/victim.txt" "$slow/results.csv"
"$sweep" collect "$slow" > "$work/collect.txt"
check "collect exited $?" [ $? -eq 0 ]
csv=$slow/results.csv
check "collect wrote through the link at results.csv" [ "$(cat "$work/victim.txt")" = keep ]
check "results.csv is still a link" [ ! -L "$csv" ]
header=$(head -1 "$csv")
for column in point sim.seed nodes latency_ns.mean peak_memory_mb status; do
  tr , '\n' <<< "$header" | grep -qx "$column" && ok || fail "results.csv header lacks $column: $header"
done
check "results.csv has $(($(wc -l < "$csv") - 1)) rows, not 8" [ "$(wc -l < "$csv")" -eq 9 ]
expected_seeds=(1 2 3 4 5 6 7 9)
# A point's peak memory is above 1 MB; it may be unknown only for a point that ended in the killed
# run, whose runner can have died before it saw the point's process end.
peak_memory_measured() {
  awk -v m="$2" 'BEGIN { exit !(m + 0 > 1) }' ||
    { [ -z "$2" ] && grep -q "/$1/results.json$" "$work/before.txt"; }
}
for row in $(seq 1 8); do
  [ "$(csv_cell "$csv" point "$row")" = "point_$((row - 1))" ] &&
    [ "$(csv_cell "$csv" sim.seed "$row")" = "${expected_seeds[$((row - 1))]}" ] &&
    [ "$(csv_cell "$csv" nodes "$row")" = 512 ] &&
    [ "$(csv_cell "$csv" status "$row")" = ok ] &&
    awk -v v="$(csv_cell "$csv" latency_ns.mean "$row")" 'BEGIN { exit !(v + 0 > 0) }' &&
    peak_memory_measured "$(csv_cell "$csv" point "$row")" "$(csv_cell "$csv" peak_memory_mb "$row")" &&
    ok ||
    fail "results.csv row $row: $(sed -n "$((row + 1))p" "$csv" | cut -c1-120)"
done

# plot: PNG and SVG; an unknown column is bad input naming it.
if command -v gnuplot > /dev/null; then
  "$sweep" plot "$slow" --x sim.seed --y latency_ns.mean -o "$work/fig.png" > /dev/null 2>&1
  check "plot png exited $?" [ $? -eq 0 ]
  check "plot wrote no PNG" [ "$(head -c 4 "$work/fig.png" 2> /dev/null | od -An -tx1 | tr -d ' ')" = 89504e47 ]
  "$sweep" plot "$slow" --x sim.seed --y latency_ns.mean -o "$work/fig.svg" > /dev/null 2>&1
  check "plot svg exited $?" [ $? -eq 0 ]
  check "plot wrote no SVG" grep -q "<svg" "$work/fig.svg"
else
  echo "SKIP: plot png/svg (no gnuplot)"
fi
"$sweep" plot "$slow" --x sim.seed --y latency_ns.bogus -o "$work/bad.png" > /dev/null 2> "$work/plot.err"
check "plot with a bad --y exited $?, expected 2" [ $? -eq 2 ]
check "plot with a bad --y did not name it: $(cat "$work/plot.err")" grep -q latency_ns.bogus "$work/plot.err"
check "plot with a bad --y wrote a figure" [ ! -e "$work/bad.png" ]

# A failing point (a deadlock: no protection, one VC, full load) is recorded; the other finishes.
cat > "$work/deadlock.toml" << EOF
[config.topology]
dims = [4, 4]
[config.router]
vcs = 1
[config.traffic]
rate = 1.0
[config.sim]
warmup_cycles = 200
measure_cycles = 1000
watchdog_cycles = 2000
progress = false
[[axis]]
key = "router.deadlock"
values = ["bubble", "none"]
group = "scheme"
[[axis]]
key = "router.buffer_flits"
values = [64, 17]
group = "scheme"
EOF
dead=$work/dead
"$sweep" run "$work/deadlock.toml" --out "$dead" -j 2 > "$work/dead.txt" 2> "$work/dead.err"
check "a sweep with a failing point exited $?, expected 3" [ $? -eq 3 ]
grep -q "^2 points: 0 already done, 2 run, 1 failed" "$work/dead.txt" && ok ||
  fail "failing sweep summary: $(cat "$work/dead.txt")"
check "the failing point has no failed file" [ -f "$dead/points/point_1/failed" ]
check "the failed file lacks the exit status: $(head -1 "$dead/points/point_1/failed" 2> /dev/null)" \
  grep -qx "exit status 3" "$dead/points/point_1/failed"
check "the failing point has results" [ ! -e "$dead/points/point_1/results.json" ]
check "the good point did not finish" [ -f "$dead/points/point_0/results.json" ]
check "the good point has a failed file" [ ! -e "$dead/points/point_0/failed" ]
"$sweep" collect "$dead" > /dev/null
check "collect of a failed sweep exited $?" [ $? -eq 0 ]
check "collected status of the good point: $(csv_cell "$dead/results.csv" status 1)" \
  [ "$(csv_cell "$dead/results.csv" status 1)" = ok ]
check "collected status of the failed point: $(csv_cell "$dead/results.csv" status 2)" \
  [ "$(csv_cell "$dead/results.csv" status 2)" = failed ]
check "collected deadlock column: $(csv_cell "$dead/results.csv" router.deadlock 2)" \
  [ "$(csv_cell "$dead/results.csv" router.deadlock 2)" = none ]
check "collected buffer column: $(csv_cell "$dead/results.csv" router.buffer_flits 2)" \
  [ "$(csv_cell "$dead/results.csv" router.buffer_flits 2)" = 17 ]

# Several sweeps in one pool: each into DIR/NAME; a bad one among them stops all before any runs.
sed 's/range = \[0.05, 0.40, 0.05\]/values = [0.1, 0.2]/' "$work/quick.toml" > "$work/pair.toml"
"$sweep" run "$work/quick.toml" "$work/pair.toml" --out "$work/pool" -j 2 > "$work/pool.txt" 2> /dev/null
check "a run of two sweeps exited $?" [ $? -eq 0 ]
grep -q "^10 points: 0 already done, 10 run, 0 failed" "$work/pool.txt" && ok ||
  fail "two sweeps' summary: $(cat "$work/pool.txt")"
check "two sweeps left $(results "$work/pool/quick") and $(results "$work/pool/pair") results, not 8 and 2" \
  [ "$(results "$work/pool/quick")" -eq 8 -a "$(results "$work/pool/pair")" -eq 2 ]
"$sweep" collect "$work/pool/pair" > /dev/null
check "the second sweep's rates: $(csv_cell "$work/pool/pair/results.csv" traffic.rate 2)" \
  [ "$(csv_cell "$work/pool/pair/results.csv" traffic.rate 2)" = 0.2 ]
sed 's/key = "traffic.rate"/key = "router.bufer_flits"/' "$work/quick.toml" > "$work/bad.toml"
"$sweep" run "$work/quick.toml" "$work/bad.toml" --out "$work/badpool" > /dev/null 2> "$work/badpool.err"
check "two sweeps, one bad, exited $?, expected 2" [ $? -eq 2 ]
check "two sweeps, one bad, made point directories" [ ! -e "$work/badpool" ]

# A bad sweep file is bad input, named, before any point directory exists.
"$sweep" run "$work/bad.toml" --out "$work/bad" > /dev/null 2> "$work/bad.err"
check "a bad sweep file exited $?, expected 2" [ $? -eq 2 ]
check "the bad key is not named: $(cat "$work/bad.err")" grep -q router.bufer_flits "$work/bad.err"
check "a bad sweep file made point directories" [ ! -e "$work/bad/points" ]

# slurm --dry-run: the array script, 4 tasks of 2 points, and no sbatch call.
mkdir "$work/bin"
printf '#!/bin/sh\ntouch "%s/sbatch-called"\necho 42\n' "$work" > "$work/bin/sbatch"
chmod +x "$work/bin/sbatch"
PATH="$work/bin:$PATH" "$sweep" slurm "$work/quick.toml" --out "$work/slurm" --chunk 2 --dry-run \
  --sbatch=--mem=4G --sbatch=--account=proj > "$work/slurm.txt" 2>&1
check "slurm --dry-run exited $?: $(cat "$work/slurm.txt")" [ $? -eq 0 ]
# A point that dies without a word (killed, its log empty) is recorded as failed and the sweep
# goes on with the points after it: a copy of angara-sweep beside a fake angara-sim that kills
# itself on the point with seed 2 and writes results for the others.
mkdir -p "$work/fake"
cp "$sweep" "$work/fake/angara-sweep"
cat > "$work/fake/angara-sim" << 'EOF'
#!/bin/sh
# called as: angara-sim run CONFIG --out RESULTS
if grep -qx "seed = 2" "$2"; then kill -KILL $$; fi
echo '{}' > "$4"
EOF
chmod +x "$work/fake/angara-sim"
cat > "$work/silent.toml" << EOF
[[axis]]
key = "sim.seed"
values = [1, 2, 3]
EOF
silent=$work/silent
"$work/fake/angara-sweep" run "$work/silent.toml" --out "$silent" -j 1 > "$work/silent.txt" 2> "$work/silent.err"
check "a sweep with a silent death exited $?, expected 3" [ $? -eq 3 ]
grep -q "^3 points: 0 already done, 3 run, 1 failed" "$work/silent.txt" && ok ||
  fail "silent-death sweep summary: $(cat "$work/silent.txt")"
check "the silent point's failed file lacks the signal: $(cat "$silent/points/point_1/failed" 2> /dev/null)" \
  grep -qx "killed by signal 9" "$silent/points/point_1/failed"
check "the silent point's failed file does not say it had no output" \
  grep -qx "(no output)" "$silent/points/point_1/failed"
check "the points around the silent one did not run" \
  [ -f "$silent/points/point_0/results.json" -a -f "$silent/points/point_2/results.json" ]

# until_saturated: each line (a VC count) walks its rates in order and stops after the first
# saturated point. This fake angara-sim calls every rate from 0.3 saturated and logs its calls.
cat > "$work/fake/angara-sim" << 'EOF'
#!/bin/sh
rate=$(sed -n 's/^rate = //p' "$2")
vcs=$(sed -n 's/^vcs = //p' "$2")
echo "$vcs $rate" >> "$(dirname "$0")/calls.txt"
case $rate in 0.1 | 0.2) saturated=false ;; *) saturated=true ;; esac
echo "{\"saturated\": $saturated, \"latency_ns\": {\"mean\": $vcs$rate}}" > "$4"
EOF
cat > "$work/curve.toml" << EOF
[sweep]
name = "v{router.vcs}_r{traffic.rate}"
[[axis]]
key = "router.vcs"
values = [2, 4]
[[axis]]
key = "traffic.rate"
values = [0.1, 0.2, 0.3, 0.4, 0.5]
until_saturated = true
EOF
curve=$work/curve
"$work/fake/angara-sweep" run "$work/curve.toml" --out "$curve" -j 2 > "$work/curve.txt" 2> /dev/null
check "an until_saturated sweep exited $?" [ $? -eq 0 ]
grep -q "^10 points: 0 already done, 6 run, 0 failed, 4 beyond saturation" "$work/curve.txt" && ok ||
  fail "until_saturated summary: $(cat "$work/curve.txt")"
for vcs in 2 4; do
  calls=$(grep "^$vcs " "$work/fake/calls.txt" | cut -d' ' -f2 | tr '\n' ,)
  check "line $vcs ran rates $calls, not 0.1,0.2,0.3, in order" [ "$calls" = "0.1,0.2,0.3," ]
  check "v${vcs}_r0.5 is not marked beyond saturation" \
    [ -f "$curve/points/v${vcs}_r0.5/beyond_saturation" ]
done
"$sweep" collect "$curve" > /dev/null
check "collected status of a point beyond saturation: $(csv_cell "$curve/results.csv" status 4)" \
  [ "$(csv_cell "$curve/results.csv" status 4)" = beyond_saturation ]
check "collected status of the saturated point: $(csv_cell "$curve/results.csv" status 3)" \
  [ "$(csv_cell "$curve/results.csv" status 3)" = ok ]
rm "$work/fake/calls.txt"
"$work/fake/angara-sweep" run "$work/curve.toml" --out "$curve" -j 2 > "$work/curve.txt" 2> /dev/null
grep -q "^10 points: 6 already done, 0 run, 0 failed, 4 beyond saturation" "$work/curve.txt" && ok ||
  fail "until_saturated rerun: $(cat "$work/curve.txt")"
check "the rerun of a finished until_saturated sweep called angara-sim" [ ! -e "$work/fake/calls.txt" ]
# plot: a second swept axis without --series is refused naming it; with it, a PDF whose
# saturated points are marked and whose axes carry units.
"$sweep" plot "$curve" --x traffic.rate --y latency_ns.mean -o "$work/curve.pdf" > /dev/null 2> "$work/plot.err"
check "plot of a two-axis sweep without --series exited $?, expected 2" [ $? -eq 2 ]
check "the other axis is not named: $(cat "$work/plot.err")" grep -q "series router.vcs" "$work/plot.err"
if command -v gnuplot > /dev/null; then
  "$sweep" plot "$curve" --x traffic.rate --y latency_ns.mean --series router.vcs -o "$work/curve.pdf" > /dev/null 2>&1
  check "plot pdf exited $?" [ $? -eq 0 ]
  check "plot wrote no PDF" [ "$(head -c 4 "$work/curve.pdf" 2> /dev/null)" = "%PDF" ]
  check "the saturated points are not marked" grep -q "title 'saturated'" "$work/curve.gp"
  check "the y axis has no unit" grep -qx "set ylabel 'latency_ns.mean (ns)'" "$work/curve.gp"
  check "the title is not the sweep directory's name" grep -qx "set title 'curve'" "$work/curve.gp"
  "$sweep" plot "$curve" --x traffic.rate --y latency_ns.mean --series router.vcs --log-y \
    --title "Two VCs' curves" -o "$work/curve.svg" > /dev/null 2>&1
  check "plot --log-y --title exited $?" [ $? -eq 0 ]
  check "no log y axis" grep -qx "set logscale y 10" "$work/curve.gp"
  check "the title's quote is not doubled for gnuplot" grep -qx "set title 'Two VCs'' curves'" "$work/curve.gp"
  "$sweep" plot "$curve" --x traffic.rate --y latency_ns.mean --series router.vcs --no-saturated \
    -o "$work/unsaturated.svg" > /dev/null 2>&1
  check "plot --no-saturated exited $?" [ $? -eq 0 ]
  check "plot --no-saturated still marks saturated points" \
    bash -c "! grep -q \"title 'saturated'\" '$work/unsaturated.gp'"
fi

# collect gives an array of records (pingpong's and msgrate's sizes) a column per record and
# field, named by the record's first field; histograms stay out.
cat > "$work/fake/angara-sim" << 'EOF'
#!/bin/sh
echo '{"sizes": [{"bytes": 8, "half_rtt_ns": 912.0}, {"bytes": 4096, "half_rtt_ns": 2834.0}],
 "latency": {"histogram": [{"lo": 1, "count": 2}]}}' > "$4"
EOF
"$work/fake/angara-sweep" run "$work/silent.toml" --out "$work/records" -j 1 > /dev/null 2>&1
"$sweep" collect "$work/records" > /dev/null
check "collected sizes.4096.half_rtt_ns: $(csv_cell "$work/records/results.csv" sizes.4096.half_rtt_ns 1)" \
  [ "$(csv_cell "$work/records/results.csv" sizes.4096.half_rtt_ns 1)" = 2834.0 ]
check "a histogram was collected: $(head -1 "$work/records/results.csv")" \
  [ "$(grep -c histogram "$work/records/results.csv")" -eq 0 ]

# [trace] in a sweep: each point writes its waveform into its own directory.
cat > "$work/traced.toml" << EOF
[config.topology]
dims = [4, 4]
[config.trace]
nodes = [[0, 0]]
[[axis]]
key = "sim.seed"
values = [1, 2]
EOF
"$work/fake/angara-sweep" run "$work/traced.toml" --out "$work/traced" -j 1 > /dev/null 2>&1
for p in point_0 point_1; do
  check "$p's trace file is not in its directory: $(grep '^file' "$work/traced/points/$p/config.toml")" \
    grep -qx "file = \"$work/traced/points/$p/trace.vcd\"" "$work/traced/points/$p/config.toml"
done

# kill -TERM of the runner alone stops its points too, and the runner ends by that signal.
mkdir -p "$work/sleepy"
cp "$sweep" "$work/sleepy/angara-sweep"
cat > "$work/sleepy/angara-sim" << 'EOF'
#!/bin/sh
echo $$ > "$(dirname "$4")/pid"
exec sleep 60
EOF
chmod +x "$work/sleepy/angara-sim"
setsid "$work/sleepy/angara-sweep" run "$work/silent.toml" --out "$work/term" -j 2 > /dev/null 2>&1 &
bg=$!
for _ in $(seq 1 400); do # at most ~10 s
  [ "$(find "$work/term/points" -name pid 2> /dev/null | wc -l)" -eq 2 ] && break
  sleep 0.025
done
pids=$(cat "$work/term/points"/*/pid 2> /dev/null)
check "the runner did not start 2 points: $pids" [ "$(echo $pids | wc -w)" -eq 2 ]
kill -TERM "$bg"
wait "$bg"
status=$?
bg=""
check "the runner stopped by SIGTERM exited $status, expected 143" [ "$status" -eq 143 ]
for pid in $pids; do
  check "point process $pid outlived the runner's SIGTERM" [ ! -d "/proc/$pid" ]
done

script=$work/slurm/sweep.sbatch
check "sweep.sbatch lacks --array=0-3" grep -qx "#SBATCH --array=0-3" "$script"
check "sweep.sbatch lacks the extra options" \
  [ "$(grep -cx -e "#SBATCH --mem=4G" -e "#SBATCH --account=proj" "$script")" -eq 2 ]
check "sweep.sbatch's task logs are not per job" grep -q "^#SBATCH --output=.*/slurm/task-%A_%a.out$" "$script"
"$sweep" slurm "$work/quick.toml" --out "$work/slurm" --dry-run --sbatch=mem=4G > /dev/null 2> "$work/sbatch.err"
check "an sbatch option without '-' exited $?, expected 2" [ $? -eq 2 ]
check "the bad sbatch option is not named: $(cat "$work/sbatch.err")" grep -q "sbatch" "$work/sbatch.err"
check "sweep.sbatch lacks the task line" grep -q "angara-sweep' task '.*' --index \"\$SLURM_ARRAY_TASK_ID\" --chunk 2$" "$script"
check "slurm --dry-run called sbatch" [ ! -e "$work/sbatch-called" ]
check "slurm --dry-run did not prepare 8 points" \
  [ "$(find "$work/slurm/points" -name config.toml | wc -l)" -eq 8 ]
# One array task as Slurm would start it: task 1 runs points 2 and 3, nothing else.
SLURM_ARRAY_TASK_ID=1 bash "$script" > /dev/null 2>&1
check "array task 1 exited $?" [ $? -eq 0 ]
check "array task 1 ran $(results "$work/slurm") points, not 2" [ "$(results "$work/slurm")" -eq 2 ]
check "array task 1 did not run points 2 and 3" \
  [ -f "$work/slurm/points/point_2/results.json" -a -f "$work/slurm/points/point_3/results.json" ]

# A partitioned machine: a seed axis moves every partition's default seed; collect names each
# partition's results by its index.
cat > "$work/parts.toml" << EOF
[sweep]
base = "$configs/partitions.toml"
name = "s{sim.seed}"
[config.sim]
warmup_cycles = 200
measure_cycles = 500
progress = false
[[axis]]
key = "sim.seed"
values = [1, 5]
EOF
"$sweep" run "$work/parts.toml" --out "$work/parts" -j1 > /dev/null 2>&1
check "the partitioned sweep exited $?" [ $? -eq 0 ]
"$sweep" collect "$work/parts" > /dev/null 2>&1
check "collect of the partitioned sweep exited $?" [ $? -eq 0 ]
check "partition 1's seed is not sim.seed + 1" \
  [ "$(csv_cell "$work/parts/results.csv" partitions.1.seed 2)" = 6 ]
check "partition 0's latency is not collected" \
  [ "$(csv_cell "$work/parts/results.csv" partitions.0.results.latency_cycles.mean 1)" != NO_COLUMN ]

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
