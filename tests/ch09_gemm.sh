# tests/ch09_gemm.sh: chapter 09's GEMM ladder, sourced by tests/ch09.sh
# (itself sourced by tests/run.sh: ok, bad, expect_usage, sanitizer_report,
# $tmp, $BUILD and $SAN come from there).
# The generic tests already ran build/ch09/gemm --tiny, whose exit 0 means
# every rung matched the double reference on odd sizes. Here, what holds on
# any machine (the counts are the emulator's, the same under every compiler):
# each count grows exactly 8x from n to 2n when the tiles divide n; the
# ladder's steps cut what they claim to; the SIMT rungs launch SGEMM_CUDA's
# block sizes (kernels/gemm_gpu.cu's table); 8192 x mma_ops = 2mnk; the Tensor
# Core rungs do not depend on the fragments' element layout; the kernels are
# race-free in any thread order, on several OS threads.

ch09g=$BUILD/ch09/gemm
# ch09g_q FILE VARIANT PARAM N: the value of a quantity row.
ch09g_q() { awk -F, -v v="$2" -v p="$3" -v n="$4" '/^#/ || /^program,/ { next }
            $2 == v && $3 == "quantity" && $7 == p && $5 == n { print $NF; exit }' "$1"; }

if [ -x "$ch09g" ]; then
    # The counting runs take seconds; a sanitizer makes them ten times slower
    # and cannot change a count (the emulator counts, not the compiler).
    if [ -z "$SAN" ]; then
        # Rungs 1-4 and 8 tile by at most 64, rungs 5-7 by 128, rung 9 by 64 x 64 x 32.
        # Each run counts at n and 2n, and the model's rows (model_*, threads = the n
        # they were scaled from) predict the counts at 2n from each.
        a=$tmp/ch09_gemm_a.csv b=$tmp/ch09_gemm_b.csv
        for run in "$a 64 1,2,3,4,8" "$b 128 5,6,7,9"; do
            set -- $run
            "$ch09g" -n "$2,$(($2 * 2))" --model-n $(($2 * 2)) --rung "$3" --csv "$1" >"$tmp/so" 2>&1 ||
                bad "ch09 gemm -n $2,$(($2 * 2)) --rung $3" "$(tail -3 "$tmp/so")"
        done
        counters="global_load_sectors global_store_sectors shared_requests shared_wavefronts shared_ideal_wavefronts barriers mma_ops warp_instructions global_lines load_rounds warps blocks"
        # From n to 2n: loads and mma_sync grow 8x (the k loop), stores of C 4x (once per element).
        growth=$(for f_n in "$a 64" "$b 128"; do
            set -- $f_n
            awk -F, -v n1="$2" '/^#/ || /^program,/ { next } $3 == "quantity" { v[$2 "/" $7 "/" $5] = $NF }
                $3 == "quantity" && $7 == "global_load_sectors" { k[$2] = 1 }
                END { for (x in k) { split("global_load_sectors 8 mma_ops 8 global_store_sectors 4", w, " ")
                        for (i = 1; i < 6; i += 2) { lo = v[x "/" w[i] "/" n1]; hi = v[x "/" w[i] "/" (2 * n1)]
                          if (lo == "" || hi != w[i + 1] * lo) printf "%s %s: %s -> %s (want %sx); ", x, w[i], lo, hi, w[i + 1] } } }' "$1"
        done)
        nv=$(cat "$a" "$b" | grep -c ',quantity,0,[0-9]*,1,warp_instructions,')
        if [ -z "$growth" ] && [ "$nv" -eq 22 ]; then
            ok "ch09 gemm: from n to 2n (64 -> 128, 128 -> 256) global loads and mma_ops grow exactly 8x, stores of C 4x, in all 11 variants"
        else bad "ch09 gemm growth from n to 2n" "${growth:-$nv warp_instructions rows, want 22}"; fi
        # The model's counts at 2n, scaled from n (m n (alpha k + beta), from two runs in k), against the counts at 2n.
        pred=$(for f_n in "$a 64" "$b 128"; do
            set -- $f_n
            awk -F, -v n1="$2" -v names="$counters" 'BEGIN { split(names, w, " "); for (i in w) want[w[i]] = 1 }
                /^#/ || /^program,/ { next }
                $3 == "quantity" && $5 == 2 * n1 && $6 == n1 && substr($7, 7) in want && $7 ~ /^model_/ { m[$2 "/" substr($7, 7)] = $NF }
                $3 == "quantity" && $5 == 2 * n1 && $6 == 1 && ($7 in want) { c[$2 "/" $7] = $NF }
                END { for (x in c) { if (!(x in m) || c[x] != m[x]) printf "%s: predicted %s, counted %s; ", x, m[x], c[x]; n++ }
                      if (n == 0) printf "no counts at %d; ", 2 * n1 }' "$1"
        done)
        if [ -z "$pred" ]; then ok "ch09 gemm: the model's counts at 2n, scaled from n (128 from 64, 256 from 128), equal the counts at 2n, every counter"
        else bad "ch09 gemm model's scaling" "$pred"; fi

        sect() { awk -v l="$(ch09g_q "$1" "$2" global_load_sectors 128)" -v s="$(ch09g_q "$1" "$2" global_store_sectors 128)" 'BEGIN { print l + s }'; }
        g1=$(sect "$a" 1_naive) g2=$(sect "$a" 2_coalesced) g3=$(sect "$a" 3_smem)
        g8=$(sect "$a" 8_wmma_global_bf16) g9=$(sect "$b" 9_wmma_shared_bf16)
        w3=$(ch09g_q "$a" 3_smem shared_wavefronts 128) w5=$(ch09g_q "$b" 5_reg2d shared_wavefronts 128)
        # Same n, same flops: counts compare directly.
        if awk -v g1="$g1" -v g2="$g2" -v g3="$g3" -v g8="$g8" -v g9="$g9" -v w3="$w3" -v w5="$w5" \
            'BEGIN { exit !(g2 < g1 && g3 < g2 && g9 < g8 && w5 < w3 && g3 > 0 && w5 > 0) }'; then
            ok "ch09 gemm at 128^3: global sectors naive $g1 > coalesced $g2 > smem tiles $g3; wmma shared $g9 < wmma global $g8; shared wavefronts reg2d $w5 < smem $w3"
        else
            bad "ch09 gemm ladder counts at 128^3" "sectors: 1=$g1 2=$g2 3=$g3 8=$g8 9=$g9; wavefronts: 3=$w3 5=$w5"
        fi

        # The SIMT rungs launch the blocks of the SGEMM_CUDA kernels they mirror (its runner's A6000 settings):
        # 32 x 32 threads (rung 1), 1024 (2, 3), 512 (4), 256 (5, 6), 128 (7, its kernel 10 "warptiling").
        thr=$(for f_v in "$a 1_naive" "$a 2_coalesced" "$a 3_smem" "$a 4_reg1d" "$b 5_reg2d" "$b 6_vec4" "$b 7_warptile"; do
            set -- $f_v
            printf '%s ' "$(ch09g_q "$1" "$2" launch_threads 128)"
        done)
        if [ "$thr" = "1024 1024 1024 512 256 256 128 " ]; then
            ok "ch09 gemm: rungs 1-7 launch SGEMM_CUDA's threads per block (${thr% })"
        else bad "ch09 gemm: threads per block of rungs 1-7" "got '$thr', want '1024 1024 1024 512 256 256 128 '"; fi
        # Rung 7 (BK = 16) loads its 4 float4 of A and 4 of B a step as independent loads: one round a step,
        # k / 16 rounds per warp (16 at k = 256), where rung 6 (BK = 8, one float4 of each) takes k / 8.
        rpw=$(for v in 6_vec4 7_warptile; do
            awk -v r="$(ch09g_q "$b" "$v" load_rounds 256)" -v w="$(ch09g_q "$b" "$v" warps 256)" \
                'BEGIN { if (w > 0) printf "%g ", r / w; else printf "- " }'
        done)
        if [ "$rpw" = "32 16 " ]; then ok "ch09 gemm at 256^3: rounds of global loads per warp: 6_vec4 32 (k/8), 7_warptile 16 (k/16)"
        else bad "ch09 gemm: rounds of loads per warp of rungs 6 and 7 at 256^3" "got '$rpw', want '32 16 '"; fi

        mma=$(for f_v in "$a 8_wmma_global_fp16" "$a 8_wmma_global_bf16" "$b 9_wmma_shared_fp16" "$b 9_wmma_shared_bf16"; do
            set -- $f_v
            for n in 128; do printf '%s ' "$(ch09g_q "$1" "$2" mma_ops "$n")"; done
        done)
        # 128^3: 2 x 128^3 / 8192 = 512 mma_sync per variant
        if [ "$mma" = "512 512 512 512 " ]; then ok "ch09 gemm: 8192 x mma_ops = 2mnk for rungs 8 and 9, fp16 and bf16 (512 mma_sync at 128^3)"
        else bad "ch09 gemm mma_ops" "got '$mma', want 512 each"; fi
    fi

    # Rungs 8 and 9 must not depend on which lane holds which element.
    if PW_SIMT_WMMA_SCRAMBLE=12345 "$ch09g" --tiny --rung 8,9 >"$tmp/so" 2>&1 && ! sanitizer_report "$tmp/so"; then
        ok "ch09 gemm: the WMMA rungs verify with the fragment layout scrambled (PW_SIMT_WMMA_SCRAMBLE=12345)"
    else bad "ch09 gemm, scrambled fragments" "$(tail -3 "$tmp/so")"; fi
    # No shared-memory race: the same checks in any thread order, blocks on 2 OS threads
    # (under a sanitizer, ten times slower: the tiled rung and the staged WMMA rung only).
    ch09g_rungs=1,2,3,4,5,6,7,8,9
    [ -n "$SAN" ] && ch09g_rungs=3,9
    if PW_SIMT_SHUFFLE=7 PW_SIMT_WORKERS=2 "$ch09g" --tiny --rung $ch09g_rungs >"$tmp/so" 2>&1 && ! sanitizer_report "$tmp/so" \
        && ! grep -q '^simt' "$tmp/so"; then
        ok "ch09 gemm: rungs $ch09g_rungs verify with threads shuffled (PW_SIMT_SHUFFLE=7), blocks on 2 OS threads, no emulator report"
    else bad "ch09 gemm shuffled, 2 workers" "$(grep -m3 simt "$tmp/so")" "$(tail -3 "$tmp/so")"; fi

    expect_usage "ch09 gemm -n 2048 (past what the emulator counts)" "$ch09g" -n 2048
    expect_usage "ch09 gemm --rung 10 (no such rung)" "$ch09g" --rung 10
    expect_usage "ch09 gemm --rung 0 (cuBLAS: a GPU only)" "$ch09g" --rung 0
fi

# The nvcc build without a GPU: tests/tool_gpu_guard.sh, for every nvcc-built program.
