#!/usr/bin/env bash
# tools/kernel-resources.sh: registers per thread and static shared memory
# of every CUDA kernel of the workbook, as ptxas reports them, on each GPU
# architecture the GPU model knows: the table the model's occupancy uses
# (common/gpu_regs.c reads it).
#
#   tools/kernel-resources.sh [-a "sm_80 sm_86 sm_90"] [-j N] [-o FILE] [FILE.cu ...]
#       The whole table (stdout, or FILE): every .cu file given, or by default
#       every .cu file of kernels/, chapters/08-cuda-warps/ and
#       chapters/09-tensor-cores/ that defines a __global__ function, compiled
#       once per arch (N at a time; default: the cores).
#   tools/kernel-resources.sh --list
#       The default .cu files (those that define kernels), one a line.
#   tools/kernel-resources.sh --rows ARCH FILE.cu [-o OUT] [--dep DEPFILE]
#       One file's rows on one arch, no header (mk/regs.mk: one make target
#       each, so make -j compiles them in parallel and a changed file is the
#       only one compiled again); --dep writes nvcc's make dependencies.
#   tools/kernel-resources.sh --merge [-o FILE] PART...
#       The table from --rows outputs: the header, then their rows sorted.
#       With -o, an unchanged table (same nvcc, same rows) is left as it is.
#
# The table: '#' lines first (what made it: nvcc's version, the date, the
# flags), then one row a kernel and arch, tab-separated:
#   arch  kernel  regs  static_smem_bytes  file
# kernel is the demangled name without its return type, argument list or
# spaces (gg_naive, gg_wmma_shared<__half>); rows sorted (LC_ALL=C), so the
# same sources and nvcc give the same table.
#
# Each file is compiled as mk/cuda.mk's NVCC_FLAGS compile it (-O3
# -std=c++17 -Icommon -Icommon/simt -Ikernels), to a cubin for one arch, with -Xptxas -v:
# ptxas's "Used N registers ... M bytes smem" line of each entry function.
# nvcc: $NVCC, else nvcc on the PATH, else $CUDA_HOME/bin/nvcc or
# /usr/local/cuda/bin/nvcc. An arch this nvcc cannot target gets no rows and
# a '#' line saying so. Exit status: 0, 1 when nvcc fails on a file, 2 for a
# usage error (or no nvcc).
set -uo pipefail
export LC_ALL=C

DEFAULT_ARCHS="sm_80 sm_86 sm_90"
KERNEL_DIRS="kernels chapters/08-cuda-warps chapters/09-tensor-cores"
NVCC_COMMON_FLAGS="-O3 -std=c++17 -Icommon -Icommon/simt -Ikernels"

prog=tools/kernel-resources.sh
die() { echo "$prog: $*" >&2; exit 2; }

find_nvcc() {
    if [ -n "${NVCC:-}" ]; then echo "$NVCC"; return; fi
    command -v nvcc 2>/dev/null && return
    for c in "${CUDA_HOME:-}/bin/nvcc" /usr/local/cuda/bin/nvcc; do
        [ -x "$c" ] && { echo "$c"; return; }
    done
}

# The .cu files that define kernels: a line that starts (after blanks, and
# an optional template<...>, static or extern "C") with __global__.
list_files() {
    local d f
    for d in $KERNEL_DIRS; do
        for f in "$d"/*.cu; do
            [ -f "$f" ] || continue
            grep -qE '^[[:space:]]*((template[[:space:]]*<.*>|static|extern[[:space:]]+"C")[[:space:]]*)*__global__' "$f" && echo "$f"
        done
    done | sort
}

# "13.0 (V13.0.88)" from nvcc --version.
nvcc_version() {
    "$1" --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\), \(V[0-9.]*\).*/\1 (\2)/p' | head -n 1
}

# Does this nvcc target $1 (sm_XX)? Yes when it cannot say (old nvcc).
arch_supported() {
    local list
    list=$("$2" --list-gpu-arch 2>/dev/null) || return 0
    [ -z "$list" ] && return 0
    grep -qx "compute_${1#sm_}" <<<"$list"
}

# ptxas -v's output (stdin) -> rows "arch<TAB>kernel<TAB>regs<TAB>smem<TAB>file".
# Entry functions only; the mangled name goes through c++filt, then the
# return type ("void " of a template), "(anonymous namespace)::" and the
# argument list (from the first '(' outside <>) go, and the spaces.
parse_ptxas() {
    local arch=$1 file=$2
    awk -v arch="$arch" '
        /Compiling entry function/ { n = split($0, q, "'\''"); cur = q[2]; next }
        /Compiling / { cur = ""; next }
        cur != "" && /Used [0-9]+ registers/ {
            regs = $0; sub(/.*Used /, "", regs); sub(/ registers.*/, "", regs)
            smem = 0
            if (match($0, /[0-9]+ bytes smem/)) { smem = substr($0, RSTART, RLENGTH); sub(/ .*/, "", smem) }
            print cur "\t" regs "\t" smem
            cur = ""
        }' | while IFS=$'\t' read -r mangled regs smem; do
            name=$(printf '%s\n' "$mangled" | c++filt)
            name=${name#void }
            name=${name//(anonymous namespace)::/}
            name=$(awk '{ d = 0; for (i = 1; i <= length($0); i++) { c = substr($0, i, 1);
                             if (c == "<") d++; else if (c == ">") d--; else if (c == "(" && d == 0) break }
                           print substr($0, 1, i - 1) }' <<<"$name")
            name=${name// /}
            printf '%s\t%s\t%s\t%s\t%s\n' "$arch" "$name" "$regs" "$smem" "$file"
        done
}

# rows ARCH FILE [DEPFILE DEPTARGET]: one file's rows on one arch, on stdout.
rows() {
    local arch=$1 file=$2 dep=${3:-} deptarget=${4:-} nvcc out cubin rc
    nvcc=$(find_nvcc)
    [ -n "$nvcc" ] || die "nvcc not found (set NVCC, or put the CUDA toolkit's bin on the PATH)"
    [[ $arch =~ ^sm_[0-9]+[a-z]?$ ]] || die "arch '$arch': want sm_NN (sm_80, sm_86, sm_90)"
    [ -f "$file" ] || die "$file: no such file"
    if ! arch_supported "$arch" "$nvcc"; then
        echo "# no rows for $file on $arch: nvcc $(nvcc_version "$nvcc") cannot target it"
        return 0
    fi
    cubin=$(mktemp "${TMPDIR:-/tmp}/kres.XXXXXX") || exit 1
    local depflags=()
    [ -n "$dep" ] && depflags=(-MMD -MP -MF "$dep" -MT "$deptarget")
    # shellcheck disable=SC2086
    out=$("$nvcc" -cubin -arch="$arch" $NVCC_COMMON_FLAGS -Xptxas -v "${depflags[@]}" -o "$cubin" "$file" 2>&1)
    rc=$?
    rm -f "$cubin"
    if [ $rc -ne 0 ]; then
        printf '%s\n' "$out" >&2
        echo "$prog: nvcc failed on $file for $arch" >&2
        return 1
    fi
    parse_ptxas "$arch" "$file" <<<"$out"
}

header() {
    local nvcc=$1 date
    if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d 2>/dev/null || date -u -r "$SOURCE_DATE_EPOCH" +%Y-%m-%d)
    else date=$(date -u +%Y-%m-%d); fi
    echo "# Registers per thread and static shared memory of each kernel, from ptxas (-Xptxas -v)."
    echo "# Made by tools/kernel-resources.sh: nvcc -cubin -arch=ARCH $NVCC_COMMON_FLAGS FILE"
    echo "# nvcc $(nvcc_version "$nvcc")"
    echo "# date $date"
    printf '# arch\tkernel\tregs\tstatic_smem_bytes\tfile\n'
}

# merge OUT PART...: header + the parts' '#' notes + their rows, sorted.
merge() {
    local outfile=$1; shift
    local nvcc tmpf
    nvcc=$(find_nvcc)
    [ -n "$nvcc" ] || die "nvcc not found (set NVCC, or put the CUDA toolkit's bin on the PATH)"
    tmpf=$(mktemp "${TMPDIR:-/tmp}/kres.XXXXXX") || exit 1
    {
        header "$nvcc"
        [ $# -gt 0 ] && cat "$@" | grep '^#' | sort -u
        [ $# -gt 0 ] && cat "$@" | grep -v '^#' | grep -v '^$' | sort -u
    } >"$tmpf"
    if [ -z "$outfile" ]; then cat "$tmpf"; rm -f "$tmpf"; return 0; fi
    # The same table but for its date: keep the old file (and its date).
    if [ -f "$outfile" ] && cmp -s <(grep -v '^# date ' "$tmpf") <(grep -v '^# date ' "$outfile"); then
        rm -f "$tmpf"; touch "$outfile"; return 0
    fi
    mkdir -p "$(dirname "$outfile")"
    mv "$tmpf" "$outfile"
}

usage() {
    sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
}

# ---- the command line ------------------------------------------------------------------
mode=table archs=$DEFAULT_ARCHS jobs="" outfile="" dep="" files=()
while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        --list) mode=list ;;
        --rows) mode=rows ;;
        --merge) mode=merge ;;
        -a|--archs) [ $# -ge 2 ] || die "$1 needs a list of archs"; archs=${2//,/ }; shift ;;
        -j) if [ $# -lt 2 ] || ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then die "-j needs a positive number"; fi; jobs=$2; shift ;;
        -o) [ $# -ge 2 ] || die "-o needs a file"; outfile=$2; shift ;;
        --dep) [ $# -ge 2 ] || die "--dep needs a file"; dep=$2; shift ;;
        -*) die "unknown option '$1' (try --help)" ;;
        *) files+=("$1") ;;
    esac
    shift
done

case $mode in
    list) list_files; exit 0 ;;
    rows)
        [ ${#files[@]} -eq 2 ] || die "--rows takes ARCH FILE.cu"
        if [ -n "$outfile" ]; then
            tmpf=$(mktemp "${TMPDIR:-/tmp}/kres.XXXXXX") || exit 1
            rows "${files[0]}" "${files[1]}" "$dep" "$outfile" >"$tmpf" || { rc=$?; rm -f "$tmpf"; exit $rc; }
            mkdir -p "$(dirname "$outfile")" && mv "$tmpf" "$outfile"
        else
            rows "${files[0]}" "${files[1]}" "$dep" "${files[1]}"
        fi
        exit ;;
    merge) merge "$outfile" "${files[@]}"; exit ;;
esac

# The whole table: every (arch, file) compiled, jobs at a time, then merged.
nvcc=$(find_nvcc)
[ -n "$nvcc" ] || die "nvcc not found (set NVCC, or put the CUDA toolkit's bin on the PATH)"
export NVCC=$nvcc
command -v c++filt >/dev/null || die "c++filt not found (binutils)"
[ ${#files[@]} -gt 0 ] || mapfile -t files < <(list_files)
[ ${#files[@]} -gt 0 ] || die "no .cu file defines a kernel (run from the workbook's root)"
for a in $archs; do [[ $a =~ ^sm_[0-9]+[a-z]?$ ]] || die "arch '$a': want sm_NN (sm_80, sm_86, sm_90)"; done
jobs=${jobs:-$(nproc 2>/dev/null || echo 2)}
work=$(mktemp -d "${TMPDIR:-/tmp}/kres.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
i=0 parts=()
for a in $archs; do
    for f in "${files[@]}"; do
        i=$((i + 1)); parts+=("$work/$i.tsv")
        ( rows "$a" "$f" >"$work/$i.tsv"; echo $? >"$work/$i.rc" ) &
        while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 0.05; done
    done
done
wait
for ((k = 1; k <= i; k++)); do [ "$(cat "$work/$k.rc" 2>/dev/null)" = 0 ] || exit 1; done
merge "$outfile" "${parts[@]}"
