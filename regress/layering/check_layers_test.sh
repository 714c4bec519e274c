#!/usr/bin/env bash
# The layering check passes on the repository, and fails, naming the file, library or arrow, on
# an include or a link that runs up a layer and on an arrow of the table from one top folder up
# to a later one (a copy of the layer table with one such arrow, over sources with one such
# include and link).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
check="$root/regress/layering/check_layers.py"
python3 "$check" "$root"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/docs" "$tmp/models/core" "$tmp/platform/config"
# The table itself with an arrow from models/ up to collectives/ (the RTL blocks once had one).
sed 's#^models/node .*#models/node -> models/cpu, models/pcie, collectives/subnet#' \
  "$root/docs/ARCHITECTURE.md" > "$tmp/docs/ARCHITECTURE.md"
grep -q '^models/node -> models/cpu, models/pcie, collectives/subnet$' "$tmp/docs/ARCHITECTURE.md" ||
  { echo "check_layers_test: no models/node line in docs/ARCHITECTURE.md to add an arrow to"; exit 1; }
printf '#include "platform/config/config_loader.h"\n' > "$tmp/models/core/upward.h"
printf '#include "models/core/upward.h"\n' > "$tmp/platform/config/downward.h"
printf 'angara_library(angara_core SOURCES a.cpp USES fmt::fmt angara_config)\n' > "$tmp/models/core/CMakeLists.txt"
printf 'angara_library(angara_config SOURCES b.cpp USES angara_core)\n' > "$tmp/platform/config/CMakeLists.txt"
if out="$(python3 "$check" "$tmp")"; then
  echo "check_layers passed an include from models/core up to platform/config:"; echo "$out"; exit 1
fi
grep -q 'models/core/upward.h:1: models/core includes "platform/config/config_loader.h"' <<< "$out" ||
  { echo "check_layers failed without naming the upward include:"; echo "$out"; exit 1; }
grep -q 'angara_core (models/core) uses angara_config (platform/config), which is not below it' <<< "$out" ||
  { echo "check_layers failed without naming the library that links upward:"; echo "$out"; exit 1; }
grep -q 'models/node -> collectives/subnet: an arrow from models/ up to collectives/' <<< "$out" ||
  { echo "check_layers failed without naming the table's arrow from models/ up to collectives/:"; echo "$out"; exit 1; }
grep -q 'downward\|angara_config (platform/config) uses' <<< "$out" && { echo "check_layers flagged a downward include:"; echo "$out"; exit 1; }
echo "check_layers_test: passes on the repository, catches an upward include, link and arrow"
