#!/usr/bin/env bash
# A single-node Slurm on this machine, from Debian's packages, for trying the cluster path
# (`cutlab reproduce --slurm`, the array scripts) without a cluster, and for CI.
#
#   scripts/slurm/local-cluster.sh start [DIR]   # munged, slurmctld, slurmd; prints the env to use
#   scripts/slurm/local-cluster.sh stop  [DIR]   # stops them by the process ids written in DIR
#
# DIR (default target/slurm) holds the configuration, state, logs and pid files. After `start`,
# `export SLURM_CONF=DIR/slurm.conf` makes sbatch, squeue and sacct use this cluster. It runs
# as root with proctrack/linuxproc and task/none (no cgroups, no systemd), one partition
# `cutlab` holding this node. Needs: apt-get install --no-install-recommends slurm-wlm munge
set -euo pipefail

action=${1:?usage: local-cluster.sh start|stop [DIR]}
dir=$(realpath -m "${2:-target/slurm}")

stop() {
  for daemon in slurmd slurmctld munged; do
    pidfile="$dir/$daemon.pid"
    if [ -s "$pidfile" ]; then
      pid=$(cat "$pidfile")
      if kill "$pid" 2>/dev/null; then
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
        echo "stopped $daemon ($pid)"
      fi
      rm -f "$pidfile"
    fi
  done
  if [ -f "$dir/slurm.conf" ]; then
    socket=$(sed -n 's/^AuthInfo=socket=//p' "$dir/slurm.conf")
    [ -n "$socket" ] && rm -f "$socket" "$socket.lock"
  fi
  return 0
}

start() {
  for cmd in munged slurmctld slurmd sbatch; do
    command -v "$cmd" >/dev/null || PATH=$PATH:/usr/sbin
    command -v "$cmd" >/dev/null || {
      echo "error: $cmd not found: apt-get install --no-install-recommends slurm-wlm munge" >&2
      exit 1
    }
  done
  mkdir -p "$dir"/{state,spool,munge}
  chmod 700 "$dir/munge"

  # munge: its own key in DIR and its own socket, so nothing system-wide is touched.
  key="$dir/munge/munge.key"
  [ -s "$key" ] || dd if=/dev/urandom of="$key" bs=1024 count=1 status=none
  chmod 400 "$key"
  # A short path: a unix socket's path must fit in 108 bytes, DIR's may not.
  socket=$(mktemp -u /tmp/cutlab-munge.XXXXXX)
  munged --force --key-file="$key" --socket="$socket" --pid-file="$dir/munged.pid" \
    --log-file="$dir/munged.log" --seed-file="$dir/munge/munge.seed"

  host=$(hostname -s)
  node=$(slurmd -C | head -1 | sed -E 's/ (Boards|SocketsPerBoard|CoresPerSocket|ThreadsPerCore)=[0-9]+//g')
  # batch_sched_delay=0: a job whose dependency has just ended starts at once, not at the
  # next 3-second tick (a chain of 7 jobs: 21 s by default, 7 s with it).
  cat >"$dir/slurm.conf" <<EOF
ClusterName=cutlab-local
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=cutlab Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF="$dir/slurm.conf"
  slurmctld -f "$SLURM_CONF"
  slurmd -f "$SLURM_CONF"
  for _ in $(seq 100); do
    if sinfo -h -o '%t' 2>/dev/null | grep -qx idle; then
      echo "slurm is up: export SLURM_CONF=$SLURM_CONF"
      return 0
    fi
    sleep 0.2
  done
  echo "error: slurm did not come up; logs in $dir" >&2
  sinfo >&2 || true
  stop
  exit 1
}

case "$action" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: local-cluster.sh start|stop [DIR]" >&2; exit 2 ;;
esac
