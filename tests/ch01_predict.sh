# tests/ch01_predict.sh: helpers for the "predict, run, explain" tests of
# chapters 01-03, sourced by tests/ch01.sh, ch02.sh and ch03.sh (uses ok,
# bad, $tmp). The Predict/Questions/ANSWERS.md structure of every chapter
# is tested by tests/tool_predict.sh.

# answer_num FILE REGEX: the first number captured by REGEX's one group in
# FILE's `answer:` lines (an answer may continue on indented lines).
answer_num() {
    awk '/^answer: / { a = 1 } a && !/^answer: / && !/^  / { a = 0 } a' "$1" |
        sed -nE "s/.*$2.*/\\1/p" | head -1
}

# pr_close A B TOL: |A - B| <= TOL, numbers as awk reads them; false if A is empty.
pr_close() { [ -n "$1" ] && awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; exit !(d <= t && -d <= t) }'; }
