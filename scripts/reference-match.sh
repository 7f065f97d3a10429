#!/usr/bin/env bash
# Fivefold against every reference brain in ../shared/opponents (seed000, seed001, and
# seed002 at each --level), one match each, then a table of the scores.
#
#   scripts/reference-match.sh [OPPONENTS_DIR] [fivefold-arena options...]
#
# Defaults: 4 games per opponent (2 openings x 2 colours) from freestyle15.txt at 1 s per
# move on 15x15. seed000 and seed001 get --respect-timeout, so they play inside the turn
# limit instead of losing on time. Later options override the defaults.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dir=$root/../shared/opponents
if [ $# -gt 0 ] && [ -d "$1" ]; then
    dir=$1
    shift
fi
openings=$root/../shared/openings/freestyle15.txt
out=${OUT:-$root/matches/reference-$(date +%Y%m%d-%H%M%S)}

opponents=(
    "python3 $dir/seed000_brain.py --respect-timeout"
    "python3 $dir/seed001_brain.py --respect-timeout"
)
for level in easy normal medium hard expert; do
    opponents+=("python3 $dir/seed002_brain.py --level $level")
done

mkdir -p "$out"
summary=()
for i in "${!opponents[@]}"; do
    opp=${opponents[$i]}
    log=$out/$i.log
    "$root/scripts/match.sh" fivefold "$opp" -n 4 --openings "$openings" --turn-ms 1000 \
        --size 15 --rule 0 --no-progress -q --out "$out/$i" "$@" | tee "$log" | grep -E "^Score of"
    summary+=("$opp: $(grep -E '^Score of' "$log" | sed 's/^Score of //')")
done
echo
echo "== Fivefold vs reference brains (games in $out) =="
printf '%s\n' "${summary[@]}"
