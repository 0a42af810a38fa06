# tests/tool_predict.sh: "predict, run, explain" in every chapter, sourced
# by tests/run.sh with the classroom tools' tests (ok, bad).
#
# For each chapters/NN-name/: run.sh asks a `predict` question (or more)
# right before each step it runs; the README has one `> **Predict.**` block
# per question run.sh asks;
# solutions/NN-name/ANSWERS.md has one `## Predict K` section per block, K
# = 1, 2, ... in order, and one `## Question K` per numbered question of
# the README's last section, `## Questions` (3 to 5 of them), which points
# at ANSWERS.md. Whether each program's `answer:` line follows from its own
# run is tested per chapter, in tests/chNN.sh.

# pq_seq FILE WORD: the K of FILE's `## WORD K` headings, in order, one line.
pq_seq() { sed -nE "s/^## $2 ([0-9]+)\\b.*/\\1/p" "$1" 2>/dev/null | tr '\n' ' '; }
# pq_count N: "1 2 ... N " (what pq_seq must print).
pq_count() { local i s=; for ((i = 1; i <= $1; i++)); do s+="$i "; done; echo "$s"; }

predict_structure() {
    local d=$1 run=chapters/$1/run.sh readme=chapters/$1/README.md ans=solutions/$1/ANSWERS.md
    local steps asked asks blocks q last
    steps=$(grep -c '^ *step "' "$run")
    asks=$(grep -c '^ *predict "' "$run")
    # Predict calls (their first lines) must come before each step's line,
    # with nothing but the questions' continuation lines between them.
    asked=$(awk '/^ *predict "/ { p = 1 } /^ *step "/ { if (p) n++; p = 0 } END { print n + 0 }' "$run")
    blocks=$(grep -c '^> \*\*Predict\.\*\*' "$readme")
    if [ "$steps" -gt 0 ] && [ "$asked" -eq "$steps" ] && [ "$blocks" -eq "$asks" ] &&
       [ "$(pq_seq "$ans" Predict)" = "$(pq_count "$blocks")" ]; then
        ok "$d: $asks predictions before its $steps steps (run.sh, README), each answered in ANSWERS.md"
    else
        bad "$d: predictions" "run.sh: $steps steps, $asked with a predict right before, $asks predicts; README: $blocks Predict blocks;" \
            "ANSWERS.md's '## Predict K' sections: '$(pq_seq "$ans" Predict)' (want 1 to $blocks)"
    fi
    q=$(awk '/^## Questions/ { s = 1; next } /^## / { s = 0 } s && /^[0-9]+\. / { n++ } END { print n + 0 }' "$readme")
    last=$(grep '^## ' "$readme" | tail -1)
    if [ "$q" -ge 3 ] && [ "$q" -le 5 ] && [ "$last" = "## Questions" ] &&
       [ "$(pq_seq "$ans" Question)" = "$(pq_count "$q")" ] && grep -q "solutions/$d/ANSWERS.md" "$readme"; then
        ok "$d: $q end-of-chapter questions, each answered in ANSWERS.md, which the README points to"
    else
        bad "$d: questions" "README: $q numbered questions under its last heading '$last' (want '## Questions', 3-5);" \
            "ANSWERS.md's '## Question K': '$(pq_seq "$ans" Question)'; README names solutions/$d/ANSWERS.md: $(grep -c "solutions/$d/ANSWERS.md" "$readme")"
    fi
}

for pq_dir in chapters/[0-9][0-9]-*/; do
    pq_dir=${pq_dir%/}
    predict_structure "${pq_dir#chapters/}"
done
