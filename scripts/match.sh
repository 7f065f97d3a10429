#!/usr/bin/env bash
# Play a match between two Gomocup brains with the fivefold-arena runner.
#
#   scripts/match.sh ENGINE_A ENGINE_B [fivefold-arena options...]
#
# ENGINE is a command line ("python3 brain.py --level easy", "wine pbrain-x.exe", a path),
# or `fivefold` for this tree's release build of pbrain-fivefold.
# Builds the release binaries first when needed (cargo only rebuilds what changed), honouring
# CARGO_TARGET_DIR (default: <repo>/target). Example:
#
#   scripts/match.sh fivefold "python3 ../shared/opponents/seed001_brain.py" -n 20 \
#       --openings ../shared/openings/freestyle15.txt --turn-ms 500
#
# Options: scripts/match.sh x y --help
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}

if [ $# -lt 2 ]; then
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi

engine_a=$1
engine_b=$2
shift 2

bins=(--bin fivefold-arena)
for e in "$engine_a" "$engine_b"; do
    if [ "$e" = fivefold ]; then
        bins+=(--bin pbrain-fivefold)
        break
    fi
done
cargo build --quiet --release --manifest-path "$root/Cargo.toml" "${bins[@]}"

resolve() {
    if [ "$1" = fivefold ]; then
        printf '%s\n' "$target/release/pbrain-fivefold"
    else
        printf '%s\n' "$1"
    fi
}

exec "$target/release/fivefold-arena" "$(resolve "$engine_a")" "$(resolve "$engine_b")" "$@"
