#!/usr/bin/env bash
# The Slurm path, tested for real: starts a single-node Slurm (local-cluster.sh), runs
# `cutlab reproduce --smoke --engine none --deterministic` once here (or takes such a run
# already made) and once as Slurm jobs (job arrays of two shards, merge jobs, dependencies),
# and checks that both wrote the same CSV rows. The daemons are stopped by their process ids
# at the end, whatever happens.
#
#   scripts/slurm/ci-check.sh [CUTLAB [LOCAL]]
#
# CUTLAB: the binary (default target/debug/cutlab); LOCAL: the directory of a run of that
# command by that binary, to compare with instead of running it again.
set -euo pipefail
cd "$(dirname "$0")/../.."

cutlab=$(realpath "${1:-target/debug/cutlab}")
local_run=${2:-}
if ! command -v sbatch >/dev/null || ! [ -x /usr/sbin/slurmctld ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi

work=$PWD/target/ci-slurm
rm -rf "$work"
mkdir -p "$work"
trap 'scripts/slurm/local-cluster.sh stop "$work/cluster"' EXIT
scripts/slurm/local-cluster.sh start "$work/cluster"
export SLURM_CONF=$work/cluster/slurm.conf

run=(reproduce --smoke --engine none --deterministic)
if [ -z "$local_run" ]; then
  local_run=$work/local
  "$cutlab" "${run[@]}" --out "$local_run" >"$work/local.log" 2>&1
fi
"$cutlab" "${run[@]}" --slurm --slurm-array 2 --slurm-time 00:10:00 --out "$work/slurm"

# Wait for every job the run submitted to leave the queue (10 minutes at most).
ids=$(cut -f2 "$work/slurm/slurm/jobs.tsv" | paste -sd,)
for _ in $(seq 600); do
  [ -z "$(squeue -h -j "$ids" 2>/dev/null)" ] && break
  sleep 1
done
if [ -n "$(squeue -h -j "$ids" 2>/dev/null)" ]; then
  echo "error: Slurm jobs still queued after 10 minutes:" >&2
  squeue >&2
  exit 1
fi
if ! [ -s "$work/slurm/report.md" ]; then
  echo "error: the Slurm run wrote no report; its job logs:" >&2
  tail -n 5 "$work"/slurm/logs/slurm-*.out >&2
  exit 1
fi
python3 scripts/slurm/compare-runs.py "$local_run" "$work/slurm"
