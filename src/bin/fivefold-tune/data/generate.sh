#!/bin/sh
# Regenerates the tuner's training games (freestyle, rule 0) with the arena.
#   generate.sh "SPARRING ENGINE COMMAND" "FIVEFOLD COMMAND" [ARENA] [OUT]
# The sparring engine must accept `INFO max_node N` (Rapfi does). The games in this folder
# were made with Rapfi (pbrain-rapfi --config config.toml) and pbrain-fivefold at 48ea3d1.
# Each run plays every opening of the suite twice (colours swapped); node limits differ
# between runs so a deterministic engine still plays new games. A run whose folder exists
# is skipped, so an interrupted generation resumes (delete a partial run's folder first).
set -eu
R="$1"
F="$2"
ARENA="${3:-target/release/fivefold-arena}"
OUT="${4:-games-out}"
OPEN="${OPENINGS:-../shared/openings}"
run() { # name size a b info-a info-b
    [ -e "$OUT/$1" ] && return 0
    nice "$ARENA" "$3" "$4" --name-a "$1-a" --name-b "$1-b" --info-a "$5" --info-b "$6" \
        -n 120 --size "$2" --rule 0 --turn-ms 5000 -j 1 --max-moves 200 \
        --openings "$OPEN/freestyle$2.txt" --out "$OUT/$1" --no-psq --reuse --no-progress -q
}
rr() { # size pairs...
    size=$1
    shift
    for pair in "$@"; do
        run "rr$size-${pair%:*}-${pair#*:}" "$size" "$R" "$R" "max_node ${pair%:*}" "max_node ${pair#*:}"
    done
}
rr 15 10000:20000 20000:40000 8000:16000 16000:8000 12000:24000
rr 20 10000:20000 8000:16000 16000:8000 12000:24000 20000:10000
rr 15 6000:12000 14000:28000 24000:12000 18000:9000
rr 20 6000:12000 12000:6000 14000:28000 24000:12000
# Rapfi against Fivefold: Fivefold's own (weaker) shapes and mistakes.
run rf15-10000-50000 15 "$R" "$F" "max_node 10000" "max_node 50000"
run rf20-10000-50000 20 "$R" "$F" "max_node 10000" "max_node 50000"
