# tests/tool_gpu_guard.sh (sourced by tests/run.sh): no GPU binaries without
# a GPU, and the ones built anyway (make gpu) skip calmly.
#
# 1. `make` plans no nvcc command where there is no CUDA device and GPU is
#    not set (a dry run into a scratch build folder), and does plan them
#    with GPU=1 (so the check can fail).
# 2. Every program nvcc built here ($BUILD/gpu/: the chapters' and the
#    CUDA suite's), on a machine without a device, whatever its arguments:
#    exit 77, nothing on stdout, one line on stderr saying "skipped (needs
#    a GPU)", the driver's text only with -v.
if [ -z "$SAN" ] && command -v nvcc >/dev/null 2>&1 && ! nvidia-smi -L >/dev/null 2>&1; then
    gg_dry=$tmp/gpu_guard_dry
    make -n --no-print-directory BUILD="$gg_dry" programs >"$tmp/gg_plan" 2>&1
    gg_n=$(grep -c 'nvcc' "$tmp/gg_plan")
    if [ "$gg_n" -eq 0 ] && grep -q 'pwcc' "$tmp/gg_plan"; then
        ok "make without a CUDA device plans no nvcc command (the emulator build only)"
    else
        bad "make without a CUDA device plans no nvcc command" "$gg_n nvcc lines" "$(grep -m3 nvcc "$tmp/gg_plan")"
    fi
    make -n --no-print-directory BUILD="$gg_dry" GPU=1 programs >"$tmp/gg_plan" 2>&1
    gg_n=$(grep -c 'nvcc' "$tmp/gg_plan")
    if [ "$gg_n" -gt 0 ]; then ok "make GPU=1 plans the nvcc build ($gg_n nvcc lines)"
    else bad "make GPU=1 plans the nvcc build" "no nvcc line in make -n GPU=1"; fi
    rm -rf "$gg_dry"

    gg_progs=$(find "$BUILD/gpu" -type f -perm -u+x ! -name '*.o' 2>/dev/null | sort)
    if [ -z "$gg_progs" ]; then
        echo "(nvcc-built programs not tested: none in $BUILD/gpu/; make gpu builds them)"
    fi
    gg_bad=0 gg_count=0
    for p in $gg_progs; do
        gg_count=$((gg_count + 1))
        for args in "" "--help" "--tiny" "--bogus 1"; do
            # shellcheck disable=SC2086
            timeout 20 "$p" $args >"$tmp/so" 2>"$tmp/se"
            rc=$?
            if [ $rc -ne 77 ] || [ -s "$tmp/so" ] || [ "$(wc -l <"$tmp/se")" -ne 1 ] \
               || ! grep -q "skipped (needs a GPU): no CUDA device" "$tmp/se" || grep -q 'CUDA says' "$tmp/se"; then
                gg_bad=$((gg_bad + 1))
                bad "$(basename "$p") (nvcc, no GPU) ${args:-without arguments}: one calm line on stderr, exit 77" \
                    "exit $rc, $(wc -l <"$tmp/so") stdout lines, $(wc -l <"$tmp/se") stderr lines" "$(head -c 300 "$tmp/se")"
            fi
        done
        timeout 20 "$p" -v >"$tmp/so" 2>"$tmp/se"
        rc=$?
        if [ $rc -ne 77 ] || ! grep -q 'CUDA says: ' "$tmp/se"; then
            gg_bad=$((gg_bad + 1))
            bad "$(basename "$p") (nvcc, no GPU) -v: the driver's text" "exit $rc" "$(head -c 300 "$tmp/se")"
        fi
    done
    if [ "$gg_count" -gt 0 ] && [ "$gg_bad" -eq 0 ]; then
        ok "all $gg_count nvcc-built programs without a GPU: exit 77, one line on stderr, whatever the arguments; the driver's text only with -v"
    fi
fi
