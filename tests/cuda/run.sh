#!/usr/bin/env bash
# tests/cuda/run.sh: the CUDA conformance suite (tests/cuda/README.md).
#
#   bash tests/cuda/run.sh [--nvcc] [BUILD_DIR]      (BUILD_DIR default: build)
#
# Emulator mode (default): each tests/cuda/NAME.cu (and tests/cuda/bugs/NAME.cu,
# the checkers' planted bugs and their look-alikes, named bugs/NAME) is built with
#   tools/pwcc tests/cuda/NAME.cu -o BUILD_DIR/cuda/NAME
# and run (60 s at most). A program with NAME.out must exit 0, print exactly
# NAME.out and no simt report; a program with NAME.expect must exit with its
# `exit` status and print, on stderr, a line matching each `stderr` regex
# (a `pwsan ARGS` line runs it as tools/pwsan ARGS PROGRAM: --leak-check full).
# --nvcc mode: each program is built with nvcc for CUDA_ARCH (default
# sm_80,sm_90, as in mk/cuda.mk) into BUILD_DIR/gpu/cuda/NAME; with a CUDA
# device the correct programs are run against NAME.out, and the must-fail
# programs under compute-sanitizer where NAME.expect names a tool for it.
#
# One line per program, "PASS cuda NAME: ..." or "FAIL cuda NAME: ..." with
# indented details; the last line is "N passed, N failed" and the exit
# status is 1 if any failed. ONLY="vec_add hello" runs only those programs;
# PWCC=path replaces tools/pwcc, NVCC=path the nvcc found in PATH.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2

usage() { echo "usage: bash tests/cuda/run.sh [--nvcc] [BUILD_DIR]"; }
mode=emulator
if [ "${1:-}" = --nvcc ]; then
    mode=nvcc
    shift
fi
case ${1:-} in
    -h | --help) usage; exit 0 ;;
    -*) usage >&2; exit 2 ;;
esac
[ $# -le 1 ] || { usage >&2; exit 2; }
BUILD=${1:-build}
SUITE=tests/cuda
PWCC=${PWCC:-tools/pwcc}
RUN_TIMEOUT=60
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 skip=0

ok() { pass=$((pass + 1)); printf 'PASS cuda %s\n' "$1"; }
skipped() { skip=$((skip + 1)); printf 'SKIP cuda %s\n' "$1"; }
# bad LABEL DETAIL...: each detail (possibly several lines) indented by two spaces.
bad() {
    fail=$((fail + 1))
    printf 'FAIL cuda %s\n' "$1"
    shift
    local d
    for d in "$@"; do [ -n "$d" ] && printf '%s\n' "$d" | sed 's/^/  /'; done
    return 0
}
# A report of the emulator's checkers, on any line of a file.
simt_report() { grep -E 'simt (memcheck|racecheck|initcheck|synccheck|livelock):' "$1"; }

# The programs, in name order; ONLY narrows them down.
names=()
for f in "$SUITE"/*.cu "$SUITE"/bugs/*.cu; do
    [ -f "$f" ] || continue
    n=${f#"$SUITE"/}
    n=${n%.cu}
    if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $n "* ]] && [[ " $ONLY " != *" ${n#bugs/} "* ]]; then continue; fi
    names+=("$n")
done

# run_prog EXE [PREFIX...]: run it with a time limit; stdout in $tmp/so,
# stderr in $tmp/se, status in $rc (124 or 137: timed out).
run_prog() {
    local exe=$1
    shift
    timeout -k 5 "$RUN_TIMEOUT" "$@" "$exe" >"$tmp/so" 2>"$tmp/se"
    rc=$?
}

# stderr_detail [LINES]: "stderr:" and its first lines, or nothing if it is empty.
stderr_detail() {
    [ -s "$tmp/se" ] || return 0
    echo "stderr:"
    head -n "${1:-8}" "$tmp/se"
}

# exit_detail: the exit status in words.
exit_detail() {
    case $rc in
        124 | 137) echo "timed out after ${RUN_TIMEOUT} s" ;;
        *) echo "exit $rc" ;;
    esac
}

# check_out NAME: exit 0, stdout identical to NAME.out, and (emulator mode)
# no simt report on stderr.
check_out() {
    local n=$1 why=()
    [ $rc -eq 0 ] || why+=("$(exit_detail) (want 0)")
    if ! diff -u "$SUITE/$n.out" "$tmp/so" >"$tmp/diff"; then
        why+=("stdout differs from $n.out (- expected, + got):" "$(sed -n '3,22p' "$tmp/diff")")
    fi
    if [ "$mode" = emulator ] && simt_report "$tmp/se" >"$tmp/rep"; then
        why+=("simt reports on a correct program:" "$(head -n 5 "$tmp/rep")")
    fi
    if [ ${#why[@]} -eq 0 ]; then
        ok "$n: exit 0, stdout matches $n.out${2:-}"
    else
        bad "$n: runs and prints $n.out" "${why[@]}" "$(stderr_detail 8)"
    fi
}

# parse_expect NAME: want_exit, want_stderr (array), sanitizer (string);
# returns 1 (after a FAIL) on a malformed file.
parse_expect() {
    local n=$1 line key rest
    want_exit='' want_stderr=() sanitizer='' pwsan=''
    while IFS= read -r line || [ -n "$line" ]; do
        case $line in '' | '#'*) continue ;; esac
        key=${line%% *}
        rest=${line#"$key"}
        rest=${rest# }
        case $key in
            exit) want_exit=$rest ;;
            stderr) want_stderr+=("$rest") ;;
            sanitizer) sanitizer=$rest ;;
            pwsan) pwsan=$rest ;;
            *) bad "$n: $n.expect" "unknown line: $line"; return 1 ;;
        esac
    done <"$SUITE/$n.expect"
    if ! [[ $want_exit =~ ^[0-9]+$ ]]; then
        bad "$n: $n.expect" "no 'exit N' line"
        return 1
    fi
}

# check_expect NAME: the exit status and every stderr regex of NAME.expect
# (and NAME.out, if there is one).
check_expect() {
    local n=$1 why=() re
    [ "$rc" = "$want_exit" ] || why+=("$(exit_detail) (want $want_exit)")
    for re in "${want_stderr[@]}"; do
        grep -Eq -- "$re" "$tmp/se" || why+=("no stderr line matches: $re")
    done
    if [ -f "$SUITE/$n.out" ] && ! diff -u "$SUITE/$n.out" "$tmp/so" >"$tmp/diff"; then
        why+=("stdout differs from $n.out:" "$(sed -n '3,22p' "$tmp/diff")")
    fi
    if [ ${#why[@]} -eq 0 ]; then
        ok "$n: exit $want_exit and ${#want_stderr[@]} expected report line(s)"
    else
        bad "$n: exit $want_exit and the expected reports" "${why[@]}" "$(stderr_detail 10)"
    fi
}

# ---- emulator mode ---------------------------------------------------------------
emulator_mode() {
    if [ ! -x "$PWCC" ]; then
        bad "suite: $PWCC not found (the emulator's compiler wrapper)"
        return
    fi
    mkdir -p "$BUILD/cuda/bugs"
    local n exe
    for n in "${names[@]}"; do
        exe=$BUILD/cuda/$n
        if [ ! -f "$SUITE/$n.out" ] && [ ! -f "$SUITE/$n.expect" ]; then
            bad "$n: has $n.out or $n.expect" "neither file exists"
            continue
        fi
        if [ -f "$SUITE/$n.expect" ]; then parse_expect "$n" || continue; fi
        if ! "$PWCC" "$SUITE/$n.cu" -o "$exe" >"$tmp/build" 2>&1; then
            bad "$n: builds with $PWCC" "$(head -n 15 "$tmp/build")"
            continue
        fi
        if [ -f "$SUITE/$n.expect" ] && [ -n "$pwsan" ]; then
            # shellcheck disable=SC2086
            run_prog "$exe" tools/pwsan $pwsan
        else
            run_prog "$exe"
        fi
        if [ -f "$SUITE/$n.expect" ]; then check_expect "$n"; else check_out "$n"; fi
    done
}

# ---- nvcc mode -------------------------------------------------------------------
find_tool() {  # find_tool NAME: in PATH, next to nvcc, or in /usr/local/cuda/bin
    local t
    t=$(command -v "$1" 2>/dev/null) && { echo "$t"; return; }
    for t in "${nvcc_dir:-}/$1" "/usr/local/cuda/bin/$1"; do
        [ -x "$t" ] && { echo "$t"; return; }
    done
    return 1
}

nvcc_mode() {
    local nvcc sanitize='' have_gpu='' n exe arch archs gencode=() last
    nvcc=${NVCC:-}
    [ -n "$nvcc" ] || nvcc=$(find_tool nvcc) || {
        skipped "suite: nvcc not found (the CUDA toolkit from developer.nvidia.com); nothing checked"
        return
    }
    nvcc_dir=$(dirname "$nvcc")
    # -gencode per architecture plus the PTX of the last one, as mk/cuda.mk does.
    IFS=, read -r -a archs <<<"${CUDA_ARCH:-sm_80,sm_90}"
    for arch in "${archs[@]}"; do
        gencode+=(-gencode "arch=compute_${arch#sm_},code=$arch")
        last=${arch#sm_}
    done
    gencode+=(-gencode "arch=compute_$last,code=compute_$last")
    if nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then have_gpu=1; fi
    sanitize=$(find_tool compute-sanitizer) || sanitize=''
    mkdir -p "$BUILD/gpu/cuda/bugs"
    local built=0
    for n in "${names[@]}"; do
        exe=$BUILD/gpu/cuda/$n
        if [ -f "$SUITE/$n.expect" ]; then parse_expect "$n" || continue; fi
        # PW_REUSE=1 (make gpu-test, after make built them for CUDA_ARCH): an up-to-date one is kept
        if [ -n "${PW_REUSE:-}" ] && [ "$exe" -nt "$SUITE/$n.cu" ]; then :
        elif ! "$nvcc" -std=c++17 -O2 "${gencode[@]}" -Itests/cuda -o "$exe" "$SUITE/$n.cu" >"$tmp/build" 2>&1; then
            bad "$n: builds with nvcc (${CUDA_ARCH:-sm_80,sm_90})" "$(head -n 15 "$tmp/build")"
            continue
        fi
        built=$((built + 1))
        if [ -z "$have_gpu" ]; then
            ok "$n: builds with nvcc (${CUDA_ARCH:-sm_80,sm_90})"
        elif [ ! -f "$SUITE/$n.expect" ]; then
            run_prog "$exe"
            check_out "$n" " on the GPU"
        elif [ -n "$sanitizer" ] && [ -n "$sanitize" ]; then
            # The bug is the suite's claim; compute-sanitizer must see it too.
            # shellcheck disable=SC2086
            run_prog "$exe" "$sanitize" --error-exitcode 99 $sanitizer
            if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $rc -ne 137 ]; then
                ok "$n: compute-sanitizer $sanitizer reports it (exit $rc)"
            else
                bad "$n: compute-sanitizer $sanitizer reports it" "$(exit_detail) (want nonzero)" \
                    "$(head -n 10 "$tmp/so")" "$(stderr_detail 10)"
            fi
        elif [ -n "$sanitizer" ]; then
            skipped "$n: must-fail program not run: compute-sanitizer not found (it would run with $sanitizer)"
        else
            skipped "$n: must-fail program not run on the GPU (no compute-sanitizer tool catches it reliably; the suite asserts the emulator's report)"
        fi
    done
    if [ -z "$have_gpu" ]; then
        echo "cuda: no CUDA device here (nvidia-smi -L lists none): $built programs only compiled, none run"
    fi
}

if [ "$mode" = emulator ]; then emulator_mode; else nvcc_mode; fi
[ $skip -gt 0 ] && echo "($skip skipped)"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
