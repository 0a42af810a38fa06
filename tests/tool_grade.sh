# tests/tool_grade.sh: the class grader (make grade, tools/grade_class.sh),
# sourced by tests/run.sh (ok, bad, expect_usage, $BUILD, $SAN, $tmp).
#
# Grades the synthetic class tests/class/ (see its README: one student per
# failure kind, 7 in all) on exercises 1.1, 1.2, 3.1 and 8.1 (CUDA, on the emulator), with frank handed in as a
# tarball, and checks every cell's verdict and reason, the CSV, the HTML
# (escaped), that the endless loop timed out while the others were graded
# alongside it, and the bad inputs. Prints the grader's wall time.

grade_test() {
    local class=$tmp/class out=$tmp/grades gb=$tmp/grade-build
    rm -rf "$class" "$out" "$gb"
    mkdir -p "$class"
    # The class as tests/class/assemble.sh puts it together; frank hands in
    # a tarball.
    local staged=$tmp/class-staged
    rm -rf "$staged"
    bash tests/class/assemble.sh "$staged"
    cp -r "$staged"/{alice,bob,carol,dave,erin,gina} "$class/"
    tar -czf "$class/frank.tar.gz" -C "$staged" frank
    echo "not a student" > "$class/notes.txt"   # a stray file is not a student

    # ---- bad input: one line, exit 2 (the script itself: make adds its own
    # "Error 2" line around any failing recipe)
    local map="1.1=exercises/01-measure/square.c"
    expect_usage "grade: SUBMISSIONS missing" env GRADE_MAP="$map" bash tools/grade_class.sh "$tmp/no-such-dir" 1
    mkdir -p "$tmp/empty-class"
    expect_usage "grade: SUBMISSIONS empty" env GRADE_MAP="$map" bash tools/grade_class.sh "$tmp/empty-class" 1
    expect_usage "grade: no SUBMISSIONS given" env GRADE_MAP="$map" bash tools/grade_class.sh "" 1
    local j
    expect_usage "grade: an unknown exercise" env GRADE_MAP="99.9=-" BUILD="$BUILD" bash tools/grade_class.sh "$class" 1
    for j in 0 -1 two 1.5; do
        expect_usage "grade: JOBS=$j" env GRADE_MAP="$map" bash tools/grade_class.sh "$class" "$j"
    done

    # ---- the class. A 10 s checker limit: erin's loop costs one job 10 s
    # while the other cells are graded by the other jobs.
    local limit=10 t0 wall
    t0=$(date +%s%N)
    make -s --no-print-directory BUILD="$BUILD" SAN="$SAN" grade SUBMISSIONS="$class/" JOBS=3 \
        EXERCISES="1.1 1.2 3.1 8.1" GRADE_BUILD="$gb" GRADES_DIR="$out" GRADES_HTML="$out/grades.html" \
        PW_GRADE_TIMEOUT=$limit >"$tmp/grade.out" 2>&1
    local rc=$?
    wall=$(( ($(date +%s%N) - t0) / 1000000 ))
    printf 'grade: the synthetic class (7 students x 4 exercises, JOBS=3) took %d.%d s\n' $((wall / 1000)) $((wall / 100 % 10))
    if (( rc != 0 )); then bad "grade: make grade exits 0 on a class with failures (got $rc)" "$(tail -n 5 "$tmp/grade.out")"; return; fi
    ok "grade: make grade grades the class (exit 0)"
    local csv=$out/grades.csv
    [[ -f $csv ]] || { bad "grade: grades.csv written" "no $csv"; return; }

    cell() { awk -F, -v s="$1" -v e="$2" '$1 == s && $2 == e { print $3; exit }' "$csv"; }
    row_of() { grep -m1 "^$1,$2," "$csv"; }
    expect_cell() {   # student exercise verdict [reason pattern]
        local got; got=$(cell "$1" "$2")
        local row; row=$(row_of "$1" "$2")
        if [[ $got == "$3" ]] && { [[ -z ${4:-} ]] || grep -qE -- "$4" <<<"$row"; }; then
            ok "grade: $1 $2 is $3${4:+ ($4)}"
        else
            bad "grade: $1 $2 is $3${4:+ ($4)}" "row: ${row:-none}"
        fi
    }
    local s e
    for e in 1.1 1.2 3.1; do expect_cell alice "$e" PASS; done
    # bob writes y[n]: the checker's guard floats catch it (before ASan would).
    expect_cell bob 1.1 FAIL 'wrote y\[0\], but with n = 0'
    if [[ $SAN == asan ]]; then
        echo "SKIP grade: carol's race (this build is under ASan, which cannot run with ThreadSanitizer)"
        skip=$((skip + 1))
    else
        expect_cell carol 3.1 RACE 'data race in count_block\(\) at 03-threads/histogram.c:[0-9]+'
    fi
    expect_cell dave 1.1 NOCOMPILE 'error: .*<unfinished>'
    # The checker stops itself at 4/5 of the grader's limit (common/exercise.c).
    expect_cell erin 1.1 TIMEOUT "still running after $((limit * 4 / 5)) s \\(the checker's own limit"
    expect_cell frank 1.1 MISSING 'no 01-measure/square.c handed in'
    expect_cell frank 1.2 MISSING 'no 01-measure/summary.c handed in'
    expect_cell frank 3.1 PASS
    # gina strides 4 GiB past y: a signal (under ASan: its SEGV report), graded
    # CRASH while the others go on; she handed in nothing else.
    expect_cell gina 1.1 CRASH 'SIGSEGV|AddressSanitizer: SEGV'
    expect_cell gina 3.1 MISSING
    # 8.1 is CUDA, graded on the SIMT emulator like make ex-8.1: alice hands in
    # the solution, bob the untouched skeleton (a FAIL, not a MISSING).
    expect_cell alice 8.1 PASS
    expect_cell bob 8.1 FAIL 'not yet implemented: block_sum_launch'
    expect_cell carol 8.1 MISSING 'no 08-cuda-warps/block_sum.cu handed in'
    # Every other cell: the correct files pass, whoever handed them in.
    local others=0 wrong=""
    for s in bob carol dave erin; do
        for e in 1.2 3.1; do
            [[ $s == carol && $e == 3.1 ]] && continue
            others=$((others + 1))
            [[ $(cell "$s" "$e") == PASS ]] || wrong+=" $s/$e=$(cell "$s" "$e")"
        done
    done
    if [[ -z $wrong ]]; then ok "grade: the $others correct files of the failing students pass"; else bad "grade: the correct files of the failing students pass" "$wrong"; fi

    # The CSV: a header, one row per student x exercise, 5 fields, seconds a number.
    local rows bad_rows
    rows=$(tail -n +2 "$csv" | wc -l)
    bad_rows=$(tail -n +2 "$csv" | grep -cvE '^[a-z]+,[0-9]+\.[0-9]+,(PASS|FAIL|RACE|TIMEOUT|CRASH|NOCOMPILE|MISSING),("([^"]|"")*"|[^",]*),[0-9]+\.[0-9]$')
    if [[ $(head -n 1 "$csv") == "student,exercise,verdict,reason,seconds" && $rows -eq 28 && $bad_rows -eq 0 ]]; then
        ok "grade: grades.csv has the header and 28 well-formed rows"
    else
        bad "grade: grades.csv has the header and 28 well-formed rows" "$rows rows, $bad_rows malformed" "$(head -n 4 "$csv")"
    fi
    # The endless loop did not hold up the class: erin's cell took the limit,
    # the whole class took less than the cells' seconds added up (they ran
    # side by side), and every other cell has its verdict.
    local erin_s sum
    erin_s=$(awk -F, '$1 == "erin" && $2 == "1.1" { print $NF }' "$csv")
    sum=$(tail -n +2 "$csv" | awk -F, '{ t += $NF } END { printf "%d", t * 1000 }')
    if awk -v e="$erin_s" -v l="$((limit * 4 / 5))" 'BEGIN { exit !(e >= l) }' && (( wall < sum )); then
        ok "grade: the endless loop took its checker's $((limit * 4 / 5)) s limit, the class ran alongside (wall $wall ms < $sum ms of cells)"
    else
        bad "grade: the endless loop took its limit and the class ran alongside" "erin 1.1 took $erin_s s; wall $wall ms, cells $sum ms"
    fi

    # The terminal table: a header and a row per student.
    if grep -qE '^student +1\.1 +1\.2 +3\.1 +8\.1' "$tmp/grade.out" && grep -qE '^erin +TIMEOUT +PASS +PASS +MISSING' "$tmp/grade.out" \
       && grep -qE '^frank +MISSING +MISSING +PASS +MISSING' "$tmp/grade.out"; then
        ok "grade: the terminal table has a row per student"
    else
        bad "grade: the terminal table has a row per student" "$(head -n 10 "$tmp/grade.out")"
    fi

    # The HTML: one row per student; dave's #error text escaped, never raw.
    local html=$out/grades.html
    if [[ -f $html ]] && (( $(grep -o '<tr><td>' "$html" | wc -l) == 7 )) \
       && grep -qF '&lt;unfinished&gt; &amp; \&quot;untested\&quot;' "$html" && ! grep -qF '<unfinished>' "$html"; then
        ok "grade: grades.html has 7 student rows and escapes the reasons"
    else
        bad "grade: grades.html has 7 student rows and escapes the reasons" "$(grep -m2 -F 'untested' "$html" 2>/dev/null | head -c 400)"
    fi
    # Each student was built in a folder of their own.
    if [[ -x $gb/alice/ex/1.1/check && -x $gb/bob/ex/1.1/check && ! -e $gb/frank/ex/1.1/check ]]; then
        ok "grade: each student's checkers are built in GRADE_BUILD/<student>/ex/N.K"
    else
        bad "grade: each student's checkers are built in GRADE_BUILD/<student>/ex/N.K" "$(ls "$gb" 2>&1 | head -c 300)"
    fi
}
grade_test
