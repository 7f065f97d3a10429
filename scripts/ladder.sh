#!/usr/bin/env bash
# Sparring ladder: ENGINE against each OPPONENT at several time odds and board sizes, one
# table at the end (from ENGINE's side).
#
#   scripts/ladder.sh [options] ENGINE OPPONENT... [-- fivefold-arena options...]
#
# ENGINE and OPPONENT are command lines, or `fivefold` for this tree's release build.
# Write NAME=COMMAND to name an opponent in the table (default: the program's file stem).
# ENGINE thinks --engine-ms per move; each opponent plays once at every --odds value.
#
#   --odds "50 100 300 1000"   opponent's ms per move, one rung each (default as shown)
#   --engine-ms 1000           ENGINE's ms per move
#   --boards "15 20"           board sizes; openings: <shared>/openings/freestyle<size>.txt
#   -n 20                      games per rung (each opening twice, colours swapped)
#   -j 1                       games in parallel (a 2-core machine: at most 2)
#   --rule 0                   INFO rule; 1 uses standard15.txt, 4 renju15.txt
#   --out DIR                  where the arena runs and the table go (default matches/ladder-<time>)
#
# Example (the opponent is any Gomocup brain, here one built outside this repository):
#   scripts/ladder.sh fivefold "rapfi=/opt/rapfi/pbrain-rapfi" --odds "100 300" -n 40 -j 2
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}

odds="50 100 300 1000"
engine_ms=1000
boards="15 20"
games=20
jobs=1
rule=0
out=""
positional=()
extra=()
while [ $# -gt 0 ]; do
    case $1 in
    --odds) odds=$2; shift 2 ;;
    --engine-ms) engine_ms=$2; shift 2 ;;
    --boards) boards=$2; shift 2 ;;
    -n) games=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    --rule) rule=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -h | --help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) positional+=("$1"); shift ;;
    esac
done
if [ ${#positional[@]} -lt 2 ]; then
    sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
engine=${positional[0]}
opponents=("${positional[@]:1}")

shared=""
for d in "$root/../shared" /work/shared; do
    if [ -d "$d/openings" ]; then shared=$d; break; fi
done
[ -n "$shared" ] || { echo "ladder.sh: no shared/openings folder found" >&2; exit 2; }
suite() {
    case $rule in
    1) echo "$shared/openings/standard$1.txt" ;;
    4) echo "$shared/openings/renju$1.txt" ;;
    *) echo "$shared/openings/freestyle$1.txt" ;;
    esac
}

cargo build --quiet --release --manifest-path "$root/Cargo.toml" --bin fivefold-arena --bin pbrain-fivefold
resolve() {
    if [ "$1" = fivefold ]; then printf '%s\n' "$target/release/pbrain-fivefold"; else printf '%s\n' "$1"; fi
}
engine_cmd=$(resolve "$engine")
out=${out:-$root/matches/ladder-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
table="$out/ladder.txt"
printf '%-14s %-12s %-6s %6s %-16s %s\n' opponent odds board games "score (W-L-D)" "Elo +/- 95%" >"$table"

for spec in "${opponents[@]}"; do
    name=""
    cmd=$spec
    if [[ $spec =~ ^([A-Za-z0-9_.-]+)=(.+)$ ]]; then
        name=${BASH_REMATCH[1]}
        cmd=${BASH_REMATCH[2]}
    fi
    cmd=$(resolve "$cmd")
    [ -n "$name" ] || name=$(basename "${cmd%% *}")
    for size in $boards; do
        openings=$(suite "$size")
        [ -f "$openings" ] || { echo "ladder.sh: no suite $openings, skipping ${size}x$size" >&2; continue; }
        for ms in $odds; do
            run="$out/$name-${ms}ms-${size}"
            echo "ladder.sh: $name at $ms ms vs $engine_ms ms, ${size}x$size, $games games" >&2
            "$target/release/fivefold-arena" "$engine_cmd" "$cmd" --name-b "$name" \
                --size "$size" --rule "$rule" --openings "$openings" -n "$games" -j "$jobs" \
                --turn-ms "$engine_ms" --turn-ms-b "$ms" --match-ms 0 --no-progress --quiet \
                --out "$run" ${extra[@]+"${extra[@]}"} >"$run.log" 2>&1 || true
            score=$(sed -n 's/^Score of .*: \([0-9]* - [0-9]* - [0-9]*\)  \[\([0-9.]*\)\].*/\1 [\2]/p' "$run.log" | tail -1)
            elo=$(sed -n 's/^Elo difference: \([^(]*\)(.*/\1/p' "$run.log" | tail -1)
            played=$(sed -n 's/^Score of .*\] \([0-9]*\)$/\1/p' "$run.log" | tail -1)
            printf '%-14s %-12s %-6s %6s %-16s %s\n' "$name" "${ms}/${engine_ms}" "${size}x$size" \
                "${played:-0}" "${score:-see $run.log}" "${elo:-?}" >>"$table"
        done
    done
done
cat "$table"
