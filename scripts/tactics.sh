#!/usr/bin/env bash
# Runs the tactics suite (tests/data/tactics.txt) against any brain through the protocol:
# for each position START <size>, INFO rule 0, INFO timeout_turn <ms>, BOARD ... DONE, and
# the brain's answer is compared with the first moves the test's exhaustive checker proved
# win within the stated number of plies. Prints one line per position (with the time from
# DONE to the answer) and solved / total at the end.
#
#   scripts/tactics.sh [--turn-ms 1000] [--file tests/data/tactics.txt] [--info "max_node 100000"] \
#       [--answers FILE] -- target/release/pbrain-fivefold
#
# The brain process is started once and gets a new START per position. A move outside the
# stored set counts as missed here, though it may still win within the bound (the set holds
# the moves the checker proves with at most two non-four attacker moves). To judge every
# answer with the checker itself, write them with --answers FILE and run
#   TACTICS_ANSWERS=FILE cargo test --release --test tactics judge_answers -- --ignored --nocapture
set -euo pipefail

turn_ms=1000
file="$(dirname "$0")/../tests/data/tactics.txt"
infos=()
answers=''
while [ $# -gt 0 ]; do
    case "$1" in
        --turn-ms) turn_ms="$2"; shift 2 ;;
        --file) file="$2"; shift 2 ;;
        --info) infos+=("$2"); shift 2 ;;
        --answers) answers="$2"; : > "$answers"; shift 2 ;;
        --) shift; break ;;
        *) break ;;
    esac
done
[ $# -gt 0 ] || { echo "usage: $0 [--turn-ms MS] [--file F] [--info 'KEY VALUE'] -- BRAIN CMD..." >&2; exit 2; }
cmd="$*"

coproc BRAIN { exec bash -c "exec $cmd" 2>/dev/null; }
trap 'kill "${BRAIN_PID:-}" 2>/dev/null || true' EXIT

send() { printf '%s\r\n' "$1" >&"${BRAIN[1]}"; }
# Reads lines until one matches the regex $1 (MESSAGE/DEBUG lines are skipped); prints it.
expect() {
    local line
    while IFS= read -r -t "$2" line <&"${BRAIN[0]}"; do
        line="${line%$'\r'}"
        if [[ "$line" =~ $1 ]]; then
            printf '%s' "$line"
            return 0
        fi
    done
    return 1
}

total=0
solved=0
sum_ms=0
max_ms=0
lineno=0
while IFS= read -r raw; do
    lineno=$((lineno + 1))
    case "$raw" in ''|'#'*) continue ;; esac
    size='' win='' moves='' first=''
    for field in $raw; do
        case "$field" in
            size=*) size="${field#size=}" ;;
            win=*) win="${field#win=}" ;;
            moves=*) moves="${field#moves=}" ;;
            first=*) first="${field#first=}" ;;
        esac
    done
    IFS=';' read -r -a ms <<< "$moves"
    n=${#ms[@]}
    send "START $size"
    expect '^OK' 30 > /dev/null || { echo "line $lineno: no OK to START $size" >&2; exit 1; }
    send "INFO rule 0"
    send "INFO timeout_match 0"
    send "INFO timeout_turn $turn_ms"
    for info in "${infos[@]+"${infos[@]}"}"; do send "INFO $info"; done
    send "BOARD"
    # The side to move owns the stones of its colour: field 1 = own, 2 = opponent.
    for i in "${!ms[@]}"; do
        if [ $(((n - i) % 2)) -eq 0 ]; then own=1; else own=2; fi
        send "${ms[$i]},$own"
    done
    t0=$(date +%s%N)
    send "DONE"
    answer=$(expect '^[0-9]+,[0-9]+$' 120) || { echo "line $lineno: no move" >&2; exit 1; }
    t1=$(date +%s%N)
    ms_used=$(((t1 - t0) / 1000000))
    total=$((total + 1))
    sum_ms=$((sum_ms + ms_used))
    [ "$ms_used" -gt "$max_ms" ] && max_ms=$ms_used
    if [[ ";$first;" == *";$answer;"* ]]; then
        solved=$((solved + 1))
        verdict=solved
    else
        verdict=MISSED
    fi
    [ -n "$answers" ] && echo "$lineno $answer $ms_used" >> "$answers"
    printf 'line %3d %2sx%-2s win in %2s: played %-6s %-6s %5d ms\n' \
        "$lineno" "$size" "$size" "$win" "$answer" "$verdict" "$ms_used"
done < "$file"
send "END"
echo "solved $solved / $total at timeout_turn $turn_ms ms (mean $((sum_ms / (total > 0 ? total : 1))) ms, max $max_ms ms per position)"
