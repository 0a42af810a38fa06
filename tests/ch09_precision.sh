# tests/ch09_precision.sh: chapter 09's precision lesson, sourced by
# tests/ch09.sh (itself sourced by tests/run.sh: ok, bad, expect_usage,
# sanitizer_report, $tmp and $BUILD come from there).
# What holds on any machine, GPU or emulator: the error order
# bf16 > fp16 > fp32 at every k, bf16's error about 8x fp16's (2^-8 / 2^-11),
# and range: a 7e4 input is inf in fp16 and finite in bf16, a 1e-8 input is
# 0 in fp16 and not in bf16. The program itself stops with exit 1 if any
# element errs past its bound (input rounding + fp32 accumulation).

ch09p=$BUILD/ch09/precision
# ch09p_q FILE VARIANT PARAM [K]: the value of a quantity row (n = K if given).
ch09p_q() { awk -F, -v v="$2" -v p="$3" -v k="${4:-}" '/^#/ || /^program,/ { next }
            $2 == v && $3 == "quantity" && $7 == p && (k == "" || $5 == k) { print $NF; exit }' "$1"; }

if [ -x "$ch09p" ]; then
    c=$tmp/ch09_precision.csv
    if "$ch09p" --tiny --csv "$c" >"$tmp/so" 2>&1 && ! sanitizer_report "$tmp/so"; then
        ok "ch09 precision --tiny: every kernel within its error bound"
        ks=$(awk -F, '/^#/ || /^program,/ { next } $2 == "fp16" && $7 == "normwise_err" { print $5 }' "$c")
        order="" ratio_ok=1
        for k in $ks; do
            e32=$(ch09p_q "$c" fp32 normwise_err "$k"); e16=$(ch09p_q "$c" fp16 normwise_err "$k")
            eb=$(ch09p_q "$c" bf16 normwise_err "$k")
            awk -v a="$eb" -v b="$e16" -v c="$e32" 'BEGIN { exit !(a > b && b > c && c > 0) }' || order+=" k=$k: bf16 $eb fp16 $e16 fp32 $e32;"
            awk -v a="$eb" -v b="$e16" 'BEGIN { exit !(a / b > 4 && a / b < 16) }' || ratio_ok=0
        done
        if [ -n "$ks" ] && [ -z "$order" ]; then ok "ch09 precision: normwise error bf16 > fp16 > fp32 at k = $(echo $ks)"
        else bad "ch09 precision error order" "${order:-no rows in $c}"; fi
        if [ -n "$ks" ] && [ $ratio_ok -eq 1 ]; then ok "ch09 precision: bf16's error 4-16x fp16's at every k (2^-8 / 2^-11 = 8)"
        else bad "ch09 precision bf16/fp16 ratio" "$(grep normwise_err "$c")"; fi
        got="$(ch09p_q "$c" fp16 overflow_finite) $(ch09p_q "$c" bf16 overflow_finite) $(ch09p_q "$c" fp16 underflow_nonzero) $(ch09p_q "$c" bf16 underflow_nonzero)"
        if [ "$got" = "0 1 0 1" ]; then ok "ch09 precision range: 7e4 inputs give inf in fp16, finite in bf16; 1e-8 gives 0 in fp16, not in bf16"
        else bad "ch09 precision range" "fp16/bf16 overflow finite, fp16/bf16 underflow nonzero: got '$got', want '0 1 0 1'"; fi
    else
        bad "ch09 precision --tiny" "$(tail -5 "$tmp/so")"
    fi

    # The Tensor Core rung must not depend on the fragments' element layout,
    # nor on the order threads run in.
    if PW_SIMT_WMMA_SCRAMBLE=11 PW_SIMT_SHUFFLE=5 "$ch09p" --tiny -k 16,64 >"$tmp/so" 2>&1 && ! sanitizer_report "$tmp/so"; then
        ok "ch09 precision: the same checks with a scrambled fragment layout and shuffled threads"
    else
        bad "ch09 precision scrambled" "$(tail -3 "$tmp/so")"
    fi
    expect_usage "ch09 precision -k 0" "$ch09p" -k 0
    expect_usage "ch09 precision -n 2000 (past 1024)" "$ch09p" -n 2000
fi
