#!/usr/bin/env bash
# tools/slurm_local.sh - a single-node Slurm on this machine, for trying and
# testing `xnoc sweep --engine slurm` (Debian's slurm-wlm and munge).
#
# usage: tools/slurm_local.sh start DIR    prints "export SLURM_CONF=DIR/slurm.conf"
#        tools/slurm_local.sh stop DIR
# Everything (munge socket, state, spool, logs) lives in DIR; nothing in /etc
# is changed.  Needs root (slurmd starts jobs as their users).  On failure
# it prints one line naming what did not start and exits 1.
set -u
cmd=${1:?usage: tools/slurm_local.sh start|stop DIR}
d=${2:?usage: tools/slurm_local.sh start|stop DIR}
stop() {
    local pids=""
    for p in slurmd slurmctld munged; do
        [ -f "$d/$p.pid" ] && pids="$pids $(cat "$d/$p.pid")"
    done
    [ -n "$pids" ] && kill $pids 2>/dev/null
    for _ in $(seq 50); do     # until they have gone (at most 10 s)
        kill -0 $pids 2>/dev/null || break
        sleep 0.2
    done
    return 0
}
if [ "$cmd" = stop ]; then stop; exit 0; fi
fail() { echo "slurm_local: $*" >&2; stop; exit 1; }
for b in munged slurmctld slurmd sinfo sbatch; do
    command -v $b >/dev/null || fail "$b is missing (make deps installs slurm-wlm)"
done
[ -r /etc/munge/munge.key ] || fail "/etc/munge/munge.key is missing or unreadable (munge package, root)"
mkdir -p "$d/state" "$d/spool" "$d/log"
h=$(hostname -s)
cat > "$d/slurm.conf" <<CONF
ClusterName=xnoc
SlurmctldHost=$h
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$d/munge.sock
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
ReturnToService=2
MpiDefault=none
NodeName=$h CPUs=$(nproc) State=UNKNOWN
PartitionName=xnoc Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
munged --force --socket="$d/munge.sock" --key-file=/etc/munge/munge.key --pid-file="$d/munged.pid" \
    --log-file="$d/log/munged.log" --seed-file="$d/munge.seed" 2>"$d/log/munged.err" || fail "munged did not start: $(head -1 "$d/log/munged.err")"
export SLURM_CONF=$d/slurm.conf
slurmctld 2>"$d/log/slurmctld.err" || fail "slurmctld did not start: $(head -1 "$d/log/slurmctld.err")"
slurmd 2>"$d/log/slurmd.err" || fail "slurmd did not start: $(head -1 "$d/log/slurmd.err")"
for _ in $(seq 50); do
    sinfo -h -o %t 2>/dev/null | grep -q idle && { echo "export SLURM_CONF=$d/slurm.conf"; exit 0; }
    sleep 0.2
done
fail "the node did not come up idle in 10 s: $(sinfo -h -o '%t %E' 2>&1 | head -1)"
