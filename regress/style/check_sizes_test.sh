#!/usr/bin/env bash
# The size budget holds on the repository, and a file over it fails the check, named with its
# lines and budget (a copy of the tree with one shell and one source file too long).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
check="$root/regress/style/check_sizes.py"
python3 "$check" "$root"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/models/router" "$tmp/platform/machine"
lines() { for ((i = 0; i < $1; ++i)); do echo '// line'; done > "$2"; }
lines 201 "$tmp/models/router/router_lt.cpp"
lines 200 "$tmp/models/router/router_at.cpp"
lines 501 "$tmp/platform/machine/system.cpp"
lines 500 "$tmp/platform/machine/system.h"
if out="$(python3 "$check" "$tmp")"; then
  echo "check_sizes passed files over their budget:"; echo "$out"; exit 1
fi
grep -q 'models/router/router_lt.cpp: 201 lines, over the 200 of a timing shell' <<< "$out" ||
  { echo "check_sizes did not name the long shell:"; echo "$out"; exit 1; }
grep -q 'platform/machine/system.cpp: 501 lines, over the 500 of a source file' <<< "$out" ||
  { echo "check_sizes did not name the long source file:"; echo "$out"; exit 1; }
grep -q 'router_at.cpp\|system.h' <<< "$out" && { echo "check_sizes flagged a file within budget:"; echo "$out"; exit 1; }
echo "check_sizes_test: holds on the repository, catches a shell and a source file over budget"
