# tests/ch06_predict.sh: chapter 06's "predict, run, explain" (issue 15),
# sourced by tests/ch06.sh. The README asks before each step and run.sh asks
# the same; ANSWERS.md answers each; every program prints its answer: lines
# from its own table, and these tests tie each number to that table (so an
# answer typed in, or read from another row, fails). Whether the effect
# shows (arrays past the caches, threads that ran together) depends on the
# machine: either form is accepted, the numbers must agree in both.
ch06=$BUILD/ch06

# The structure (Predict blocks, questions, ANSWERS.md) is tests/tool_predict.sh's.

# ch06p_near A B [ABS]: A within 2% of B, plus ABS (default 0.006) for A's
# printed rounding (0.051 for a number printed with one decimal).
ch06p_near() { awk -v a="$1" -v b="$2" -v e="${3:-0.006}" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; exit !(a != "" && b != "" && d <= 0.02 * m + e) }'; }

if [ -x "$ch06/stream" ]; then
    if env -u STREAM_SRC "$ch06/stream" --tiny -t 1,2 >"$tmp/p6" 2>&1; then
        # best GB/s of kernel K at T threads, from the table
        ch06p_best() { awk -v t="$1" -v k="$2" '$1 == t && $2 == k && NF >= 5 { print $3; exit }' "$tmp/p6"; }
        l1=$(grep '^answer: .*copy or triad?' "$tmp/p6"); l2=$(grep '^answer: .*one core or all?' "$tmp/p6")
        r1=$(sed -n 's/^answer: .*copy or triad? on \([0-9]*\) threads\{0,1\} triad reached \([0-9.]*\) GB\/s and copy \([0-9.]*\):.*/\1 \2 \3/p' "$tmp/p6")
        read -r t tr cp <<<"$r1"
        r2=$(sed -n 's/^answer: .*one core or all? triad on \([0-9]*\) threads gave \([0-9.]*\)x .*/\1 \2/p' "$tmp/p6")
        if [ -n "$cp" ] && [ "$(ch06p_best "$t" triad)" = "$tr" ] && [ "$(ch06p_best "$t" copy)" = "$cp" ] && [ -n "$r2" ] &&
           ch06p_near "${r2#* }" "$(awk -v a="$(ch06p_best "${r2% *}" triad)" -v b="$(ch06p_best 1 triad)" 'BEGIN { printf "%.4f", a / b }')" &&
           [ "$(grep -c '^answer: ' "$tmp/p6")" -eq 2 ]; then
            ok "ch06 stream answers: triad and copy at $t thread(s) are the table's; ${r2#* }x is triad at ${r2% *} over triad at 1"
        else
            bad "ch06 stream answers against the table" "$l1" "$l2" "$(sed -n '/^threads kernel/,/^$/p' "$tmp/p6")"
        fi
    else
        bad "ch06 stream --tiny -t 1,2" "$(tail -3 "$tmp/p6")"
    fi
fi

if [ -x "$ch06/staircase" ]; then
    if "$ch06/staircase" --tiny >"$tmp/p6" 2>&1; then
        last=$(awk '$2 ~ /^(KiB|MiB|GiB)$/ && $3 ~ /^(L1|L2|L3|DRAM)$/ { l = $4 " " $6 } END { print l }' "$tmp/p6")
        a=$(sed -n 's/^answer: .*an access to .* waited \([0-9.]*\) ns (.*), \([0-9.]*\)x an L1 hit.s \([0-9.]*\) ns.*/\1 \2 \3/p' "$tmp/p6")
        b=$(sed -n 's/^answer: .*read bandwidth fell from \([0-9.]*\) GB\/s (.*) to \([0-9.]*\) (.*): \([0-9.]*\)x; latency rose \([0-9.]*\)x.*/\1 \2 \3 \4/p' "$tmp/p6")
        # lat: last latency, lr: its ratio, l1: L1 latency; g1: first GB/s, g2: last GB/s, gr: their ratio, lr2: latency ratio
        read -r lat lr l1 g1 g2 gr lr2 <<<"$a $b"
        if [ -n "$lr2" ] && ch06p_near "$lat" "${last#* }" 0.051 && [ "$g2" = "${last% *}" ] && ch06p_near "$lr" "$(awk -v a="$lat" -v b="$l1" 'BEGIN { print a / b }')" 0.1 &&
           ch06p_near "$gr" "$(awk -v a="$g1" -v b="$g2" 'BEGIN { print a / b }')" 0.051 && [ "$lr2" = "$lr" ] &&
           grep -qE "^ +[0-9]+ [KMG]iB L1 +$g1 " "$tmp/p6"; then
            ok "ch06 staircase answers: latency $lat ns and $g2 GB/s are the last row's; ratios ${lr}x and ${gr}x follow from them"
        else
            bad "ch06 staircase answers against the table" "$(grep '^answer' "$tmp/p6")" "last row: $last"
        fi
    else
        bad "ch06 staircase --tiny" "$(tail -3 "$tmp/p6")"
    fi
fi

if [ -x "$ch06/roofline" ]; then
    if env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE "$ch06/roofline" --tiny >"$tmp/p6" 2>&1; then
        # the kernels of the table on one thread left of the all-core ridge, against the answer's list
        ridge=$(sed -n 's/^answer: .*: left of the ridge (\([0-9.]*\) flop\/byte).*/\1/p' "$tmp/p6")
        want=$(awk -v r="$ridge" '$1 == "kernel" && $2 == "threads" { on = 1; next } on && NF == 0 { on = 0 }
                                  on && $2 == 1 && $3 + 0 < r + 0 { printf "%s%s", n++ ? ", " : "", $1 }' "$tmp/p6")
        got=$(sed -n 's/^answer: \(.*\): left of the ridge .*/\1/p' "$tmp/p6")
        ch06p_gf() { awk -v k="$1" '$1 == k && $2 == 1 { print $5; exit }' "$tmp/p6"; }
        sx=$(sed -n 's/^answer: saxpy from DRAM: \([a-z0-9_]*\) ([0-9]* lanes) ran \([0-9.]*\)x .*/\1 \2/p' "$tmp/p6")
        if [ -n "$ridge" ] && [ -n "$got" ] && [ "$got" = "$want" ] && grep -q '^square_loop .* memory$' "$tmp/p6" && [[ $got == *square_loop* ]] &&
           { grep -q '^answer: not shown on this run: this build has no SIMD saxpy rung' "$tmp/p6" ||
             ch06p_near "${sx#* }" "$(awk -v a="$(ch06p_gf "${sx% *}")" -v b="$(ch06p_gf saxpy_scalar)" 'BEGIN { if (b > 0) printf "%.4f", a / b }')"; }; then
            ok "ch06 roofline answers: the kernels named are the table's left of the ridge ($ridge); saxpy's ratio '${sx#* }' is the table's GFLOP/s ratio"
        else
            bad "ch06 roofline answers against the table" "$(grep '^answer' "$tmp/p6")" "table, left of $ridge: $want"
        fi
    else
        bad "ch06 roofline --tiny" "$(tail -3 "$tmp/p6")"
    fi
fi

if [ -x "$ch06/transpose" ]; then
    if "$ch06/transpose" -n 300,301 -b 4,16,64 -r 3 --min-time 0 >"$tmp/p6" 2>&1; then
        top=$(awk '$1 == "blocked" && $5 + 0 > g { g = $5 + 0; b = $2; x = $6 } END { sub("x", "", x); print b, g, x }' "$tmp/p6")
        a=$(sed -n 's/^answer: \(not shown on this run: \)\{0,1\}the best block was \([0-9]*\): \([0-9.]*\) GB\/s, \([0-9.]*\)x the naive.*/\2 \3 \4/p' "$tmp/p6")
        read -r bb bg bx <<<"$a"
        # The answer's block is the table's fastest, or ties with it (its own
        # row's GB/s within 2% + 0.05, as the answer's figures are held): at a
        # tie the program and this awk may pick different rows of one rate.
        bbg=$(awk -v b="$bb" '$1 == "blocked" && $2 == b { print $5; exit }' "$tmp/p6")
        if [ -n "$bx" ] && [ -n "$bbg" ] && ch06p_near "$bbg" "$(echo "$top" | cut -d' ' -f2)" 0.051 \
           && ch06p_near "$bg" "$(echo "$top" | cut -d' ' -f2)" 0.051 && ch06p_near "$bx" "${top##* }" 0.051; then
            ok "ch06 transpose answer: best block $bb ($bg GB/s, ${bx}x) is the table's fastest row"
        else
            bad "ch06 transpose answer against the table" "$(grep '^answer' "$tmp/p6")" "table's best: $top"
        fi
    else
        bad "ch06 transpose -n 300,301" "$(tail -3 "$tmp/p6")"
    fi
fi

if [ -x "$ch06/softmax" ]; then
    if "$ch06/softmax" --tiny >"$tmp/p6" 2>&1; then
        ch06p_ns() { awk -v v="$1" '$1 == v && NF == 8 { print $8; exit }' "$tmp/p6"; }
        on=$(sed -n 's/^answer: .*online against 3pass: \([0-9.]*\)x on large rows.*/\1/p' "$tmp/p6")
        st=$(sed -n 's/^answer: .*3pass_stored (20 bytes, half the exps) against 3pass: \([0-9.]*\)x \(faster\|slower\).*/\1 \2/p' "$tmp/p6")
        r_st=$(awk -v a="$(ch06p_ns 3pass)" -v b="$(ch06p_ns 3pass_stored)" 'BEGIN { r = a / b; if (r < 1) r = 1 / r; printf "%.4f", r }')
        dir=$(awk -v a="$(ch06p_ns 3pass)" -v b="$(ch06p_ns 3pass_stored)" 'BEGIN { print (a >= b ? "faster" : "slower") }')
        if ch06p_near "$on" "$(awk -v a="$(ch06p_ns 3pass)" -v b="$(ch06p_ns online)" 'BEGIN { printf "%.4f", a / b }')" &&
           ch06p_near "${st% *}" "$r_st" && [ "${st#* }" = "$dir" ]; then
            ok "ch06 softmax answers: online ${on}x and 3pass_stored ${st} follow from the table's ns per element"
        else
            bad "ch06 softmax answers against the table" "$(grep '^answer' "$tmp/p6")" "3pass $(ch06p_ns 3pass), stored $(ch06p_ns 3pass_stored), online $(ch06p_ns online)"
        fi
    else
        bad "ch06 softmax --tiny" "$(tail -3 "$tmp/p6")"
    fi
fi
