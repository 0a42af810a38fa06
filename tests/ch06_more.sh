# tests/ch06_more.sh: chapter 06's tests of the roofline, transpose and
# softmax programs, sourced by tests/ch06.sh (uses ok, bad, expect_usage,
# sanitizer_report, $BUILD, $tmp). What --tiny, --help and the bad-input
# matrix of tests/run.sh do not cover:
#   - the roofline's arithmetic, read back from the program's own table:
#     every bound is min(peak, intensity x DRAM bandwidth) of the roofs it
#     printed for that thread count, "memory" exactly left of the ridge,
#     and "% of bound" = measured / bound; its CSV holds the roofs and a
#     point per kernel; it answers the README's question;
#   - a wrong result is caught before anything is timed (PW_CH06_BREAK
#     spoils one variant's output in the checks): exit 1, the first bad
#     index on stderr, no CSV;
#   - the options these programs add (shapes, block sizes, rows).
ch06=$BUILD/ch06

if [ -x "$ch06/roofline" ]; then
    if "$ch06/roofline" --tiny --csv "$tmp/ch06r.csv" >"$tmp/ch06r" 2>"$tmp/ch06r.err" && ! sanitizer_report "$tmp/ch06r.err"; then
        # roofs: "threads peak dram l2 l1 ridge" after the header line; kernels: the table after "kernel threads ..."
        why=$(awk '
            /^threads +peak GF\/s/ { roofs = 1; next }
            roofs && NF == 6 && $1 ~ /^[0-9]+$/ { peak[$1] = $2; bw[$1] = $3; ridge[$1] = $6; next }
            roofs { roofs = 0 }
            /^kernel +threads/ { table = 1; next }
            table && NF == 7 && $2 ~ /^[0-9]+$/ {
                t = $2; ai = $3; bound = $4; got = $5; pct = $6; lim = $7; sub("%", "", pct); n++
                if (!(t in peak)) { print $1 ": no roofs for " t " threads"; failed = 1; exit }
                # the roofs are printed to 0.1: allow that rounding, times the intensity
                want = ai * bw[t]; if (want > peak[t]) want = peak[t]
                if ((bound - want) ^ 2 > (0.06 + 0.01 * want + 0.05 * ai) ^ 2) { print $1 ": bound " bound ", want min(" peak[t] ", " ai " x " bw[t] ") = " want; failed = 1; exit }
                wl = (ai < ridge[t]) ? "memory" : "compute"
                if ((ai - ridge[t]) ^ 2 > (0.01 * ridge[t]) ^ 2 && lim != wl) { print $1 ": limit " lim ", want " wl " (ridge " ridge[t] ")"; failed = 1; exit }
                # % of bound from the printed (rounded) numbers: allow their rounding, 0.005 and 0.05
                tol = 100 * (0.005 / bound + got * 0.05 / (bound * bound)) + 0.05 + 0.01 * pct
                if (bound > 0 && (pct - 100 * got / bound) ^ 2 > tol ^ 2) { print $1 ": " pct "% of bound, want " 100 * got / bound; failed = 1; exit }
                next
            }
            table && NF == 0 { table = 0 }
            END { if (!failed && n < 3) print "only " n " kernel lines" }' "$tmp/ch06r")
        if [ -z "$why" ]; then ok "ch06 roofline: every bound is min(peak, intensity x bandwidth) of its roofs; limit and % agree"
        else bad "ch06 roofline arithmetic" "$why" "$(sed -n '/^the roofs/,/^$/p' "$tmp/ch06r")"; fi

        # The CSV: roofs per thread count and a point per kernel, the answer printed.
        threads=$(awk -F, '$3 == "quantity" && $2 == "roof_dram" { print $6 }' "$tmp/ch06r.csv" | sort -u | wc -l)
        points=$(awk -F, '$3 == "summary" && $7 == "roofline"' "$tmp/ch06r.csv" | wc -l)
        kinds=$(awk -F, '$3 == "summary" && $7 == "roofline" { print $2 }' "$tmp/ch06r.csv" | grep -cE '^(square_loop|saxpy_scalar|dot_scalar)$')
        if [ "$threads" -ge 1 ] && grep -q ',roof_compute,' "$tmp/ch06r.csv" && [ "$kinds" -ge 3 ] && [ "$points" -ge 5 ] \
           && grep -q '^Which kernels can the roofline say will never reach the compute peak' "$tmp/ch06r" \
           && grep -qE '^- square_loop and its kind: 0.125 flop/byte, left of the ridge' "$tmp/ch06r"; then
            ok "ch06 roofline CSV: roofs for $threads thread count(s), $points points; the answer names square_loop (0.125 flop/byte)"
        else
            bad "ch06 roofline CSV and answer" "thread counts $threads, points $points, ch01/02 kernels $kinds" "$(tail -5 "$tmp/ch06r")"
        fi
        # GEMM: chapter 07's rungs on the roofline, where its kernels are built in
        if [ -f kernels/gemm.c ]; then
            if awk -F, '$3 == "summary" && $7 == "roofline"' "$tmp/ch06r.csv" | grep -qE ',gemm_[0-9]+_'; then
                ok "ch06 roofline places chapter 07's GEMM rungs"
            else bad "ch06 roofline has no GEMM points" "$(grep -c gemm "$tmp/ch06r.csv") gemm lines in the CSV"; fi
        fi
    else
        bad "ch06 roofline --tiny" "$(tail -5 "$tmp/ch06r.err")"
    fi
fi

# ch06_caught NAME PROGRAM VARIANT WANT_REGEX: with VARIANT spoilt the program
# exits 1 before timing, says where (WANT_REGEX on stderr) and writes no CSV.
ch06_caught() {
    local label=$1 prog=$2 variant=$3 want=$4 rc
    rm -f "$tmp/ch06c.csv"
    PW_CH06_BREAK=$variant "$prog" --tiny --csv "$tmp/ch06c.csv" >"$tmp/ch06c" 2>"$tmp/ch06c.err"
    rc=$?
    if [ $rc -eq 1 ] && grep -qE "$want" "$tmp/ch06c.err" && grep -q 'nothing was timed' "$tmp/ch06c.err" \
       && [ ! -f "$tmp/ch06c.csv" ] && ! sanitizer_report "$tmp/ch06c.err"; then
        ok "$label"
    else
        bad "$label" "exit $rc (want 1), CSV $([ -f "$tmp/ch06c.csv" ] && echo written || echo absent)" "$(head -3 "$tmp/ch06c.err")"
    fi
}
if [ -x "$ch06/roofline" ]; then
    ch06_caught "ch06 roofline: a wrong square_loop is caught (first bad index), nothing timed" "$ch06/roofline" square_loop 'square_loop on 1 thread.*first bad index'
    ch06_caught "ch06 roofline: a wrong dot_scalar is caught" "$ch06/roofline" dot_scalar 'dot_scalar on 1 thread'
    [ -f kernels/gemm.c ] && ch06_caught "ch06 roofline: a wrong GEMM rung is caught" "$ch06/roofline" gemm_2_ikj 'first bad index'
    expect_usage "ch06 roofline --gemm-n 0" "$ch06/roofline" --gemm-n 0
    expect_usage "ch06 roofline --gemm-n 9000" "$ch06/roofline" --gemm-n 9000
    expect_usage "ch06 roofline -n 1000,2000 (one size only)" "$ch06/roofline" -n 1000,2000
fi

if [ -x "$ch06/transpose" ]; then
    if "$ch06/transpose" --tiny >"$tmp/ch06t" 2>&1 && grep -q '^all variants match the reference exactly' "$tmp/ch06t" \
       && grep -qE '^answer: (not shown on this run: )?the best block was [0-9]+: ' "$tmp/ch06t"; then
        ok "ch06 transpose verifies every block on odd shapes and names the best block"
    else bad "ch06 transpose --tiny" "$(tail -5 "$tmp/ch06t")"; fi
    ch06_caught "ch06 transpose: a wrong blocked transpose is caught (first bad element), nothing timed" "$ch06/transpose" blocked 'first bad element out\[[0-9]+\]\[[0-9]+\]'
    ch06_caught "ch06 transpose: a wrong naive transpose is caught" "$ch06/transpose" naive 'transpose naive'
    if "$ch06/transpose" -n 37,61 -b 5,16 -r 3 --min-time 0 >"$tmp/ch06t" 2>&1 && grep -q '37 x 61' "$tmp/ch06t" \
       && grep -qE '^blocked +5 ' "$tmp/ch06t"; then ok "ch06 transpose -n 37,61 -b 5,16: a non-square shape and odd block"
    else bad "ch06 transpose -n 37,61 -b 5,16" "$(tail -5 "$tmp/ch06t")"; fi
    expect_usage "ch06 transpose -n 1,2,3" "$ch06/transpose" -n 1,2,3
    expect_usage "ch06 transpose -b 0" "$ch06/transpose" -b 0
    expect_usage "ch06 transpose -n 9999999999,9999999999 (overflows)" "$ch06/transpose" -n 9999999999,9999999999
    PW_MEM_AVAILABLE=1000000 expect_usage "ch06 transpose -n 1000,1000 with 1 MB available" "$ch06/transpose" -n 1000,1000
fi

if [ -x "$ch06/softmax" ]; then
    if "$ch06/softmax" --tiny >"$tmp/ch06s" 2>&1 && grep -q '^all variants match the double reference' "$tmp/ch06s" \
       && grep -qE '^softmax_expf is within [0-9.e-]+ of exp' "$tmp/ch06s" \
       && grep -qE '^answer: (not shown on this run \([^)]*\): )?online against 3pass: [0-9.]+x on large rows' "$tmp/ch06s" \
       && grep -qE '^- 3pass +.*(memory|exp)-bound' "$tmp/ch06s"; then
        ok "ch06 softmax verifies (large values, -inf, odd lengths) and says what bound it, from its numbers"
    else bad "ch06 softmax --tiny" "$(tail -8 "$tmp/ch06s")"; fi
    ch06_caught "ch06 softmax: a wrong online softmax is caught (first bad index), nothing timed" "$ch06/softmax" online 'softmax_online n=1 .*first bad index'
    ch06_caught "ch06 softmax: a wrong 3pass_stored is caught" "$ch06/softmax" 3pass_stored 'softmax_3pass_stored'
    expect_usage "ch06 softmax --rows 0" "$ch06/softmax" --rows 0
    expect_usage "ch06 softmax -n 1000,2000 (one size only)" "$ch06/softmax" -n 1000,2000
    expect_usage "ch06 softmax --small abc" "$ch06/softmax" --small abc
    expect_usage "ch06 softmax -n 4G --rows 1000000 (overflows)" "$ch06/softmax" -n 4G --rows 1000000
fi
