#!/usr/bin/env bash
# The layering check passes on the repository, and fails, naming the file or library, on an
# include or a link that runs up a layer (a copy of the layer table with one of each).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
check="$root/regress/layering/check_layers.py"
python3 "$check" "$root"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/docs" "$tmp/models/core" "$tmp/platform/config"
cp "$root/docs/ARCHITECTURE.md" "$tmp/docs/"
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
grep -q 'downward\|angara_config (platform/config) uses' <<< "$out" && { echo "check_layers flagged a downward include:"; echo "$out"; exit 1; }
echo "check_layers_test: passes on the repository, catches an upward include and link"
