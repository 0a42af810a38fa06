#!/usr/bin/env bash
# tools/cuda-samples.sh: builds NVIDIA's cuda-samples with tools/pwcc,
# unmodified, runs each on the SIMT emulator and prints one table row per
# sample: did it build, its exit status, its wall time and its own verdict
# line. This is how the emulator is tried as a new user would try it, with
# CUDA the workbook did not write.
#
#   tools/cuda-samples.sh --samples DIR [--timeout S] [--jobs N] [NAME...]
#
# DIR is a checkout of github.com/NVIDIA/cuda-samples (its Common/ and
# Samples/ folders; CUDA_SAMPLES in the environment works too). NAME is a
# sample's folder name (vectorAdd, histogram...), found under
# Samples/*/NAME; the default is the thirteen the emulator is held to.
# Every .cu and .cpp of the sample's folder is compiled with -I Common, as
# the sample's CMakeLists does with nvcc. Exit 0 when every sample builds,
# exits 0 and prints its success line; 1 otherwise; 2 on bad input.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
samples=${CUDA_SAMPLES:-}
limit=600
jobs=1
names=()
while [ $# -gt 0 ]; do
    case $1 in
        --samples) samples=${2:-}; shift 2 ;;
        --timeout) limit=${2:-}; shift 2 ;;
        --jobs) jobs=${2:-}; shift 2 ;;
        -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "tools/cuda-samples.sh: unknown flag '$1' (--samples DIR, --timeout S, --jobs N)" >&2; exit 2 ;;
        *) names+=("$1"); shift ;;
    esac
done
[ -n "$samples" ] || { echo "tools/cuda-samples.sh: say where cuda-samples is: --samples DIR (git clone https://github.com/NVIDIA/cuda-samples)" >&2; exit 2; }
[ -d "$samples/Common" ] && [ -d "$samples/Samples" ] || { echo "tools/cuda-samples.sh: $samples has no Common/ and Samples/ (a checkout of NVIDIA/cuda-samples)" >&2; exit 2; }
[[ $limit =~ ^[1-9][0-9]*$ ]] || { echo "tools/cuda-samples.sh: --timeout takes whole seconds, not '$limit'" >&2; exit 2; }
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "tools/cuda-samples.sh: --jobs takes a count, not '$jobs'" >&2; exit 2; }
[ ${#names[@]} -gt 0 ] || names=(vectorAdd simpleAtomicIntrinsics simpleVoteIntrinsics simpleTemplates
    simpleCooperativeGroups asyncAPI clock matrixMul reduction histogram scan shfl_scan transpose)
samples=$(cd "$samples" && pwd)

# The emulator library once, before the samples build side by side.
build=${PW_BUILD:-$here/build}
make -s -C "$here" BUILD="$build" "$build/tools/pwcc-tr" "$build/libpw.a" >/dev/null || exit 1
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

# One sample: build, run in its own folder (some read data files beside
# their sources, found from argv[0] by the samples' sdkFindFilePath), then
# one line "name|build|exit|seconds|verdict" into $work/name.row.
one() {
    local name=$1 dir out t0 rc verdict
    dir=$(ls -d "$samples"/Samples/*/"$name" 2>/dev/null | head -n 1)
    if [ -z "$dir" ]; then echo "$name|no such sample|-|-|-" >"$work/$name.row"; return; fi
    out=$work/$name; mkdir -p "$out"
    if ! PW_NO_MAKE=1 "$here/tools/pwcc" -O2 -I "$samples/Common" -o "$out/$name" \
            $(ls "$dir"/*.cu "$dir"/*.cpp 2>/dev/null) >"$out/build.log" 2>&1; then
        echo "$name|FAILED: $(grep -m1 -E 'error' "$out/build.log" | cut -c1-90)|-|-|-" >"$work/$name.row"; return
    fi
    t0=$(date +%s.%N)
    (cd "$dir" && timeout "$limit" "$out/$name" >"$out/run.log" 2>&1); rc=$?
    t=$(echo "$(date +%s.%N) - $t0" | bc)
    # The sample's own verdict: NVIDIA's samples end with one of these.
    verdict=$(grep -aiE 'test passed|passed|result = pass|success|fail|waived|CPU executed' "$out/run.log" | tail -n 2 | tr '\n' ' ' | cut -c1-90)
    # Else its last line (clock prints its measurement, shfl_scan a checksum).
    [ -n "$verdict" ] || verdict=$(grep -av '^simt' "$out/run.log" | grep -a . | tail -n 1 | cut -c1-90)
    [ $rc = 124 ] && verdict="ran past ${limit} s"
    # A report of the emulator's checks: which check, how many, where first.
    local first
    first=$(grep -a -m1 -E '^simt [a-z]+:' "$out/run.log")
    if [ -n "$first" ]; then
        verdict+=" [${first%%:*}: $(grep -a -oE '[0-9]+ reports? from the emulator' "$out/run.log" | cut -d' ' -f1) report(s), first at $(grep -oE '[^ /]+:[0-9]+' <<<"$first" | head -n 1)]"
    fi
    verdict=$(tr '\t' ' ' <<<"$verdict" | sed 's/^ *//')
    printf '%s|built|%s|%.1f|%s\n' "$name" "$rc" "$t" "$verdict" >"$work/$name.row"
}
export -f one; export samples work limit here PW_BUILD=$build
printf '%s\n' "${names[@]}" | xargs -P "$jobs" -I{} bash -c 'one "$@"' _ {}

printf '%-24s %-8s %-5s %9s  %s\n' sample build exit 'time (s)' "the sample's own verdict"
passed=0
for name in "${names[@]}"; do
    IFS='|' read -r n b rc t v <"$work/$name.row"
    printf '%-24s %-8s %-5s %9s  %s\n' "$n" "$b" "$rc" "$t" "$v"
    # A verdict of failure ("Test failed", "FAILED", "waived"), not any word
    # with "fail" in it: simpleTemplates passes with "0 Failures".
    [ "$b" = built ] && [ "$rc" = 0 ] && ! grep -qiE '\bfailed\b|\bwaived\b' <<<"$v" && passed=$((passed + 1))
done
echo "$passed of ${#names[@]} build and pass unmodified (tools/pwcc, timeout ${limit} s, $jobs at a time, $(nproc) cores)"
[ "$passed" = ${#names[@]} ]
