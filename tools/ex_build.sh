#!/usr/bin/env bash
# tools/ex_build.sh: build one exercise's checker (mk/chapter.mk and
# mk/cuda.mk call it for $(BUILD)/ex/ID/check and $(BUILD)/sol/ID/check).
#
#   bash tools/ex_build.sh ID FILE SOURCE CHECKER_SRC OUT [OBJECT ...]
#
#   ID       the exercise (3.1)      FILE   the graded file (exercises/... or solutions/...)
#   SOURCE   what is compiled for it: FILE itself, or for a .cu the launcher
#            generated from it (mk/cuda.mk)
#   CHECKER_SRC  exercises/NN-x/check_<e>.c; its rules are check_<e>.rules
#   OUT      the checker to write; its folder gets student.o and facts.c
#   OBJECT   kernels (kernels/*.o) and the library (libpw.a) to link
# Environment: CC, CFLAGS (all of them, with the -I folders), LDLIBS, SAN,
# TSAN_FLAGS (make's), OMP_FLAGS (-fopenmp or empty).
#
# Steps: the learner's file is compiled alone, so that its object file can
# be read (tools/ex_inspect.sh: calls into the reference, vector
# instructions); threaded exercises (rule `threads`) are built under
# ThreadSanitizer where it works, so that a data race is reported whatever
# the timing; then the checker is linked with that object file.
set -u
if (( $# < 5 )); then
    echo "usage: bash tools/ex_build.sh ID FILE SOURCE CHECKER_SRC OUT [OBJECT ...]" >&2
    exit 2
fi
id=$1 file=$2 src=$3 checker=$4 out=$5
shift 5
objs=("$@")
CC=${CC:-cc}
read -r -a cflags <<<"${CFLAGS:-}"
read -r -a ldlibs <<<"${LDLIBS:-}"
read -r -a tsan_flags <<<"${TSAN_FLAGS:--fsanitize=thread -fno-omit-frame-pointer}"
SAN=${SAN:-}
rules=${checker%.c}.rules
dir=$(dirname "$out")
mkdir -p "$dir"

rule() {   # the words after rule $1 (and status 0), or status 1 if the rules lack it
    [[ -f $rules ]] || return 1
    sed -e 's/#.*//' "$rules" | awk -v r="$1" '$1 == r { $1 = ""; print; found = 1; exit } END { exit !found }'
}
run() { [[ -n ${EX_ECHO-1} ]] && echo "$*"; "$@"; }
is_clang() { "$CC" --version 2>/dev/null | grep -qi clang; }

# ---- ThreadSanitizer for threaded exercises ----------------------------------
extra=() link_extra=() notes=() env_facts=()
if threads=$(rule threads); then
    openmp=0
    [[ $threads == *openmp* && -n ${OMP_FLAGS:-} ]] && openmp=1
    tsan=0 why=
    if [[ $SAN == asan ]]; then
        why="this build is under AddressSanitizer, which cannot run with ThreadSanitizer"
    elif [[ $SAN == tsan ]]; then
        tsan=1
    else
        probe=$(mktemp -d "${TMPDIR:-/tmp}/pw-tsan.XXXXXX")
        if printf 'int main(void) { return 0; }\n' | "$CC" -fsanitize=thread -x c -o "$probe/p" - >/dev/null 2>&1 \
           && "$probe/p" >/dev/null 2>&1; then
            tsan=1
        else
            why="$CC cannot build or run ThreadSanitizer programs here (gcc needs libtsan: apt install libtsan2 or similar)"
        fi
        rm -rf "$probe"
    fi
    if (( tsan && openmp )); then
        if is_clang; then
            # LLVM's libomp tells TSan about its synchronisation through libarcher.
            archer=$("$CC" -print-resource-dir 2>/dev/null)/../../libarcher.so
            if [[ -f $archer ]]; then
                env_facts+=("OMP_TOOL=$(cd "$(dirname "$archer")" && pwd)/libarcher.so")
                # ... all but the reuse of a finished task's memory (tools/tsan_kmp.c).
                link_extra+=(tools/tsan_kmp.c -ldl)
            else
                tsan=0 why="ThreadSanitizer cannot see OpenMP's synchronisation without LLVM's libarcher (not found next to $CC)"
            fi
        else
            link_extra+=(tools/tsan_gomp.c -ldl)
        fi
    fi
    if (( tsan )); then
        [[ $SAN == tsan ]] || extra+=("${tsan_flags[@]}")
        # -g: the race report names file and line. No auto-vectoriser: clang's
        # TSan does not instrument the 32- and 64-byte accesses of vector loops
        # (a racy merge loop, vectorised, went unseen).
        extra+=(-g -fno-tree-vectorize -fno-tree-slp-vectorize)
        notes+=("graded under ThreadSanitizer: a data race is reported (and fails) whenever two threads touch the same memory without an order between them, however the run was timed")
        # ignore_noninstrumented_modules: libarcher asks for it (libomp's own
        # accesses are not the learner's; they are ordered by what it tells TSan).
        if (( openmp )); then env_facts+=("TSAN_OPTIONS_DEFAULT=halt_on_error=1 ignore_noninstrumented_modules=1")
        else env_facts+=("TSAN_OPTIONS_DEFAULT=halt_on_error=1"); fi
    else
        notes+=("not under ThreadSanitizer: $why. A race shows here only when it happens to lose an update: a pass is not a proof")
    fi
fi
# Intrinsics by hand: without the auto-vectoriser, only the learner's own
# intrinsics make vector code. (After -O3: clang lets the last flag win.)
if rule novec >/dev/null; then extra+=(-fno-tree-vectorize -fno-tree-slp-vectorize); fi

# ---- the learner's file, alone ------------------------------------------------
# (a CUDA exercise arrives compiled: mk/cuda.mk builds the .cu with tools/pwcc)
if [[ $src == *.o ]]; then
    cp "$src" "$dir/student.o" || exit 1
else
    run "$CC" "${cflags[@]}" "${extra[@]}" -c -o "$dir/student.o" "$src" || exit 1
fi
pre=
if rule preprocess >/dev/null; then
    "$CC" "${cflags[@]}" -E -o "$dir/student.i" "$src" || exit 1
    pre=$dir/student.i
fi

# ---- what the object file shows, then the checker -----------------------------
kobjs=()
for o in "${objs[@]}"; do [[ $o == *.o ]] && kobjs+=("$o"); done
notes_text=$(printf '%s\n' "${notes[@]}")
[[ ${#notes[@]} -eq 0 ]] && notes_text=
env NOTES="$notes_text" PREPROCESSED="$pre" SAN="$SAN" "${env_facts[@]}" \
    bash tools/ex_inspect.sh "$id" "$file" "$rules" "$dir/student.o" "${kobjs[@]}" > "$dir/facts.c.tmp" || exit 1
mv "$dir/facts.c.tmp" "$dir/facts.c"
# The checker is one object for every file graded against it with the same
# flags: compiled once per exercise, compiler and flags, and kept in the
# build folder's checkers/ (its name: the exercise and a checksum of the
# flags and the preprocessed checker, so an edit to it or to a header it
# includes makes a new one). Without it, each of the ~230 planted wrong
# answers compiled its exercise's checker again, in every build CI makes.
root=$(dirname "$(dirname "$dir")")
key=$( { printf '%s\n' "$CC" "${cflags[@]}" "${extra[@]}"; "$CC" "${cflags[@]}" "${extra[@]}" -E "$checker"; } | cksum) || exit 1
checker_o=$root/checkers/$id-${key// /-}.o
if [[ ! -f $checker_o ]]; then
    mkdir -p "$root/checkers"
    # compiled under a name of its own, then renamed: two builds of the same
    # exercise at once (make -j) each write a whole file
    run "$CC" "${cflags[@]}" "${extra[@]}" -c -o "$checker_o.$$" "$checker" && mv -f "$checker_o.$$" "$checker_o" || exit 1
fi
if [[ -n ${LINK:-} ]]; then
    # C++ objects (CUDA on the emulator): the C parts compiled as C, linked by the C++ compiler
    run "$CC" "${cflags[@]}" "${extra[@]}" -c -o "$dir/facts.o" "$dir/facts.c" || exit 1
    lflags=()
    for f in "${cflags[@]}" "${extra[@]}"; do [[ $f == -std=* || $f == -W* || $f == -I* ]] || lflags+=("$f"); done
    run $LINK "${lflags[@]}" -o "$out" "$checker_o" "$dir/student.o" "$dir/facts.o" \
        "${link_extra[@]}" "${objs[@]}" "${ldlibs[@]}" -ldl
else
    run "$CC" "${cflags[@]}" "${extra[@]}" -o "$out" "$checker_o" "$dir/student.o" "$dir/facts.c" \
        "${link_extra[@]}" "${objs[@]}" "${ldlibs[@]}"
fi
