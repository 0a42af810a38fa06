# tests/tool_hints.sh: make hint-N.K (tools/hint.sh) and the hint texts.
# Sourced by tests/run.sh after the chapter tests (ok, bad, expect_usage,
# $tmp, $EXERCISES). Nothing here is compiled, so it runs the same in the
# plain, ASan and clang builds; it calls tools/hint.sh directly, with the
# state in $tmp, so it never touches $BUILD/hints.

hint_ids=(${EXERCISES:-})
hst=$tmp/hint-state
rm -rf "$hst"
# hint_level ID [LEVEL]: the level tools/hint.sh showed ("" when none).
hint_level() { bash tools/hint.sh "$1" "${EXERCISES:-}" "$hst" ${2:-} >"$tmp/hint.out" 2>&1 &&
               sed -n '1s/^== hint for exercise [0-9.]*, level \([1-3]\) of 3 ==$/\1/p' "$tmp/hint.out"; }

if [ ${#hint_ids[@]} -lt 2 ]; then
    printf 'SKIP hints: fewer than two exercises in EXERCISES\n'; skip=$((skip + 1))
else
    a=${hint_ids[0]} b=${hint_ids[${#hint_ids[@]}-1]}
    # 1, 2, 3, then 3 again with a line saying it is the last.
    seq=""
    for i in 1 2 3 4 5; do seq+="$(hint_level "$a")"; done
    if [ "$seq" = 12333 ] && grep -q 'already the last level' "$tmp/hint.out"; then
        ok "hints: make hint-$a shows levels 1, 2, 3, then 3 again saying it is the last"
    else
        bad "hints: levels of $a" "shown: $seq (want 12333)" "$(tail -n 2 "$tmp/hint.out")"
    fi
    # Independent state: $b starts at 1 although $a is at 3.
    seq="$(hint_level "$b")$(hint_level "$b")$(hint_level "$a")"
    if [ "$seq" = 123 ]; then ok "hints: each exercise keeps its own level ($b at 1 and 2 while $a stays at 3)"
    else bad "hints: independent state" "shown: $seq (want 1 2 for $b, then 3 for $a)"; fi
    # LEVEL=L shows that level, its text, and does not move the state.
    l2=$(hint_level "$b" 1)
    if [ "$l2" = 1 ] && grep -q '^Level 1:' "$tmp/hint.out" && [ "$(hint_level "$b")" = 3 ]; then
        ok "hints: LEVEL=1 shows level 1 again without moving the state ($b goes on to 3)"
    else bad "hints: LEVEL=1" "$(head -n 2 "$tmp/hint.out")"; fi
    # The reset starts over at 1, for that exercise only.
    bash tools/hint.sh --reset "$a" "$hst" >/dev/null 2>&1
    seq="$(hint_level "$a")$(hint_level "$b")"
    if [ "$seq" = 13 ]; then ok "hints: hint-reset-$a starts $a over at level 1 and leaves $b at 3"
    else bad "hints: reset" "shown: $seq (want 1 for $a, 3 for $b)"; fi
    # Bad input: one line, exit 2.
    expect_usage "hints: an unknown exercise (99.9)" bash tools/hint.sh 99.9 "${EXERCISES:-}" "$hst"
    expect_usage "hints: not an exercise id (ten)" bash tools/hint.sh ten "${EXERCISES:-}" "$hst"
    expect_usage "hints: LEVEL=4" bash tools/hint.sh "$a" "${EXERCISES:-}" "$hst" 4
    expect_usage "hints: LEVEL=0" bash tools/hint.sh "$a" "${EXERCISES:-}" "$hst" 0
    expect_usage "hints: reset of a non-id" bash tools/hint.sh --reset '../x' "$hst"
    # Through make too: the unknown exercise fails with exit 2 from the script.
    if make -s --no-print-directory BUILD="$tmp/hint-build" hint-99.9 >/dev/null 2>"$tmp/hint.err"; then
        bad "hints: make hint-99.9 succeeded"
    elif [ "$(grep -c '^hint:' "$tmp/hint.err")" -eq 1 ]; then ok "hints: make hint-99.9 fails with one line from tools/hint.sh"
    else bad "hints: make hint-99.9" "$(head -c 400 "$tmp/hint.err")"; fi
fi

# hint_leaks SOLUTION HINTFILE: prints the first run of 3 consecutive
# non-trivial solution lines (20+ characters once comments and spaces are
# dropped; shorter lines are skipped, they do not break a run) that all
# appear in the hint text (backticks and spaces dropped too); silent if none.
hint_leaks() {
    awk 'function norm(s) { gsub(/\/\*.*\*\//, "", s); sub(/\/\/.*/, "", s); gsub(/`/, "", s); gsub(/[ \t]+/, "", s); return s }
         FNR == NR { hint = hint norm($0) "\n"; next }
         { l = norm($0); if (length(l) < 20) next
           if (index(hint, l)) { run[++n] = $0; if (n >= 3) { print run[n-2]; print run[n-1]; print run[n]; exit } }
           else n = 0 }' "$2" "$1"
}
# The detector itself must fire on a hint that quotes a solution.
printf '## Level 3: cheat\n' >"$tmp/leak.md"
cat solutions/10-data-parallel/ring_allreduce.c >>"$tmp/leak.md"
if [ -n "$(hint_leaks solutions/10-data-parallel/ring_allreduce.c "$tmp/leak.md")" ]; then
    ok "hints: the leak detector catches a hint that contains its solution"
else bad "hints: the leak detector missed a hint that contains its solution"; fi

# Every exercise: one hint file, exactly three levels 1, 2, 3 in order, none
# empty, and no run of 3 solution lines in it.
nfiles=0 probs=()
for id in ${EXERCISES:-}; do
    files=$(grep -l -x "# Hints for $id [a-z_0-9]*" exercises/*/hints/*.md 2>/dev/null)
    if [ "$(printf '%s' "$files" | grep -c .)" -ne 1 ]; then probs+=("$id: $(printf '%s' "$files" | grep -c .) hint files (want 1)"); continue; fi
    nfiles=$((nfiles + 1))
    heads=$(sed -n 's/^## Level \([0-9]*\):.*/\1/p' "$files" | tr -d '\n')
    [ "$heads" = 123 ] || probs+=("$id: levels '$heads' in $files (want 1, 2, 3)")
    for l in 1 2 3; do
        words=$(awk -v L="$l" '/^## Level/ { on = ($3 == L ":"); next } on' "$files" | wc -w)
        [ "$words" -ge 15 ] || probs+=("$id: level $l of $files has $words words")
    done
    ex=$(basename "$files" .md) dir=$(basename "$(dirname "$(dirname "$files")")")
    sol=$(ls solutions/"$dir"/"$ex".c solutions/"$dir"/"$ex".cu 2>/dev/null | head -n 1)
    if [ -z "$sol" ]; then probs+=("$id: no solution solutions/$dir/$ex.c(u) to compare with"); continue; fi
    leak=$(hint_leaks "$sol" "$files")
    [ -z "$leak" ] || probs+=("$id: $files quotes 3 lines of $sol:" "$leak")
done
if [ -z "${EXERCISES:-}" ]; then
    printf 'SKIP hints: EXERCISES is empty, no hint files to check\n'; skip=$((skip + 1))
elif [ ${#probs[@]} -eq 0 ]; then
    ok "hints: all $nfiles exercises have one hint file with levels 1, 2, 3, none quoting 3 lines of the solution"
else
    bad "hints: hint files" "${probs[@]}"
fi
