#!/usr/bin/env bash
# A sweep directory's bookkeeping against careless and hostile use: a damaged manifest (a point
# without an axis value, a name leaving the directory, not JSON) is refused naming what is wrong;
# a results file cut short is not done and runs again; an array task index past the array is
# refused; keys spelled with spaces are one key; a second runner on a directory is refused naming
# the first's pid; a lock file that is an input of the run is refused; a runner killed by SIGKILL
# takes its simulations with it; a point another process holds is not started beside it; two
# sweep files of one name get a directory each.
# angara-sim is faked, so points take milliseconds.
# usage: sweep_bookkeeping_test.sh ANGARA_SWEEP
set -u
sweep_exe=$1
. "$(dirname "$0")/../support/checks.sh"
# expect_error TEXT COMMAND...: the command exits 2 and its stderr holds TEXT.
expect_error() {
  local text=$1
  shift
  "$@" > /dev/null 2> "$work/err.txt"
  local status=$?
  check "$* exited $status, expected 2" [ "$status" -eq 2 ]
  check "$* did not say '$text': $(cat "$work/err.txt")" grep -qF -- "$text" "$work/err.txt"
}

mkdir -p "$work/bin"
cp "$sweep_exe" "$work/bin/angara-sweep"
sweep=$work/bin/angara-sweep
cat > "$work/bin/angara-sim" << 'EOF'
#!/bin/sh
# called as: angara-sim run CONFIG --out RESULTS
echo "$2" >> "$(dirname "$0")/calls.txt"
echo '{"saturated": false, "latency_ns": {"mean": 100.5}}' > "$4"
EOF
chmod +x "$work/bin/angara-sim"
calls() { wc -l < "$work/bin/calls.txt" 2> /dev/null || echo 0; }
cat > "$work/three.toml" << EOF
[[axis]]
key = "sim.seed"
values = [1, 2, 3]
EOF
dir=$work/three
"$sweep" run "$work/three.toml" --out "$dir" -j 1 > /dev/null 2>&1
check "the sweep of three points did not run" [ "$(calls)" -eq 3 ]

# A results file cut short is not done: collect says missing, run runs that point again.
head -c 20 "$dir/points/point_1/results.json" > "$work/cut" && mv "$work/cut" "$dir/points/point_1/results.json"
"$sweep" collect "$dir" > /dev/null 2>&1
check "collect of a cut-short result: $(sed -n 3p "$dir/results.csv")" grep -qx "point_1,2,.*,missing" "$dir/results.csv"
"$sweep" run "$work/three.toml" --out "$dir" -j 1 > "$work/rerun.txt" 2> /dev/null
check "a cut-short result was counted done: $(cat "$work/rerun.txt")" \
  grep -q "^3 points: 2 already done, 1 run, 0 failed" "$work/rerun.txt"
check "the rerun did not run point_1 again" [ "$(tail -1 "$work/bin/calls.txt")" = "$dir/points/point_1/config.toml" ]

# An array task index past the array.
expect_error "flag '--index' = 3: the sweep has 3 points, 1 per task: array tasks 0 to 2" \
  "$sweep" task "$dir" --index 3 --chunk 1
expect_error "flag '--index' = 2: the sweep has 3 points, 2 per task: array tasks 0 to 1" \
  "$sweep" task "$dir" --index 2 --chunk 2
"$sweep" task "$dir" --index 1 --chunk 2 > "$work/task.txt" 2>&1
check "the last array task exited $?: $(cat "$work/task.txt")" [ $? -eq 0 ]
check "the last array task: $(cat "$work/task.txt")" grep -q "^1 points: 1 already done" "$work/task.txt"

# Damaged manifests: refused naming the file and what is wrong; collect writes no table.
cp "$dir/manifest.json" "$work/manifest.good"
damage() { # damage PYTHON: edits the manifest m in place
  python3 -c "import json,sys; m=json.load(open(sys.argv[1])); $1; json.dump(m, open(sys.argv[1], 'w'))" \
    "$dir/manifest.json"
}
rm -f "$dir/results.csv"
damage "del m['points'][1]['settings']['sim.seed']"
expect_error "file '$dir/manifest.json' (point 1 'point_1'): no value for axis key 'sim.seed': every point has one for each axis; the manifest is damaged" \
  "$sweep" collect "$dir"
check "collect of a damaged manifest wrote results.csv" [ ! -e "$dir/results.csv" ]
cp "$work/manifest.good" "$dir/manifest.json"
damage "m['points'][1]['settings']['sim.seed'] = 2"
expect_error "no value for axis key 'sim.seed'" "$sweep" collect "$dir"
cp "$work/manifest.good" "$dir/manifest.json"
damage "m['points'][0]['name'] = '../../escaped'"
rm "$dir/points/point_0/results.json"
expect_error "(point 0): every point has a name that is a plain directory name" \
  "$sweep" task "$dir" --index 0 --chunk 1
check "a point named outside the sweep directory was run" [ ! -e "$work/escaped" ]
echo '{"axes": ["sim.seed"], "points": [' > "$dir/manifest.json"
expect_error "file '$dir/manifest.json': expected an object with \"axes\" and \"points\" arrays" \
  "$sweep" collect "$dir"
"$sweep" run "$work/three.toml" --out "$dir" > "$work/repair.txt" 2>&1
check "run did not write a damaged manifest again: $(cat "$work/repair.txt")" \
  grep -q "^3 points: 2 already done, 1 run, 0 failed" "$work/repair.txt"
cmp -s "$work/manifest.good" "$dir/manifest.json" && ok || fail "the manifest written again differs"

# Keys spelled with spaces are one key: swept twice is refused.
cat > "$work/twice.toml" << EOF
[[axis]]
key = "sim.seed"
values = [1]
[[axis]]
key = " sim . seed "
values = [2]
EOF
expect_error "sweep file key 'sim.seed' = axis[0] and axis[1]: this key is swept by two axes" \
  "$sweep" plan "$work/twice.toml"

# Two sweep files of one name in one --out: a directory each (and the same on a resume); the same
# file twice, or a directory holding another sweep file's points, is refused.
mkdir -p "$work/a" "$work/b"
cp "$work/three.toml" "$work/a/load.toml"
sed 's/values = \[1, 2, 3\]/values = [7, 8]/' "$work/three.toml" > "$work/b/load.toml"
for round in first resume; do
  "$sweep" run "$work/a/load.toml" "$work/b/load.toml" --out "$work/pair" -j 2 > "$work/pair.txt" 2>&1
  check "the $round run of two load.toml exited $?: $(cat "$work/pair.txt")" [ $? -eq 0 ]
  check "the $round run of two load.toml: $(ls "$work/pair")" [ "$(ls -d "$work"/pair/load-* | wc -l)" -eq 2 ]
done
check "the resume of two load.toml ran points" grep -q "^5 points: 5 already done, 0 run" "$work/pair.txt"
seeds=$(cat "$work"/pair/load-*/manifest.json | grep -o '"sim.seed": "[0-9]*"' | sort | tr -d '\n')
check "the two load.toml did not keep their own points: $seeds" \
  [ "$seeds" = '"sim.seed": "1""sim.seed": "2""sim.seed": "3""sim.seed": "7""sim.seed": "8"' ]
expect_error "given twice" "$sweep" run "$work/a/load.toml" "$work/a/../a/load.toml" --out "$work/twice"
expect_error "directory '$dir': holds the sweep of $work/three.toml, not of $work/a/load.toml" \
  "$sweep" run "$work/a/load.toml" --out "$dir"

# A lock file that is an input of the run (the sweep file kept in --out under the runner's lock's
# name, a base config hard-linked at a point's lock's name) is refused naming it, and left as it
# was: a runner writes its pid into its lock.
mkdir -p "$work/kept"
cp "$work/three.toml" "$work/kept/runner.lock"
expect_error "file '$work/kept/runner.lock': is the sweep file this run reads (\"$work/kept/runner.lock\"): a lock there would write into it" \
  "$sweep" run "$work/kept/runner.lock" --out "$work/kept"
cmp -s "$work/three.toml" "$work/kept/runner.lock" && ok || fail "the sweep file kept as runner.lock changed"
check "the refused sweep wrote a manifest" [ ! -e "$work/kept/manifest.json" ]
mkdir -p "$work/linked/points/point_0"
printf '[topology]\ndims = [2, 2]\n' > "$work/base.toml"
ln "$work/base.toml" "$work/linked/points/point_0/running.lock"
printf '[sweep]\nbase = "base.toml"\n[[axis]]\nkey = "sim.seed"\nvalues = [1]\n' > "$work/based.toml"
expect_error "file '$work/linked/points/point_0/running.lock': is the base config file (sweep.base) this run reads (\"$work/base.toml\")" \
  "$sweep" run "$work/based.toml" --out "$work/linked"
check "the base config hard-linked as running.lock changed" \
  [ "$(cat "$work/base.toml")" = "$(printf '[topology]\ndims = [2, 2]')" ]

# A runner and its simulations: this fake angara-sim records its pid and sleeps.
mkdir -p "$work/sleepy"
cp "$sweep_exe" "$work/sleepy/angara-sweep"
cat > "$work/sleepy/angara-sim" << 'EOF'
#!/bin/sh
echo $$ > "$(dirname "$4")/pid"
exec sleep 60
EOF
chmod +x "$work/sleepy/angara-sim"
bg=""
trap '[ -n "$bg" ] && kill -KILL -- "-$bg" 2> /dev/null; rm -rf "$work"' EXIT
setsid "$work/sleepy/angara-sweep" run "$work/three.toml" --out "$work/held" -j 2 > /dev/null 2>&1 &
bg=$!
for _ in $(seq 1 400); do # at most ~10 s
  [ "$(ls "$work"/held/points/*/pid 2> /dev/null | wc -l)" -eq 2 ] && break
  sleep 0.025
done
pids=$(cat "$work"/held/points/*/pid 2> /dev/null)
check "the runner did not start 2 points: $pids" [ "$(echo $pids | wc -w)" -eq 2 ]
expect_error "directory '$work/held': in use by another angara-sweep (pid $bg): two runners on one sweep directory would run its points twice" \
  "$sweep" run "$work/three.toml" --out "$work/held"
expect_error "in use by another angara-sweep (pid $bg)" \
  "$sweep" slurm "$work/three.toml" --out "$work/held" --dry-run
# SIGKILL to the runner alone: its simulations end too.
{
  kill -KILL "$bg"
  wait "$bg"
} 2> /dev/null
for _ in $(seq 1 200); do # at most ~5 s
  alive=0
  for pid in $pids; do [ -d "/proc/$pid" ] && alive=1; done
  [ "$alive" -eq 0 ] && break
  sleep 0.025
done
for pid in $pids; do
  check "simulation $pid outlived its runner's SIGKILL" [ ! -d "/proc/$pid" ]
done
bg=""
# SIGINT to a runner started in the background (where a script's jobs start with SIGINT
# ignored): it stops its points and ends by SIGINT (status 130), not as bad input.
rm -rf "$work/held"
(trap '' INT && exec "$work/sleepy/angara-sweep" run "$work/three.toml" --out "$work/held" -j 2) \
  > /dev/null 2> "$work/int.err" &
bg=$!
for _ in $(seq 1 400); do # at most ~10 s
  [ "$(ls "$work"/held/points/*/pid 2> /dev/null | wc -l)" -eq 2 ] && break
  sleep 0.025
done
kill -INT "$bg"
wait "$bg"
status=$?
bg=""
check "a runner stopped by SIGINT exited $status, expected 130: $(cat "$work/int.err")" \
  [ "$status" -eq 130 ]
check "it does not say it stopped: $(cat "$work/int.err")" grep -q "stopped by signal 2" "$work/int.err"

# A point another process holds (here flock(1), finishing it after a second) is not started
# beside it: the runner waits, finds it done and does not run it.
: > "$work/bin/calls.txt"
held=$work/held/points/point_0
flock "$held/running.lock" sh -c "sleep 1; echo '{\"latency_ns\": {\"mean\": 1}}' > '$held/results.json'" &
holder=$!
sleep 0.2
"$sweep" run "$work/three.toml" --out "$work/held" -j 2 > "$work/resume.txt" 2>&1
check "the resume beside a held point exited $?: $(cat "$work/resume.txt")" [ $? -eq 0 ]
wait "$holder"
if grep -q point_0 "$work/bin/calls.txt"; then fail "the held point was run again"; else ok; fi
check "the resume did not say the held point was done elsewhere: $(cat "$work/resume.txt")" \
  grep -q "point_0: done by another runner" "$work/resume.txt"
check "the resume's summary: $(tail -1 "$work/resume.txt")" grep -q "^3 points: 1 already done, 2 run, 0 failed" "$work/resume.txt"

summary
