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
#   PARTS      run only these parts (make test PARTS="ch05 exercises"): units,
#              programs (with the figures), exercises (solutions and
#              skeletons), checkers (the planted wrong answers), chNN,
#              tool_NAME, cuda-suite; an unknown name is bad usage (exit 2)
#   PW_TEST_JOBS  how many side-by-side parts at once (default: the cores)
#
# Parts. The checks of some parts hold however busy the machine is (exit
# codes, counts, models, text): those run first, side by side, each in a
# subshell with its own $tmp, its output shown whole when it ends. The other
# parts time something and compare (speedups, threads overlapping, a
# checker's "faster than" bar): they run after, one at a time, alone on the
# machine. A new part is timed until it is listed in side_by_side below.
#
# Chapter tests (tests/chNN.sh) and the tools' tests (tests/tool_NAME.sh) are
# parts of their own, sourced. They use ok, bad, skip, expect_usage,
# sanitizer_report, $BUILD, $SAN and $tmp, and should say what they check in
# each ok/bad label.
set -uo pipefail
# A test never installs anything (make test has already offered to).
export PW_INSTALL=0
# The grader's time limit (tools/grade.sh), which every checker reads to stop
# itself first (at 4/5 of it): 20 s as a student gets it; 120 s under a
# sanitizer build, which runs 2 to 10 times slower and no student grades with.
if [ -z "${PW_GRADE_TIMEOUT:-}" ]; then
    if [ -n "${SAN:-}" ]; then PW_GRADE_TIMEOUT=120; else PW_GRADE_TIMEOUT=20; fi
fi
export PW_GRADE_TIMEOUT
BUILD=${BUILD:-build}
SAN=${SAN:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok()   { pass=$((pass + 1)); printf 'PASS %s\n' "$1"; }
bad()  { fail=$((fail + 1)); printf 'FAIL %s\n' "$1"; shift; for l in "$@"; do printf '  %s\n' "$l"; done; }
# A sanitizer report anywhere in a file is a failure of its own.
sanitizer_report() { grep -qE 'ERROR: AddressSanitizer|runtime error:|WARNING: ThreadSanitizer|ERROR: LeakSanitizer' "$1"; }

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

# ---- unit tests of common/ and kernels ----------------------------------
part_units() {
    local t u name rc line
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

}

# ---- programs: --help, a tiny run, bad input; then every figure draws from
# the tiny runs' CSV ----------------------------------------------------------
part_programs() {
    local p name chnum chdir csv rc rows v d ch
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

    # The GPU puzzles' access pictures (exercises 8.5 on) come from their
    # solutions' checkers, as make chapter-8 draws them: each must write its
    # CSV for the gallery. (Only where chapter 08's programs are in this run:
    # its figures are drawn with theirs.)
    local id pic
    [[ " ${PROGRAMS:-} " == *"/ch08/"* ]] || EXERCISES_08=
    for id in ${EXERCISES_08-${EXERCISES:-}}; do
        [[ $id == 8.* ]] && (( ${id#8.} >= 5 )) && [ -x "$BUILD/sol/$id/check" ] || continue
        d=$tmp/results/08-cuda-warps
        mkdir -p "$d"
        pic=$(ls "$d"/puzzle_*.csv 2>/dev/null | wc -l)
        PW_PICTURE_DIR=$d timeout 60 "$BUILD/sol/$id/check" >"$tmp/so" 2>&1
        rc=$?
        if [ $rc -eq 0 ] && [ "$(ls "$d"/puzzle_*.csv 2>/dev/null | wc -l)" -eq $((pic + 1)) ]; then
            ok "puzzle $id's solution writes its access picture"
        else
            bad "puzzle $id's solution writes its access picture" "exit $rc, $pic -> $(ls "$d"/puzzle_*.csv 2>/dev/null | wc -l) pictures" "$(tail -3 "$tmp/so")"
        fi
    done

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
            # Every CSV a program wrote carries the header block (what ran,
            # where, when): the gallery's machine line and any reader need it.
            nometa="" ncsv=0
            for c in "$d"*.csv; do
                [ -f "$c" ] || continue
                ncsv=$((ncsv + 1))
                grep -q '^# program: ' "$c" && grep -q '^# cpu: ' "$c" || nometa="$nometa $(basename "$c")"
            done
            if [ "$ncsv" -gt 0 ]; then
                if [ -z "$nometa" ]; then ok "CSV of $ch: all $ncsv files have the header block (# program, # cpu)"
                else bad "CSV of $ch: files without the header block (# program, # cpu)" "$nometa"; fi
            fi
            # No text of a figure (key entries, labels, titles) names a file:
            # a student reads "chapter 06's kernels", not a CSV path.
            nsvg=$(ls "$tmp/plots/$ch"/*.svg 2>/dev/null | wc -l)
            if [ "$nsvg" -gt 0 ]; then
                paths=$(grep -lE '>[^<]*(\.csv|/tmp/)[^<]*<' "$tmp/plots/$ch"/*.svg 2>/dev/null | xargs -r -n1 basename | tr '\n' ' ')
                if [ -z "$paths" ]; then ok "figures of $ch: no text of its $nsvg SVG names a file path"
                else bad "figures of $ch: text that names a file" "$paths"; fi
                # A modelled figure (its script says "# source: modelled") shows
                # no median or spread, and calls nothing measured but what was
                # published (a paper's or an author's figures drawn beside it).
                # A measured one says where it was measured.
                for svg in "$tmp/plots/$ch"/*.svg; do
                    gp=plots/$ch/$(basename "$svg" .svg).gp
                    [ -f "$gp" ] && grep -q '^# source: modelled' "$gp" || continue
                    words=$(grep -o '<text>[^<]*</text>' "$svg" | sed 's/<[^>]*>//g' \
                            | grep -iE 'median|IQR|interquartile|measured' | grep -viE 'published' | head -3)
                    if [ -z "$words" ]; then ok "modelled figure $ch/$(basename "$svg" .svg): no median, IQR or unpublished 'measured'"
                    else bad "modelled figure $ch/$(basename "$svg" .svg) shows measured words" "$words"; fi
                done
            fi
        done
    else
        echo "(figures not tested: gnuplot not found)"
    fi

}

# ---- exercises: solutions pass, skeletons fail cleanly; then the wrong
# answers each checker must fail --------------------------------------------
part_exercises() {
    local id rc
    for id in ${EXERCISES:-}; do
        timeout "$PW_GRADE_TIMEOUT" "$BUILD/sol/$id/check" >"$tmp/so" 2>&1
        rc=$?
        # 77 with a SKIP line: this build cannot grade it (4.3 without OpenMP).
        if [ $rc -eq 77 ] && grep -q '^SKIP' "$tmp/so"; then
            skip=$((skip + 1)); echo "SKIP exercise $id: $(grep -m1 '^SKIP' "$tmp/so")"; continue
        fi
        if [ $rc -eq 0 ] && ! sanitizer_report "$tmp/so"; then ok "solution $id passes its checker"
        else bad "solution $id passes its checker" "exit $rc" "$(tail -5 "$tmp/so")"; fi

        timeout "$PW_GRADE_TIMEOUT" "$BUILD/ex/$id/check" >"$tmp/so" 2>&1
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
}

# ---- the checkers tested like code: the planted wrong answers each must
# fail, the table of them, and each checker's usage (tests/ex_loopholes.sh) --
part_checkers() {
    . tests/ex_loopholes.sh
}

# ---- the CUDA conformance suite (tests/cuda/): unmodified CUDA programs,
# built by tools/pwcc and run on the emulator -------------------------------
part_cuda() {
    local cu_flags link_flags line
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
}


# ---- the plan ---------------------------------------------------------------
# Parts that assert nothing about time: they run side by side. Every other
# part is timed and runs alone (see the top of this file).
side_by_side=" programs cuda-suite ch08 ch09 ch11 ch13 ch16 tool_chapters tool_deps tool_docker tool_gallery tool_gpu_guard tool_hints tool_ladder tool_predict tool_runner "

plan=()   # part names, in the order they are reported
part_cmd() {   # the command of part NAME
    case $1 in
        units) echo part_units ;;
        programs) echo part_programs ;;
        exercises) echo part_exercises ;;
        checkers) echo part_checkers ;;
        cuda-suite) echo part_cuda ;;
        ch[0-9][0-9]|tool_*) echo ". tests/$1.sh" ;;
    esac
}
chapter_listed() { [ -z "${CHAPTER_TESTS:-}" ] || [[ " $CHAPTER_TESTS " == *" ${1#ch} "* ]]; }
plan+=(units)
if [ -z "${UNIT_ONLY:-}" ]; then plan+=(programs exercises checkers); fi
for f in tests/ch[0-9][0-9].sh; do
    [ -f "$f" ] || continue
    n=$(basename "$f" .sh)
    chapter_listed "$n" && plan+=("$n")
done
# The tools' tests and the CUDA suite: not in make test-isa nor under TSan.
if [ -z "${CHAPTER_TESTS:-}" ] && [ -z "${UNIT_ONLY:-}" ]; then
    for f in tests/tool_*.sh; do [ -f "$f" ] && plan+=("$(basename "$f" .sh)"); done
    [ -f tests/cuda/run.sh ] && plan+=(cuda-suite)
fi
if [ -n "${PARTS:-}" ]; then
    for want in $PARTS; do
        [[ " ${plan[*]} " == *" $want "* ]] || {
            echo "tests/run.sh: no part '$want' in this run (parts: ${plan[*]})" >&2; exit 2; }
    done
    kept=()
    for part in "${plan[@]}"; do [[ " $PARTS " == *" $part "* ]] && kept+=("$part"); done
    plan=("${kept[@]}")
fi

# ---- running it ---------------------------------------------------------------
pass=0 fail=0 skip=0
times="" alone_s=0 side_s=0
jobs_max=${PW_TEST_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
case $jobs_max in ''|*[!0-9]*|0) echo "tests/run.sh: PW_TEST_JOBS must be a count of 1 or more, not '$jobs_max'" >&2; exit 2 ;; esac

# A side-by-side part: a subshell with its own $tmp and counters; its output
# goes to $tmp/NAME.log, and "pass fail skip seconds" to $tmp/NAME.counts
# when it ends.
# The counts are written on the subshell's exit, so a part that calls exit
# is still counted; one that dies with no counts is a failure (collect_side).
start_side() {
    local name=$1
    ( tmp=$tmp/$name; mkdir -p "$tmp"; pass=0 fail=0 skip=0; t0=$SECONDS
      trap 'echo "$pass $fail $skip $((SECONDS - t0))" >"$tmp.counts.part"; mv "$tmp.counts.part" "$tmp.counts"' EXIT
      eval "$(part_cmd "$name")" >"$tmp.log" 2>&1 </dev/null ) &
    side_pid=$!
}
# Shows a finished side-by-side part and adds its counts.
collect_side() {
    local name=$1 p f k s
    cat "$tmp/$name.log" 2>/dev/null
    if [ -f "$tmp/$name.counts" ]; then
        read -r p f k s <"$tmp/$name.counts"
        pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + k))
        times+="${times:+, }$name $s s"
    else
        bad "part $name" "it ended without reporting its counts (killed?)"
    fi
    rm -f "$tmp/$name.counts"
}

side=() alone=()
for part in "${plan[@]}"; do
    if [[ "$side_by_side" == *" $part "* ]] && [ "$jobs_max" -gt 1 ]; then side+=("$part"); else alone+=("$part"); fi
done

t0=$SECONDS
if [ ${#side[@]} -gt 0 ]; then
    echo "== side by side, $jobs_max at a time (they time nothing): ${side[*]}"
    waiting=("${side[@]}") running=() pids=()
    while [ ${#waiting[@]} -gt 0 ] || [ ${#running[@]} -gt 0 ]; do
        while [ ${#waiting[@]} -gt 0 ] && [ ${#running[@]} -lt "$jobs_max" ]; do
            start_side "${waiting[0]}"; running+=("${waiting[0]}"); pids+=("$side_pid"); waiting=("${waiting[@]:1}")
        done
        still=() still_pids=()
        for i in "${!running[@]}"; do
            part=${running[$i]}
            # Done: its counts are there, or its subshell is gone (then
            # wait for it, so that a last write is not missed).
            if [ -f "$tmp/$part.counts" ] || ! kill -0 "${pids[$i]}" 2>/dev/null; then
                wait "${pids[$i]}" 2>/dev/null; collect_side "$part"
            else
                still+=("$part"); still_pids+=("${pids[$i]}")
            fi
        done
        running=("${still[@]+"${still[@]}"}") pids=("${still_pids[@]+"${still_pids[@]}"}")
        [ ${#running[@]} -gt 0 ] && sleep 0.2
    done
    side_s=$((SECONDS - t0))
fi

if [ ${#alone[@]} -gt 0 ]; then
    echo "== one at a time, alone on the machine (they time something): ${alone[*]}"
    for part in "${alone[@]}"; do
        p0=$SECONDS
        eval "$(part_cmd "$part")"
        times+="${times:+, }$part $((SECONDS - p0)) s"
    done
    alone_s=$((SECONDS - t0 - side_s))
fi

[ $skip -gt 0 ] && echo "($skip skipped)"
echo "time: side by side ${side_s} s, alone ${alone_s} s; $times"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
