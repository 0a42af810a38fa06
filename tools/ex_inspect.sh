#!/usr/bin/env bash
# tools/ex_inspect.sh: what a checker cannot see by calling the learner's
# code, read from the learner's object file; written as C (pw_ex_this, see
# common/exercise.h) and linked into the checker, which reports it after
# every test has passed.
#
#   bash tools/ex_inspect.sh ID FILE RULES OBJECT [KERNEL_OBJECT ...] > facts.c
#
#   ID      the exercise (3.1)        FILE    the graded file, as make names it
#   RULES   exercises/NN-x/check_<e>.rules (may be missing: the defaults)
#   OBJECT  the learner's file compiled alone (cc -c)
#   KERNEL_OBJECT  the kernels the checker links (kernels/*.o)
# Environment: NOTES (lines the checker prints first: how it is graded),
# SAN (the build's sanitizer: the auto-vectoriser's output is not judged),
# PREPROCESSED (path of the learner's file after cc -E, if the rules ask),
# OMP_TOOL (libarcher's path, if ThreadSanitizer needs it to see OpenMP).
#
# The rules file, one rule a line (# starts a comment):
#   allow GLOB ...         kernel functions the file may call (all others of
#                          the kernels the checker links are the references
#                          and the library's answers: calling one fails)
#   deny GLOB ... -- WHY   more functions it may not call (the library's
#                          own version of the exercise), and why
#   packed mul|add         the object code must hold packed float multiplies
#                          (adds): vector instructions (x86-64, AArch64;
#                          elsewhere, or without objdump, the check is
#                          skipped and the checker says so)
#   threads [openmp]       build it under ThreadSanitizer (see mk/chapter.mk)
#   cflags FLAGS           extra flags for the learner's file
#   preprocess             the checker reads the file as the compiler does
# Exit status: 0, or 2 on bad usage.
set -u
if (( $# < 4 )); then
    echo "usage: bash tools/ex_inspect.sh ID FILE RULES OBJECT [KERNEL_OBJECT ...] > facts.c" >&2
    exit 2
fi
id=$1 file=$2 rules=$3 obj=$4
shift 4
kobjs=("$@")
notes=${NOTES:-}
violation= hint= first=0

# Rule lines without comments; "" when there is no rules file.
rule_lines() { [[ -f $rules ]] && sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$rules"; }

# nm prints C names with a leading underscore on macOS.
strip_us() { if [[ $(uname -s) == Darwin ]]; then sed 's/^_//'; else cat; fi; }

# The CUDA function an emulator symbol stands for: the student wrote
# cudaMemcpy, the object calls pw_simt_memcpy_sym (common/simt/simt_cuda_host.h).
cuda_name() {
    case $1 in
        pw_simt_memcpy_to_symbol*) echo cudaMemcpyToSymbol ;;
        pw_simt_memcpy_async*) echo cudaMemcpyAsync ;;
        pw_simt_memcpy_2d*) echo cudaMemcpy2D ;;
        pw_simt_memcpy_3d*) echo cudaMemcpy3D ;;
        pw_simt_memcpy*) echo cudaMemcpy ;;
        pw_simt_memset_async*) echo cudaMemsetAsync ;;
        pw_simt_memset*) echo cudaMemset ;;
        pw_simt_malloc_managed*) echo cudaMallocManaged ;;
        pw_simt_malloc_host*) echo cudaMallocHost ;;
        pw_simt_malloc_pitch*) echo cudaMallocPitch ;;
        pw_simt_malloc*) echo cudaMalloc ;;
        *) echo "$1" ;;
    esac
}

matches_any() {   # NAME GLOB...: 0 if NAME matches one of the globs
    local name=$1 g; shift
    for g in "$@"; do
        # shellcheck disable=SC2053
        [[ $name == $g ]] && return 0
    done
    return 1
}

# ---- 1. calls into the reference or the library's own answer --------------
if command -v nm >/dev/null 2>&1; then
    mapfile -t allow < <(rule_lines | awk '$1 == "allow" { for (i = 2; i <= NF; i++) print $i }')
    mapfile -t undef < <(nm -u "$obj" 2>/dev/null | awk '{ print $NF }' | strip_us | sort -u)
    declare -A owner=()
    for k in "${kobjs[@]}"; do
        while read -r s; do owner[$s]=$k; done < <(nm -g --defined-only "$k" 2>/dev/null | awk 'NF >= 3 { print $3 }' | strip_us)
    done
    for s in "${undef[@]}"; do
        [[ -n $violation ]] && break
        (( ${#allow[@]} )) && matches_any "$s" "${allow[@]}" && continue
        if [[ -n ${owner[$s]:-} ]]; then
            k=$(basename "${owner[$s]}" .o)
            violation="$(basename "$file") calls $s(), from kernels/$k: the workbook's own code, which the checker compares your answer with"
            hint="  a check of $s against itself proves nothing: write the computation yourself"
            first=1
            continue
        fi
        while read -r -a words; do
            why=() globs=() after=0
            for w in "${words[@]:1}"; do
                if [[ $w == -- ]]; then after=1; elif (( after )); then why+=("$w"); else globs+=("$w"); fi
            done
            if matches_any "$s" "${globs[@]}"; then
                violation="$(basename "$file") calls $(cuda_name "$s")(): ${why[*]:-not allowed in this exercise}"
                hint="  write the computation yourself"
                first=1
                break
            fi
        done < <(rule_lines | awk '$1 == "deny"')
    done
else
    notes+="${notes:+$'\n'}(nm not found: the check that your file does not call the reference was skipped)"
fi

# ---- 2. vector instructions in the object code -----------------------------
want=$(rule_lines | awk '$1 == "packed" { print $2; exit }')
if [[ -n $want && -z $violation && -n ${SAN:-} ]] && ! rule_lines | grep -qE '^[[:space:]]*novec'; then
    # Sanitizers instrument every load, and the auto-vectoriser then mostly gives up.
    notes+="${notes:+$'\n'}(under a sanitizer the compiler vectorises less: the check for packed instructions was skipped)"
    want=
fi
if [[ -n $want && -z $violation ]]; then
    arch=$(uname -m)
    case $arch:$want in
        x86_64:mul|amd64:mul) re='\sv?(mulps|fn?m(add|sub)[0-9]+ps)\s' ;;
        x86_64:add|amd64:add) re='\sv?(addps|fn?m(add|sub)[0-9]+ps)\s' ;;
        aarch64:mul|arm64:mul) re='\s(fmul|fmla|fmls)\s+v[0-9]+\.4s' ;;
        aarch64:add|arm64:add) re='\s(fadd|fmla|faddp)\s+v[0-9]+\.4s' ;;
        *) re= ;;
    esac
    what=$([[ $want == mul ]] && echo multiplies || echo additions)
    if [[ -z $re ]]; then
        notes+="${notes:+$'\n'}(the object code was not inspected on $arch: the check for packed $what was skipped)"
    elif ! command -v objdump >/dev/null 2>&1; then
        notes+="${notes:+$'\n'}(objdump not found: the check for packed $what in your object code was skipped; it comes with binutils)"
    else
        n=$(objdump -d --no-show-raw-insn "$obj" | grep -cE "$re")
        if (( n == 0 )); then
            if [[ $want == mul ]]; then
                violation="$(basename "$file") has no packed (vector) float multiply in its object code: it computes one float at a time"
                hint="  the exercise is the vector loop by hand, 4 floats per instruction: _mm_mul_ps (SSE2) or vmulq_n_f32 (NEON).
  (Your file is compiled without the auto-vectoriser, so only your own intrinsics make vector code.)"
            else
                violation="$(basename "$file") has no packed (vector) float addition in its object code: the compiler kept one chain of adds"
                hint="  use 16 partial sums in an array, and keep the inner loop simple (no calls, no breaks)"
            fi
        else
            notes+="${notes:+$'\n'}(object code checked: $n packed float $what in $(basename "$file")'s)"
        fi
    fi
fi

# ---- the C file -------------------------------------------------------------
cstr() {   # a C string literal, or NULL for ""
    if [[ -z $1 ]]; then printf 'NULL'; return; fi
    local s=${1//\\/\\\\}
    s=${s//\"/\\\"}
    s=${s//$'\n'/\\n}
    printf '"%s"' "$s"
}
cat <<C
/* Generated by tools/ex_inspect.sh for exercise $id ($file): do not edit. */
#include "exercise.h"
#include <stddef.h>

const pw_ex_facts pw_ex_this = {
    .id = $(cstr "$id"),
    .file = $(cstr "$file"),
    .violation = $(cstr "$violation"),
    .violation_first = $first,
    .hint = $(cstr "$hint"),
    .notes = $(cstr "$notes"),
    .preprocessed = $(cstr "${PREPROCESSED:-}"),
    .omp_tool = $(cstr "${OMP_TOOL:-}"),
};
C
if [[ -n ${TSAN_OPTIONS_DEFAULT:-} ]]; then
cat <<C

/* ThreadSanitizer stops at the first race: the report is the verdict. */
const char *__tsan_default_options(void);
const char *__tsan_default_options(void) { return $(cstr "$TSAN_OPTIONS_DEFAULT"); }
C
fi
