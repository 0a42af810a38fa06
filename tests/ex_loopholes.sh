# tests/ex_loopholes.sh: the checkers tested like code. Every planted wrong
# answer must be failed by its exercise's checker, with the message a student
# should see. Sourced by tests/run.sh as the part "checkers" (uses ok, bad,
# expect_usage, $BUILD, $SAN, $tmp); `make check-checkers` runs it alone.
#
# Each tests/wrong/N.K-what.c (or .cu) is graded by exercise N.K's checker,
# built by `make test` into $BUILD/wrong/N.K-what/check (mk/chapter.mk,
# mk/cuda.mk). Its header says what must come of it:
#   expect: REGEX    the verdict line of tools/grade.sh must match (after
#                    "ex N.K (FILE): "); "PASS" for a right answer that a
#                    checker once failed (not counted as a wrong answer)
#   hint: REGEX      a line of the checker's explanation must match
#   skip-if: REGEX   when the checker's output matches, the check could not
#                    be made here (no objdump, not x86-64, no TSan): SKIP
#   limit: N         grade with PW_GRADE_TIMEOUT=N (an answer that never
#                    ends: the checker's own deadline, 4/5 of it, must speak
#                    first; N small keeps the test short)
# Each exercise needs at least $min_planted wrong answers. Then a table:
# exercise, planted, caught, skipped. Then every checker gets an unknown
# argument: one line on stderr, exit 2.
#
# The time limit is the grader's own, PW_GRADE_TIMEOUT (tests/run.sh: 20 s
# as tools/grade.sh has it, 120 s under a sanitizer), so a checker whose
# explanation comes after the limit fails here as the student would see it:
# "timed out".

min_planted=3
grade_limit=${PW_GRADE_TIMEOUT:-20}
: >"$tmp/planted"   # one line per wrong answer: "ID caught|skipped|missed"
tally_add() { [ -z "$tally" ] || echo "$id $tally" >>"$tmp/planted"; }

# Grading is the slow part (10.2's checker simulates 2 million messages per
# answer: 4 s each, 10 s under ASan), so it runs first, answers of chapters
# whose checkers time nothing and start no threads (the emulator, the virtual
# cluster, the models: chapters 8-14) two at a time, the others one at a
# time, alone; then every output is judged in order.
parallel_chapters=" 8 9 10 11 12 13 14 "
mkdir -p "$tmp/graded"
planted_header() { sed -n "s/^ \* $1: //p" "$2" | sed 's| \*/$||'; }
planted_grade() {   # SRC NAME ID: the grader's output in $tmp/graded/NAME.out
    local limit
    limit=$(planted_header limit "$1")
    PW_GRADE_TIMEOUT=${limit:-$grade_limit} bash tools/grade.sh "$3" "$BUILD/wrong/$2/check" "$1" >"$tmp/graded/$2.out" 2>&1
}
planted_srcs=()
for src in tests/wrong/*.c tests/wrong/*.cu; do
    [ -f "$src" ] || continue
    name=$(basename "$src"); name=${name%.*}
    id=${name%%-*}
    [[ " ${EXERCISES:-} " == *" $id "* ]] || continue   # make test-isa: only its chapters' exercises
    planted_srcs+=("$src")
done
running=0
for src in "${planted_srcs[@]}"; do
    name=$(basename "$src"); name=${name%.*}; id=${name%%-*}
    [[ "$parallel_chapters" == *" ${id%%.*} "* ]] && [ -x "$BUILD/wrong/$name/check" ] || continue
    planted_grade "$src" "$name" "$id" &
    running=$((running + 1))
    if [ "$running" -ge 2 ]; then wait; running=0; fi
done
wait
for src in "${planted_srcs[@]}"; do
    name=$(basename "$src"); name=${name%.*}; id=${name%%-*}
    [[ "$parallel_chapters" == *" ${id%%.*} "* ]] && continue
    [ -x "$BUILD/wrong/$name/check" ] && planted_grade "$src" "$name" "$id"
done

for src in "${planted_srcs[@]}"; do
    name=$(basename "$src"); name=${name%.*}
    id=${name%%-*}
    checker=$BUILD/wrong/$name/check
    label="planted $name"
    expect=$(planted_header expect "$src")
    hint=$(planted_header hint "$src")
    skipif=$(planted_header skip-if "$src")
    tally=missed   # what this answer adds to the table, unless it is a right one
    [ "$expect" = PASS ] && tally=
    if [ ! -x "$checker" ]; then bad "$label" "not built: make BUILD=$BUILD $checker"; tally_add; continue; fi
    cp "$tmp/graded/$name.out" "$tmp/wrong.out"
    verdict=$(tail -n 1 "$tmp/wrong.out")
    verdict=${verdict#*"($src): "}
    if [ -n "$skipif" ] && grep -qE "$skipif" "$tmp/wrong.out"; then
        skip=$((skip + 1)); [ -n "$tally" ] && tally=skipped
        printf 'SKIP %s: %s\n' "$label" "$(grep -m1 -E "$skipif" "$tmp/wrong.out")"
        tally_add; continue
    fi
    if [ -z "$expect" ]; then bad "$label" "$src has no 'expect:' line"; tally_add; continue; fi
    if ! grep -qE "^($expect)" <<<"$verdict"; then
        bad "$label: verdict" "want: $expect" "got:  $verdict" "$(tail -n 6 "$tmp/wrong.out")"
    elif [ -n "$hint" ] && ! grep -qE "$hint" "$tmp/wrong.out"; then
        bad "$label: explanation" "want a line matching: $hint" "$(tail -n 6 "$tmp/wrong.out")"
    else
        ok "$label: $verdict"
        [ -n "$tally" ] && tally=caught
    fi
    tally_add
done

# The table, and the floor: every exercise has its wrong answers.
total_p=0 total_c=0 total_s=0 short=""
printf '\nplanted wrong answers, by exercise (%s s limit, as tools/grade.sh)\n' "$grade_limit"
printf '  %-9s %7s %7s %8s\n' exercise planted caught skipped
for id in ${EXERCISES:-}; do
    read -r p c s < <(awk -v id="$id" '$1 == id { p++; c += ($2 == "caught"); s += ($2 == "skipped") }
                                      END { print p + 0, c + 0, s + 0 }' "$tmp/planted")
    mark=""
    (( p < min_planted )) && { mark="  < $min_planted planted"; short+=" $id"; }
    (( c + s < p )) && mark+="  NOT ALL CAUGHT"
    printf '  %-9s %7d %7d %8d%s\n' "$id" "$p" "$c" "$s" "$mark"
    total_p=$((total_p + p)) total_c=$((total_c + c)) total_s=$((total_s + s))
done
printf '  %-9s %7d %7d %8d\n\n' total "$total_p" "$total_c" "$total_s"
if [ -n "$short" ]; then
    bad "every exercise has at least $min_planted planted wrong answers" "fewer for:$short (tests/wrong/N.K-what.c)"
elif [ -n "${EXERCISES:-}" ]; then
    ok "every exercise has at least $min_planted planted wrong answers ($total_p in all)"
fi

# A checker is a program too: an argument it does not know is refused.
for id in ${EXERCISES:-}; do
    expect_usage "checker of $id --bogus" "$BUILD/sol/$id/check" --bogus
done
