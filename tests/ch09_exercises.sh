# tests/ch09_exercises.sh: exercises 9.1-9.4, sourced by tests/ch09.sh
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
#     with the emulator's fixed layout first;
#   - 9.4's bar rests on the counts being the ladder's: the solution, with
#     rung 5's tiles, is modelled at rung 5's own time to the printed digit
#     (6.835 ms on the H100 SXM), its 8 x 8 tile at 0.250 shared loads per
#     FMA ((TM + TN) / (TM TN)) and rung 3 at 2.000.

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

ch09x_sol=$BUILD/sol/9.4/check
if ! ch09x_want 9.4; then :
elif [ -x "$ch09x_sol" ]; then
    "$ch09x_sol" >"$tmp/ch09x.out" 2>&1
    # the modelled ms and the shared loads per FMA of each row (columns from the right: blk/SM, bound, ms, wavef, ld)
    row() { awk -v k="$1" 'index($0, k) == 3 { print $(NF - 4), $(NF - 2) }' "$tmp/ch09x.out"; }
    yours=$(row "yours ") r5=$(row "5_reg2d ") r3=$(row "3_smem ")
    if [ -n "$yours" ] && [ "$yours" = "$r5" ] && [ "${yours%% *}" = 0.250 ] && [ "${r3%% *}" = 2.000 ]; then
        ok "ex 9.4: the solution (rung 5's tiles) is modelled at rung 5's time, ${yours#* } ms, at 0.250 shared loads per FMA (rung 3: 2.000)"
    else
        bad "ex 9.4: the solution against rung 5 in the checker's model" "want the same modelled ms and 0.250 loads per FMA, rung 3 2.000" \
            "got: yours '$yours', rung 5 '$r5', rung 3 '$r3'" "$(tail -3 "$tmp/ch09x.out")"
    fi
else
    bad "ex 9.4 solution's checker" "not built: make BUILD=$BUILD $ch09x_sol"
fi
