#!/usr/bin/env bash
# Self-test of local_cluster.sh: start a cluster in a fresh temp dir, run a
# 4-task array job, check its outputs, stop, check no daemon survived.
# Done ROUNDS times (default 2) in the same dir to prove stop/restart is clean.
#
# Last line of output is "N passed, M failed"; exit status 0 only if M == 0.
# Exit 77 (skip) when not root or Slurm/munge is not installed.

set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LC=$HERE/local_cluster.sh
ROUNDS=${ROUNDS:-2}
JOB_TIMEOUT=${JOB_TIMEOUT:-120}

passed=0
failed=0
DIR=

pass() { passed=$((passed + 1)); echo "PASS: $*"; }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
check() {
    local what=$1
    shift
    if "$@"; then pass "$what"; else fail "$what"; fi
}

# Runs on every exit path, so no daemon or temp dir outlives the test.
cleanup() {
    local rc=$?
    trap - EXIT INT TERM
    if [[ -n $DIR ]]; then
        "$LC" stop "$DIR" >/dev/null 2>&1
        rm -rf "$DIR"
    fi
    echo "$passed passed, $failed failed"
    if ((failed > 0)); then exit 1; fi
    exit "$rc"
}
trap cleanup EXIT
trap 'fail "interrupted"; exit 130' INT TERM

skip() {
    echo "SKIP: $*"
    exit 77
}
[[ $(id -u) -eq 0 ]] || skip "needs root"
for b in munged slurmctld slurmd sbatch sinfo; do
    command -v "$b" >/dev/null || skip "$b not installed"
done

DIR=$(mktemp -d "${TMPDIR:-/tmp}/local_slurm.XXXXXX") || { fail "mktemp"; exit 1; }

# Live (non-zombie) processes whose command line or environment mentions DIR.
leftovers() {
    local p st found=
    for p in /proc/[0-9]*; do
        p=${p#/proc/}
        [[ $p == "$$" || $p == "$BASHPID" ]] && continue
        st=$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null) || continue
        [[ $st == Z || $st == X || -z $st ]] && continue
        if { tr '\0' '\n' <"/proc/$p/cmdline"; } 2>/dev/null | grep -qF "$DIR/" ||
            { tr '\0' '\n' <"/proc/$p/environ"; } 2>/dev/null | grep -qxF "LOCAL_SLURM_DIR=$DIR"; then
            echo "  leftover: pid $p $({ tr '\0' ' ' <"/proc/$p/cmdline"; } 2>/dev/null)"
            found=1
        fi
    done
    [[ -z $found ]]
}

outputs_ok() {
    local i
    for i in 0 1 2 3; do
        [[ $(cat "$1/out_$i.txt" 2>/dev/null) == "task $i" ]] || {
            echo "  bad or missing $1/out_$i.txt"
            return 1
        }
    done
}

for ((round = 1; round <= ROUNDS; round++)); do
    echo "=== round $round (DIR=$DIR)"
    t0=$EPOCHREALTIME
    if ! env_line=$("$LC" start "$DIR"); then
        fail "round $round: start"
        continue
    fi
    t1=$EPOCHREALTIME
    pass "round $round: start ($(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}')s)"
    check "round $round: start prints export line" \
        test "$env_line" = "export SLURM_CONF=$DIR/slurm.conf"
    eval "$env_line"

    jobdir=$DIR/job$round
    mkdir -p "$jobdir"
    # shellcheck disable=SC2016  # expanded by the job, not here
    check "round $round: sbatch --wait array job" \
        timeout "$JOB_TIMEOUT" sbatch --wait --array=0-3 --chdir="$jobdir" \
        --output="$jobdir/slurm-%A_%a.out" \
        --wrap 'echo task $SLURM_ARRAY_TASK_ID > out_$SLURM_ARRAY_TASK_ID.txt'
    check "round $round: 4 task outputs" outputs_ok "$jobdir"

    check "round $round: stop" "$LC" stop "$DIR"
    check "round $round: no daemons left" leftovers
    check "round $round: second stop is a no-op" "$LC" stop "$DIR"
    unset SLURM_CONF
done
