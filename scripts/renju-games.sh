#!/usr/bin/env bash
# Makes tests/data/renju_games.txt: renju games (rule 4, 15x15) of this tree's engine
# against itself at two node limits (A: max_node 3000, B: max_node 9000), each opening of
# ../shared/openings/renju15.txt played twice with colours swapped, one game a line
# (`x,y` moves, black first). tests/renju_reference.rs checks YXSHOWFORBID against its
# reference implementation on every position of these games.
#
#   scripts/renju-games.sh [OUT_FILE]      (default tests/data/renju_games.txt)
#
# Builds the release binaries first when needed, honouring CARGO_TARGET_DIR.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
openings=$root/../shared/openings/renju15.txt
out_file=${1:-$root/tests/data/renju_games.txt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --quiet --release --manifest-path "$root/Cargo.toml" \
    --bin pbrain-fivefold --bin fivefold-arena
engine=$target/release/pbrain-fivefold
"$target/release/fivefold-arena" "$engine" "$engine" \
    --name-a nodes3000 --name-b nodes9000 \
    --info-a "max_node 3000" --info-b "max_node 9000" \
    --rule 4 --openings "$openings" -n 120 --turn-ms 5000 \
    --reuse --no-psq --no-progress -j 1 --out "$work/match" >&2

{
    echo "# Renju games (rule 4, 15x15) made by scripts/renju-games.sh at $(git -C "$root" rev-parse --short HEAD):"
    echo "# pbrain-fivefold at max_node 3000 against itself at max_node 9000 on the renju15 suite,"
    echo "# each opening twice with colours swapped. One game a line: x,y moves, black first."
    sed -n 's/.* moves=//p' "$work/match/games.txt"
} > "$out_file"
echo "wrote $(grep -vc '^#' "$out_file") games to $out_file" >&2
