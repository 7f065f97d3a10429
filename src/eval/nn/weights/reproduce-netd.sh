#!/usr/bin/env bash
# Makes netD (the built-in network, freestyle.q, from session 44 to 53) again from its
# parent, netB: the campaign netB played (docs/cluster/gen-shard.sh, 200 shards) and
# netD's fine-tune on it, then checks the result byte for byte against netD's sha256. Done
# so on 2026-11-30 (session 52): identical; the campaign took 58 minutes on two cores, the
# training 2. netD is also the player of netE's campaigns (README.md here).
#
#   bash src/eval/nn/weights/reproduce-netd.sh WORKDIR
#
# The shards run here, JOBS at a time (default 2). Shards already in WORKDIR/campaign are
# kept, so a cluster may play them first, as a Slurm job array (then run this script):
#   NN=WORKDIR/netB.q SEED=20261301 GAMES=20000 SIZE=15 OUT=WORKDIR/campaign \
#       sbatch --array=0-199 docs/cluster/gen-shard.sh
# netB is freestyle.q before commit ff33754, taken from the repository's history into
# WORKDIR/netB.q unless INIT names another parent. GAMES, SHARDS, NODES and EPOCHS make a
# smaller run (tests); the check then needs EXPECT, the sha256 the result must have.
# FIVEFOLD_DATA and FIVEFOLD_TRAIN name the tools (default: target/release).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
work=${1:?usage: reproduce-netd.sh WORKDIR}
mkdir -p "$work/campaign"
work=$(cd "$work" && pwd)
DATA=${FIVEFOLD_DATA:-$root/target/release/fivefold-data}
TRAIN=${FIVEFOLD_TRAIN:-$root/target/release/fivefold-train}
GAMES=${GAMES:-20000}
SHARDS=${SHARDS:-200}
NODES=${NODES:-20000}
EPOCHS=${EPOCHS:-3}
JOBS=${JOBS:-2}
if [ "$GAMES/$SHARDS/$NODES/$EPOCHS" = 20000/200/20000/3 ]; then
    EXPECT=${EXPECT:-5eb935a97c7811a6e53c93f80b98d28b84d4f66c9a40a11b74e4d8f945aa6bb9}
fi
EXPECT=${EXPECT:-}
INIT=${INIT:-$work/netB.q}
if [ ! -s "$INIT" ]; then
    git -C "$root" show ff33754^:src/eval/nn/weights/freestyle.q >"$INIT.part"
    mv "$INIT.part" "$INIT"
fi

# 1. The campaign, played by the parent (game i depends only on the seed and i).
export SEED=20261301 SIZE=15 GAMES SHARDS NODES NN=$INIT OUT=$work/campaign FIVEFOLD_DATA=$DATA
seq 0 $((SHARDS - 1)) | xargs -P "$JOBS" -I{} bash -c \
    '[ -s "$OUT/shard-$(printf %05d {}).ffd" ] || SHARD={} bash "$0"' \
    "$root/docs/cluster/gen-shard.sh"
cat "$work"/campaign/shard-*.ffd >"$work/campaign.ffd"

# 2. netD's recipe: two threads (the result depends on the thread count), seed 1.
"$TRAIN" "$work/campaign.ffd" --init "$INIT" --lr 0.0005 --epochs "$EPOCHS" --threads 2 \
    --seed 1 --weight-decay 0.05 --shape-prior --out "$work/netD.bin" \
    --quant-out "$work/netD.q" --loss-csv "$work/netD.csv"

got=$(sha256sum "$work/netD.q" | cut -d' ' -f1)
echo "netD.q sha256 $got"
if [ -n "$EXPECT" ]; then
    if [ "$got" != "$EXPECT" ]; then
        echo "differs from the expected $EXPECT" >&2
        exit 1
    fi
    echo "identical to the expected network"
fi
