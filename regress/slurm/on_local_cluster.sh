# Sourced by the tests that run against a real Slurm: counts passed and failed checks (ok, fail
# MESSAGE), skips (exit 77) without root and Debian's slurm-wlm or a further command the test
# names, and starts a throw-away cluster on localhost (local_cluster.sh) in $dir, stopped and
# removed on exit, which prints "N passed, M failed".
# usage: . on_local_cluster.sh [COMMAND ...]
passed=0
failed=0
dir=
cluster=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/local_cluster.sh
ok() { passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
cleanup() {
  trap - EXIT INT TERM
  if [ -n "$dir" ]; then
    "$cluster" stop "$dir/cluster" > /dev/null 2>&1
    rm -rf "$dir"
  fi
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ] || exit 1
  exit 0
}
for needed in sbatch munged "$@"; do
  if [ "$(id -u)" -ne 0 ] || ! command -v "$needed" > /dev/null; then
    echo "needs root, Debian's slurm-wlm${*:+ and $*}; skipped"
    echo "0 passed, 0 failed"
    exit 77
  fi
done
dir=$(mktemp -d /tmp/angara-slurm-XXXXXX)
trap cleanup EXIT INT TERM
if eval "$("$cluster" start "$dir/cluster")"; then ok; else fail "the local cluster did not start"; exit 1; fi
