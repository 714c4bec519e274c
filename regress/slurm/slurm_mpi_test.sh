#!/usr/bin/env bash
# One run split over 2 MPI ranks under a real Slurm (a throw-away cluster on localhost,
# local_cluster.sh): started by srun --mpi=pmix, and by mpirun inside an sbatch allocation of 2
# tasks, and a sweep point with [sweep] ranks = 2 (a job step of 2 tasks); all give the
# one-process results. srun without PMIx starts two processes that cannot
# see each other: each refuses, naming the fix, and nothing is written. Last line "N passed, M
# failed"; exit 77 (skip) without root, Slurm or MPI.
# usage: slurm_mpi_test.sh ANGARA_SIM
set -uo pipefail
sim=$1
. "$(dirname "$0")/on_local_cluster.sh" mpirun
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

args=(run -q --set "topology.dims=[8,8,4]" --set traffic.rate=0.3 --set sim.measure_cycles=1000)
same() { # same A.json B.json: equal but for the wall time and the ranks' record
  python3 -c 'import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for r in (a, b):
    r.pop("wall_seconds"); r.pop("ranks", None)
sys.exit(a != b)' "$1" "$2"
}
ranks_of() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["ranks"]["count"])' "$1"; }

"$sim" "${args[@]}" --out "$dir/one.json" > /dev/null || fail "the one-process run failed"

if timeout 120 srun --mpi=pmix -n 2 -O "$sim" "${args[@]}" --out "$dir/srun.json" > "$dir/srun.txt" 2>&1; then
  same "$dir/one.json" "$dir/srun.json" && ok || fail "srun --mpi=pmix: results differ"
  [ "$(ranks_of "$dir/srun.json")" = 2 ] && ok || fail "srun --mpi=pmix: not 2 ranks"
else
  fail "srun --mpi=pmix -n 2: $(cat "$dir/srun.txt")"
fi

cat > "$dir/job.sh" <<JOB
#!/usr/bin/env bash
mpirun -np 2 "$sim" ${args[*]@Q} --out "$dir/sbatch.json"
JOB
if timeout 120 sbatch --wait --ntasks=2 --overcommit -o "$dir/sbatch.txt" "$dir/job.sh" > /dev/null 2>&1; then
  same "$dir/one.json" "$dir/sbatch.json" && ok || fail "mpirun in sbatch: results differ"
else
  fail "mpirun inside sbatch --ntasks=2: $(cat "$dir/sbatch.txt" 2> /dev/null)"
fi

# A sweep whose points run over 2 ranks: each array task a job step of 2 tasks (srun --mpi=pmix).
cat > "$dir/sweep.toml" <<SWEEP
[sweep]
ranks = 2
[config.topology]
dims = [8, 8, 4]
[config.sim]
measure_cycles = 1000
progress = false
[[axis]]
key = "traffic.rate"
values = [0.3]
SWEEP
sweep=$(dirname "$sim")/angara-sweep
if timeout 200 "$sweep" slurm "$dir/sweep.toml" --out "$dir/sweep" --wait > "$dir/sweep.txt" 2>&1; then
  grep -q -- "--ntasks=2" "$dir/sweep/sweep.sbatch" && ok || fail "sweep.sbatch asks for no 2 tasks"
  same "$dir/one.json" "$dir/sweep/points/point_0/results.json" && ok ||
    fail "a sweep point over 2 ranks on Slurm: results differ"
  [ "$(ranks_of "$dir/sweep/points/point_0/results.json")" = 2 ] && ok ||
    fail "a sweep point on Slurm: not 2 ranks"
else
  fail "angara-sweep slurm with ranks = 2: $(cat "$dir/sweep.txt" "$dir"/sweep/slurm/* 2> /dev/null)"
fi

said=$(timeout 120 srun --mpi=none -n 2 -O "$sim" "${args[@]}" --out "$dir/none.json" 2>&1)
[ ! -e "$dir/none.json" ] && ok || fail "srun --mpi=none wrote results"
case "$said" in
  *"srun --mpi=pmix"*) ok ;;
  *) fail "srun --mpi=none said: $said" ;;
esac
