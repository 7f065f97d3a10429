#!/usr/bin/env bash
# Build the Windows brain pbrain-fivefold.exe on Debian (cross build, no Windows needed) and
# package the Gomocup zip.
#
#   scripts/build-windows.sh
#
# Output (under $WIN_TARGET_DIR, default target/windows):
#   dist/pbrain-fivefold.exe     baseline x86-64: runs on any 64-bit Windows 7+ CPU
#   dist/pbrain-fivefold64.exe   x86-64-v3 (AVX2, BMI2, POPCNT...): for Gomocup (AVX2 guaranteed);
#                                on an older CPU it runs pbrain-fivefold.exe instead of crashing
#                                (windows/cpu_guard.c, linked into this exe only)
#   dist/fivefold.zip            both exes at the zip root plus readme.txt
#
# How (see shared/windows-build.md): Debian's rustc-web (called by full path, so rustup's Linux
# toolchain on PATH is not used) builds std for the Windows target from rust-web-src with
# -Zbuild-std; the mingw-w64 gcc links. Target x86_64-win7-windows-gnu, because the std of
# x86_64-pc-windows-gnu imports ProcessPrng from bcryptprimitives.dll, which wine 8 lacks.
#
# Environment overrides:
#   WIN_TARGET_DIR   build + dist folder (default: <repo>/target/windows)
#   WIN_TARGET       Rust target triple (default: x86_64-win7-windows-gnu)
#   WIN_FLAVOURS     which builds: "base v3" (default), or "base" / "v3"
#   WIN_SKIP_APT=1   never call apt-get (fail if something is missing)
set -euo pipefail

cd "$(dirname "$0")/.."
REPO=$(pwd)
WIN_TARGET_DIR=${WIN_TARGET_DIR:-$REPO/target/windows}
WIN_TARGET=${WIN_TARGET:-x86_64-win7-windows-gnu}
WIN_FLAVOURS=${WIN_FLAVOURS:-base v3}
BIN=pbrain-fivefold
DIST=$WIN_TARGET_DIR/dist
ZIP=$DIST/fivefold.zip
MAX_ZIP_BYTES=$((8 * 1024 * 1024))

log() { printf '[build-windows] %s\n' "$*" >&2; }
die() { printf '[build-windows] ERROR: %s\n' "$*" >&2; exit 1; }

# ---------------------------------------------------------------- packages
PKGS=(rustc-web cargo-web rust-web-src gcc-mingw-w64-x86-64 wine wine64 zip unzip)
missing=()
for p in "${PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
    [[ ${WIN_SKIP_APT:-0} == 1 ]] && die "missing packages: ${missing[*]} (WIN_SKIP_APT=1)"
    SUDO=()
    if [[ $(id -u) != 0 ]]; then
        command -v sudo >/dev/null || die "need root or sudo to install: ${missing[*]}"
        SUDO=(sudo)
    fi
    log "installing: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    "${SUDO[@]}" apt-get update -q >/dev/null
    "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

RUSTC=/usr/bin/rustc
CARGO=/usr/bin/cargo
[[ -x $RUSTC && -x $CARGO ]] || die "Debian's $RUSTC / $CARGO not found (package rustc-web / cargo-web)"
command -v x86_64-w64-mingw32-gcc >/dev/null || die "x86_64-w64-mingw32-gcc not found"
RUST_VER=$($RUSTC -V | awk '{print $2}')
# The std source must be from the same release as the compiler.
SRC_DIR=$(ls -d /usr/src/rustc-"$RUST_VER"* 2>/dev/null | head -n1 || true)
[[ -n $SRC_DIR && -d $SRC_DIR/library ]] ||
    die "$RUSTC is $RUST_VER but no matching /usr/src/rustc-$RUST_VER (rust-web-src) was found"
log "compiler: $($RUSTC -V); std source: $SRC_DIR"

# ---------------------------------------------------------------- features
# Only the engine is built. If the crate has a `tools` feature (extra binaries), build without
# default features so that the engine carries none of it.
FEATURE_ARGS=()
if awk '/^\[features\]/{f=1;next} /^\[/{f=0} f && /^[[:space:]]*tools[[:space:]]*=/{found=1} END{exit !found}' Cargo.toml; then
    FEATURE_ARGS=(--no-default-features)
    log "crate has a 'tools' feature: building with --no-default-features"
fi

TRIPLE_ENV=$(echo "$WIN_TARGET" | tr 'a-z-' 'A-Z_')
export RUSTC_BOOTSTRAP=1
export RUSTC
export "CARGO_TARGET_${TRIPLE_ENV}_LINKER=x86_64-w64-mingw32-gcc"
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}
# The shipped exe is always stripped and without debug info, whatever the release profile in
# Cargo.toml says at the moment (someone profiling may have turned debug info on).
export CARGO_PROFILE_RELEASE_DEBUG=false
export CARGO_PROFILE_RELEASE_STRIP=true

# The v3 exe's guard: plain x86-64 C, run by the C runtime before any Rust code (see the file).
build_cpu_guard() {
    # Named by content: the path goes into RUSTFLAGS, so a changed guard relinks the exe (cargo
    # does not watch files passed as link arguments).
    local obj
    obj=$WIN_TARGET_DIR/cpu_guard-$(sha256sum "$REPO/windows/cpu_guard.c" | cut -c1-12).o
    x86_64-w64-mingw32-gcc -O2 -march=x86-64 -mtune=generic -Wall -Wextra -Werror \
        -c "$REPO/windows/cpu_guard.c" -o "$obj"
    local n_avx
    n_avx=$(x86_64-w64-mingw32-objdump -d --no-show-raw-insn "$obj" | grep -cE '%ymm|\sv[a-z0-9]+\s' || true)
    ((n_avx == 0)) || die "cpu_guard.o has $n_avx AVX instructions; it must run on any x86-64"
    echo "$obj"
}

build_flavour() { # name rustflags out_name
    local name=$1 flags=$2 out=$3
    local dir=$WIN_TARGET_DIR/$name
    log "building $out ($name: RUSTFLAGS='$flags') into $dir"
    local t0=$SECONDS
    # RUSTFLAGS apply to the target crates and to the std built by -Zbuild-std, not to build
    # scripts (because --target is given). Each flavour has its own target dir so that both
    # stay cached.
    CARGO_TARGET_DIR=$dir RUSTFLAGS="$flags" \
        "$CARGO" build --release --locked --target "$WIN_TARGET" \
        -Zbuild-std=std,panic_abort --bin "$BIN" "${FEATURE_ARGS[@]}"
    cp "$dir/$WIN_TARGET/release/$BIN.exe" "$DIST/$out"
    log "$out built in $((SECONDS - t0)) s, $(stat -c %s "$DIST/$out") bytes"
}

check_imports() { # exe
    local exe=$1 dlls bad=()
    dlls=$(x86_64-w64-mingw32-objdump -p "$exe" | awk '/DLL Name:/{print tolower($3)}' | sort -u)
    log "$(basename "$exe") imports: $(echo $dlls)"
    for d in $dlls; do
        case $d in
        kernel32.dll | kernelbase.dll | ntdll.dll | advapi32.dll | bcrypt.dll | ws2_32.dll | \
            userenv.dll | msvcrt.dll | ucrtbase.dll | api-ms-win-*.dll | user32.dll | shell32.dll | \
            ole32.dll | oleaut32.dll | synchronization.dll) ;;
        *) bad+=("$d") ;;
        esac
    done
    ((${#bad[@]} == 0)) || die "$(basename "$exe") needs non-system DLLs: ${bad[*]}"
    # bcryptprimitives.dll (ProcessPrng) is on Windows 10+, but not in wine 8: only
    # x86_64-pc-windows-gnu pulls it in; warn so that nobody is surprised by exit status 53.
    if grep -qx bcryptprimitives.dll <<<"$dlls"; then
        log "warning: imports bcryptprimitives.dll (ProcessPrng): fine on Windows 10+, fails under wine 8"
    fi
}

mkdir -p "$DIST"
T_ALL=$SECONDS
for fl in $WIN_FLAVOURS; do
    case $fl in
    base) build_flavour base "-C target-cpu=x86-64" "$BIN.exe" ;;
    v3)
        guard=$(build_cpu_guard)
        build_flavour v3 "-C target-cpu=x86-64-v3 -C link-arg=$guard -C link-arg=-lkernel32" "${BIN}64.exe"
        # The guard is kept by the linker script (KEEP .CRT$XC*); make sure it is really in.
        strings -el "$DIST/${BIN}64.exe" | grep -qx FIVEFOLD_CPU ||
            die "${BIN}64.exe has no CPU guard (windows/cpu_guard.c not linked)"
        ;;
    *) die "unknown flavour '$fl' (use base, v3)" ;;
    esac
done

# ---------------------------------------------------------------- checks
for fl in $WIN_FLAVOURS; do
    case $fl in base) exe=$DIST/$BIN.exe ;; v3) exe=$DIST/${BIN}64.exe ;; esac
    file_fmt=$(x86_64-w64-mingw32-objdump -f "$exe" | awk '/file format/{print $NF}')
    [[ $file_fmt == pei-x86-64 ]] || die "$exe is '$file_fmt', not pei-x86-64"
    check_imports "$exe"
done
if [[ " $WIN_FLAVOURS " == *" base "* ]]; then
    # The baseline must run on CPUs without AVX: count instructions that use ymm registers or
    # the VEX encoding (v-prefixed SSE/AVX). A few may come from code that checks the CPU at run
    # time first, so this only reports. (`tzcnt` is fine: it runs as `bsf` on older CPUs.)
    disasm=$(x86_64-w64-mingw32-objdump -d --no-show-raw-insn "$DIST/$BIN.exe")
    n_ymm=$(grep -c '%ymm' <<<"$disasm" || true)
    n_vex=$(grep -cE '\sv[a-z0-9]+\s.*%[xy]mm' <<<"$disasm" || true)
    log "baseline exe: $n_ymm instructions on ymm registers, $n_vex VEX-encoded (both should be 0)"
fi

# ---------------------------------------------------------------- package
rm -f "$ZIP"
cp "$REPO/windows/readme.txt" "$DIST/readme.txt"
files=(readme.txt)
for fl in $WIN_FLAVOURS; do
    case $fl in base) files+=("$BIN.exe") ;; v3) files+=("${BIN}64.exe") ;; esac
done
(cd "$DIST" && zip -q -9 -X "$ZIP" "${files[@]}")
zip_bytes=$(stat -c %s "$ZIP")
((zip_bytes < MAX_ZIP_BYTES)) || die "zip is $zip_bytes bytes, over Gomocup's 8 MB"
log "zip: $ZIP ($zip_bytes bytes):"
unzip -l "$ZIP" >&2
log "done in $((SECONDS - T_ALL)) s (builds + checks + zip)"
