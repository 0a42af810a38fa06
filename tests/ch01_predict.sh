# tests/ch01_predict.sh: helpers for the "predict, run, explain" tests of
# chapters 01-03, sourced by tests/ch01.sh, ch02.sh and ch03.sh (uses ok,
# bad, $tmp).

# predict_structure DIR: the chapter's run.sh asks one `predict` question
# before each step; its README has as many `> **Predict.**` blocks as
# run.sh asks, and solutions/DIR/ANSWERS.md one `## Predict K` section per
# block and one `## Question K` per question of the README's `## Questions`
# (3 to 5 of them), which points at ANSWERS.md.
predict_structure() {
    local d=$1 run=chapters/$1/run.sh readme=chapters/$1/README.md ans=solutions/$1/ANSWERS.md
    local steps asks blocks apred q aq
    steps=$(grep -c '^ *step "' "$run")
    # A predict call's own line, in run.sh's order, must come right before
    # its step's line (continuation lines of the question between them).
    asks=$(awk '/^ *predict "/ { p = 1 } /^ *step "/ { if (p) n++; p = 0 } END { print n + 0 }' "$run")
    blocks=$(grep -c '^> \*\*Predict\.\*\*' "$readme")
    apred=$(grep -c '^## Predict [0-9]' "$ans" 2>/dev/null || echo 0)
    q=$(awk '/^## Questions/ { s = 1; next } /^## / { s = 0 } s && /^[0-9]+\. / { n++ } END { print n + 0 }' "$readme")
    aq=$(grep -c '^## Question [0-9]' "$ans" 2>/dev/null || echo 0)
    if [ "$steps" -gt 0 ] && [ "$asks" -eq "$steps" ] && [ "$blocks" -eq "$steps" ] && [ "$apred" -eq "$blocks" ]; then
        ok "$d: a prediction before each of its $steps steps (run.sh, README) and an answer for each in ANSWERS.md"
    else
        bad "$d: predictions" "run.sh: $steps steps, $asks with a predict before them; README: $blocks Predict blocks;" \
            "ANSWERS.md: $apred '## Predict K' sections (all must be equal)"
    fi
    if [ "$q" -ge 3 ] && [ "$q" -le 5 ] && [ "$aq" -eq "$q" ] && grep -q "solutions/$d/ANSWERS.md" "$readme"; then
        ok "$d: $q end-of-chapter questions, each answered in ANSWERS.md, which the README points to"
    else
        bad "$d: questions" "README: $q numbered questions (want 3-5); ANSWERS.md: $aq '## Question K' sections" \
            "README points to solutions/$d/ANSWERS.md: $(grep -c "solutions/$d/ANSWERS.md" "$readme")"
    fi
}

# answer_num FILE REGEX: the first number captured by REGEX's one group in
# FILE's `answer:` lines (an answer may continue on indented lines).
answer_num() {
    awk '/^answer: / { a = 1 } a && !/^answer: / && !/^  / { a = 0 } a' "$1" |
        sed -nE "s/.*$2.*/\\1/p" | head -1
}

# pr_close A B TOL: |A - B| <= TOL, numbers as awk reads them; false if A is empty.
pr_close() { [ -n "$1" ] && awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; exit !(d <= t && -d <= t) }'; }
