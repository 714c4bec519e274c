# The runner the studies share (sourced by regress/torus_fat_tree/run and
# regress/collective_design/run): study_run NAME FIRST ARGS... runs the sweeps of the study in
# regress/NAME (sweeps/, or small/ with --small; the sweeps whose file name has FIRST first: their
# points are the longest), resumable, collects one CSV per sweep into the output directory
# (docs/NAME by default) and calls regress/NAME/report.py on them, with --small for the small
# variant when the report takes it (STUDY_REPORT_SMALL=1). ARGS: the script's own options,
# described by its header (lines 2 .. 10), which --help prints.
study_run() {
  local name=$1 first=$2
  shift 2
  local here="$root/regress/$name" script="regress/$name/run"
  local build="$root/build" out="$root/docs/$name" sweeps="$here/sweeps" jobs=2 fresh=0 small=0
  while [[ $# -gt 0 ]]; do
    case "$1" in
      --small) sweeps="$here/small"; small=1; shift ;;
      --out) out="$2"; shift 2 ;;
      --build) build="$2"; shift 2 ;;
      -j) jobs="$2"; shift 2 ;;
      --fresh) fresh=1; shift ;;
      -h|--help) sed -n '2,10p' "$here/run" | sed 's/^# \{0,1\}//'; exit 0 ;;
      *) echo "$script: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
  done
  local sweep="$build/sc_main/angara-sweep"
  [[ -x "$sweep" ]] || { echo "$script: $sweep not found; build first (README)" >&2; exit 2; }
  mkdir -p "$out/runs"
  local start file
  start=$(date +%s)
  local files=($(ls "$sweeps"/*"$first"*.toml 2> /dev/null) $(ls "$sweeps"/*.toml | grep -v "$first"))
  if [[ $fresh == 1 ]]; then
    for file in "${files[@]}"; do rm -rf "$out/runs/$(basename "$file" .toml)"; done
  fi
  "$sweep" run "${files[@]}" --out "$out/runs" -j "$jobs"
  for file in "${files[@]}"; do
    local sweep_name
    sweep_name="$(basename "$file" .toml)"
    "$sweep" collect "$out/runs/$sweep_name" > /dev/null
    cp "$out/runs/$sweep_name/results.csv" "$out/$sweep_name.csv"
  done
  # Debian's interpreter, which has python3-matplotlib (a python3 earlier on PATH may not).
  local python=/usr/bin/python3
  [[ -x "$python" ]] || python=python3
  "$python" "$here/report.py" --csv "$out" --out "$out" --seconds $(( $(date +%s) - start )) \
    $([[ $small == 1 && ${STUDY_REPORT_SMALL:-0} == 1 ]] && echo --small)
  echo "$script: $(( $(date +%s) - start )) s -> $out/REPORT.md" >&2
}
