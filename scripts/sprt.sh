#!/usr/bin/env bash
# SPRT between this working tree's pbrain-fivefold and the one of an earlier commit.
#
#   scripts/sprt.sh [BASE_COMMIT] [fivefold-arena options...]
#
# BASE_COMMIT defaults to HEAD~1. Both engines are built in release mode (the base from a
# `git archive` copy in a temporary folder), then fivefold-arena runs an SPRT with engine A =
# this tree ("new") and engine B = the base. Defaults, each overridable by a later option:
#
#   --sprt 0,10 (elo0,elo1; alpha = beta = 0.05)   --size 15 --rule 0
#   --turn-ms 100 --match-ms 5000 (fast)          -j 1
#   --openings <repo>/../shared/openings/freestyle15.txt (or $OPENINGS, or /work/shared/...)
#
# Examples:
#   scripts/sprt.sh                       # this tree vs HEAD~1
#   scripts/sprt.sh main~3 --sprt -5,5 -j 2
#   scripts/sprt.sh HEAD --info-b "max_depth 2"   # this tree vs a handicapped HEAD
#
# CARGO_TARGET_DIR is honoured (default <repo>/target); the base shares it so dependencies
# are compiled once. KEEP_SPRT_TMP=1 keeps the temporary folder.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}
export CARGO_TARGET_DIR=$target

base=HEAD~1
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
    base=$1
    shift
fi
base_rev=$(git -C "$root" rev-parse --verify --quiet "$base^{commit}") || {
    echo "sprt.sh: '$base' is not a commit" >&2
    exit 2
}

openings_args=()
if ! printf '%s\n' "$@" | grep -q -- '^--openings'; then
    for f in "${OPENINGS:-}" "$root/../shared/openings/freestyle15.txt" /work/shared/openings/freestyle15.txt; do
        if [ -n "$f" ] && [ -f "$f" ]; then
            openings_args=(--openings "$f")
            break
        fi
    done
    if [ ${#openings_args[@]} -eq 0 ]; then
        echo "sprt.sh: no freestyle15.txt found; pass --openings FILE (or set OPENINGS)" >&2
        exit 2
    fi
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fivefold-sprt.XXXXXX")
cleanup() { [ "${KEEP_SPRT_TMP:-0}" = 1 ] || rm -rf "$tmp"; }
trap cleanup EXIT

echo "sprt.sh: building base ${base} (${base_rev:0:10})" >&2
mkdir -p "$tmp/base"
git -C "$root" archive "$base_rev" | tar -x -C "$tmp/base"
cargo build --quiet --release --manifest-path "$tmp/base/Cargo.toml" --bin pbrain-fivefold
cp "$target/release/pbrain-fivefold" "$tmp/pbrain-fivefold-base"

echo "sprt.sh: building this working tree" >&2
cargo build --quiet --release --manifest-path "$root/Cargo.toml" --bin pbrain-fivefold --bin fivefold-arena
cp "$target/release/pbrain-fivefold" "$tmp/pbrain-fivefold-new"

# No exec: the trap removes the temporary folder when the arena is done.
"$target/release/fivefold-arena" "$tmp/pbrain-fivefold-new" "$tmp/pbrain-fivefold-base" \
    --name-a new --name-b "base-${base_rev:0:8}" \
    --sprt 0,10 --size 15 --rule 0 --turn-ms 100 --match-ms 5000 -j 1 \
    "${openings_args[@]}" "$@"
