#!/bin/sh
# Regenerates the tuner's training games with the arena.
#   generate.sh "SPARRING ENGINE COMMAND" "FIVEFOLD COMMAND" [ARENA] [OUT]
# RULE=0 (default) makes the freestyle games (games15.txt, games20.txt); RULE=1 makes the
# standard (exactly five) games on the standard15 suite (standard15.txt); RULE=4 makes the
# renju games on the renju15 suite (renju15.txt; the arena adjudicates Black's fouls).
# The sparring engine must accept `INFO max_node N` (Rapfi does). The games in this folder
# were made with Rapfi (pbrain-rapfi --config config.toml) and pbrain-fivefold (48ea3d1 for
# freestyle, 788ebc5 for standard, 6986c47 for renju; renju15.txt holds the first twelve
# runs).
# more15.txt and more20.txt are not made by this script: they are the fixed-node sparring
# matches of Fivefold builds (November 2026, 4k-300k nodes) against Rapfi (4k-30k nodes),
# a few Fivefold self-play matches, and Rapfi against itself at 12k against 24k nodes (250
# games on 15x15, 292 on 20x20), all on the freestyle suites' openings and their mirror
# images.
# labels.txt and labels2.txt are not made by this script either: Rapfi's search scores for
# positions of the four freestyle files (fivefold-tune --dump-positions --label-with, see
# docs/tuning.md, "Search labels"), Rapfi at 20,000 nodes; labels2.txt leaves out labels.txt's.
# Each run plays every opening of the suite twice (colours swapped); node limits differ
# between runs so a deterministic engine still plays new games. A run whose folder exists
# is skipped, so an interrupted generation resumes (delete a partial run's folder first).
set -eu
R="$1"
F="$2"
ARENA="${3:-target/release/fivefold-arena}"
OUT="${4:-games-out}"
OPEN="${OPENINGS:-../shared/openings}"
RULE="${RULE:-0}"
run() { # name size a b info-a info-b [suite] [games]
    [ -e "$OUT/$1" ] && return 0
    nice "$ARENA" "$3" "$4" --name-a "$1-a" --name-b "$1-b" --info-a "$5" --info-b "$6" \
        -n "${8:-120}" --size "$2" --rule "$RULE" --turn-ms 5000 -j 1 --max-moves 200 \
        --openings "$OPEN/${7:-freestyle}$2.txt" --out "$OUT/$1" --no-psq --reuse --no-progress -q
}
rr() { # size pairs...
    size=$1
    shift
    for pair in "$@"; do
        run "rr$size-${pair%:*}-${pair#*:}" "$size" "$R" "$R" "max_node ${pair%:*}" "max_node ${pair#*:}"
    done
}
if [ "$RULE" = 1 ] || [ "$RULE" = 4 ]; then
    if [ "$RULE" = 1 ]; then suite=standard name=std; else suite=renju name=renju; fi
    s() { # pairs...
        for pair in "$@"; do
            run "${name}15-${pair%:*}-${pair#*:}" 15 "$R" "$R" "max_node ${pair%:*}" \
                "max_node ${pair#*:}" $suite
        done
    }
    s 10000:20000
    run ${name}rf15-10000-50000 15 "$R" "$F" "max_node 10000" "max_node 50000" $suite
    s 20000:10000 8000:16000 16000:8000 12000:24000
    run ${name}rf15-20000-50000 15 "$R" "$F" "max_node 20000" "max_node 50000" $suite
    s 6000:12000 14000:28000 24000:12000 18000:9000 20000:40000 40000:20000
    s 9000:18000 28000:14000 7000:14000 32000:16000
    exit 0
fi
rr 15 10000:20000 20000:40000 8000:16000 16000:8000 12000:24000
rr 20 10000:20000 8000:16000 16000:8000 12000:24000 20000:10000
rr 15 6000:12000 14000:28000 24000:12000 18000:9000
rr 20 6000:12000 12000:6000 14000:28000 24000:12000
# Rapfi against Fivefold: Fivefold's own (weaker) shapes and mistakes.
run rf15-10000-50000 15 "$R" "$F" "max_node 10000" "max_node 50000"
run rf20-10000-50000 20 "$R" "$F" "max_node 10000" "max_node 50000"
