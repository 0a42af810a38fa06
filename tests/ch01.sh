# tests/ch01.sh: chapter 01's own tests, sourced by tests/run.sh (uses ok,
# bad, $BUILD, $tmp). What --tiny and the bad-input matrix do not cover: the
# probe reports the ISA this build can use (its flags and the CPU together),
# and every program ends with findings computed from its own numbers.

ch01=$BUILD/ch01
# ch01_rank ISA: x86's ISAs nest, so they compare as numbers.
ch01_rank() { case $1 in SSE | NEON) echo 1 ;; AVX2) echo 2 ;; AVX-512) echo 3 ;; *) echo 0 ;; esac; }
if [ -x "$ch01/probe" ]; then
    "$ch01/probe" --static >"$tmp/ch01" 2>&1
    isa=$(awk '/^SIMD:/ { sub(",", "", $2); print $2 }' "$tmp/ch01")
    # What the build targets (SIMD_ISA, from mk/detect.mk) against what the
    # CPU has (/proc/cpuinfo: only here, to check the probe itself).
    if [ -n "${SIMD_ISA:-}" ] && [ "$(uname -m)" = x86_64 ] && [ -r /proc/cpuinfo ]; then
        flags=$(grep -m1 '^flags' /proc/cpuinfo)
        cpu=SSE
        [[ $flags == *" avx2 "* && $flags == *" fma "* ]] && cpu=AVX2
        [[ $flags == *" avx512f "* ]] && cpu=AVX-512
        want=$SIMD_ISA
        [ "$(ch01_rank "$cpu")" -lt "$(ch01_rank "$want")" ] && want=$cpu
        if [ "$isa" = "$want" ]; then
            ok "ch01 probe --static: $isa, the narrower of the build's $SIMD_ISA and the CPU's $cpu"
        else
            bad "ch01 probe --static says '$isa'" "want $want: the build targets $SIMD_ISA, the CPU has $cpu" \
                "$(head -4 "$tmp/ch01")"
        fi
        if [ "$cpu" != "$isa" ]; then
            if grep -q "the CPU has $cpu, but this build" "$tmp/ch01"; then ok "ch01 probe says the CPU has more than the build uses"
            else bad "ch01 probe does not say the CPU has $cpu" "$(head -4 "$tmp/ch01")"; fi
        fi
    fi
    regs=$(awk '/^SIMD:/ { for (i = 1; i < NF; i++) if ($(i + 1) == "vector") print $i }' "$tmp/ch01")
    if [ -n "$regs" ] && [ "$regs" -ge 8 ]; then ok "ch01 probe reports $regs vector registers"
    else bad "ch01 probe reports no vector register count" "$(grep '^SIMD:' "$tmp/ch01")"; fi

    # The sweep's findings: one paragraph per vector ISA the build can use.
    rank=$(ch01_rank "$isa")
    if [ "$rank" -gt 0 ]; then
        timeout 60 "$ch01/probe" --tiny >"$tmp/ch01" 2>&1
        cp "$tmp/ch01" "$tmp/ch01p"   # the answer's test below reads the same run
        n=$(grep -cE '^- (SSE|AVX2|AVX-512|NEON): one accumulator' "$tmp/ch01")
        if [ "$n" -eq "$rank" ] && grep -q '^What the sweep shows' "$tmp/ch01"; then
            ok "ch01 probe explains the sweep of each of its $rank vector ISAs from its numbers"
        else
            bad "ch01 probe's sweep findings" "$n paragraphs for $rank ISAs" "$(sed -n '/^What the sweep/,/^peak/p' "$tmp/ch01" | head -12)"
        fi
    fi
fi
for p in loops dependence timing; do
    [ -x "$ch01/$p" ] || continue
    timeout 60 "$ch01/$p" --tiny >"$tmp/ch01" 2>&1
    case $p in
        loops) pat='^What this run shows:' ;;
        dependence) pat='^what this run shows \(n = [0-9]+\):' ;;
        timing) pat='^  the cold call took [0-9.]+x the median' ;;
    esac
    if grep -qE "$pat" "$tmp/ch01"; then ok "ch01 $p --tiny ends with findings from its own numbers"
    else bad "ch01 $p --tiny findings" "no line matching '$pat'" "$(tail -6 "$tmp/ch01")"; fi
done

# ---- predict, run, explain: each program's answer: line against its own
# table or CSV (so a hard-coded answer would fail), and the chapter's
# predictions and questions against run.sh and solutions/.../ANSWERS.md.
. tests/ch01_predict.sh

if [ -x "$ch01/probe" ]; then
    [ -s "$tmp/ch01p" ] || timeout 60 "$ch01/probe" --tiny >"$tmp/ch01p" 2>&1
    # The sweep's last column (the widest ISA): the first count within 10% of
    # its best, and one accumulator's share, allowing for the table's rounding.
    want=$(awk '/^accumulators/ { isa = $NF; t = 1; next } t && NF == 0 { t = 0 } t { k[++n] = $1; v[n] = $NF; if ($NF > m) m = $NF }
        END { for (i = 1; i <= n && v[i] < 0.895 * m; i++); print isa, m, v[1], 100 * v[1] / m; for (j = 1; j <= n; j++) print k[j], v[j] }' "$tmp/ch01p")
    read -r isa best one share <<<"$(head -1 <<<"$want")"
    got_k=$(answer_num "$tmp/ch01p" "needed ([0-9]+) accumulators")
    got_share=$(answer_num "$tmp/ch01p" "one accumulator got ([0-9]+)%")
    row=$(awk -v k="$got_k" 'NR > 1 && $1 == k { print $2 }' <<<"$want")
    early=$(awk -v k="$got_k" -v m="$best" 'NR > 1 { if ($1 == k) exit; if ($2 >= 0.905 * m) print $1 }' <<<"$want")
    if grep -q "^answer: $isa needed $got_k accumulators to reach 90% of its best rate ($best GFLOP/s" "$tmp/ch01p" \
       && [ -n "$row" ] && awk -v r="$row" -v m="$best" 'BEGIN { exit !(r >= 0.895 * m) }' && [ -z "$early" ] \
       && pr_close "$got_share" "$share" 1; then
        ok "ch01 probe answers from its sweep: $isa needs $got_k accumulators, one gets $got_share%"
    else
        bad "ch01 probe's answer does not match its $isa column" "best $best, one accumulator $one ($share%)" \
            "$(grep -A1 '^answer:' "$tmp/ch01p")"
    fi
fi

if [ -x "$ch01/dependence" ]; then
    timeout 60 "$ch01/dependence" --tiny --csv "$tmp/ch01d.csv" >"$tmp/ch01d" 2>&1
    # From the CSV's medians: the chain's over sum's, and sum's over sum_split8's.
    read -r chain gain <<<"$(awk -F, '$3 == "summary" { m[$2] = $9 } END { print m["running_sum"] / m["sum"], m["sum"] / m["sum_split8"] }' "$tmp/ch01d.csv")"
    got_c=$(answer_num "$tmp/ch01d" "sum ran at ([0-9.]+)x the chain")
    got_g=$(sed -nE 's/.*8 partial sums ran (only )?([0-9.]+)x faster.*/\2/p' "$tmp/ch01d" | head -1)
    shown=yes; grep -q '^answer: not shown' "$tmp/ch01d" && shown=no
    want_shown=$(awk -v g="$gain" 'BEGIN { print (g >= 1.5 ? "yes" : "no") }')
    if pr_close "$got_c" "$chain" 0.006 && pr_close "$got_g" "$gain" 0.006 && [ "$shown" = "$want_shown" ]; then
        ok "ch01 dependence answers from its CSV: sum at ${got_c}x the chain, 8 partial sums ${got_g}x faster"
    else
        bad "ch01 dependence's answer does not match its CSV" "CSV: chain/sum $chain, sum/split8 $gain (shown: $want_shown)" \
            "$(grep '^answer:' "$tmp/ch01d")"
    fi
fi

if [ -x "$ch01/timing" ]; then
    timeout 60 "$ch01/timing" --tiny --csv "$tmp/ch01t.csv" >"$tmp/ch01t" 2>&1
    # The cold call is the sample with rep 0; the median is the summary's.
    cold=$(awk -F, '$2 == "square_dram" && $3 == "sample" && $4 == 0 { c = $9 } $2 == "square_dram" && $3 == "summary" { m = $9 }
        END { print c / m }' "$tmp/ch01t.csv")
    got=$(sed -nE 's/^answer: .*the cold call took (only )?([0-9.]+)x the median.*/\2/p' "$tmp/ch01t")
    if pr_close "$got" "$cold" 0.051 && grep -q '^answer: .*the busy neighbour was not run (--tiny)' "$tmp/ch01t"; then
        ok "ch01 timing answers from its CSV: the cold call took ${got}x the median"
    else
        bad "ch01 timing's answer does not match its CSV" "CSV: cold / median = $cold" "$(grep '^answer:' "$tmp/ch01t")"
    fi
fi

if [ -x "$ch01/loops" ]; then
    # With the probe (about a second), so the % of peak and bandwidth exist;
    # sizes inside the caches, so the answer must say it cannot show DRAM.
    timeout 60 "$ch01/loops" -n 1000,4099 --min-time 0.01 >"$tmp/ch01l" 2>&1
    want=$(awk '$1 == "square" && $2 == 4099 { print $(NF - 1), $NF }' "$tmp/ch01l")
    got=$(sed -nE 's/^answer: .*square at n = 4099 .*reached ([0-9.]+%) of the FMA peak and ([0-9.]+%) of the triad.*/\1 \2/p' "$tmp/ch01l")
    if [ -n "$want" ] && [ "$got" = "$want" ] && grep -q '^answer: not shown on this run: .*not past the last cache' "$tmp/ch01l"; then
        ok "ch01 loops answers from its table (square at n = 4099: $got) and says the run cannot show DRAM"
    else
        bad "ch01 loops' answer does not match its table" "table's %peak %bw: '$want', answer's: '$got'" "$(grep '^answer:' "$tmp/ch01l")"
    fi
fi
