#!/usr/bin/env bash
# Run the Gomocup protocol conformance suite (protocol-tests/cases) against any brain.
#
#   scripts/protocol-check.sh [CHECK_OPTIONS...] BRAIN_CMD [ARGS...]
#
# BRAIN_CMD is a program with its arguments (python3 brain.py --level easy), or one
# quoted command line ("wine pbrain-x.exe"), or `fivefold` for this tree's release build
# of pbrain-fivefold. Builds fivefold-protocol-check first when needed (cargo only
# rebuilds what changed), honouring CARGO_TARGET_DIR (default: <repo>/target).
#
# CHECK_OPTIONS: -v (transcripts of failures), --filter SUBSTR, -j N, --skip TAG[,TAG]
# (standard, renju, caro), --strict (optional cases count), --list. Exit status 1 when a
# case failed. Example:
#
#   scripts/protocol-check.sh --skip standard,renju,caro python3 ../shared/opponents/seed001_brain.py
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target}

if [ $# -lt 1 ]; then
    sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi

# Options come first; the first other word starts the brain command.
opts=()
while [ $# -gt 0 ]; do
    case $1 in
        -j | --jobs | --filter | --skip | --cases)
            [ $# -ge 2 ] || { echo "protocol-check.sh: $1 needs a value" >&2; exit 2; }
            opts+=("$1" "$2")
            shift 2
            ;;
        --) shift; break ;;
        -*) opts+=("$1"); shift ;;
        *) break ;;
    esac
done

bins=(--bin fivefold-protocol-check)
if [ "${1:-}" = fivefold ]; then
    bins+=(--bin pbrain-fivefold)
    shift
    set -- "$target/release/pbrain-fivefold" "$@"
fi
cargo build --quiet --release --manifest-path "$root/Cargo.toml" "${bins[@]}"

exec "$target/release/fivefold-protocol-check" --cases "$root/protocol-tests/cases" \
    ${opts[@]+"${opts[@]}"} -- "$@"
