#!/usr/bin/env bash
# One engine against every brain in a folder, one fivefold-arena match each.
#
#   scripts/gauntlet.sh ENGINE DIR [fivefold-arena options...]
#
# Opponents: executables named pbrain-* and Python brains *.py (run with python3).
# ENGINE is a command line, or `fivefold` for this tree's release pbrain-fivefold.
# Options go to every match (e.g. -n 20 --openings FILE --turn-ms 500); a table of the
# scores follows at the end. Each match writes its games under matches/ unless --out is given.
#
#   scripts/gauntlet.sh fivefold ../shared/opponents -n 10 --openings ../shared/openings/freestyle15.txt
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -lt 2 ]; then
    sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
engine=$1
dir=$2
shift 2
[ -d "$dir" ] || { echo "gauntlet.sh: no folder $dir" >&2; exit 2; }

opponents=()
for f in "$dir"/pbrain-*; do
    [ -f "$f" ] && [ -x "$f" ] && opponents+=("$f")
done
for f in "$dir"/*.py; do
    [ -f "$f" ] && opponents+=("python3 $f")
done
if [ ${#opponents[@]} -eq 0 ]; then
    echo "gauntlet.sh: no pbrain-* or *.py brains in $dir" >&2
    exit 2
fi

summary=()
status=0
for opp in "${opponents[@]}"; do
    echo "=== $engine vs $opp" >&2
    out=$("$root/scripts/match.sh" "$engine" "$opp" "$@" | tee /dev/stderr) || status=1
    score=$(printf '%s\n' "$out" | grep '^Score of' || true)
    elo=$(printf '%s\n' "$out" | grep '^Elo difference' || true)
    summary+=("${score:-$opp: no result}" "  ${elo:-}")
done

echo
echo "Gauntlet summary:"
printf '%s\n' "${summary[@]}"
exit $status
