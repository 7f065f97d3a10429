#!/usr/bin/env bash
# Makes a freestyle network again from its recipe (README.md here) and checks the result
# byte for byte: its campaigns, each played by a parent network taken from the
# repository's history, concatenated in the recipe's order, then one training run.
#
#   bash src/eval/nn/weights/reproduce.sh NET WORKDIR   (NET: one of `known` below)
#
# The shards run here, JOBS at a time (default 2), through docs/cluster/gen-shard.sh.
# Shards already in WORKDIR/CAMPAIGN/shard-NNNNN.ffd are kept, so a cluster may play them
# first (a Slurm job array per campaign, with the campaign's SEED, GAMES, NODES and NN as
# this script passes them). SMALL=1 runs the recipe small (the first two shards of each
# campaign, two games a shard, 300 nodes a move, one epoch; tests); the check then needs
# EXPECT, and PARENT may name one network file to stand for every parent. FIVEFOLD_DATA
# and FIVEFOLD_TRAIN name the tools (default: the generator built at GEN_COMMIT, below,
# and target/release's trainer).
#
# Shards kept in the repository (CAMPAIGNS, default campaigns/ here, as
# NAME/shard-NNNNN.ffd.xz) are unpacked instead of played, so a campaign played once need
# not be played again on a new machine. Every campaign is checked against its sha256 in
# CAMPAIGNS/SHA256SUMS before the training (under SMALL, which plays small campaigns of
# its own, only where CAMPAIGNS is given). KEPT=1 only checks the kept shards: each of
# NET's campaigns whose shards are all kept is unpacked, joined and checked against its
# sha256; the others are reported with their count of kept shards; nothing is played or
# trained (seconds, no generator: a test runs it on the repository's campaigns).
# netD (built in from session 44 to 53) was netB fine-tuned on one campaign netB played;
# its recipe was made again byte for byte on 2026-11-30 (session 52: the campaign 58
# minutes on two cores, the training 2).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
# The recipes below, newest first (one list for both messages).
known="netK, netJ, netI, netH, netG, netE, netD"
net=${1:?usage: reproduce.sh NET WORKDIR (NET: $known)}
work=${2:?usage: reproduce.sh NET WORKDIR}
mkdir -p "$work"
work=$(cd "$work" && pwd)
TRAIN=${FIVEFOLD_TRAIN:-$root/target/release/fivefold-train}
JOBS=${JOBS:-2}
SMALL=${SMALL:-}
KEPT=${KEPT:-}
if [ -n "$SMALL" ]; then
    CAMPAIGNS=${CAMPAIGNS:-}
else
    CAMPAIGNS=${CAMPAIGNS:-$here/campaigns}
fi
# The campaigns were played by the search as it stood up to GEN_COMMIT: 119795c (the
# policy read after a cached value, session 63) plays other games from the same seeds, so
# today's generator would not make them again. It is built once under WORKDIR.
GEN_COMMIT=${GEN_COMMIT:-501e594}

# generator: sets DATA to the campaigns' fivefold-data (FIVEFOLD_DATA if given, else the
# one built at GEN_COMMIT from the repository's history).
generator() {
    if [ -n "${FIVEFOLD_DATA:-}" ]; then
        DATA=$FIVEFOLD_DATA
        return
    fi
    local dir=$work/generator-$GEN_COMMIT
    DATA=$dir/target/release/fivefold-data
    if [ ! -x "$DATA" ]; then
        rm -rf "$dir/src"
        mkdir -p "$dir/src"
        git -C "$root" archive "$GEN_COMMIT" | tar -x -C "$dir/src"
        cargo build --release --quiet --bin fivefold-data \
            --manifest-path "$dir/src/Cargo.toml" --target-dir "$dir/target"
    fi
}

# check NAME: WORKDIR/NAME.ffd against CAMPAIGNS/SHA256SUMS, if listed there.
check() {
    local sums=$CAMPAIGNS/SHA256SUMS want got
    if [ -z "$CAMPAIGNS" ] || [ ! -s "$sums" ]; then return 0; fi
    want=$(awk -v f="$1.ffd" '$2 == f { print $1 }' "$sums")
    if [ -z "$want" ]; then return 0; fi
    got=$(sha256sum "$work/$1.ffd" | cut -d' ' -f1)
    if [ "$got" != "$want" ]; then
        echo "campaign $1.ffd has sha256 $got, not the recorded $want" >&2
        exit 1
    fi
    echo "$1.ffd matches its recorded sha256"
}

# parent NAME COMMIT: the built-in network of COMMIT (or the file PARENT names, for every
# parent: tests), as WORKDIR/NAME.q (not under KEPT=1).
parent() {
    if [ -n "$KEPT" ]; then return 0; fi
    if [ -n "${PARENT:-}" ]; then
        cp "$PARENT" "$work/$1.q"
    elif [ ! -s "$work/$1.q" ]; then
        git -C "$root" show "$2:src/eval/nn/weights/freestyle.q" >"$work/$1.q.part"
        mv "$work/$1.q.part" "$work/$1.q"
    fi
}

# span "0..3 7 5": the shard numbers in order (0 1 2 3 7 5).
span() {
    local part
    for part in $1; do
        case "$part" in
            *..*) seq "${part%..*}" "${part#*..}" ;;
            *) echo "$part" ;;
        esac
    done
}

# campaign NAME PARENT SEED GAMES SHARDS NODES "ORDER" [SIZE]: plays the shards ORDER
# names (game i depends only on the seed and i) on a SIZE board (default 15) and
# concatenates them, in that order, into WORKDIR/NAME.ffd. Shards kept in CAMPAIGNS
# (NAME/shard-NNNNN.ffd.xz) are unpacked instead of played.
campaign() {
    local name=$1 nn=$work/$2.q seed=$3 games=$4 shards=$5 nodes=$6 size=${8:-15} order
    order=$(span "$7")
    if [ -n "$SMALL" ]; then
        # sed, not head: head leaves before echo has written every line, and the SIGPIPE
        # that echo may then get fails the pipeline under pipefail (flaky tests).
        games=$((shards * 2)) nodes=300 order=$(echo "$order" | sed -n 1,2p)
    fi
    local k shard missing=0 unpacked=0
    if [ -n "$KEPT" ] && ! all_kept "$name" "$order"; then return 0; fi
    mkdir -p "$work/$name"
    for k in $order; do
        shard=shard-$(printf %05d "$k").ffd
        if [ -s "$work/$name/$shard" ]; then continue; fi
        if [ -n "$CAMPAIGNS" ] && [ -s "$CAMPAIGNS/$name/$shard.xz" ]; then
            xz -dc "$CAMPAIGNS/$name/$shard.xz" >"$work/$name/$shard.part"
            mv "$work/$name/$shard.part" "$work/$name/$shard"
            unpacked=$((unpacked + 1))
        else
            missing=$((missing + 1))
        fi
    done
    if [ "$unpacked" -gt 0 ]; then
        echo "$name: $unpacked shards unpacked from $CAMPAIGNS/$name, $missing to play"
    fi
    if [ "$missing" -gt 0 ]; then
        generator
        echo "$order" | SEED=$seed SIZE=$size GAMES=$games SHARDS=$shards NODES=$nodes \
            NN=$nn OUT=$work/$name FIVEFOLD_DATA=$DATA xargs -P "$JOBS" -I{} bash -c \
            '[ -s "$OUT/shard-$(printf %05d {}).ffd" ] || SHARD={} bash "$0"' \
            "$root/docs/cluster/gen-shard.sh"
    fi
    for k in $order; do cat "$work/$name/shard-$(printf %05d "$k").ffd"; done >"$work/$name.ffd"
    check "$name"
    echo "$name.ffd sha256 $(sha256sum "$work/$name.ffd" | cut -d' ' -f1)"
}

# all_kept NAME "ORDER": whether CAMPAIGNS keeps every shard ORDER names; if not, says
# how many it keeps (KEPT=1).
all_kept() {
    local k kept=0 total=0
    for k in $2; do
        total=$((total + 1))
        if [ -s "$CAMPAIGNS/$1/shard-$(printf %05d "$k").ffd.xz" ]; then kept=$((kept + 1)); fi
    done
    if [ "$kept" -lt "$total" ]; then
        echo "$1: $kept of $total shards kept, not checked"
        return 1
    fi
}
# train EPOCHS FILES... [OPTIONS]: the trainer with the recipes' common options (two
# threads: the result depends on the thread count), writing WORKDIR/NET.q.
train() {
    local epochs=$1
    shift
    if [ -n "$KEPT" ]; then return 0; fi
    if [ -n "$SMALL" ]; then epochs=1; fi
    "$TRAIN" "$@" --epochs "$epochs" --threads 2 --seed 1 --weight-decay 0.05 \
        --shape-prior --out "$work/$net.bin" --quant-out "$work/$net.q" \
        --loss-csv "$work/$net.csv"
}

# nete_data: netE's four campaigns (and their parents); netg_data: netG's five, the
# fifth played by netE; neth_data: netH's six, the sixth (20x20) played by netG;
# neti_data: netI's seven, the seventh (20x20) played by netH. Each
# recipe below trains on a campaign list that grew by one.
nete_data() {
    parent netB ff33754^
    parent netD 8eb073d
    campaign c5 netD 20261531 100000 400 5000 "0..266"
    campaign g2 netB 20261301 20000 200 20000 "0..199"
    campaign dA netD 20265101 40000 800 20000 "0..150 153 157 151 152 154..156 158..170"
    campaign c20 netD 20261541 100000 400 20000 "0..85"
}
netg_data() {
    nete_data
    parent netE ec5ba00
    campaign c20e netE 20261551 100000 400 20000 "0..108"
}
neth_data() {
    netg_data
    parent netG 9a0d016
    campaign g20 netG 20261581 100000 400 20000 "0..96" 20
}
neti_data() {
    neth_data
    parent netH 0cca049
    campaign h20 netH 20261591 100000 400 20000 "0..96" 20
}
nete_files=("$work/c5.ffd" "$work/g2.ffd" "$work/dA.ffd" "$work/c20.ffd")
netg_files=("${nete_files[@]}" "$work/c20e.ffd")
neth_files=("${netg_files[@]}" "$work/g20.ffd")
neti_files=("${neth_files[@]}" "$work/h20.ffd")

case "$net" in
    netK)
        # netK, trained in session 70 and not built in (level with netI on both boards;
        # README.md here): netI's recipe from nothing on netI's seven campaigns and a
        # third 20x20 one, netI played (i20, sessions 69 and 70).
        expect=5567e4dd43b4575872a69b7f4d61a1baa50a38036bcfc49501b3f9ecb1bc9b7b
        neti_data
        parent netI 3eb85a5
        campaign i20 netI 20261611 100000 400 20000 "0..96" 20
        train 6 "${neti_files[@]}" "$work/i20.ffd" --channels 64
        ;;
    netJ)
        # netJ, trained in session 69 and not built in (level with netI on 15x15,
        # behind on 20x20; README.md here): netI's recipe from nothing on netI's seven
        # campaigns and a 15x15 one netI played (i15, played in sessions 60 and 68).
        expect=1605639f58b11eb36e707756be56fa99a0a7ed875b98e811f6c8b85929b37083
        neti_data
        parent netI 3eb85a5
        campaign i15 netI 20261601 100000 400 20000 "0..121"
        train 6 "${neti_files[@]}" "$work/i15.ffd" --channels 64
        ;;
    netI)
        # netI, built in at session 59: netH's recipe on netH's six campaigns and a
        # second 20x20 one, netH played (h20; README.md here).
        expect=b92086f029c0fc7bb6a3cc4b7745990f06910eaa0ac318d662a4832672828575
        neti_data
        train 6 "${neti_files[@]}" --channels 64
        ;;
    netH)
        # netH, built in at session 58: netG's recipe on netG's five campaigns and a
        # 20x20 one netG played (g20; README.md here).
        expect=84f0fd1d95d6a53c94432d9f76a19182618b144ad95395197c39c3ec3d8747ea
        neth_data
        train 6 "${neth_files[@]}" --channels 64
        ;;
    netG)
        # netG, built in at session 57: netE's recipe at 64 channels on netE's four
        # campaigns and one netE played (c20e; README.md here).
        expect=e67cd97f7f88401f03c10f9ca2f2eb0c261b771a16fff5bd601f73ecbcdf5bee
        netg_data
        train 6 "${netg_files[@]}" --channels 64
        ;;
    netE)
        # netE, built in at ec5ba00: a fresh network on four campaigns (README.md here).
        expect=2a128c8284b377f1ddf9f63e1d87918f46c3a3e3c745ec2485d9706af22c24d4
        nete_data
        train 6 "${nete_files[@]}"
        ;;
    netD)
        # netD, built in at 8eb073d: netB fine-tuned on the campaign netB played (g2).
        expect=5eb935a97c7811a6e53c93f80b98d28b84d4f66c9a40a11b74e4d8f945aa6bb9
        parent netB ff33754^
        campaign g2 netB 20261301 20000 200 20000 "0..199"
        train 3 "$work/g2.ffd" --init "$work/netB.q" --lr 0.0005
        ;;
    *)
        echo "unknown network $net (known: $known)" >&2
        exit 2
        ;;
esac

if [ -n "$KEPT" ]; then
    echo "kept shards checked; nothing played or trained"
    exit 0
fi
if [ -n "$SMALL" ]; then expect=; fi
EXPECT=${EXPECT:-$expect}
got=$(sha256sum "$work/$net.q" | cut -d' ' -f1)
echo "$net.q sha256 $got"
if [ -n "$EXPECT" ]; then
    if [ "$got" != "$EXPECT" ]; then
        echo "differs from the expected $EXPECT" >&2
        exit 1
    fi
    echo "identical to the expected network"
fi
