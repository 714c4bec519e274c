#!/usr/bin/env bash
# Throw-away single-node Slurm cluster on localhost, for tests.
#
#   local_cluster.sh start DIR   start munged + slurmctld + slurmd with all state in DIR;
#                                on success prints "export SLURM_CONF=<DIR>/slurm.conf"
#                                on stdout, so callers can: eval "$(local_cluster.sh start DIR)"
#   local_cluster.sh stop DIR    stop everything started for DIR (idempotent)
#
# Must run as root (slurmd has to be able to run jobs as any user; SlurmUser=root).
# No systemd needed; nothing touches the system's /etc/munge or /etc/slurm.
#
# Environment (optional):
#   LOCAL_SLURM_CTLD_PORT, LOCAL_SLURM_SLURMD_PORT  fixed ports; default: first free
#                                                   pair 16817/16818, 16819/16820, ...
#   LOCAL_SLURM_START_TIMEOUT                       seconds to wait for the node (60)
#   LOCAL_SLURM_STOP_TIMEOUT                        seconds per daemon to exit (20)
#
# Progress and diagnostics go to stderr; stdout carries only the export line.

set -uo pipefail

PROG=local_cluster
START_TIMEOUT=${LOCAL_SLURM_START_TIMEOUT:-60}
STOP_TIMEOUT=${LOCAL_SLURM_STOP_TIMEOUT:-20}
# Every daemon gets this variable in its environment so `stop` can also find
# children (slurmstepd) that have no pid file.
TAG_VAR=LOCAL_SLURM_DIR

log() { echo "$PROG: $*" >&2; }
die() { log "error: $*"; exit 1; }

usage() {
    echo "usage: $0 start|stop DIR" >&2
    exit 2
}

# Print the pid recorded in $2 if that process is alive and was started for
# $1 (its command line mentions DIR), so a recycled pid is never signalled.
our_pid() {
    local dir=$1 pidfile=$2 pid cmd
    [[ -r $pidfile ]] || return 1
    read -r pid <"$pidfile" 2>/dev/null || return 1
    [[ $pid =~ ^[0-9]+$ ]] || return 1
    cmd=$({ tr '\0' ' ' <"/proc/$pid/cmdline"; } 2>/dev/null) || return 1
    [[ $cmd == *"$dir/"* ]] || return 1
    is_gone "$pid" && return 1
    echo "$pid"
}

# A zombie counts as gone: the daemons are not our children, we cannot reap them.
is_gone() {
    local state
    state=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 0
    [[ -z $state || $state == Z || $state == X ]]
}

# SIGTERM, wait up to STOP_TIMEOUT s, then SIGKILL.
kill_and_wait() {
    local name=$1 pid=$2 i
    kill -TERM "$pid" 2>/dev/null
    for ((i = 0; i < STOP_TIMEOUT * 10; i++)); do
        is_gone "$pid" && return 0
        sleep 0.1
    done
    log "$name (pid $pid) ignored SIGTERM for ${STOP_TIMEOUT}s, sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null
    for ((i = 0; i < 50; i++)); do
        is_gone "$pid" && return 0
        sleep 0.1
    done
    log "$name (pid $pid) still present after SIGKILL"
    return 1
}

# Pids of processes carrying our tag for DIR (daemons and their slurmstepd's).
tagged_pids() {
    local dir=$1 p
    for p in /proc/[0-9]*; do
        p=${p#/proc/}
        [[ $p == "$$" || $p == "$BASHPID" ]] && continue
        if { tr '\0' '\n' <"/proc/$p/environ"; } 2>/dev/null | grep -qxF "$TAG_VAR=$dir"; then
            is_gone "$p" || echo "$p"
        fi
    done
}

port_in_use() {
    timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null
}

pick_ports() {
    if [[ -n ${LOCAL_SLURM_CTLD_PORT:-} || -n ${LOCAL_SLURM_SLURMD_PORT:-} ]]; then
        CTLD_PORT=${LOCAL_SLURM_CTLD_PORT:-16817}
        SLURMD_PORT=${LOCAL_SLURM_SLURMD_PORT:-$((CTLD_PORT + 1))}
        port_in_use "$CTLD_PORT" && { log "port $CTLD_PORT is in use"; return 1; }
        port_in_use "$SLURMD_PORT" && { log "port $SLURMD_PORT is in use"; return 1; }
        return 0
    fi
    local p
    for ((p = 16817; p < 16917; p += 2)); do
        if ! port_in_use "$p" && ! port_in_use $((p + 1)); then
            CTLD_PORT=$p SLURMD_PORT=$((p + 1))
            return 0
        fi
    done
    log "no free port pair in 16817-16916"
    return 1
}

dump_logs() {
    local dir=$1 f
    for f in "$dir/log/munged.log" "$dir/log/slurmctld.log" "$dir/log/slurmd.log" "$dir"/log/*.stdout; do
        [[ -s $f ]] || continue
        echo "----- tail of $f -----" >&2
        tail -n 30 "$f" >&2
    done
}

cmd_stop() {
    local dir=$1 pid name rc=0

    # Cancel jobs first so slurmd reaps their processes itself; only while
    # slurmctld is alive, otherwise client commands would retry for ages.
    if our_pid "$dir" "$dir/slurmctld.pid" >/dev/null && [[ -r $dir/slurm.conf ]]; then
        local jobs
        jobs=$(SLURM_CONF=$dir/slurm.conf timeout 10 squeue -h -o %A 2>/dev/null | sort -u)
        if [[ -n $jobs ]]; then
            log "cancelling jobs: ${jobs//$'\n'/ }"
            # shellcheck disable=SC2086
            SLURM_CONF=$dir/slurm.conf timeout 10 scancel $jobs 2>/dev/null
            local i
            for ((i = 0; i < 100; i++)); do
                [[ -z $(SLURM_CONF=$dir/slurm.conf timeout 5 squeue -h -o %A 2>/dev/null) ]] && break
                sleep 0.1
            done
        fi
    fi

    for name in slurmd slurmctld munged; do
        if pid=$(our_pid "$dir" "$dir/$name.pid"); then
            log "stopping $name (pid $pid)"
            kill_and_wait "$name" "$pid" || rc=1
        fi
        rm -f "$dir/$name.pid"
    done

    # Stragglers (slurmstepd, a daemon whose pid file was lost).
    for pid in $(tagged_pids "$dir"); do
        log "killing leftover $(cat "/proc/$pid/comm" 2>/dev/null) (pid $pid)"
        kill -KILL "$pid" 2>/dev/null
    done
    for pid in $(tagged_pids "$dir"); do
        kill_and_wait leftover "$pid" || rc=1
    done

    rm -f "$dir/munge.socket" "$dir/munge.socket.lock"
    return $rc
}

cmd_start() {
    local dir=$1 t0=$EPOCHREALTIME
    local conf=$dir/slurm.conf sock=$dir/munge.socket
    local node mem_mb cpus

    [[ $(id -u) -eq 0 ]] || die "must run as root (slurmd runs jobs as their owners)"
    local b
    for b in munged munge unmunge slurmctld slurmd sinfo squeue scancel; do
        command -v "$b" >/dev/null || die "$b not found (install munge and slurm-wlm)"
    done
    if [[ -n $(tagged_pids "$dir") ]]; then
        die "a cluster is already running for $dir (run: $0 stop $dir)"
    fi

    # Fresh state every time; leave any other files in DIR alone.
    rm -rf "$dir/state" "$dir/spool" "$dir/log"
    rm -f "$dir"/munge.key "$dir"/munge.socket "$dir"/munge.socket.lock "$dir"/munged.seed \
        "$dir"/*.pid "$conf" "$dir/plugstack.conf"
    mkdir -p "$dir/state" "$dir/spool" "$dir/log" || die "cannot create dirs in $dir"
    # munged wants the socket directory not writable by group/other and
    # traversable by all (clients of any user); mktemp -d gives 0700.
    chmod go-w,a+x "$dir" || die "cannot chmod $dir"

    trap 'log "interrupted"; cmd_stop "$dir"; exit 130' INT TERM

    fail() {
        log "error: $*"
        dump_logs "$dir"
        cmd_stop "$dir"
        exit 1
    }

    # --- munge -------------------------------------------------------------
    if command -v mungekey >/dev/null; then
        mungekey -c -k "$dir/munge.key" 2>/dev/null || fail "mungekey failed"
    else
        dd if=/dev/urandom of="$dir/munge.key" bs=1 count=1024 status=none || fail "dd failed"
    fi
    chown "$(id -u):$(id -g)" "$dir/munge.key" || fail "cannot chown key"
    chmod 0400 "$dir/munge.key" || fail "cannot chmod key"

    log "starting munged"
    # --force: turn munged's permission checks on DIR's parents (e.g. a 0700
    # /root) into warnings; only root clients are needed for tests.
    env "$TAG_VAR=$dir" munged --force \
        --socket="$sock" --key-file="$dir/munge.key" --pid-file="$dir/munged.pid" \
        --log-file="$dir/log/munged.log" --seed-file="$dir/munged.seed" \
        </dev/null >"$dir/log/munged.stdout" 2>&1 || fail "munged failed to start"
    local i ok=
    for ((i = 0; i < 100; i++)); do
        if munge -n -S "$sock" 2>/dev/null | unmunge -S "$sock" >/dev/null 2>&1; then
            ok=1
            break
        fi
        sleep 0.1
    done
    [[ -n $ok ]] || fail "munged does not answer on $sock"

    # --- slurm.conf ----------------------------------------------------------
    node=$(hostname -s)
    cpus=$(nproc)
    # RealMemory must not exceed the real memory or the node is drained.
    mem_mb=$(awk '/^MemTotal:/ {print int($2 / 1024)}' /proc/meminfo)
    ((mem_mb > 1000)) && mem_mb=1000

    # Port choice and daemon start are serialized across concurrent starts
    # (e.g. parallel ctest) so two clusters never pick the same free pair.
    local lock=${TMPDIR:-/tmp}/local_slurm_cluster.ports.lock
    exec 9>>"$lock" || fail "cannot open $lock"
    flock -w "$START_TIMEOUT" 9 || fail "timed out waiting for $lock"
    pick_ports || fail "no usable ports"
    log "node $node, $cpus CPUs, ports $CTLD_PORT/$SLURMD_PORT"

    : >"$dir/plugstack.conf" # keep /etc/slurm/plugstack.conf out
    cat >"$conf" <<EOF
# Generated by local_cluster.sh: throw-away single-node test cluster.
ClusterName=angara-test
# The address is explicit so nothing depends on DNS for the short hostname.
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
PlugStackConfig=$dir/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MailProg=/bin/true
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF

    # --- slurm daemons -------------------------------------------------------
    log "starting slurmctld"
    env "$TAG_VAR=$dir" slurmctld -c -f "$conf" \
        </dev/null >"$dir/log/slurmctld.stdout" 2>&1 || fail "slurmctld failed to start"
    log "starting slurmd"
    env "$TAG_VAR=$dir" slurmd -f "$conf" -N "$node" \
        </dev/null >"$dir/log/slurmd.stdout" 2>&1 || fail "slurmd failed to start"

    local deadline=$((SECONDS + START_TIMEOUT)) pidcheck=$((SECONDS + 3)) state=
    while :; do
        # Re-read each time: the pid files appear only after daemonizing.
        if ((SECONDS > pidcheck)); then
            our_pid "$dir" "$dir/slurmctld.pid" >/dev/null || fail "slurmctld died"
            our_pid "$dir" "$dir/slurmd.pid" >/dev/null || fail "slurmd died"
        fi
        state=$(SLURM_CONF=$conf timeout 10 sinfo -h -N -n "$node" -o %T 2>/dev/null)
        [[ $state == idle ]] && break
        ((SECONDS >= deadline)) && fail "node not idle after ${START_TIMEOUT}s (state: '${state:-none}')"
        sleep 0.2
    done
    flock -u 9
    exec 9>&-

    trap - INT TERM
    log "cluster up in $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.1f", b - a}')s (SLURM_CONF=$conf)"
    echo "export SLURM_CONF=$conf"
}

[[ $# -eq 2 ]] || usage
action=$1
[[ -n $2 ]] || usage
case $action in
start)
    mkdir -p "$2" || die "cannot create $2"
    DIR=$(cd "$2" && pwd -P) || die "cannot enter $2"
    # slurm.conf has no quoting for paths.
    [[ $DIR != *[[:space:]]* ]] || die "DIR must not contain whitespace: $DIR"
    cmd_start "$DIR"
    ;;
stop)
    # Nothing to stop if DIR was never created.
    [[ -d $2 ]] || exit 0
    DIR=$(cd "$2" && pwd -P) || die "cannot enter $2"
    cmd_stop "$DIR"
    ;;
*) usage ;;
esac
