#!/usr/bin/env bash
# Test the Windows brain (built by scripts/build-windows.sh) under wine, as a real child process
# over pipes, the way Piskvork and Gomocup run it.
#
#   scripts/test-windows.sh
#
# Steps:
#   1. warm a private wine prefix (wineboot, one start of each exe), so the seconds a cold prefix
#      takes are not charged to the engine;
#   2. smoke test of each exe, plain and with --nn: START -> OK, BEGIN -> a move, END -> exit;
#   3. scripted games, exe under wine vs. the Linux build, relayed by this script at
#      timeout_turn 1000: every reply must be a legal move and come inside the time limit; the
#      slowest move is reported;
#   4. the protocol conformance suite (scripts/protocol-check.sh) against the exe under wine
#      (a case that fails is shown with its transcript and run once more alone; see run_suite);
#   5. a short match (scripts/match.sh) exe under wine vs. the Linux build: no forfeits.
# Steps 4 and 5 run when those scripts exist in the checkout. A 10-game match for a report:
#   WIN_MATCH_GAMES=10 WIN_MAX_MOVES=225 scripts/test-windows.sh
#
# Environment overrides:
#   WIN_TARGET_DIR     where build-windows.sh put its output (default: <repo>/target/windows)
#   WIN_WINEPREFIX     private wine prefix (default: $WIN_TARGET_DIR/wineprefix)
#   WIN_TURN_MS        timeout_turn for the timed games (default 1000)
#   WIN_SLACK_MS       a reply later than turn + slack fails (default 300; Gomocup allows 1000)
#   WIN_GAMES          scripted games exe vs. Linux build (default 2, or 0 when match.sh exists)
#   WIN_MATCH_GAMES    games in the match of step 5 (default 2)
#   WIN_MAX_MOVES      the match adjudicates a draw at this many stones (default 150; keeps CI short)
#   WIN_SUITE_RETRY_MAX  at most this many failed suite cases get a second run (default 4)
#   LINUX_BRAIN        Linux engine to play against (default: built with cargo, target/release)
set -euo pipefail

cd "$(dirname "$0")/.."
REPO=$(pwd)
WIN_TARGET_DIR=${WIN_TARGET_DIR:-$REPO/target/windows}
DIST=$WIN_TARGET_DIR/dist
BIN=pbrain-fivefold
WIN_TURN_MS=${WIN_TURN_MS:-1000}
WIN_SLACK_MS=${WIN_SLACK_MS:-300}
# The relayed games of step 3 are the fallback when scripts/match.sh is not there.
if [[ -x scripts/match.sh ]]; then WIN_GAMES=${WIN_GAMES:-0}; else WIN_GAMES=${WIN_GAMES:-2}; fi
WIN_MATCH_GAMES=${WIN_MATCH_GAMES:-2}
WIN_MAX_MOVES=${WIN_MAX_MOVES:-150}
BOARD=15

export WINEPREFIX=${WIN_WINEPREFIX:-$WIN_TARGET_DIR/wineprefix}
export WINEDEBUG=-all
export WINEARCH=win64
# No Mono/Gecko install prompts in a headless prefix.
export WINEDLLOVERRIDES="mscoree=;mshtml="
unset DISPLAY

PASSED=0
FAILED=0
FAILURES=()
pass() { PASSED=$((PASSED + 1)); printf '[test-windows] PASS %s\n' "$*"; }
fail() { FAILED=$((FAILED + 1)); FAILURES+=("$*"); printf '[test-windows] FAIL %s\n' "$*"; }
log() { printf '[test-windows] %s\n' "$*"; }
die() { printf '[test-windows] ERROR: %s\n' "$*" >&2; exit 1; }
now_ms() { local t=${EPOCHREALTIME/./}; echo $((t / 1000)); }

command -v wine >/dev/null || die "wine not installed: run scripts/build-windows.sh first"
for exe in "$BIN.exe" "${BIN}64.exe"; do
    [[ -f $DIST/$exe ]] || die "$DIST/$exe missing: run scripts/build-windows.sh first"
done
EXES=("$DIST/${BIN}64.exe" "$DIST/$BIN.exe")

cleanup() {
    # Stop the wineserver of our prefix only (and with it any wine process left in it).
    wineserver -k >/dev/null 2>&1 || true
    [[ -n ${FIFO_DIR:-} ]] && rm -rf "$FIFO_DIR"
    return 0
}
trap cleanup EXIT

# ---------------------------------------------------------------- 1. warm up
mkdir -p "$WINEPREFIX"
t0=$(now_ms)
wine wineboot -i >/dev/null 2>&1 || die "wineboot -i failed for $WINEPREFIX"
log "wine prefix $WINEPREFIX ready in $(($(now_ms) - t0)) ms ($(wine --version))"
# A persistent wineserver (killed by the trap) keeps later starts at tens of ms.
wineserver -p >/dev/null 2>&1 || true
for exe in "${EXES[@]}"; do
    t0=$(now_ms)
    printf 'END\n' | timeout 60 wine "$exe" >/dev/null 2>&1 || true
    log "first start of $(basename "$exe"): $(($(now_ms) - t0)) ms"
done

# ---------------------------------------------------------------- brain I/O helpers
# Each brain runs in the background on two named pipes; BRAIN_IN / BRAIN_OUT hold our fds.
declare -A BRAIN_PID BRAIN_IN BRAIN_OUT
FIFO_DIR=$(mktemp -d)
start_brain() { # side command...
    local side=$1 rfd wfd
    shift
    rm -f "$FIFO_DIR/$side.in" "$FIFO_DIR/$side.out"
    mkfifo "$FIFO_DIR/$side.in" "$FIFO_DIR/$side.out"
    "$@" <"$FIFO_DIR/$side.in" >"$FIFO_DIR/$side.out" 2>/dev/null &
    BRAIN_PID[$side]=$!
    exec {wfd}>"$FIFO_DIR/$side.in" {rfd}<"$FIFO_DIR/$side.out"
    BRAIN_IN[$side]=$wfd
    BRAIN_OUT[$side]=$rfd
}
send() { printf '%s\r\n' "$2" >&"${BRAIN_IN[$1]}"; }
# read_reply side timeout_ms -> sets REPLY_LINE (first line that is not MESSAGE/DEBUG), REPLY_MS.
# Returns 1 on timeout or EOF.
read_reply() {
    local side=$1 limit=$2 t0 left line
    t0=$(now_ms)
    REPLY_LINE=
    while :; do
        left=$((limit - ($(now_ms) - t0)))
        ((left > 0)) || { REPLY_MS=$(($(now_ms) - t0)); return 1; }
        if ! IFS= read -r -t "$((left / 1000)).$(printf '%03d' $((left % 1000)))" line <&"${BRAIN_OUT[$side]}"; then
            REPLY_MS=$(($(now_ms) - t0))
            return 1
        fi
        line=${line%$'\r'}
        case ${line^^} in
        MESSAGE* | DEBUG* | "") continue ;;
        esac
        REPLY_LINE=$line
        REPLY_MS=$(($(now_ms) - t0))
        return 0
    done
}
stop_brain() { # side
    local side=$1 pid=${BRAIN_PID[$1]} i
    # A brain that died has no reader on its pipe: ignore SIGPIPE for this one write, or
    # it would end the script before the checks after it run.
    (
        trap '' PIPE
        send "$side" END
    ) 2>/dev/null || true
    exec {BRAIN_IN[$side]}>&-
    for i in $(seq 1 30); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
        log "brain $side did not exit 3 s after END; killing it"
        kill "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
    exec {BRAIN_OUT[$side]}<&-
}

# ---------------------------------------------------------------- 2. smoke test
# Each exe plain and with its built-in network on (--nn: the network's code, AVX2 or portable).
for exe_flags in "0" "0 --nn" "1" "1 --nn"; do
    exe=${EXES[${exe_flags%% *}]}
    flags=${exe_flags#"${exe_flags%% *}"}
    flags=${flags# }
    name="$(basename "$exe")${flags:+ $flags}"
    start_brain S wine "$exe" ${flags:+"$flags"}
    send S "START $BOARD"
    if read_reply S 10000 && [[ ${REPLY_LINE^^} == OK* ]]; then
        send S "INFO timeout_turn $WIN_TURN_MS"
        send S "INFO timeout_match 0"
        send S "BEGIN"
        if read_reply S $((WIN_TURN_MS + WIN_SLACK_MS)) && [[ $REPLY_LINE =~ ^\ *([0-9]+)\ *,\ *([0-9]+)\ *$ ]]; then
            first=$REPLY_LINE first_ms=$REPLY_MS
            # A second move is searched (the first may be the centre without a search).
            reply=$(( (${BASH_REMATCH[1]} + 1) % BOARD )),${BASH_REMATCH[2]}
            send S "TURN $reply"
            if read_reply S $((WIN_TURN_MS + WIN_SLACK_MS)) && [[ $REPLY_LINE =~ ^\ *([0-9]+)\ *,\ *([0-9]+)\ *$ ]]; then
                pass "$name smoke: START -> OK, BEGIN -> $first in $first_ms ms, TURN $reply -> $REPLY_LINE in $REPLY_MS ms"
            else
                fail "$name smoke: TURN $reply got '${REPLY_LINE}' after $REPLY_MS ms"
            fi
        else
            fail "$name smoke: BEGIN got '${REPLY_LINE}' after $REPLY_MS ms"
        fi
    else
        fail "$name smoke: START got '${REPLY_LINE}' after $REPLY_MS ms"
    fi
    stop_brain S
done

# ---------------------------------------------------------------- 2b. CPU guard
# pbrain-fivefold64.exe is x86-64-v3 code; windows/cpu_guard.c makes it run pbrain-fivefold.exe
# on a CPU without AVX2. FIVEFOLD_CPU=baseline takes that path on any CPU.
start_brain S env FIVEFOLD_CPU=baseline wine "$DIST/${BIN}64.exe"
send S "START $BOARD"
send S "BEGIN"
# The relay starts a second process under wine before it answers: 30 s, not 10 (CI once
# saw no START reply within 10 s on a loaded machine; session 49).
if read_reply S 30000 && [[ ${REPLY_LINE^^} == OK* ]] && read_reply S 10000 &&
    [[ $REPLY_LINE =~ ^[0-9]+,[0-9]+$ ]]; then
    # Killing the exe the manager started must not leave the baseline child running
    # (stop_brain then finds it dead; its END write is safe on the dead pipe).
    kill -9 "${BRAIN_PID[S]}" 2>/dev/null || true
    stop_brain S
    sleep 2
    if pgrep -f "dist.${BIN}\.exe" >/dev/null; then
        fail "CPU guard: ${BIN}.exe still runs after its parent ${BIN}64.exe was killed"
        pkill -9 -f "dist.${BIN}\.exe" || true
    else
        pass "CPU guard: FIVEFOLD_CPU=baseline -> ${BIN}.exe answers (OK, $REPLY_LINE) and dies with its parent"
    fi
else
    fail "CPU guard: FIVEFOLD_CPU=baseline got '${REPLY_LINE}'"
    stop_brain S
fi
lone=$(mktemp -d)
cp "$DIST/${BIN}64.exe" "$lone/"
# The wine processes killed just above may still be going down; a start in that moment
# printed nothing once (session 60's CI; alone it passed 3 of 3). So a start that gets
# no ERROR line is tried once more, two seconds later. (`wineserver -w` is no help: the
# persistent wineserver started above never exits, so it waits out its timeout.)
lone_start() {
    printf 'START 15\r\n' | FIVEFOLD_CPU=baseline timeout 30 wine "$lone/${BIN}64.exe" 2>/dev/null |
        head -n1 || true
}
first=$(lone_start)
if [[ $first != ERROR* ]]; then
    echo "[test-windows] CPU guard without ${BIN}.exe beside it: got '$first', trying again"
    sleep 2
    first=$(lone_start)
fi
rm -rf "$lone"
if [[ $first == ERROR* ]]; then
    pass "CPU guard without ${BIN}.exe beside it: '$first'"
else
    fail "CPU guard without ${BIN}.exe beside it: expected an ERROR line, got '$first'"
fi

# ---------------------------------------------------------------- 2c. CPU detection
# The guard's CPUID/XGETBV test, built for Linux, on CPUs emulated by qemu-user (when installed;
# .ci/run installs it): x86-64-v3 must be refused on AVX-but-no-AVX2 CPUs and accepted from Haswell.
if command -v qemu-x86_64 >/dev/null && command -v gcc >/dev/null; then
    cpu_dir=$(mktemp -d)
    awk '/^static int cpu_is_x86_64_v3/,/^}/' windows/cpu_guard.c >"$cpu_dir/fn.c"
    printf '#include <cpuid.h>\n#include <stdio.h>\n#include "fn.c"\nint main(void) { printf("%%d\\n", cpu_is_x86_64_v3()); return 0; }\n' >"$cpu_dir/main.c"
    gcc -O2 -march=x86-64 -static -o "$cpu_dir/cpu_v3" "$cpu_dir/main.c"
    got=
    for cpu in Nehalem SandyBridge IvyBridge Haswell Skylake-Client EPYC; do
        got+="$cpu=$(qemu-x86_64 -cpu "$cpu" "$cpu_dir/cpu_v3" 2>/dev/null) "
    done
    rm -rf "$cpu_dir"
    if [[ $got == "Nehalem=0 SandyBridge=0 IvyBridge=0 Haswell=1 Skylake-Client=1 EPYC=1 " ]]; then
        pass "CPU guard detection under qemu: $got"
    else
        fail "CPU guard detection under qemu: $got"
    fi
else
    log "qemu-x86_64 not installed: CPU detection check skipped"
fi

# ---------------------------------------------------------------- 3. scripted games
if [[ -n ${LINUX_BRAIN:-} ]]; then
    LINUX_CMD=("$LINUX_BRAIN")
else
    log "building the Linux engine (cargo build --release --bin $BIN)"
    cargo build --release --locked --bin "$BIN" -q
    LINUX_CMD=("${CARGO_TARGET_DIR:-$REPO/target}/release/$BIN")
fi

declare -A CELL
five_at() { # x y colour -> 0 if the stone at x,y makes five or more
    local x=$1 y=$2 c=$3 dx dy n k
    for d in "1 0" "0 1" "1 1" "1 -1"; do
        read -r dx dy <<<"$d"
        n=1
        for k in 1 2 3 4 5; do [[ ${CELL[$((x + k * dx)),$((y + k * dy))]:-} == "$c" ]] && n=$((n + 1)) || break; done
        for k in 1 2 3 4 5; do [[ ${CELL[$((x - k * dx)),$((y - k * dy))]:-} == "$c" ]] && n=$((n + 1)) || break; done
        ((n >= 5)) && return 0
    done
    return 1
}

MAX_WIN_MS=0
MAX_LINUX_MS=0
# play_game game_no black_side: sides are W (exe under wine) and L (Linux build).
# Sets GAME_RESULT to "W", "L" (winner), "draw" or "forfeit-W"/"forfeit-L".
play_game() {
    local g=$1 black=$2 side other last= moves=0 x y colour limit left_ms
    local -A left=([W]=$((WIN_TURN_MS * 120)) [L]=$((WIN_TURN_MS * 120)))
    CELL=()
    start_brain W wine "$DIST/${BIN}64.exe"
    start_brain L "${LINUX_CMD[@]}"
    for side in W L; do
        send $side "START $BOARD"
        if ! read_reply $side 10000 || [[ ${REPLY_LINE^^} != OK* ]]; then
            GAME_RESULT=forfeit-$side
            log "game $g: $side answered START with '$REPLY_LINE'"
            stop_brain W
            stop_brain L
            return
        fi
        send $side "INFO timeout_turn $WIN_TURN_MS"
        send $side "INFO timeout_match ${left[$side]}"
        send $side "INFO max_memory 367001600"
        send $side "INFO game_type 1"
        send $side "INFO rule 0"
    done
    side=$black
    GAME_RESULT=draw
    while ((moves < BOARD * BOARD)); do
        [[ $side == W ]] && other=L || other=W
        send $side "INFO time_left ${left[$side]}"
        if [[ -z $last ]]; then send $side BEGIN; else send $side "TURN $last"; fi
        limit=$((WIN_TURN_MS + WIN_SLACK_MS))
        if ! read_reply $side $((limit + 3000)); then
            log "game $g move $((moves + 1)): $side sent no move in $REPLY_MS ms"
            GAME_RESULT=forfeit-$side
            break
        fi
        if [[ $side == W ]]; then ((REPLY_MS > MAX_WIN_MS)) && MAX_WIN_MS=$REPLY_MS; else ((REPLY_MS > MAX_LINUX_MS)) && MAX_LINUX_MS=$REPLY_MS; fi
        left[$side]=$((left[$side] - REPLY_MS))
        if ((REPLY_MS > limit)); then
            log "game $g move $((moves + 1)): $side took $REPLY_MS ms > $limit ms"
            GAME_RESULT=forfeit-$side
            break
        fi
        if ! [[ $REPLY_LINE =~ ^\ *([0-9]+)\ *,\ *([0-9]+)\ *$ ]]; then
            log "game $g move $((moves + 1)): $side sent '$REPLY_LINE'"
            GAME_RESULT=forfeit-$side
            break
        fi
        x=$((10#${BASH_REMATCH[1]}))
        y=$((10#${BASH_REMATCH[2]}))
        if ((x >= BOARD || y >= BOARD)) || [[ -n ${CELL[$x,$y]:-} ]]; then
            log "game $g move $((moves + 1)): $side played illegal $x,$y"
            GAME_RESULT=forfeit-$side
            break
        fi
        [[ $side == "$black" ]] && colour=1 || colour=2
        CELL[$x,$y]=$colour
        moves=$((moves + 1))
        last=$x,$y
        if five_at $x $y $colour; then
            GAME_RESULT=$side
            break
        fi
        side=$other
    done
    log "game $g: black=$black, $moves moves, result $GAME_RESULT (slowest so far: exe $MAX_WIN_MS ms, Linux $MAX_LINUX_MS ms)"
    stop_brain W
    stop_brain L
}

declare -A SCORE=([W]=0 [L]=0 [draw]=0)
for g in $(seq 1 "$WIN_GAMES"); do
    ((g % 2)) && black=W || black=L
    play_game "$g" $black
    case $GAME_RESULT in
    forfeit-*) fail "scripted game $g: forfeit by ${GAME_RESULT#forfeit-} (W = exe under wine, L = Linux)" ;;
    *)
        SCORE[$GAME_RESULT]=$((SCORE[$GAME_RESULT] + 1))
        pass "scripted game $g (black: $black) ended without forfeit: $GAME_RESULT"
        ;;
    esac
done
if ((WIN_GAMES > 0)); then
    log "scripted games at timeout_turn $WIN_TURN_MS: exe wins ${SCORE[W]}, Linux wins ${SCORE[L]}, draws ${SCORE[draw]}"
    log "slowest move: exe under wine $MAX_WIN_MS ms, Linux build $MAX_LINUX_MS ms (limit $WIN_TURN_MS + $WIN_SLACK_MS ms)"
fi

# ---------------------------------------------------------------- 4. conformance suite
WINE_BRAIN="wine $DIST/${BIN}64.exe"
# A case that fails under wine is printed with its transcript (-v) and then run once more on
# its own: wine's process start is sometimes a second or two on a busy machine, which a
# case's timing can trip over. It passes only if every failed case passes the second time
# (both runs stay in the log); more than WIN_SUITE_RETRY_MAX failures fail at once.
WIN_SUITE_RETRY_MAX=${WIN_SUITE_RETRY_MAX:-4}
run_suite() { # label brain-command
    local label=$1 brain=$2 out t0 summary name again=() still=()
    log "protocol conformance suite ($label) against: $brain"
    out=$WIN_TARGET_DIR/protocol-check-${label// /-}.log
    t0=$SECONDS
    local ok=0
    scripts/protocol-check.sh -v "$brain" >"$out" 2>&1 || ok=$?
    summary=$(grep -Eo '[0-9]+ passed, [0-9]+ failed.*' "$out" | tail -n1)
    if ((ok == 0)); then
        grep -E '^(OPTFAIL|FAIL)' "$out" || true
        pass "protocol conformance suite, $label ($((SECONDS - t0)) s): $summary"
        return
    fi
    # The failed cases with their transcripts (lines indented by -v), then the log's end.
    grep -E '^(FAIL|OPTFAIL) |^    ' "$out" | head -n 200 || true
    mapfile -t again < <(grep -Eo '^FAIL [A-Za-z0-9_]+' "$out" | cut -d' ' -f2)
    if ((${#again[@]} == 0 || ${#again[@]} > WIN_SUITE_RETRY_MAX)); then
        tail -n 20 "$out"
        fail "protocol conformance suite, $label: $summary (log: $out)"
        return
    fi
    for name in "${again[@]}"; do
        log "second run of $name alone ($label)"
        if ! scripts/protocol-check.sh -v -j 1 --filter "$name" "$brain" >>"$out" 2>&1; then
            still+=("$name")
        fi
    done
    if ((${#still[@]} > 0)); then
        tail -n 40 "$out"
        fail "protocol conformance suite, $label: $summary; failed again alone: ${still[*]} (log: $out)"
    else
        pass "protocol conformance suite, $label ($((SECONDS - t0)) s): $summary; passed on a second run alone: ${again[*]}"
    fi
}
if [[ -x scripts/protocol-check.sh ]]; then
    run_suite "under wine" "$WINE_BRAIN"
    # The same exe on the path a CPU without AVX2 takes: its guard hands over to the baseline exe.
    run_suite "CPU guard relay" "env FIVEFOLD_CPU=baseline $WINE_BRAIN"
else
    log "scripts/protocol-check.sh not in this checkout: conformance suite skipped"
fi

# ---------------------------------------------------------------- 5. match
if [[ -x scripts/match.sh ]]; then
    out=$WIN_TARGET_DIR/match.log
    open_args=()
    openings=$(cd "$REPO/.." && pwd)/shared/openings/freestyle15.txt
    [[ -f $openings ]] && open_args=(--openings "$openings")
    log "match: $WINE_BRAIN vs ${LINUX_CMD[*]}, $WIN_MATCH_GAMES games at $WIN_TURN_MS ms/move, tolerance $WIN_SLACK_MS ms ${open_args[*]}"
    rm -rf "$WIN_TARGET_DIR/match"
    t0=$SECONDS
    if scripts/match.sh "$WINE_BRAIN" "${LINUX_CMD[*]}" --name-a exe-wine --name-b linux \
        -n "$WIN_MATCH_GAMES" --turn-ms "$WIN_TURN_MS" --tolerance-ms "$WIN_SLACK_MS" \
        --size "$BOARD" --max-moves "$WIN_MAX_MOVES" --no-progress "${open_args[@]}" --out "$WIN_TARGET_DIR/match" >"$out" 2>&1; then
        sed -n '/^Score of/,$p' "$out"
        # Engine table: name moves avg max timeouts illegal crashes
        read -r _ _ _ max_ms t_o ill cr < <(awk '$1 == "exe-wine" && NF == 7' "$out") || true
        if [[ -z ${max_ms:-} ]]; then
            fail "match: no result line for exe-wine (log: $out)"
        elif ((t_o + ill + cr > 0)); then
            fail "match: exe under wine had $t_o timeouts, $ill illegal moves, $cr crashes (log: $out)"
        else
            pass "match exe under wine vs Linux build ($((SECONDS - t0)) s), $WIN_MATCH_GAMES games, no forfeit; slowest exe move ${max_ms} ms"
        fi
    else
        tail -n 40 "$out"
        fail "match exe under wine vs Linux build (log: $out)"
    fi
else
    log "scripts/match.sh not in this checkout: match skipped"
fi

# ---------------------------------------------------------------- summary
for f in "${FAILURES[@]}"; do log "failed: $f"; done
log "Windows tests took $SECONDS s"
echo "windows: $PASSED passed, $FAILED failed"
((FAILED == 0))
