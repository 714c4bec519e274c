#!/usr/bin/env bash
# Every C++ source of the repository is formatted as .clang-format says (what CI checks).
# usage: check_format.sh [--fix]   (--fix rewrites the files in place)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
command -v clang-format > /dev/null ||
  { echo "check_format: clang-format not found; install it (.ci/install-deps --tests)"; exit 1; }
mapfile -t files < <(find models collectives workloads platform sc_main regress \
                       \( -name '*.h' -o -name '*.cpp' \) | sort)
if [[ "${1:-}" == "--fix" ]]; then
  clang-format -i "${files[@]}"
  echo "check_format: formatted ${#files[@]} files"
  exit 0
fi
if ! clang-format --dry-run -Werror "${files[@]}"; then
  echo "check_format: the files above are not formatted; run regress/style/check_format.sh --fix"
  exit 1
fi
echo "check_format: ${#files[@]} files formatted as .clang-format says"
