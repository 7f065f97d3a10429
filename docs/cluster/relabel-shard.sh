#!/usr/bin/env bash
# One shard of a relabelling campaign: the games of data files already played, every ply
# after the opening searched again at more nodes (a stronger teacher for the network).
#
# As a Slurm job array (one task per block of consecutive games):
#   IN=/scratch/ff-seed7/campaign.ffd NODES=200000 OUT=/scratch/ff-seed7-r200k \
#       sbatch --array=0-199 docs/cluster/relabel-shard.sh
# As a Kubernetes Indexed Job: gen-job.yaml with command /opt/fivefold/relabel-shard.sh
# and IN (a path on the shared volume), NODES, SHARDS and OUT in its env.
# Locally (what tests/data_cli.rs does): SHARD=0 SHARDS=2 IN=d.ffd OUT=r bash relabel-shard.sh
#
# Each task reads the whole input (IN may name several files, space-separated, read in
# that order) and relabels its block, so a failed task can be rerun alone, and
# `cat OUT/relabel-*.ffd` holds the games in the input's order.
# Self-contained like gen-shard.sh (sbatch runs a copy of the script from its spool
# directory, so a helper file beside it would not be found): the shard and network lines
# below repeat that script's.
#SBATCH --job-name=fivefold-relabel
#SBATCH --cpus-per-task=1
#SBATCH --mem=1G
#SBATCH --time=12:00:00
#SBATCH --output=fivefold-relabel-%A_%a.log
set -euo pipefail

SHARD=${SHARD:-${SLURM_ARRAY_TASK_ID:-${JOB_COMPLETION_INDEX:?no shard index (SHARD, SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX)}}}
SHARDS=${SHARDS:-${SLURM_ARRAY_TASK_COUNT:?no shard count (SHARDS or SLURM_ARRAY_TASK_COUNT)}}
IN=${IN:?set IN, the data file(s) to relabel}
OUT=${OUT:-.}
NODES=${NODES:-200000}
DATA_BIN=${FIVEFOLD_DATA:-fivefold-data}
# NN=1: searched with the built-in network; NN=PATH: with that network file.
NN=${NN:-}
nn_flags=()
case "$NN" in
    "" | 0) ;;
    1) nn_flags=(--nn) ;;
    *) nn_flags=(--nn-file "$NN") ;;
esac
# ENGINE="command line": labels from that Gomocup brain at NODES (INFO max_node) instead
# of our own search; ENGINE_SCALE: its evaluation units in ours (default 1.6, Rapfi's).
engine_flags=()
if [ -n "${ENGINE:-}" ]; then
    engine_flags=(--engine "$ENGINE" --engine-scale "${ENGINE_SCALE:-1.6}")
fi
read -r -a inputs <<< "$IN"

mkdir -p "$OUT"
final="$OUT/relabel-$(printf %05d "$SHARD").ffd"
# Written under a temporary name and renamed, so a killed task leaves no partial shard.
"$DATA_BIN" relabel --shard "$SHARD" --shards "$SHARDS" --nodes "$NODES" "${nn_flags[@]}" \
    "${engine_flags[@]}" --out "$final.part" "${inputs[@]}"
mv "$final.part" "$final"
