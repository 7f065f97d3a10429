#!/usr/bin/env bash
# One shard of a self-play data campaign for Fivefold's network.
#
# As a Slurm job array (one task per shard; the array's size is the shard count):
#   SEED=7 GAMES=100000 OUT=/scratch/ff-seed7 sbatch --array=0-99 docs/cluster/gen-shard.sh
# Kubernetes runs the same script from docs/cluster/gen-job.yaml (an Indexed Job).
# Locally (what tests/data_cli.rs does): SHARD=0 SHARDS=2 SEED=7 GAMES=10 OUT=d bash gen-shard.sh
#
# Game i of a campaign depends only on SEED, i and the options, so a shard that fails can
# be rerun alone, and `cat OUT/shard-*.ffd > campaign.ffd` (or `fivefold-data merge`)
# gives the campaign whichever machines played it.
#SBATCH --job-name=fivefold-data
#SBATCH --cpus-per-task=1
#SBATCH --mem=512M
#SBATCH --time=08:00:00
#SBATCH --output=fivefold-data-%A_%a.log
set -euo pipefail

SHARD=${SHARD:-${SLURM_ARRAY_TASK_ID:-${JOB_COMPLETION_INDEX:?no shard index (SHARD, SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX)}}}
SHARDS=${SHARDS:-${SLURM_ARRAY_TASK_COUNT:?no shard count (SHARDS or SLURM_ARRAY_TASK_COUNT)}}
SEED=${SEED:?set SEED, the campaign seed}
GAMES=${GAMES:?set GAMES, the games of the whole campaign}
OUT=${OUT:-.}
SIZE=${SIZE:-15}
RULE=${RULE:-0}
NODES=${NODES:-20000}
DATA_BIN=${FIVEFOLD_DATA:-fivefold-data}
# NN=1: games searched with the built-in network; NN=PATH: with that network file.
NN=${NN:-}
nn_flags=()
case "$NN" in
    "" | 0) ;;
    1) nn_flags=(--nn) ;;
    *) nn_flags=(--nn-file "$NN") ;;
esac

mkdir -p "$OUT"
final="$OUT/shard-$(printf %05d "$SHARD").ffd"
# Written under a temporary name and renamed, so a killed task leaves no partial shard.
"$DATA_BIN" gen --games "$GAMES" --seed "$SEED" --shard "$SHARD" --shards "$SHARDS" \
    --size "$SIZE" --rule "$RULE" --nodes "$NODES" "${nn_flags[@]}" --out "$final.part"
mv "$final.part" "$final"
