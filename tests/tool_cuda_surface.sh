# tests/tool_cuda_surface.sh (sourced by tests/run.sh): the emulator's CUDA
# runtime surface against NVIDIA's own headers, where the toolkit is
# installed (CUDA_HOME, else /usr/local/cuda; nvcc is not needed, only its
# include folder). Programs written for a GPU test these names and values:
# a cudaError_t compared with a number, a property read by its field name,
# helper_cuda.h's #ifdef __CUDA_RUNTIME_H__.
#
# 1. Values: every cuda* enumerator and numeric #define the emulator's
#    headers declare (common/simt/simt_cuda*.h, common/simt/cuda/*.h) is
#    printed by one program built twice, against NVIDIA's headers (g++) and
#    the emulator's (tools/pwcc): a name NVIDIA lacks fails the first build,
#    a value that differs fails the comparison.
# 2. Struct fields: every field of cudaDeviceProp, cudaPitchedPtr,
#    cudaExtent, cudaPos, cudaMemcpy3DParms and cudaPointerAttributes in
#    NVIDIA's driver_types.h must exist in the emulator's with the same size,
#    and the emulator may add none of its own.
# 3. The include guards and version macros helper code tests.
cs_inc=${CUDA_HOME:-/usr/local/cuda}/include
if [ -n "$SAN" ]; then
    echo "(the CUDA surface is not compared under SAN=$SAN: it needs no sanitizer)"
elif [ ! -f "$cs_inc/driver_types.h" ] || ! command -v g++ >/dev/null 2>&1; then
    echo "SKIP cuda surface: no NVIDIA headers at $cs_inc (the CUDA toolkit's include folder) or no g++"
    skip=$((skip + 1))
else
    cs=$tmp/cuda_surface; mkdir -p "$cs"
    cs_headers=$(ls common/simt/simt_cuda*.h common/simt/cuda/*.h)

    # 1. Names with a value: enumerators "cudaX = 3," and "#define cudaX 0x01"
    #    or "((type)N)" (not the ones that rename a function to pw_simt_*).
    {
        sed -n 's/^[[:space:]]*\(cuda[A-Z][A-Za-z0-9_]*\)[[:space:]]*=[^=].*/\1/p' $cs_headers
        sed -n 's/^#define[[:space:]]\{1,\}\(cuda[A-Z][A-Za-z0-9_]*\)[[:space:]]\{1,\}\(0x[0-9a-fA-F]\{1,\}\|[0-9]\{1,\}\|(([A-Za-z_ ]*)-\{0,1\}[0-9x]*)\)[[:space:]]*\(\/.*\)\{0,1\}$/\1/p' $cs_headers
    } | sort -u >"$cs/names"
    {
        echo '#include <cuda_runtime_api.h>'
        echo '#include <stdio.h>'
        echo '#include <stdint.h>'
        echo 'template <class T> static long long v(T x) { return (long long)(intptr_t)x; }'
        echo 'int main(void) {'
        while read -r n; do echo "    printf(\"%s %lld\\n\", \"$n\", v($n));"; done <"$cs/names"
        echo '    return 0;'
        echo '}'
    } >"$cs/values.cpp"
    cs_n=$(wc -l <"$cs/names")
    if ! g++ -fpermissive -w -I "$cs_inc" -o "$cs/values_nv" "$cs/values.cpp" >"$cs/nv.log" 2>&1; then
        bad "cuda surface: the emulator's $cs_n names with a value all exist in NVIDIA's headers" \
            "not in $cs_inc: $(grep -oE "'cuda[A-Za-z0-9_]+' was not declared" "$cs/nv.log" | cut -d"'" -f2 | sort -u | tr '\n' ' ')" \
            "$(grep -m3 error "$cs/nv.log")"
    elif ! PW_NO_MAKE=1 PW_BUILD=$BUILD tools/pwcc -o "$cs/values_emu" "$cs/values.cpp" >"$cs/emu.log" 2>&1; then
        bad "cuda surface: the values program builds against the emulator" "$(grep -m3 error "$cs/emu.log")"
    else
        "$cs/values_nv" >"$cs/nv.txt"; "$cs/values_emu" >"$cs/emu.txt" 2>"$cs/emu.err"
        if [ "$(wc -l <"$cs/nv.txt")" -ge 100 ] && cmp -s "$cs/nv.txt" "$cs/emu.txt"; then
            ok "cuda surface: $cs_n enumerators and constants have NVIDIA's values (cudaError_t, cudaDeviceAttr, cudaComputeMode, flags...)"
        else
            bad "cuda surface: $cs_n enumerators and constants have NVIDIA's values" \
                "$(diff "$cs/nv.txt" "$cs/emu.txt" | head -8)"
        fi
    fi

    # 2. Struct fields, from NVIDIA's declaration "struct __device_builtin__ S {...};".
    cs_fields() {   # struct name -> its field names, one a line
        # Comments go first (some run over lines), then "type *name[N];" -> name.
        awk -v s="$1" '$0 ~ "^struct __device_builtin__ " s "[[:space:]]*$" { on = 1; next }
            !on { next } /^};/ { exit }
            { line = $0
              if (inc) { if (sub(/.*\*\//, "", line)) inc = 0; else next }
              while (match(line, /\/\*/)) {
                  rest = substr(line, RSTART + 2)
                  if (match(rest, /\*\//)) line = substr(line, 1, index(line, "/*") - 1) substr(rest, RSTART + 2)
                  else { line = substr(line, 1, index(line, "/*") - 1); inc = 1; break } }
              sub(/\[.*/, "", line); if (line !~ /;/ && line !~ /[A-Za-z]/) next
              sub(/;.*/, "", line); n = split(line, w, /[[:space:]*]+/)
              if (n >= 2 && w[n] != "") print w[n] }' \
            "$cs_inc/driver_types.h"
    }
    for st in cudaDeviceProp cudaPitchedPtr cudaExtent cudaPos cudaMemcpy3DParms cudaPointerAttributes; do
        cs_fields "$st" >"$cs/$st.fields"
        nf=$(wc -l <"$cs/$st.fields")
        {
            echo '#include <cuda_runtime_api.h>'
            echo '#include <stdio.h>'
            echo 'int main(void) {'
            echo "    struct $st s;"
            while read -r f; do echo "    printf(\"%s %zu\\n\", \"$f\", sizeof s.$f);"; done <"$cs/$st.fields"
            echo "    printf(\"sizeof %zu\\n\", sizeof s);"
            echo '    return 0;'
            echo '}'
        } >"$cs/$st.cpp"
        if [ "$nf" -lt 3 ]; then
            bad "cuda surface: struct $st's fields read from $cs_inc/driver_types.h" "$nf fields found"
        elif ! g++ -w -I "$cs_inc" -o "$cs/$st.nv" "$cs/$st.cpp" >"$cs/$st.nvlog" 2>&1; then
            bad "cuda surface: struct $st's field program builds against NVIDIA's headers" "$(grep -m3 error "$cs/$st.nvlog")"
        elif ! PW_NO_MAKE=1 PW_BUILD=$BUILD tools/pwcc -o "$cs/$st.emu" "$cs/$st.cpp" >"$cs/$st.emulog" 2>&1; then
            bad "cuda surface: struct $st has NVIDIA's $nf fields" \
                "missing: $(grep -oE "has no member named '[A-Za-z0-9_]+'" "$cs/$st.emulog" | cut -d"'" -f2 | sort -u | tr '\n' ' ')" \
                "$(grep -m2 error "$cs/$st.emulog")"
        else
            # Same fields, same sizes; and the whole struct the same size, so the
            # emulator added no field of its own (its layout is NVIDIA's too
            # where fields are in NVIDIA's order, as they are declared).
            if diff <("$cs/$st.nv") <("$cs/$st.emu" 2>/dev/null) >"$cs/$st.diff"; then
                ok "cuda surface: struct $st has NVIDIA's $nf fields with their sizes, and no others"
            else
                bad "cuda surface: struct $st has NVIDIA's $nf fields with their sizes, and no others" "$(head -6 "$cs/$st.diff")"
            fi
        fi
    done

    # 3. The guards and macros helper code tests (the samples' helper_cuda.h
    #    defines checkCudaErrors only under the first two).
    {
        echo '#include <cuda_runtime.h>'
        echo '#include <stdio.h>'
        echo 'int main(void) {'
        for m in __CUDA_RUNTIME_H__ __DRIVER_TYPES_H__ __CUDA_RUNTIME_API_H__ __VECTOR_TYPES_H__ __HOST_DEFINES_H__; do
            printf '#ifdef %s\n    puts("%s defined");\n#else\n    puts("%s missing");\n#endif\n' "$m" "$m" "$m"
        done
        echo '    printf("CUDART_VERSION %d\n", CUDART_VERSION >= 12000 ? 1 : 0);'
        echo '    return 0;'
        echo '}'
    } >"$cs/guards.cpp"
    if g++ -w -I "$cs_inc" -o "$cs/guards.nv" "$cs/guards.cpp" >"$cs/g.log" 2>&1 \
       && PW_NO_MAKE=1 PW_BUILD=$BUILD tools/pwcc -o "$cs/guards.emu" "$cs/guards.cpp" >>"$cs/g.log" 2>&1 \
       && diff <("$cs/guards.nv") <("$cs/guards.emu" 2>/dev/null) >"$cs/g.diff"; then
        ok "cuda surface: include guards (__CUDA_RUNTIME_H__, __DRIVER_TYPES_H__...) and CUDART_VERSION as NVIDIA's headers have them"
    else
        bad "cuda surface: include guards and CUDART_VERSION as NVIDIA's headers have them" "$(head -5 "$cs/g.diff" 2>/dev/null)" "$(grep -m3 error "$cs/g.log")"
    fi
fi
