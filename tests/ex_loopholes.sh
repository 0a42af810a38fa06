# tests/ex_loopholes.sh: wrong answers the exercise checkers once passed,
# sourced by tests/run.sh (uses ok, bad, sanitizer_report, $BUILD, $tmp).
#
# Each tests/wrong/N.K-what.c (or .cu) is graded by exercise N.K's checker,
# built by `make test` into $BUILD/wrong/N.K-what/check (mk/chapter.mk,
# mk/cuda.mk). Its header says what must come of it:
#   expect: REGEX    the verdict line of tools/grade.sh must match (after
#                    "ex N.K (FILE): "); "PASS" for a right answer that a
#                    checker once failed
#   hint: REGEX      a line of the checker's explanation must match
#   skip-if: REGEX   when the checker's output matches, the check could not
#                    be made here (no objdump, not x86-64, no TSan): SKIP
# Then every checker gets an unknown argument: one line on stderr, exit 2.

for src in tests/wrong/*.c tests/wrong/*.cu; do
    [ -f "$src" ] || continue
    name=$(basename "$src"); name=${name%.*}
    id=${name%%-*}
    [[ " ${EXERCISES:-} " == *" $id "* ]] || continue   # make test-isa: only its chapters' exercises
    checker=$BUILD/wrong/$name/check
    label="loophole $name"
    if [ ! -x "$checker" ]; then bad "$label" "not built: make BUILD=$BUILD $checker"; continue; fi
    expect=$(sed -n 's/^ \* expect: //p' "$src" | sed 's| \*/$||')
    hint=$(sed -n 's/^ \* hint: //p' "$src" | sed 's| \*/$||')
    skipif=$(sed -n 's/^ \* skip-if: //p' "$src" | sed 's| \*/$||')
    verdict=$(PW_GRADE_TIMEOUT=120 bash tools/grade.sh "$id" "$checker" "$src" 2>&1 | tee "$tmp/wrong.out" | tail -n 1)
    verdict=${verdict#*"($src): "}
    if [ -n "$skipif" ] && grep -qE "$skipif" "$tmp/wrong.out"; then
        skip=$((skip + 1)); printf 'SKIP %s: %s\n' "$label" "$(grep -m1 -E "$skipif" "$tmp/wrong.out")"
        continue
    fi
    if [ -z "$expect" ]; then bad "$label" "$src has no 'expect:' line"; continue; fi
    if ! grep -qE "^($expect)" <<<"$verdict"; then
        bad "$label: verdict" "want: $expect" "got:  $verdict" "$(tail -n 6 "$tmp/wrong.out")"
    elif [ -n "$hint" ] && ! grep -qE "$hint" "$tmp/wrong.out"; then
        bad "$label: explanation" "want a line matching: $hint" "$(tail -n 6 "$tmp/wrong.out")"
    else
        ok "$label: $verdict"
    fi
done

# A checker is a program too: an argument it does not know is refused.
for id in ${EXERCISES:-}; do
    expect_usage "checker of $id --bogus" "$BUILD/sol/$id/check" --bogus
done
