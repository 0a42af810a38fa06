# tests/ch09_answers.sh: chapter 09's predict-then-answer, sourced by
# tests/ch09.sh. Each answer line quotes this run's own numbers: here they
# are recomputed from the CSV the same run wrote (a fixed sentence would not
# follow the CSV), and the README's Predict blocks, run.sh's predict lines
# and solutions/09-tensor-cores/ANSWERS.md agree.

# ch09a_v FILE VARIANT PARAM N: the value of a quantity row.
ch09a_v() { awk -F, -v v="$2" -v p="$3" -v n="$4" '/^#/ || /^program,/ { next }
            $2 == v && $3 == "quantity" && $7 == p && $5 == n { print $NF; exit }' "$1"; }

if [ -z "$SAN" ] && [ -x "$BUILD/ch09/gemm" ] && [ -x "$BUILD/ch09/precision" ]; then
    g=$tmp/ch09a_gemm.csv
    "$BUILD/ch09/gemm" --tiny --csv "$g" >"$tmp/so" 2>&1
    # Rungs 1 and 2 at the model's n = 4096: sectors (loads + stores) and the H100 time, both ratios.
    want=$(awk -v l1="$(ch09a_v "$g" 1_naive model_global_load_sectors 4096)" -v s1="$(ch09a_v "$g" 1_naive model_global_store_sectors 4096)" \
               -v l2="$(ch09a_v "$g" 2_coalesced model_global_load_sectors 4096)" -v s2="$(ch09a_v "$g" 2_coalesced model_global_store_sectors 4096)" \
               -v t1="$(ch09a_v "$g" 1_naive model_h100_t_s 4096)" -v t2="$(ch09a_v "$g" 2_coalesced model_h100_t_s 4096)" \
               'BEGIN { printf "%.1fx fewer global sectors than 1_naive, and the H100 SXM model runs it %.2fx", (l1 + s1) / (l2 + s2), t1 / t2 }')
    got=$(sed -n 's/^answer: 2_coalesced moves \(.*x\) faster.*/\1/p' "$tmp/so")
    # The fastest SIMT rung and the H200's count, from the model rows.
    want2=$(awk -F, '/^#/ || /^program,/ { next } $3 == "quantity" && $5 == 4096 && $7 ~ /^model_h[12]00_(t_s|pct_peak)$/ { v[$2 "/" $7] = $NF; r[$2] = 1 }
        END { for (x in r) { n++; if (v[x "/model_h100_t_s"] / v[x "/model_h200_t_s"] > 1.005) f++
                             if (x !~ /wmma/ && (b == "" || v[x "/model_h100_t_s"] < v[b "/model_h100_t_s"])) b = x }
              t = v[b "/model_h100_t_s"]; printf "%.3f ms %.0f%%|%d of %d", 1e3 * t, v[b "/model_h100_pct_peak"], f, n }' "$g")
    got2="$(sed -n 's/^answer: the fastest SIMT rung on the H100 SXM model: [0-9a-z_]*, \([0-9.]* ms\), bound by [a-z0-9]* (\([0-9]*%\) of.*/\1 \2/p' "$tmp/so")|$(sed -n 's/^answer: the H200 over the H100: \([0-9]* of [0-9]*\) rungs.*/\1/p' "$tmp/so")"
    if [ -n "$got" ] && [ "$got" = "$want" ] && [ "$got2" = "$want2" ] && [ "$(grep -c '^answer: ' "$tmp/so")" = 5 ]; then
        ok "ch09 gemm answers: sector and time ratios of rungs 1-2, the fastest SIMT rung ($got2) equal this run's CSV"
    else
        bad "ch09 gemm answers against the CSV" "got:  $got | $got2" "want: $want | $want2" "$(grep -c '^answer: ' "$tmp/so") answer lines (want 5)"
    fi
    "$BUILD/ch09/gemm" -n 64 --rung 3,9 >"$tmp/so" 2>&1
    if grep -q '^answer: not shown on this run: rungs 1 and 2 were not both run' "$tmp/so"; then
        ok "ch09 gemm --rung 3,9: the rung 1-2 answer says the run cannot show it"
    else bad "ch09 gemm --rung 3,9: answer for rungs 1-2" "$(grep '^answer' "$tmp/so")"; fi

    p=$tmp/ch09a_prec.csv
    "$BUILD/ch09/precision" -k 16,128 --csv "$p" >"$tmp/so" 2>&1
    want=$(awk -v a="$(ch09a_v "$p" fp16 normwise_err 16)" -v b="$(ch09a_v "$p" fp16 normwise_err 128)" \
               -v c="$(ch09a_v "$p" bf16 normwise_err 128)" \
               'BEGIN { printf "%.2e at k = 16 and %.2e at k = 128: it changed %.2fx|%.1fx", a, b, b / a, c / b }')
    got="$(sed -n 's/^answer: fp16.s normwise error is \(.*x\) (model: 1x,$/\1/p' "$tmp/so")|$(sed -n 's/^answer: bf16.s error is \([0-9.]*x\) fp16.s.*/\1/p' "$tmp/so")"
    o16=$(ch09a_v "$p" fp16 overflow_finite 16); ub=$(ch09a_v "$p" bf16 underflow_nonzero 16)
    r16=$([ "$o16" = 0 ] && echo "inf (not finite)" || echo "for C"); rb=$([ "$ub" = 1 ] && echo "for C" || echo "all zeros")
    if [ "$got" = "$want" ] && grep -q "^answer: inputs of 7e4 give $r16" "$tmp/so" \
       && grep -A1 '^answer: inputs of 7e4' "$tmp/so" | grep -q "in fp16 and [^ ]* $rb.* in bf16 (exact"; then
        ok "ch09 precision answers: fp16's error at k = 16 and 128, bf16/fp16 ratio, range outcomes equal this run's CSV ($got)"
    else
        bad "ch09 precision answers against the CSV" "got:  $got" "want: $want" "$(grep -A1 '^answer: inputs' "$tmp/so")"
    fi
    "$BUILD/ch09/precision" -k 64 >"$tmp/so" 2>&1
    if grep -q '^answer: not shown on this run: one k only (-k 64)' "$tmp/so"; then
        ok "ch09 precision -k 64: the growth-with-k answer says one k cannot show it"
    else bad "ch09 precision -k 64: answer" "$(grep '^answer' "$tmp/so")"; fi
fi

# The Predict/Questions/ANSWERS.md structure is tests/tool_predict.sh's.
