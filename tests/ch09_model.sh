# tests/ch09_model.sh: the GPU model version 2 as chapter 09 uses it, sourced
# by tests/ch09.sh (ok, bad, expect_usage, $tmp, $BUILD and $SAN come from
# tests/run.sh). The model's arithmetic has its unit tests
# (tests/test_gpu_model.c, test_gpu_device.c, test_gpu_regs.c); here:
#  - the occupancy calculation against CUDA's own (cuda_occupancy.h), on
#    every device file and thousands of launch shapes, where the header is;
#  - the published SGEMM_CUDA ladder: the CSV's columns and ratios, and every
#    rung the model has brought within 25% of the published figure stays there
#    (a regression test: the list grows as the model improves, never shrinks);
#  - --device: by name, by path, and a wrong one refused in one line.

ch09m=$BUILD/ch09/gemm
cuda_inc=""
for d in "${CUDA_HOME:-}" "${CUDA_PATH:-}" /usr/local/cuda /opt/cuda /usr; do
    [ -n "$d" ] && [ -f "$d/include/cuda_occupancy.h" ] && { cuda_inc=$d/include; break; }
done
if [ -n "$cuda_inc" ]; then
    if ${CC:-cc} -std=gnu11 -O1 -I"$cuda_inc" -Icommon -DPW_GPU_DIR="\"$PWD/common/gpus\"" -o "$tmp/occ_cuda" \
        tests/occupancy_cuda.c common/gpu_model.c common/gpu_device.c -lm >"$tmp/so" 2>&1 &&
        "$tmp/occ_cuda" >"$tmp/so" 2>&1; then
        ok "occupancy equals cuda_occupancy.h's: $(tail -1 "$tmp/so")"
    else bad "occupancy against cuda_occupancy.h ($cuda_inc)" "$(head -8 "$tmp/so")"; fi
else
    skip=$((skip + 1)); echo "SKIP occupancy against cuda_occupancy.h: no CUDA toolkit headers here (tests/test_gpu_model.c has 30 of its answers)"
fi

if [ -x "$ch09m" ] && [ -z "$SAN" ]; then
    pub=$tmp/ch09m_published.csv
    if "$ch09m" -n 128 --rung 1,2,3,4,5,6,7 --csv "$tmp/ch09m.csv" --published-csv "$pub" >"$tmp/ch09m.out" 2>&1; then
        # The CSV: the issue's columns, one row per rung, ratio = modelled / published.
        chk=$(awk -F, '/^#/ { next } $1 == "device" { hdr = $0; next }
            { n++; r = $6 / $8; if (r < $9 * 0.999 || r > $9 * 1.001) printf "%s: ratio %s, modelled/published %s; ", $3, $9, r }
            END { if (hdr !~ /^device,ladder,rung,their_kernel,n,modelled_gflops,modelled_v1_gflops,published_gflops,ratio,/) printf "header %s; ", hdr
                  if (n != 7) printf "%d rows, want 7; ", n }' "$pub")
        # The table prints what the CSV holds.
        tab=$(awk -F, '/^#/ || $1 == "device" { next } { printf "%s %.2f\n", $3, $9 }' "$pub" | while read -r rung ratio; do
            grep -Eq "^$rung .* $ratio [a-z0-9]+ +(yes|no)" "$tmp/ch09m.out" || printf '%s %s not in the table; ' "$rung" "$ratio"; done)
        if [ -z "$chk$tab" ]; then ok "ch09 gemm --published-csv: 7 rungs, device,rung,...,ratio columns, ratio = modelled / published, as printed"
        else bad "ch09 gemm published CSV" "$chk$tab"; fi
        # Rungs the model has reached: each must stay within 25% of SGEMM_CUDA's figure.
        reached="1_naive 4_reg1d"
        miss=$(for r in $reached; do awk -F, -v r="$r" '$3 == r && ($9 < 0.75 || $9 > 1.25) { printf "%s at %s; ", r, $9 }' "$pub"; done)
        if [ -z "$miss" ]; then ok "ch09 gemm: the rungs within 25% of SGEMM_CUDA's published GFLOP/s stay there ($reached)"
        else bad "ch09 gemm: a rung left the 25% band of the published ladder" "$miss"; fi
        # Version 1 (the throughput terms alone, every sector at L2) is printed beside version 2 for each rung.
        v1=$(awk -F, '/^#/ || $1 == "device" { next } !($7 > 0) || ($10 - $7 / $8 > 0.001 || $7 / $8 - $10 > 0.001) { printf "%s: v1 %s, ratio %s; ", $3, $7, $10 }' "$pub")
        if [ -z "$v1" ]; then ok "ch09 gemm: version 1's GFLOP/s and ratio beside version 2's for every rung"
        else bad "ch09 gemm: version 1 column" "$v1"; fi
        grep -q '^benchmark: [0-9] of 7 rungs within 25%' "$tmp/ch09m.out" && grep -q '^benchmark: rank order of the rungs' "$tmp/ch09m.out" &&
            grep -q '^benchmark: [0-9] of 6 steps' "$tmp/ch09m.out" &&
            ok "ch09 gemm: the published comparison's three targets are reported as benchmark lines" ||
            bad "ch09 gemm: benchmark lines" "$(grep '^benchmark' "$tmp/ch09m.out")"
    else bad "ch09 gemm -n 128 --published-csv" "$(tail -5 "$tmp/ch09m.out")"; fi

    # --device by name and by path; the H100 table's times change on an A100.
    "$ch09m" --tiny --rung 3 --device a100-sxm --csv "$tmp/a100.csv" >"$tmp/so.a100" 2>&1
    "$ch09m" --tiny --rung 3 --device "$PWD/common/gpus/a100-sxm.gpu" >"$tmp/so.path" 2>&1
    "$ch09m" --tiny --rung 3 --csv "$tmp/h100.csv" >"$tmp/so.h100" 2>&1
    ta=$(awk -F, '$2 == "3_smem" && $7 == "model_a100_sxm_t_s" { print $NF; exit }' "$tmp/a100.csv")
    th=$(awk -F, '$2 == "3_smem" && $7 == "model_h100_t_s" { print $NF; exit }' "$tmp/h100.csv")
    if grep -q 'the model on the A100' "$tmp/so.a100" && grep -q 'the model on the A100' "$tmp/so.path" &&
        [ -n "$ta" ] && [ -n "$th" ] && [ "$ta" != "$th" ]; then
        ok "ch09 gemm --device a100-sxm (by name and by path): the A100's tables, another time than the H100's ($ta s against $th s)"
    else bad "ch09 gemm --device" "a100 $ta h100 $th" "$(grep 'the model on' "$tmp/so.a100" "$tmp/so.path")"; fi
    expect_usage "ch09 gemm --device nosuch: one line, exit 2" "$ch09m" --tiny --device nosuch
    expect_usage "ch09 gemm --published-csv into a missing folder: one line, exit 2" "$ch09m" --tiny --published-csv /nonexistent-dir/p.csv
    printf 'name = broken\n' >"$tmp/broken.gpu"
    expect_usage "ch09 gemm --device a broken file: one line, exit 2" "$ch09m" --tiny --device "$tmp/broken.gpu"
fi

# The registers ptxas reports (common/gpus/registers.tsv, build/gen/registers.tsv): tests/regs.sh.
[ -f tests/regs.sh ] && . tests/regs.sh

# The README and the program say nvcc unrolls the barrier-free k loop of rungs 1 and 2 four times
# (the model waits once a pass): their PTX, where nvcc is, has 4 FMAs and 8 global loads a turn
# of the unrolled loop plus 1 and 2 in the remainder loop.
if [ -n "${HAVE_NVCC:-}" ] || command -v nvcc >/dev/null 2>&1; then
    if ${HAVE_NVCC:-nvcc} -ptx -arch=sm_86 -O3 -std=c++17 -Icommon -Icommon/simt -Ikernels kernels/gemm_gpu.cu -o "$tmp/gg.ptx" >"$tmp/so" 2>&1; then
        unroll=$(for k in gg_naive gg_coalesced; do
            awk -v k="$k" '$0 ~ "^.visible .entry _Z[0-9]+" k "P" { on = 1 } on && /fma.rn.f32/ { f++ } on && /ld.global/ { l++ }
                on && /^}/ { printf "%s %d %d;", k, f, l; exit }' "$tmp/gg.ptx"; done)
        if [ "$unroll" = "gg_naive 5 10;gg_coalesced 5 10;" ]; then
            ok "ch09: nvcc unrolls rungs 1 and 2's k loop 4 times (5 FMAs, 10 global loads in their PTX), as the README says"
        else bad "ch09: the PTX of rungs 1 and 2 (the README's unrolling claim)" "$unroll (want 5 FMAs, 10 loads each)"; fi
    else bad "ch09: nvcc -ptx kernels/gemm_gpu.cu" "$(head -3 "$tmp/so")"; fi
fi
