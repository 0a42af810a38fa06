# tests/ch14.sh: chapter 14's own tests, sourced by tests/run.sh (which
# provides ok, bad, expect_usage, sanitizer_report, $BUILD, $SAN, $tmp).
# The server runs real threads in real time, so nothing here asserts a
# speed. What holds by construction is asserted on every run, busy machine
# and ThreadSanitizer included: every request answered once or rejected
# with a counted reason (answered + rejected = sent, no duplicates), the
# queue never above its bound, no batch held by the batcher past the budget
# (its own timestamps, with a stated slack for a late wake-up), every
# answer equal to the request run alone. The programs exit 1 on any of
# those; here the same numbers are read back from the tables.

ch14=$BUILD/ch14
# Late wake-ups: a busy 2-core machine delays a timed wait by milliseconds,
# ThreadSanitizer by tens of them.
slack=100
[ "${SAN:-}" = tsan ] && slack=400

if [ -x "$ch14/serve" ]; then
    # answered + rejected = sent on every row of a table ($4 sent, $5 answered, $6 rejected).
    rows_add_up() { awk '$3 ~ /^(none|greedy|budget)$/ { n++; if ($4 != $5 + $6) bad++ } END { exit !(n > 0 && bad == 0) }' "$1"; }

    # Overload: 20x the unbatched capacity into a queue of 8. The queue holds,
    # the excess is rejected and counted, nothing is lost.
    if timeout 120 "$ch14/serve" --tiny -d 128 -L 2 -q 8 --load 2000 --at 2000 --duration 0.1 --slack "$slack" >"$tmp/so" 2>"$tmp/se" \
       && grep -q '^all runs check: 3 runs, every request answered once or rejected (queue full), queue within 8,' "$tmp/so" \
       && rows_add_up "$tmp/so" \
       && awk '$3 == "none" && $6 > 0 { f = 1 } END { exit !f }' "$tmp/so" \
       && ! sanitizer_report "$tmp/se"; then
        ok "ch14 serve overload (20x capacity, queue 8): answered + rejected = sent on every rule, rejections counted, queue within 8"
    else
        bad "ch14 serve overload" "$(grep -E '^(all| +[0-9]+ +[0-9]+ (none|greedy|budget))' "$tmp/so")" "$(tail -3 "$tmp/se")"
    fi

    # Light load against a 20 ms budget: 400 requests/s, a full batch of 32
    # would take 80 ms to gather, four budgets. The budget rule must batch (more than
    # greedy, which sends what is there) and hold no batch past the budget
    # + slack ($11, ms); every row adds up.
    if timeout 120 "$ch14/serve" --tiny -L 2 --rate 400 --budget 20 --duration 0.3 --slack "$slack" >"$tmp/so" 2>"$tmp/se" \
       && grep -q '^all runs check: 3 runs' "$tmp/so" && rows_add_up "$tmp/so" \
       && awk -v lim=$((20 + slack)) '$3 ~ /^(none|greedy|budget)$/ { if ($11 > lim) bad++; b[$3] = $7 } END { exit !(bad == 0 && b["budget"] >= 1.5 * b["greedy"] && b["none"] == 1) }' "$tmp/so" \
       && ! sanitizer_report "$tmp/se"; then
        ok "ch14 serve light load, 20 ms budget: the budget rule batches ($(awk '$3 == "budget" { print $7 }' "$tmp/so") a batch, greedy $(awk '$3 == "greedy" { print $7 }' "$tmp/so")), no batch held past budget + ${slack} ms"
    else
        bad "ch14 serve light load" "$(grep -E '^(all| +[0-9]+ +[0-9]+ (none|greedy|budget))' "$tmp/so")" "$(tail -3 "$tmp/se")"
    fi

    # The sweep of --tiny: 2 rates x 3 rules, the best rule per rate, the
    # closing trade-off table, the CSV rows (6 batch sizes, 36 quantities).
    if timeout 120 "$ch14/serve" --tiny -w 3 -B 12 --slack "$slack" --csv "$tmp/serve.csv" >"$tmp/so" 2>"$tmp/se" \
       && grep -q '^all runs check: 6 runs' "$tmp/so" && rows_add_up "$tmp/so" \
       && [ "$(grep -c '^  at  *[0-9]* requests/s: ' "$tmp/so")" = 2 ] \
       && grep -q '^the trade-off at .* (200% of the unbatched capacity)' "$tmp/so" \
       && [ "$(grep -cE '^  (none|greedy|budget) ' "$tmp/so")" = 3 ] \
       && [ "$(grep -c '^serve,forward,summary,' "$tmp/serve.csv")" = 5 ] \
       && [ "$(grep -c ',quantity,.*,\(throughput\|p50\|p99\|rejected\|mean_batch\|load\),' "$tmp/serve.csv")" = 36 ] \
       && ! sanitizer_report "$tmp/se"; then
        ok "ch14 serve --tiny -w 3 -B 12: 6 checked runs, best rule per rate, trade-off table, CSV (b = 1, 2, 4, 8, 12)"
    else
        bad "ch14 serve --tiny sweep" "$(grep -E '^(all|  at|the trade)' "$tmp/so")" "$(tail -3 "$tmp/se")"
    fi

    expect_usage "ch14 serve --rate 0 (a zero arrival rate)" "$ch14/serve" --rate 0
    grep -q 'rate must be > 0' "$tmp/se" || bad "ch14 serve --rate 0 says why" "$(cat "$tmp/se")"
    expect_usage "ch14 serve --budget 0" "$ch14/serve" --budget 0
    grep -q 'budget must be > 0' "$tmp/se" || bad "ch14 serve --budget 0 says why" "$(cat "$tmp/se")"
    expect_usage "ch14 serve -B 0 (batch size 0)" "$ch14/serve" -B 0
    expect_usage "ch14 serve --duration -1" "$ch14/serve" --duration -1
    expect_usage "ch14 serve --load 0" "$ch14/serve" --load 0
fi

if [ -x "$ch14/decode" ]; then
    # A closed burst: the iteration counts depend on the rule alone. Every
    # request finishes under both, continuous needs fewer iterations and
    # fills more slots; then Poisson arrivals, odd sizes.
    if timeout 120 "$ch14/decode" --tiny --burst -B 7 -n 53 --max-len 19 >"$tmp/so" 2>"$tmp/se" \
       && grep -q '^all requests check: 53 finished under both' "$tmp/so" \
       && awk '$1 == "static" { si = $3; sr = $4; st = $2 } $1 == "continuous" { ci = $3; cr = $4; ct = $2 } END { exit !(ci < si && cr > sr && ct == st && st > 0) }' "$tmp/so" \
       && ! sanitizer_report "$tmp/se"; then
        ok "ch14 decode burst, B = 7, 53 requests: continuous $(awk '$1 == "continuous" { print $3 }' "$tmp/so") iterations, static $(awk '$1 == "static" { print $3 }' "$tmp/so"), same tokens, all checked"
    else
        bad "ch14 decode burst" "$(grep -E '^(all|static|continuous)' "$tmp/so")" "$(tail -3 "$tmp/se")"
    fi
    if timeout 120 "$ch14/decode" --tiny -B 5 -n 41 -d 100 -L 3 >"$tmp/so" 2>"$tmp/se" \
       && grep -q '^all requests check: 41 finished under both, in arrival order' "$tmp/so" && ! sanitizer_report "$tmp/se"; then
        ok "ch14 decode with Poisson arrivals, B = 5, d = 100, 3 layers: every request finished in order and equal to its tokens alone"
    else
        bad "ch14 decode with arrivals" "$(grep -E '^(all|static|continuous)' "$tmp/so")" "$(tail -3 "$tmp/se")"
    fi
    expect_usage "ch14 decode --load 0" "$ch14/decode" --load 0
    expect_usage "ch14 decode -B 0" "$ch14/decode" -B 0
    expect_usage "ch14 decode -n 0" "$ch14/decode" -n 0
fi

# ---- predict, then answer (issue 15) -----------------------------------------
# The Predict/Questions/ANSWERS.md structure is tests/tool_predict.sh's.

# The answer lines against the run's own table and CSV (measured numbers:
# whatever they are, the answer must be computed from them).
if [ "${SAN:-}" != tsan ] && [ -x "$ch14/serve" ]; then
    timeout 120 "$ch14/serve" --tiny -B 12 --load 100,200 --duration 0.1 --slack "$slack" --csv "$tmp/sa.csv" >"$tmp/so" 2>"$tmp/se"
    # t(12) / t(1) from the CSV's forward medians, as the answer prints it.
    ratio=$(awk -F, '$2 == "forward" && $3 == "summary" { t[$5] = $9 } END { if (t[1] > 0 && t[12] > 0) printf "%.1f", t[12] / t[1] }' "$tmp/sa.csv")
    rule=$(sed -n 's/.*with nothing rejected, and served most: \([a-z]*\)$/\1/p' "$tmp/so")
    # The named rule must meet the budget in the trade-off table; "no rule" means none of its rows does.
    meets=$(awk '/^the trade-off at/ { t = 1; next } t && $1 ~ /^(none|greedy|budget)$/ && $4 <= 20 && $5 == 0 { printf "%s ", $1 }' "$tmp/so")
    if [ -n "$ratio" ] && grep -q "^answer: 12 requests at once took ${ratio}x the time of one (.* us), not 12x;\$" "$tmp/so" \
       && { { [ -n "$rule" ] && [[ " $meets" == *" $rule "* ]]; } \
            || { [ -z "$rule" ] && [ -z "$meets" ] && grep -q '^  at 200% of the unbatched capacity no rule kept p99 within 20.0 ms' "$tmp/so"; }; }; then
        ok "ch14 serve: the answer's ${ratio}x is t(12)/t(1) from the CSV; its rule (${rule:-none met the budget}) agrees with the trade-off table"
    else
        bad "ch14 serve: answer against table and CSV" "CSV ratio $ratio, rules meeting the budget: '$meets'" "$(grep -A1 '^answer' "$tmp/so")" "$(tail -2 "$tmp/se")"
    fi
fi
if [ "${SAN:-}" != tsan ] && [ -x "$ch14/decode" ]; then
    timeout 120 "$ch14/decode" --tiny --burst -B 7 -n 53 --max-len 19 --csv "$tmp/da.csv" >"$tmp/so" 2>"$tmp/se"
    # Rows an iteration and iterations from the table; the ratios from the CSV's full-precision values.
    want1=$(awk '$1 == "static" { sr = $4; si = $3 } $1 == "continuous" { cr = $4; ci = $3 }
                 END { printf "answer: continuous batching ran %s rows an iteration against static'"'"'s %s, needed %s iterations against %s,", cr, sr, ci, si }' "$tmp/so")
    want3=$(awk -F, '$3 == "quantity" { v[$2 "," $7] = $NF }
                 END { r = v["continuous,mean_rows"] / v["static,mean_rows"]; k = v["continuous,tokens_per_s"] / v["static,tokens_per_s"]
                       w = k < 0.95 * r ? "less than in proportion" : (k > 1.05 * r ? "more than in proportion" : "about in proportion")
                       printf "  rows an iteration %.2fx, tokens/s %.2fx: %s ", r, k, w }' "$tmp/da.csv")
    if grep -qxF "$want1" "$tmp/so" && grep -qF "$want3" "$tmp/so" \
       && grep -q "made $(awk -F, '$3 == "quantity" && $7 == "tokens_per_s" { v[$2] = $NF } END { printf "%.2f", v["continuous"] / v["static"] }' "$tmp/da.csv")x the tokens/s" "$tmp/so"; then
        ok "ch14 decode burst: the answer's rows, iterations and ratios are the table's and the CSV's"
    else
        bad "ch14 decode: answer against table and CSV" "want: $want1" "      $want3" "got: $(grep -A2 '^answer' "$tmp/so")"
    fi
fi
