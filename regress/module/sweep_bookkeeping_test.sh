#!/usr/bin/env bash
# A sweep directory's bookkeeping against careless and hostile use: a damaged manifest (a point
# without an axis value, a name leaving the directory, not JSON) is refused naming what is wrong;
# a results file cut short is not done and runs again; an array task index past the array is
# refused; keys spelled with spaces are one key. angara-sim is faked, so points take milliseconds.
# usage: sweep_bookkeeping_test.sh ANGARA_SWEEP
set -u
sweep_exe=$1
. "$(dirname "$0")/../support/checks.sh"
check() { # check DESCRIPTION COMMAND...: passes when the command succeeds
  local what=$1
  shift
  if "$@"; then ok; else fail "$what"; fi
}
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
cp "$work/manifest.good" "$dir/manifest.json"

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

summary
