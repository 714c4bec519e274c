#!/usr/bin/env bash
# End to end against a real Slurm: a throw-away cluster on localhost (local_cluster.sh), a small
# sweep submitted as a job array, waited for and collected; then a resubmission that finds
# everything done. Last line "N passed, M failed"; exit 77 (skip) without root or Slurm.
# usage: slurm_sweep_test.sh ANGARA_SWEEP
set -uo pipefail
sweep=$1
start=$(date +%s)
. "$(dirname "$0")/on_local_cluster.sh"

cat > "$dir/sweep.toml" <<'TOML'
[sweep]
name = "r{traffic.rate}"
[config.topology]
dims = [4, 4]
[config.sim]
warmup_cycles = 200
measure_cycles = 1000
[[axis]]
key = "traffic.rate"
values = [0.1, 0.2, 0.3, 0.4, 0.5]
TOML

# Five points, two per array task: three tasks.
if "$sweep" slurm "$dir/sweep.toml" --out "$dir/out" --chunk 2 --wait > "$dir/submit.txt" 2>&1; then
  ok
else
  fail "slurm --wait failed: $(cat "$dir/submit.txt")"
fi
grep -q '#SBATCH --array=0-2$' "$dir/out/sweep.sbatch" && ok || fail "expected an array of 3 tasks"
grep -q '^#SBATCH --job-name=out$' "$dir/out/sweep.sbatch" && ok || fail "the array is not named after its directory"
[ "$(ls "$dir"/out/slurm/task-*.out 2> /dev/null | wc -l)" -eq 3 ] && ok || fail "expected 3 task outputs"

"$sweep" collect "$dir/out" > /dev/null
[ "$(grep -c ',ok$' "$dir/out/results.csv")" -eq 5 ] && ok || fail "expected 5 ok rows: $(cat "$dir/out/results.csv")"

# Resubmitting runs nothing: every task finds its points done. --collect collects after it.
before=$(md5sum "$dir"/out/points/*/results.json)
rm "$dir/out/results.csv"
if "$sweep" slurm "$dir/sweep.toml" --out "$dir/out" --chunk 2 --wait --collect > "$dir/resubmit.txt" 2>&1; then ok; else fail "resubmission failed: $(cat "$dir/resubmit.txt")"; fi
# --wait waits for the collect job too: results.csv is there when it returns.
[ "$(grep -c ',ok$' "$dir/out/results.csv" 2> /dev/null)" = 5 ] && ok ||
  fail "no results.csv of 5 ok rows when --wait --collect returned: $(cat "$dir/resubmit.txt" "$dir"/out/slurm/collect-*.out 2> /dev/null)"
[ "$before" = "$(md5sum "$dir"/out/points/*/results.json)" ] && ok || fail "resubmission reran points"
# A throttle: at most 2 of the array's tasks at once.
"$sweep" slurm "$dir/sweep.toml" --out "$dir/dry" --chunk 2 --max-running 2 --dry-run > /dev/null &&
  grep -q '^#SBATCH --array=0-2%2$' "$dir/dry/sweep.sbatch" && ok || fail "no %2 throttle in $(cat "$dir/dry/sweep.sbatch")"
# Each job's task logs are its own (task-JOB_TASK.out): the first job's stay beside the second's.
[ "$(ls "$dir"/out/slurm/task-*_0.out 2> /dev/null | wc -l)" -eq 2 ] && ok || fail "expected task 0's log of each job"
grep -q "2 already done" $(ls -t "$dir"/out/slurm/task-*_0.out | head -1) && ok || fail "task 0 did not skip its done points"

# A directory whose path holds a quote, '#', '%' and spaces: sbatch reads the quoted #SBATCH
# --output path whole (its task log lands there, '%' kept), and the collect job's shell command
# collects there.
odd="$dir/it's a #1 100% dir"
if "$sweep" slurm "$dir/sweep.toml" --out "$odd" --chunk 5 --wait --collect > "$dir/odd.txt" 2>&1; then
  ok
else
  fail "slurm into a directory with a quote, '#' and '%' failed: $(cat "$dir/odd.txt")"
fi
[ "$(ls "$odd"/slurm/task-*_0.out 2> /dev/null | wc -l)" -eq 1 ] && ok ||
  fail "no task log in $odd/slurm: $(ls -R "$odd/slurm" "$dir" 2>&1 | head -20)"
for _ in $(seq 1 120); do # the collect job: at most ~60 s
  [ -s "$odd/results.csv" ] && break
  sleep 0.5
done
[ "$(grep -c ',ok$' "$odd/results.csv" 2> /dev/null)" = 5 ] && ok ||
  fail "the collect job did not collect into $odd: $(cat "$odd"/slurm/collect-*.out 2> /dev/null)"

echo "slurm sweep test took $(($(date +%s) - start)) s"
