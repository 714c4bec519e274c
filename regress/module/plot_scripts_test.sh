#!/usr/bin/env bash
# sc_main/plot_links.py and plot_intervals.py as a user runs them on angara-sim's tables ([stats]
# network = true, interval_cycles = N): a PNG, an SVG and a PDF each, the same table giving the
# same SVG bytes, and their mistakes refused. Skipped (exit 77) when no python3 on the path, nor
# /usr/bin/python3, has matplotlib.
# usage: plot_scripts_test.sh ANGARA_SIM SCRIPT_DIR
set -u
sim=$1
tools=$2
. "$(dirname "$0")/../support/checks.sh"
python=
for p in python3 /usr/bin/python3; do
  if "$p" -c "import matplotlib" 2> /dev/null; then python=$p; break; fi
done
if [ -z "$python" ]; then echo "no python3 with matplotlib: skipped"; exit 77; fi
plot() { "$python" "$tools/plot_links.py" "$@"; }

"$sim" run -q --set topology.dims=[4,3,2] --set traffic.pattern=tornado --set traffic.rate=0.2 \
  --set sim.warmup_cycles=200 --set sim.measure_cycles=2000 --set stats.network=true \
  --set stats.interval_cycles=100 --out "$work/r.json" > /dev/null && ok || fail "the run with [stats] exited $?"
[ -s "$work/r.links.csv" ] && ok || fail "no r.links.csv"

plot "$work/r.links.csv" --out "$work/a.png" > "$work/say.txt" && ok || fail "png: exit $?"
grep -q "48 links and 12 nodes of the XY plane at z = 0" "$work/say.txt" && ok ||
  fail "png: said $(cat "$work/say.txt")"
head -c 8 "$work/a.png" | od -An -c | grep -q "P   N   G" && ok || fail "a.png is not a PNG"
plot "$work/r.links.csv" --out "$work/a.pdf" --plane x,z --at y=2 > /dev/null && ok || fail "pdf: exit $?"
head -c 5 "$work/a.pdf" | grep -q "%PDF-" && ok || fail "a.pdf is not a PDF"
for f in a b; do
  plot "$work/r.links.csv" --out "$work/$f.svg" --metric flits_per_cycle --at z=1 > /dev/null ||
    fail "svg $f: exit $?"
done
grep -q "<svg" "$work/a.svg" && ok || fail "a.svg is not an SVG"
cmp -s "$work/a.svg" "$work/b.svg" && ok || fail "the same table gave two different SVGs"

# Run as a program, whatever python3 comes first on PATH: its shebang names Debian's. A python3
# without matplotlib says so, naming the package, exit 2.
if /usr/bin/python3 -c "import matplotlib" 2> /dev/null; then
  "$tools/plot_links.py" "$work/r.links.csv" --out "$work/c.png" > /dev/null && ok ||
    fail "run as a program: exit $?"
fi
"$python" -S "$tools/plot_links.py" "$work/r.links.csv" --out "$work/d.png" > /dev/null \
  2> "$work/err.txt"
check "without matplotlib: exit $? (expected 2)" [ $? -eq 2 ]
grep -q "needs matplotlib.*python3-matplotlib" "$work/err.txt" && ok ||
  fail "without matplotlib: $(cat "$work/err.txt")"

# Mistakes: exit 2, the option named, no figure.
intervals() { "$python" "$tools/plot_intervals.py" "$@"; }
expect_refused() {  # expect_refused WHAT WORD TOOL ARGS...: TOOL is plot or intervals
  local what=$1 word=$2
  shift 2
  if "$@" > /dev/null 2> "$work/err.txt"; then
    fail "$what: accepted"
  elif [ $? -ne 2 ] || ! grep -q -- "$word" "$work/err.txt"; then
    fail "$what: $(cat "$work/err.txt")"
  else
    ok
  fi
}
expect_refused "bad extension" "--out" plot "$work/r.links.csv" --out "$work/x.gif"
expect_refused "bad plane" "--plane" plot "$work/r.links.csv" --out "$work/x.png" --plane x,q
expect_refused "slice off the torus" "--at z=5" plot "$work/r.links.csv" --out "$work/x.png" \
  --at z=5
expect_refused "not a link table" "not a per-link table" plot "$work/r.routers.csv" \
  --out "$work/x.png"
expect_refused "missing table" "cannot read" plot "$work/none.csv" --out "$work/x.png"
[ ! -e "$work/x.png" ] && [ ! -e "$work/x.gif" ] && ok || fail "a refused plot wrote a figure"

# The table over time: three panels, marks, a log axis; the same bytes from the same table.
[ -s "$work/r.intervals.csv" ] && ok || fail "no r.intervals.csv"
intervals "$work/r.intervals.csv" --out "$work/t.png" --mark 200=window --log-latency \
  > "$work/say.txt" && ok || fail "intervals png: exit $?"
rows=$(($(wc -l < "$work/r.intervals.csv") - 1))
last=$(tail -1 "$work/r.intervals.csv" | cut -d, -f2)
grep -q "t.png: $rows intervals, cycles 0 .. $last$" "$work/say.txt" && ok ||
  fail "intervals png: said $(cat "$work/say.txt")"
head -c 8 "$work/t.png" | od -An -c | grep -q "P   N   G" && ok || fail "t.png is not a PNG"
intervals "$work/r.intervals.csv" --out "$work/t.pdf" > /dev/null && ok || fail "intervals pdf"
head -c 5 "$work/t.pdf" | grep -q "%PDF-" && ok || fail "t.pdf is not a PDF"
for f in a b; do
  intervals "$work/r.intervals.csv" --out "$work/t$f.svg" --mark 2200 > /dev/null ||
    fail "intervals svg $f: exit $?"
done
cmp -s "$work/ta.svg" "$work/tb.svg" && ok || fail "the same table over time gave two SVGs"
if /usr/bin/python3 -c "import matplotlib" 2> /dev/null; then
  "$tools/plot_intervals.py" "$work/r.intervals.csv" --out "$work/tc.png" > /dev/null && ok ||
    fail "plot_intervals.py run as a program: exit $?"
fi
expect_refused "intervals: bad extension" "--out" intervals "$work/r.intervals.csv" \
  --out "$work/y.gif"
expect_refused "intervals: bad mark" "--mark 'soon'" intervals "$work/r.intervals.csv" \
  --out "$work/y.png" --mark soon
expect_refused "intervals: not the table" "not a table over time" intervals "$work/r.links.csv" \
  --out "$work/y.png"
[ ! -e "$work/y.png" ] && [ ! -e "$work/y.gif" ] && ok || fail "a refused plot wrote a figure"
summary
