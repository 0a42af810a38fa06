#!/usr/bin/env bash
# tests/run.sh: every test of the workbook; `make test` calls it. The last
# line is always "N passed, N failed"; the exit status is 1 if any failed.
#
#   BUILD      build directory (default build)
#   PROGRAMS   chapter programs to smoke-test and feed bad input
#   EXERCISES  exercise ids (1.1 1.2 ...): every solution must pass and every
#              skeleton must fail cleanly
#   UNITS      unit test binaries
#   UNIT_ONLY  run only these unit tests (make sanitize's ThreadSanitizer pass),
#              and the chapter tests
#   SAN        asan / tsan: which sanitizer the build has, if any
#   CHAPTER_TESTS  run only these tests/chNN.sh (NN list); default all
#
# Chapter tests: tests/chNN.sh files are sourced (in both modes) after the
# generic ones. They use ok, bad, expect_usage, sanitizer_report, $BUILD,
# $SAN and $tmp, and should say what they check in each ok/bad label.
set -uo pipefail
# A test never installs anything (make test has already offered to).
export PW_INSTALL=0
BUILD=${BUILD:-build}
SAN=${SAN:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0 skip=0
# Seconds each part took, printed before the last line: where CI's time goes.
times="" part_start=$SECONDS
part_done() { times+="${times:+, }$1 $((SECONDS - part_start)) s"; part_start=$SECONDS; }

ok()   { pass=$((pass + 1)); printf 'PASS %s\n' "$1"; }
bad()  { fail=$((fail + 1)); printf 'FAIL %s\n' "$1"; shift; for l in "$@"; do printf '  %s\n' "$l"; done; }
# A sanitizer report anywhere in a file is a failure of its own.
sanitizer_report() { grep -qE 'ERROR: AddressSanitizer|runtime error:|WARNING: ThreadSanitizer|ERROR: LeakSanitizer' "$1"; }

# ---- 1. unit tests of common/ and kernels ---------------------------------
units=()
if [ -n "${UNIT_ONLY:-}" ]; then
    for u in $UNIT_ONLY; do units+=("$BUILD/tests/$u"); done
else
    units=(${UNITS:-})
fi
for t in "${units[@]}"; do
    [ -x "$t" ] || { bad "$(basename "$t")" "not built"; continue; }
    name=$(basename "$t")
    timeout 300 "$t" >"$tmp/out" 2>&1
    rc=$?
    while IFS= read -r line; do
        case $line in
            "PASS "*) ok "$name: ${line#PASS }" ;;
            "FAIL "*) bad "$name: ${line#FAIL }" ;;
            "SKIP "*) skip=$((skip + 1)); printf 'SKIP %s: %s\n' "$name" "${line#SKIP }" ;;
            *) printf '%s\n' "$line" ;;
        esac
    done <"$tmp/out"
    if sanitizer_report "$tmp/out"; then bad "$name: sanitizer report" "$(grep -m3 -E 'Sanitizer|runtime error' "$tmp/out")"; fi
    if [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$tmp/out"; then bad "$name: exited $rc without reporting a failure"; fi
done

part_done units

# expect_usage NAME PROGRAM ARGS...: exit 2, one line on stderr, no signal, no sanitizer.
expect_usage() {
    local label=$1; shift
    timeout 20 "$@" >"$tmp/so" 2>"$tmp/se"
    local rc=$? lines
    lines=$(wc -l <"$tmp/se")
    if [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && ! sanitizer_report "$tmp/se"; then
        ok "$label"
    else
        bad "$label" "exit $rc (want 2), $lines stderr lines (want 1)" "$(head -c 600 "$tmp/se")"
    fi
}

# chapter_tests: every tests/chNN.sh, in order (only chapters NN listed in
# CHAPTER_TESTS, when it is set: make test-isa).
chapter_tests() {
    local f nn
    for f in tests/ch[0-9][0-9].sh; do
        [ -f "$f" ] || continue
        nn=${f#tests/ch}; nn=${nn%.sh}
        if [ -n "${CHAPTER_TESTS:-}" ] && [[ " $CHAPTER_TESTS " != *" $nn "* ]]; then continue; fi
        # shellcheck source=/dev/null
        . "$f"
        part_done "ch$nn"
    done
}

if [ -n "${UNIT_ONLY:-}" ]; then
    chapter_tests
    [ $skip -gt 0 ] && echo "($skip skipped)"
    echo "time: $times"
    echo "$pass passed, $fail failed"
    [ $fail -eq 0 ]; exit
fi

# ---- 2. every program: --help, a tiny run, and bad input --------------------
for p in ${PROGRAMS:-}; do
    name=$(basename "$p")
    if ! "$p" --help >"$tmp/help" 2>&1 || ! grep -q '^usage:' "$tmp/help"; then
        bad "$name --help" "$(head -5 "$tmp/help")"
    else
        ok "$name --help"
    fi

    # build/ch01/loops writes results/01-<name>/loops.csv, as run.sh would.
    chnum=$(basename "$(dirname "$p")"); chnum=${chnum#ch}
    chdir=$(cd chapters && echo "$chnum"-*)
    csv=$tmp/results/$chdir/$name.csv
    mkdir -p "$(dirname "$csv")"
    timeout 120 "$p" --tiny --csv "$csv" >"$tmp/so" 2>"$tmp/se"
    rc=$?
    rows=$(grep -cv '^#' "$csv" 2>/dev/null || echo 0)
    if [ $rc -eq 0 ] && [ "$rows" -ge 2 ] && ! sanitizer_report "$tmp/se" \
       && grep -q '^program,variant,kind,' "$csv"; then
        ok "$name --tiny runs, verifies and writes CSV ($((rows - 1)) rows)"
    else
        bad "$name --tiny" "exit $rc, $rows CSV lines" "$(tail -5 "$tmp/se")"
    fi

    expect_usage "$name --bogus" "$p" --bogus
    expect_usage "$name stray argument" "$p" stray
    expect_usage "$name --csv without a file" "$p" --csv
    expect_usage "$name --csv into a missing folder" "$p" --tiny --csv /nonexistent-dir/out.csv
    expect_usage "$name -r 0" "$p" -r 0
    expect_usage "$name -r abc" "$p" -r abc
    expect_usage "$name --min-time -1" "$p" --min-time -1
    if grep -qE '^ +-n' "$tmp/help"; then
        for v in -5 0 abc 1.5 '' 1,,2 99999999999999999999; do
            expect_usage "$name -n '$v'" "$p" -n "$v"
        done
        # Buffers that exceed the memory: refused before allocating anything.
        expect_usage "$name -n 99999999999999 (too big for memory)" "$p" -n 99999999999999
        PW_MEM_AVAILABLE=1000000 expect_usage "$name -n 1M with 1 MB available" "$p" -n 1M
    fi
    if grep -qE '^ +-t' "$tmp/help"; then
        for v in 0 -1 1000000 '' abc; do
            expect_usage "$name -t '$v'" "$p" -t "$v"
        done
    fi
done

part_done programs

# ---- 3. every figure draws from the smoke runs' CSV ------------------------
if command -v gnuplot >/dev/null 2>&1; then
    for d in "$tmp"/results/*/; do
        [ -d "$d" ] || continue
        ch=$(basename "$d")
        if RESULTS_ROOT=$tmp/results PLOTS_OUT=$tmp/plots bash plots/render.sh "$ch" >"$tmp/so" 2>&1 \
           && ! grep -q skipped "$tmp/so"; then
            ok "figures of $ch draw ($(ls "$tmp/plots/$ch"/*.png 2>/dev/null | wc -l) PNG)"
        else
            bad "figures of $ch draw" "$(tail -8 "$tmp/so")"
        fi
    done
else
    echo "(figures not tested: gnuplot not found)"
fi

part_done figures

# ---- 4. exercises: solutions pass, skeletons fail cleanly ------------------
for id in ${EXERCISES:-}; do
    timeout 60 "$BUILD/sol/$id/check" >"$tmp/so" 2>&1
    rc=$?
    # 77 with a SKIP line: this build cannot grade it (4.3 without OpenMP).
    if [ $rc -eq 77 ] && grep -q '^SKIP' "$tmp/so"; then
        skip=$((skip + 1)); echo "SKIP exercise $id: $(grep -m1 '^SKIP' "$tmp/so")"; continue
    fi
    if [ $rc -eq 0 ] && ! sanitizer_report "$tmp/so"; then ok "solution $id passes its checker"
    else bad "solution $id passes its checker" "exit $rc" "$(tail -5 "$tmp/so")"; fi

    timeout 60 "$BUILD/ex/$id/check" >"$tmp/so" 2>&1
    rc=$?
    if [[ " ${BUGHUNTS:-} " == *" $id "* ]]; then
        # A bug hunt's file is the buggy program: its checker must fail it,
        # plainly (a FAIL line, no crash, no sanitizer report) and without
        # pointing at the bug (no file:line of the exercise's source).
        if [ $rc -eq 1 ] && grep -q '^FAIL' "$tmp/so" && ! sanitizer_report "$tmp/so" \
           && ! grep -qE '\.(c|cu):[0-9]+' "$tmp/so"; then
            ok "bug hunt $id: the planted bug fails its checker, without a file:line"
        else
            bad "bug hunt $id: the planted bug fails its checker, without a file:line" \
                "exit $rc (want 1, a FAIL line, no sanitizer report, no file:line)" "$(tail -5 "$tmp/so")"
        fi
        continue
    fi
    if [ $rc -eq 1 ] && grep -q 'not yet implemented' "$tmp/so" && ! sanitizer_report "$tmp/so"; then
        ok "skeleton $id compiles and fails cleanly"
    else
        bad "skeleton $id compiles and fails cleanly" "exit $rc (want 1, 'not yet implemented')" "$(tail -5 "$tmp/so")"
    fi
done

# Wrong answers each checker must fail (they once passed), and checkers' usage.
. tests/ex_loopholes.sh
part_done exercises

# ---- 5. chapter tests ----------------------------------------------------------
chapter_tests

# ---- 5b. the classroom tools' tests (tests/tool_*.sh: the class grader,
# hints, the ladder), sourced like the chapter tests; not in make test-isa --
if [ -z "${CHAPTER_TESTS:-}" ]; then
    for f in tests/tool_*.sh; do
        [ -f "$f" ] || continue
        # shellcheck source=/dev/null
        . "$f"
        part_done "$(basename "$f" .sh)"
    done
fi

# ---- 6. the CUDA conformance suite (tests/cuda/): unmodified CUDA programs,
# built by tools/pwcc and run on the emulator (not in make test-isa) ------------
if [ -z "${CHAPTER_TESTS:-}" ] && [ -f tests/cuda/run.sh ]; then
    # Under ASan the .cu files keep UBSan only (see mk/cuda.mk); the link
    # brings the sanitizer the emulator's library was built with.
    case $SAN in
        asan) cu_flags="-fsanitize=undefined -fno-sanitize=alignment -fno-sanitize-recover=undefined" link_flags="-fsanitize=address -fsanitize=undefined" ;;
        tsan) cu_flags="" link_flags="-fsanitize=thread" ;;
        *) cu_flags="" link_flags="" ;;
    esac
    PW_NO_MAKE=1 PW_BUILD=$BUILD PW_CU_FLAGS=$cu_flags PW_LINK_FLAGS=$link_flags bash tests/cuda/run.sh "$BUILD" >"$tmp/cuda" 2>&1
    while IFS= read -r line; do
        case $line in
            "PASS "*) ok "${line#PASS }" ;;
            "FAIL "*) bad "${line#FAIL }" ;;
            "SKIP "*) skip=$((skip + 1)); printf '%s\n' "$line" ;;
            *" passed, "*" failed") ;;
            *) printf '%s\n' "$line" ;;
        esac
    done <"$tmp/cuda"
    part_done cuda-suite
fi

[ $skip -gt 0 ] && echo "($skip skipped)"
echo "time: $times"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
