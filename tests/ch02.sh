# tests/ch02.sh: chapter 02's own tests, sourced by tests/run.sh (uses ok,
# bad, expect_usage, $BUILD, $SAN, $tmp). What --tiny and the bad-input
# matrix do not cover: the scalar rungs really are scalar and the auto ones
# really are vectorised (in the object code), --isa caps and skips, and the
# options of chapter 02 that take text.

ch02=$BUILD/ch02
if [ -x "$ch02/lanes" ]; then
    # --isa sse: the AVX2 and AVX-512 rungs are reported skipped, not failed.
    if grep -q '^flags.* avx2' /proc/cpuinfo 2>/dev/null; then
        if "$ch02/lanes" --tiny --isa sse >"$tmp/ch02" 2>&1 && grep -q '^skipped: square_avx2 ' "$tmp/ch02" \
           && grep -q '^skipped: dot_avx512_8acc ' "$tmp/ch02" && grep -q 'all variants match' "$tmp/ch02"; then
            ok "ch02 lanes --isa sse: verifies, skips the AVX2 and AVX-512 rungs"
        else
            bad "ch02 lanes --isa sse" "$(tail -5 "$tmp/ch02")"
        fi
    fi
    if "$ch02/dot" --tiny --isa scalar >"$tmp/ch02" 2>&1 && grep -q '^skipped: dot_avx512_bf16' "$tmp/ch02" \
       && ! grep -q '^dot_sse' "$tmp/ch02"; then
        ok "ch02 dot --isa scalar: only the portable rungs run"
    else
        bad "ch02 dot --isa scalar" "$(tail -5 "$tmp/ch02")"
    fi
    for p in lanes dot branches; do
        expect_usage "ch02 $p --isa avx3" "$ch02/$p" --isa avx3
        expect_usage "ch02 $p --isa ''" "$ch02/$p" --isa ''
    done
    expect_usage "ch02 branches -n 1000,2000 (one size only)" "$ch02/branches" -n 1000,2000
fi

# The object code: scalar rungs without packed arithmetic, auto rungs with it
# (x86 only: the instruction names below are x86's).
packed='\sv?(mul|add|sub|fmadd[0-9]*|blendv|blendm|cmp[a-z]*|max|min)ps\s'
if command -v objdump >/dev/null 2>&1 && [ -f "$BUILD/kernels/simd_scalar.o" ] && [ "$(uname -m)" = x86_64 ]; then
    n=$(objdump -d --no-show-raw-insn "$BUILD/kernels/simd_scalar.o" | grep -cE "$packed")
    if [ "$n" -eq 0 ]; then ok "ch02 kernels/simd_scalar.o has no packed (vector) arithmetic"
    else bad "ch02 kernels/simd_scalar.o is not scalar: $n packed instructions" \
             "$(objdump -d --no-show-raw-insn "$BUILD/kernels/simd_scalar.o" | grep -m3 -E "$packed")"; fi
    if [ -z "$SAN" ]; then
        for f in simd_square_auto simd_saxpy_auto simd_dot_auto16 simd_piecewise_auto; do
            n=$(objdump -d --no-show-raw-insn "$BUILD/kernels/simd.o" | awk -v f="<$f>:" '$2 == f { p = 1; next } /^$/ { p = 0 } p' \
                | grep -cE "$packed")
            if [ "$n" -gt 0 ]; then ok "ch02 $f is vectorised ($n packed instructions)"
            else bad "ch02 $f is not vectorised" "no packed arithmetic in its object code"; fi
        done
    fi
fi
