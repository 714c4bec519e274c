#!/usr/bin/env bash
# A build without MPI (-DANGARA_MPI=OFF) gives the MPI build's results, and refuses to be started
# as several MPI ranks, each of which would run the whole experiment.
# usage: no_mpi_test.sh MPI_BUILD_ANGARA_SIM NO_MPI_ANGARA_SIM
set -u
with=$1
without=$2
. "$(dirname "$0")/../support/checks.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
same() { # same A.json B.json: equal but for the wall time and which build ran
  python3 -c 'import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for r in (a, b):
    r.pop("wall_seconds"); r.pop("angara_tlm")
sys.exit(a != b)' "$1" "$2"
}
args=(run -q --set "topology.dims=[8,8,8]" --set traffic.rate=0.3 --set sim.measure_cycles=1500)
"$with" "${args[@]}" --out "$work/with.json" >/dev/null &&
  "$without" "${args[@]}" --out "$work/without.json" >/dev/null &&
  check "the builds with and without MPI give different results" same "$work/with.json" "$work/without.json" ||
  fail "a run failed"
if command -v mpirun >/dev/null; then
  said=$(mpirun -np 2 "$without" "${args[@]}" --out "$work/two.json" 2>&1)
  [ ! -e "$work/two.json" ] && ok || fail "the build without MPI wrote results as two ranks"
  case "$said" in
    *"built without MPI"*) ok ;;
    *) fail "the build without MPI at 2 ranks said: $said" ;;
  esac
fi
summary
