# tests/ch09_exercises.sh: exercises 9.1-9.3, sourced by tests/ch09.sh
# (itself sourced by tests/run.sh: ok, bad, $BUILD and $tmp come from there).
# tests/run.sh already grades every solution (must pass) and skeleton (must
# fail cleanly), and tests/ex_loopholes.sh every wrong answer in
# tests/wrong/9.*.cu (found by name: it needs no line for them). Here, what
# the checkers' verdicts rest on, on any machine (the counts are the
# emulator's, the same under every compiler and sanitizer):
#   - 9.1's load bound is derived, not tuned: a 16 x 16 tiling makes exactly
#     k (m ceil(n/16) + n ceil(m/16)) loads, 14.0 per output at 100^3, and
#     8 x 8 tiles (the bound) 26.0, where the naive kernel makes 200;
#   - 9.2's scrambled round is what catches a kernel that writes C from
#     acc.x[] at the hardware's documented positions: it passes every size
#     with the emulator's fixed layout first.

# Only where the exercises are built (make test-isa builds other chapters').
ch09x_want() { [[ " ${EXERCISES:-} " == *" $1 "* ]]; }

ch09x_sol=$BUILD/sol/9.1/check
if ! ch09x_want 9.1; then :
elif [ -x "$ch09x_sol" ]; then
    "$ch09x_sol" >"$tmp/ch09x.out" 2>&1
    line=$(grep -E '^ +100 x 100 x 100 ' "$tmp/ch09x.out")
    if [[ $line == *"ok (14.0 global loads per output; untiled: 200, 8 x 8 tiles: 26.0)"* ]]; then
        ok "ex 9.1: 16 x 16 tiles load 14.0 per output at 100^3, as k (m ceil(n/16) + n ceil(m/16)) / mn says (bound 26.0, naive 200)"
    else
        bad "ex 9.1: loads per output at 100^3" "want 14.0 (16 x 16 tiles), bound 26.0, naive 200" "got: ${line:-$(tail -3 "$tmp/ch09x.out")}"
    fi
else
    bad "ex 9.1 solution's checker" "not built: make BUILD=$BUILD $ch09x_sol"
fi

ch09x_wrong=$BUILD/wrong/9.2-guessed-layout/check
if ! ch09x_want 9.2; then :
elif [ -x "$ch09x_wrong" ]; then
    "$ch09x_wrong" >"$tmp/ch09x.out" 2>&1
    rc=$?
    fixed_ok=$(sed -n '/^exercise 9.2: a WMMA/,/^exercise 9.2: the same/p' "$tmp/ch09x.out" | grep -c ' ok (')
    if [ $rc -eq 1 ] && [ "$fixed_ok" -eq 8 ] && grep -q 'wrong with a scrambled one' "$tmp/ch09x.out"; then
        ok "ex 9.2: a kernel that writes C from acc.x[] by the hardware's layout passes all 8 sizes unscrambled, fails scrambled"
    else
        bad "ex 9.2: the scrambled round catches a layout-dependent kernel" \
            "want exit 1, 8 sizes ok with the fixed layout, then 'wrong with a scrambled one'" \
            "got exit $rc, $fixed_ok ok" "$(tail -3 "$tmp/ch09x.out")"
    fi
else
    bad "ex 9.2 wrong answer's checker" "not built: make BUILD=$BUILD $ch09x_wrong"
fi
