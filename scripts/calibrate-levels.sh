#!/usr/bin/env bash
# Calibrate the engine's levels (crate::levels): level 1 against the fixed anchors, then
# each level against the one below it, N games a pair (each opening of the suite twice,
# colours swapped), one game at a time.
#
#   scripts/calibrate-levels.sh [N] [TOP]     # default 100 games, levels up to 10
#
# Level 10 (full strength, by the clock) is stood in for by 300000 nodes a move, so that
# its games repeat and do not depend on the machine; it is at least that strong at the
# board's 2 s a move.
# Prints one "Score of ..." line per pair with the arena's Elo and its 95% error. Games,
# with their moves, go under matches/levels-<time>/. Honours CARGO_TARGET_DIR.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
n=${1:-100}
top=${2:-10}
cargo build --quiet --release --manifest-path "$root/Cargo.toml" --bin pbrain-fivefold --bin fivefold-arena
ff=$target/release/pbrain-fivefold
openings=${OPENINGS:-$root/../shared/openings/freestyle15.txt}
out=$root/matches/levels-$(date +%Y%m%d-%H%M%S)

pair() { # NAME_A INFO_A ENGINE_B NAME_B INFO_B
    local args=(--name-a "$1" --name-b "$4" -n "$n" --openings "$openings" --turn-ms 1000
        --reuse -j 1 --no-psq --no-progress --out "$out/$1-vs-$4" --info-a "$2")
    [ -n "$5" ] && args+=(--info-b "$5")
    "$target/release/fivefold-arena" "$ff" "$3" "${args[@]}" 2>&1 | grep -A2 '^Score of'
}

pair L1 "level 1" "python3 $root/../shared/opponents/seed002_brain.py --level easy" seed002-easy ""
pair L1 "level 1" "python3 $root/scripts/beginner_brain.py" beginner ""
for i in $(seq 2 "$top"); do
    info="level $i"
    [ "$i" = 10 ] && info="max_node 300000"
    pair "L$i" "$info" "$ff" "L$((i - 1))" "level $((i - 1))"
done
