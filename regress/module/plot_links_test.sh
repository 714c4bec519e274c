#!/usr/bin/env bash
# sc_main/plot_links.py as a user runs it on angara-sim's per-link table ([stats] network = true):
# a PNG, an SVG and a PDF of a slice, the same table giving the same SVG bytes, and its mistakes
# refused. Skipped (exit 77) when no python3 on the path, nor /usr/bin/python3, has matplotlib.
# usage: plot_links_test.sh ANGARA_SIM SCRIPT_DIR
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
  --out "$work/r.json" > /dev/null && ok || fail "the run with [stats] exited $?"
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
expect_refused() {
  local what=$1 word=$2
  shift 2
  if plot "$@" > /dev/null 2> "$work/err.txt"; then
    fail "$what: accepted"
  elif [ $? -ne 2 ] || ! grep -q -- "$word" "$work/err.txt"; then
    fail "$what: $(cat "$work/err.txt")"
  else
    ok
  fi
}
expect_refused "bad extension" "--out" "$work/r.links.csv" --out "$work/x.gif"
expect_refused "bad plane" "--plane" "$work/r.links.csv" --out "$work/x.png" --plane x,q
expect_refused "slice off the torus" "--at z=5" "$work/r.links.csv" --out "$work/x.png" --at z=5
expect_refused "not a link table" "not a per-link table" "$work/r.routers.csv" --out "$work/x.png"
expect_refused "missing table" "cannot read" "$work/none.csv" --out "$work/x.png"
[ ! -e "$work/x.png" ] && [ ! -e "$work/x.gif" ] && ok || fail "a refused plot wrote a figure"
summary
