#!/usr/bin/env bash
# No text a user gives angara-sweep reaches a shell or a gnuplot command: every injection below
# would create a file $work/pwn_* if it worked, and none may exist at the end. Plot: the figure's
# path (an apostrophe in it must plot), the title, axis labels from result fields and legends from
# sweep axis values and result values. Slurm: --partition, --time, --sbatch and --out (the batch
# script and the collect job). angara-sim is faked (a script writing chosen results), so the
# points take milliseconds. The plot checks are skipped without gnuplot.
# usage: sweep_injection_test.sh ANGARA_SWEEP
set -u
sweep_exe=$1
. "$(dirname "$0")/../support/checks.sh"

# A copy of angara-sweep beside a fake angara-sim whose results carry hostile names and values.
mkdir -p "$work/bin"
cp "$sweep_exe" "$work/bin/angara-sweep"
sweep=$work/bin/angara-sweep
cat > "$work/bin/angara-sim" << 'EOF'
#!/bin/sh
# called as: angara-sim run CONFIG --out RESULTS
seed=$(sed -n 's/^seed = //p' "$2")
sed "s/SEED/$seed/" "$(dirname "$0")/results.template" > "$4"
EOF
cat > "$work/bin/results.template" << EOF
{"saturated": false, "latency_ns": {"mean": SEED},
 "label": "q' . system('touch $work/pwn_label') . '",
 "y'.system('touch $work/pwn_ylabel').'": 2,
 "y\\n!touch $work/pwn_newline\\n": 3}
EOF
chmod +x "$work/bin/angara-sim"

# Legends from axis values: trace.file takes any string (zipped with the seed: one point an x).
cat > "$work/evil.toml" << EOF
[config.trace]
nodes = [[0, 0, 0]]
[[axis]]
key = "trace.file"
values = ["a' . system('touch $work/pwn_axis') . 'b.vcd", "c\`touch $work/pwn_tick\`.vcd"]
group = "g"
[[axis]]
key = "sim.seed"
values = [1, 2]
group = "g"
EOF
dir=$work/plain
"$sweep" run "$work/evil.toml" --out "$dir" -j 2 > "$work/run.txt" 2>&1
check "the hostile sweep did not run: $(cat "$work/run.txt")" [ -f "$dir/points/point_1/results.json" ]
"$sweep" collect "$dir" > /dev/null 2>&1
check "collect of the hostile sweep" [ -f "$dir/results.csv" ]

# The same sweep where an apostrophe and spaces are in every path.
quoted="$work/it's a sweep"
cp -r "$dir" "$quoted"

plot() { # plot [-d DIR] NAME ARGS...: plots DIR (the plain sweep) into NAME, expecting a figure
  local from=$dir
  if [ "$1" = -d ]; then from=$2; shift 2; fi
  local figure=$1
  shift
  if (cd "$work" && "$sweep" plot "$from" --x sim.seed "$@" -o "$figure" > plot.txt 2>&1); then ok; else
    fail "plot $* -o $figure: $(cat "$work/plot.txt")"
  fi
  check "plot $* wrote no $figure" [ -s "$figure" -o -s "$work/$figure" ]
}
if command -v gnuplot > /dev/null; then
  # An apostrophe in the sweep directory (the default title) and in the figure's path.
  plot -d "$quoted" "$quoted/it's.png" --y latency_ns.mean --series trace.file
  check "the PNG is not one" [ "$(head -c 4 "$quoted/it's.png" | od -An -tx1 | tr -d ' ')" = 89504e47 ]
  plot "$dir/legends.svg" --y latency_ns.mean --series trace.file
  check "a legend is not drawn as its text" grep -q "system('touch $work/pwn_axis')" "$dir/legends.svg"
  plot "$dir/label.svg" --y latency_ns.mean --series label
  plot "$dir/ylabel.svg" --y "y'.system('touch $work/pwn_ylabel').'"
  plot "$dir/newline.svg" --y $'y\n!touch '"$work"$'/pwn_newline\n'
  plot "$dir/title.svg" --y latency_ns.mean --title $'t\n!touch '"$work/pwn_title"
  plot "$dir/title2.svg" --y latency_ns.mean --title "t' . system('touch $work/pwn_title2') . '"
  check "the title is not drawn as its text" grep -q "system('touch $work/pwn_title2')" "$dir/title2.svg"
  # In the working directory, where a `touch pwn_out` run by gnuplot would land.
  plot "o'.system('touch pwn_out').'.svg" --y latency_ns.mean
  # gnuplot missing: said so, not blamed on the plot.
  PATH=/nonexistent "$sweep" plot "$dir" --x sim.seed --y latency_ns.mean -o "$dir/none.png" \
    > /dev/null 2> "$work/nognuplot.txt"
  check "plot without gnuplot exited $?, expected 2" [ $? -eq 2 ]
  check "plot without gnuplot did not say so: $(cat "$work/nognuplot.txt")" \
    grep -q "cannot run gnuplot: No such file or directory (is gnuplot installed?" "$work/nognuplot.txt"
else
  echo "SKIP: plots (no gnuplot)"
fi

# Slurm: a fake sbatch that logs its arguments and, like Slurm, runs a --wrap command in a shell.
mkdir -p "$work/slurmbin"
cat > "$work/slurmbin/sbatch" << 'EOF'
#!/bin/sh
for arg in "$@"; do
  case $arg in --wrap=*) sh -c "${arg#--wrap=}" ;; esac
done
echo 42
EOF
chmod +x "$work/slurmbin/sbatch"
cat > "$work/quick.toml" << EOF
[[axis]]
key = "sim.seed"
values = [1, 2, 3]
EOF
refused() { # refused FLAG OUT ARGS...: slurm with ARGS is exit 2 naming FLAG, nothing written
  local flag=$1 out=$2
  shift 2
  PATH="$work/slurmbin:$PATH" "$sweep" slurm "$work/quick.toml" --out "$out" "$@" \
    > /dev/null 2> "$work/refused.txt"
  local status=$?
  check "slurm $* exited $status, expected 2" [ "$status" -eq 2 ]
  check "slurm $* did not name $flag: $(cat "$work/refused.txt")" grep -q -- "flag '$flag'" "$work/refused.txt"
  check "slurm $* wrote a batch script" [ ! -e "$out/sweep.sbatch" ]
}
refused --partition "$work/s1" --partition $'p\ntouch '"$work/pwn_partition"
refused --time "$work/s2" --time $'1:00\ntouch '"$work/pwn_time"
refused --sbatch "$work/s3" --sbatch=$'--mem=1G\ntouch '"$work/pwn_sbatch"
refused --out "$work/s4"$'\ntouch '"$work/pwn_outline" --dry-run
refused --chunk "$work/s5" --chunk 0
refused --chunk "$work/s5" --chunk=-2
refused --chunk "$work/s5" --chunk two
PATH="$work/slurmbin:$PATH" "$sweep" slurm "$work/quick.toml" --out "$work/s6" --time 'x' \
  > /dev/null 2> "$work/time.txt"
check "a time limit that is no time: $(cat "$work/time.txt")" \
  grep -q "flag '--time' = \"x\": a Slurm time limit" "$work/time.txt"

# Quotes, '#' and spaces in --out: the script runs its task there and nothing else, and the
# collect job (a --wrap shell command) collects there.
out="$work/o'; touch $work/pwn_script; echo '#x"
PATH="$work/slurmbin:$PATH" "$sweep" slurm "$work/quick.toml" --out "$out" --partition debug \
  --time 1-00:30 --sbatch='--comment=a b#c' --collect > "$work/slurm.txt" 2>&1
check "slurm into a hostile --out exited $?: $(cat "$work/slurm.txt")" [ $? -eq 0 ]
check "the collect job did not collect into the hostile --out" [ -f "$out/results.csv" ]
check "the comment option is not quoted for sbatch" grep -qx '#SBATCH "--comment=a b#c"' "$out/sweep.sbatch"
check "the task log's path is not quoted for sbatch" grep -q '^#SBATCH --output=".*#x/slurm/task-%A_%a.out"$' "$out/sweep.sbatch"
SLURM_ARRAY_TASK_ID=2 bash "$out/sweep.sbatch" > "$work/task.txt" 2>&1
check "array task 2 in the hostile --out exited $?: $(cat "$work/task.txt")" [ $? -eq 0 ]
check "array task 2 did not run point_2" [ -f "$out/points/point_2/results.json" ]

for f in label ylabel newline axis tick title title2 out partition time sbatch outline script; do
  check "an injection ran a command: $work/pwn_$f exists" [ ! -e "$work/pwn_$f" ]
done
check "something created a pwn file: $(ls -d "$work"/pwn_* 2> /dev/null)" [ -z "$(ls -d "$work"/pwn_* 2> /dev/null)" ]
summary
