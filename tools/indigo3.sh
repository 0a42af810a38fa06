#!/usr/bin/env bash
# tools/indigo3.sh: the emulator's checkers against the Indigo3 suite's
# labeled CUDA codes (github.com/burtscher/Indigo3Suite: graph codes with
# deliberately planted bugs, named by their options, e.g.
# BFS_CUDA_E_Data_IntType_..._RaceBug_NoLivelockBug_...cu).
#
#   tools/indigo3.sh [--suite DIR] [--work DIR] [--per-class N] [--free N] [--input FILE] [--jobs N] [--timeout S]
#
#   --suite DIR      a clone of Indigo3Suite (git clone https://github.com/burtscher/Indigo3Suite;
#                    default: $INDIGO3_SUITE)
#   --work DIR       where the codes are generated, built and run (default build/indigo3)
#   --per-class N    codes taken from each bug class (default 10)
#   --free N         bug-free codes taken (default 20)
#   --input FILE     the graph each code runs on (default the suite's
#                    inputs/undirect2dim_rand_torus_100n_400e.egr: 100 vertices, 400 edges)
#   --classes A,B    only these bug classes (e.g. RaceBug,bug-free; default all)
#   --jobs N         builds and runs at once (default 2)
#   --timeout S      seconds a code may run (default 120: a planted livelock spins on the host until then)
#
# The suite's generator writes the CUDA codes of every bug kind once (its
# configure.txt with bug: {all}, in a copy under the work folder; about a
# minute per algorithm). A code's bug class is its one planted bug (an
# option ending in Bug without No before it); codes with several bugs are
# left out, codes with none are the bug-free ones. From each class the
# codes are taken evenly spread over the name-sorted list (so: the same
# every time, and across the algorithms). Each is built with tools/pwcc
# as the suite builds it with nvcc (-O3 -I lib), unmodified, plus
# -DPW_CUDA12_DEVICE_PROP (the suite prints cudaDeviceProp.clockRate and
# memoryClockRate, which CUDA 13 removed: nvcc 13 rejects it too), and run as
# its run script does (input, 1 run, source 0) under tools/pwsan (every
# check), --timeout seconds at most. Printed: a table of bug class, codes, reported
# (a simt report), clean (exit 0, none), other (a crash, a timeout or a
# non-zero exit with no report), build failures; WORK/report.txt has each
# code's first report, WORK/list.txt the verdict per code.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
suite=${INDIGO3_SUITE:-} work=$root/build/indigo3 per=10 free=20 classes='' input='' jobs=2 limit=120
usage() { sed -n '7,18p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "indigo3: $*" >&2; exit 2; }
while (($#)); do
    case $1 in
        --classes) classes=${2:-}; shift 2 ;;
        --suite) suite=${2:-}; shift 2 ;;
        --work) work=${2:-}; shift 2 ;;
        --per-class) per=${2:-}; shift 2 ;;
        --free) free=${2:-}; shift 2 ;;
        --input) input=${2:-}; shift 2 ;;
        --jobs) jobs=${2:-}; shift 2 ;;
        --timeout) limit=${2:-}; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; exit 2 ;;
    esac
done
[[ $per =~ ^[0-9]+$ && $free =~ ^[0-9]+$ && $jobs =~ ^[1-9][0-9]*$ && $limit =~ ^[1-9][0-9]*$ ]] || die "--per-class, --free, --jobs and --timeout take a count"
[ -n "$suite" ] || die "say where the suite is: --suite DIR (git clone https://github.com/burtscher/Indigo3Suite)"
[ -f "$suite/generate_all_codes.py" ] || die "$suite is not a clone of Indigo3Suite (no generate_all_codes.py)"
[ -n "$input" ] || input=$suite/inputs/undirect2dim_rand_torus_100n_400e.egr
[ -f "$input" ] || die "no input graph $input"
input=$(cd "$(dirname "$input")" && pwd)/$(basename "$input")
mkdir -p "$work" || die "cannot create $work"
work=$(cd "$work" && pwd)

# ---- generate every CUDA code once ----
gen=$work/gen
if [ ! -f "$gen/done" ]; then
    rm -rf "$gen"
    mkdir -p "$gen"
    cp -r "$suite/codeGen" "$suite/scripts" "$suite/generate_all_codes.py" "$suite/copyright.txt" "$gen/" || die "cannot copy the suite"
    sed -i 's/^\( *bug: *\){nobug}/\1{all}/' "$gen/codeGen/configure.txt"
    grep -q 'bug: *{all}' "$gen/codeGen/configure.txt" || die "configure.txt: no 'bug: {nobug}' line to change"
    echo "indigo3: generating the CUDA codes with every bug kind (a few minutes)" >&2
    (cd "$gen" && python3 ./generate_all_codes.py cuda all >"$gen/generate.log" 2>&1) || die "the generator failed: $gen/generate.log"
    touch "$gen/done"
fi

# ---- classify and sample ----
# class NAME: the one planted bug, "bug-free", or "" (several)
find "$gen/generatedCodes/CUDA" -name '*.cu' -printf '%P\n' | LC_ALL=C sort >"$work/all.txt"
awk -F/ '{
    n = $NF; sub(/\.cu$/, "", n); k = split(n, t, "_"); cls = ""; nb = 0
    for (i = 1; i <= k; i++) if (t[i] ~ /Bug$/ && t[i] !~ /^No/) { nb++; cls = t[i] }
    if (nb == 0) print "bug-free", $0; else if (nb == 1) print cls, $0
}' "$work/all.txt" >"$work/classes.txt"
: >"$work/sample.txt"
for cls in $(cut -d' ' -f1 "$work/classes.txt" | LC_ALL=C sort -u); do
    [ -z "$classes" ] || [[ ,$classes, == *,$cls,* ]] || continue
    want=$per
    [ "$cls" = bug-free ] && want=$free
    awk -v c="$cls" '$1 == c { print $2 }' "$work/classes.txt" >"$work/c.txt"
    n=$(wc -l <"$work/c.txt")
    ((n > 0 && want > 0)) || continue
    ((want > n)) && want=$n
    awk -v n="$n" -v w="$want" -v c="$cls" 'BEGIN { for (i = 0; i < w; i++) pick[int(i * n / w) + 1] = 1 }
        NR in pick { print c, $0 }' "$work/c.txt" >>"$work/sample.txt"
done
rm -f "$work/c.txt"

# ---- build and run each (one line of verdict per code) ----
mkdir -p "$work/exe" "$work/logs"
one() {   # one CLASS PATH: prints "CLASS NAME VERDICT"
    local cls=$1 rel=$2 name exe log rc
    name=$(basename "$rel" .cu)
    exe=$work/exe/$name
    log=$work/logs/$name
    if ! "$root/tools/pwcc" -O3 -DPW_CUDA12_DEVICE_PROP -I "$suite/lib" -o "$exe" "$gen/generatedCodes/CUDA/$rel" >"$log.build" 2>&1; then
        echo "$cls $name build-failure"
        return
    fi
    local args=("$input" 1)
    case $name in BFS* | SSSP*) args+=(0) ;; esac
    args+=(1)   # the run script's thread count (the CUDA codes ignore it)
    timeout -k 5 "$limit" "$root/tools/pwsan" "$exe" "${args[@]}" >"$log.out" 2>"$log.err"
    rc=$?
    if grep -Eq 'simt (memcheck|racecheck|initcheck|synccheck|livelock)' "$log.err"; then
        echo "$cls $name reported"
    elif [ $rc -eq 0 ]; then
        echo "$cls $name clean"
    else
        echo "$cls $name other(exit $rc)"
    fi
}
export -f one
export root suite work gen input limit
awk '{ print $1, $2 }' "$work/sample.txt" | xargs -P "$jobs" -n 2 bash -c 'one "$0" "$1"' >"$work/list.txt"
LC_ALL=C sort -o "$work/list.txt" "$work/list.txt"

# ---- the first report of each code that reported ----
: >"$work/report.txt"
while read -r cls name verdict; do
    [ "$verdict" = reported ] || continue
    printf '%s %s\n  %s\n' "$cls" "$name" \
        "$(grep -Em1 'simt (memcheck|racecheck|initcheck|synccheck|livelock)' "$work/logs/$name.err")" >>"$work/report.txt"
done <"$work/list.txt"

printf '%-20s %6s %9s %6s %6s %15s\n' "bug class" codes reported clean other "build failures"
awk '{ c[$1]++; if ($3 == "reported") r[$1]++; else if ($3 == "clean") k[$1]++;
       else if ($3 == "build-failure") b[$1]++; else o[$1]++ }
     END { for (x in c) printf "%-20s %6d %9d %6d %6d %15d\n", x, c[x], r[x], k[x], o[x], b[x] }' "$work/list.txt" | LC_ALL=C sort
echo "per code: $work/list.txt; first reports: $work/report.txt; logs: $work/logs/"
