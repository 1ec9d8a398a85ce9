#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, for trying tools/cluster/slurm_batch.sh and for its
# test: `local_slurm.sh start DIR` writes DIR/slurm.conf, starts munged, slurmctld and slurmd, waits
# for the node to be idle and prints `export SLURM_CONF=DIR/slurm.conf`; `local_slurm.sh stop DIR`
# stops them. Needs root and Debian's slurm-wlm (`apt-get install slurm-wlm`). Exits 77 when Slurm
# cannot be started here (not installed, not root), so a test can report itself skipped.
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
[[ $# -eq 2 ]] || usage
action=$1
dir=$(mkdir -p "$2" && cd "$2" && pwd)

# Stops the daemons this DIR started and waits (up to 20 s) until they are gone, so the ports are free.
stop() {
  local pids=()
  for daemon in slurmd slurmctld munged; do
    [[ -f "$dir/$daemon.pid" ]] && pids+=("$(cat "$dir/$daemon.pid")")
  done
  [[ ${#pids[@]} -gt 0 ]] || return 0
  kill "${pids[@]}" 2>/dev/null || true
  for _ in $(seq 40); do
    kill -0 "${pids[@]}" 2>/dev/null || return 0
    sleep 0.5
  done
  kill -9 "${pids[@]}" 2>/dev/null || true
}

case "$action" in
  stop) stop; exit 0 ;;
  start) ;;
  *) usage ;;
esac

for tool in munged slurmctld slurmd sbatch sinfo; do
  command -v "$tool" >/dev/null || { echo "local_slurm: $tool not found (apt-get install slurm-wlm)" >&2; exit 77; }
done
[[ $(id -u) -eq 0 ]] || { echo "local_slurm: the daemons need root" >&2; exit 77; }

host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
# munge: a key of our own and a socket in DIR, so a system munged is left alone.
[[ -f "$dir/munge/munge.key" ]] || dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 700 "$dir/munge"
chmod 400 "$dir/munge/munge.key"
socket="$dir/munge/munge.socket"
munged --force --key-file="$dir/munge/munge.key" --socket="$socket" --pid-file="$dir/munged.pid" \
  --log-file="$dir/munged.log" --seed-file="$dir/munge/munge.seed" || { echo "local_slurm: munged did not start" >&2; exit 77; }

cat > "$dir/slurm.conf" <<CONF
ClusterName=impactsim-local
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
SlurmctldPort=16817
SlurmdPort=16818
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -i || { echo "local_slurm: slurmctld did not start (see $dir/slurmctld.log)" >&2; stop; exit 77; }
slurmd || { echo "local_slurm: slurmd did not start (see $dir/slurmd.log)" >&2; stop; exit 77; }
for _ in $(seq 60); do
  if sinfo -h -o %t 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then
    echo "export SLURM_CONF=$dir/slurm.conf"
    exit 0
  fi
  sleep 1
done
echo "local_slurm: the node did not become idle in 60 s (see $dir/slurmctld.log and $dir/slurmd.log)" >&2
stop
exit 77
