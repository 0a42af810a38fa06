#!/usr/bin/env bash
# tools/grade_class.sh: grade a whole class (make grade calls it).
#
#   make grade SUBMISSIONS=dir/ [JOBS=N] [EXERCISES="1.1 3.1"]
#
# dir/ holds one entry per student, named after the student (letters, digits,
# . _ -): a folder that is a copy of exercises/ (dir/alice/01-measure/square.c)
# or a tarball of one (dir/bob.tar.gz; a single top folder inside it, e.g.
# bob/ or exercises/, is looked through). A file the student did not hand in
# is graded MISSING: never the skeleton in its place, silently.
#
# Each student x exercise is one job, JOBS at a time (default: the core
# count): the checker is built in GRADE_BUILD/<student>/ex/N.K/ by
# `make grade-one` (mk/grade.mk: the build command of `make ex-N.K`, same
# flags, sanitizers and ThreadSanitizer rule, the student's file in place of
# exercises/'s) under a time limit (PW_GRADE_BUILD_TIMEOUT, default 120 s),
# then run by tools/grade.sh under its own (PW_GRADE_TIMEOUT, default 20 s).
# So an endless loop costs its own job its time limit and nothing else.
#
# Verdicts: PASS; FAIL (wrong answer, or the skeleton's "not yet
# implemented"); RACE (ThreadSanitizer saw a data race: reported whatever the
# timing, so a busy machine cannot turn it into a pass); TIMEOUT; CRASH;
# NOCOMPILE; MISSING (no such file handed in); SKIP (this build cannot grade
# it: 4.3 built without OpenMP). CUDA exercises are graded on
# the SIMT emulator, as `make ex-N.K` grades them. An unknown exercise in
# EXERCISES is bad input.
#
# Writes GRADES_DIR/grades.csv (student,exercise,verdict,reason,seconds),
# prints a students x exercises table, and writes GRADES_HTML (one row per
# student, the reason in each cell that is not a PASS).
# Exit status: 0 when the class was graded (whatever the grades), 2 on bad
# input (one line on stderr).
set -u

usage() { echo "grade_class.sh: $*" >&2; exit 2; }

subs=${1:-} jobs=${2:-}
[[ -n $subs ]] || usage "no SUBMISSIONS: make grade SUBMISSIONS=dir/ (one folder or tarball per student)"
[[ -d $subs ]] || usage "SUBMISSIONS=$subs is not a folder"
[[ -n $jobs ]] || jobs=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
[[ $jobs =~ ^[1-9][0-9]*$ ]] || usage "JOBS must be a whole number of parallel jobs (1 or more), not '$jobs'"
BUILD=${BUILD:-build}
MAKE=${MAKE:-make}
GRADE_BUILD=${GRADE_BUILD:-$BUILD/grade}
GRADES_DIR=${GRADES_DIR:-results/grades}
GRADES_HTML=${GRADES_HTML:-plots/out/grades.html}
build_limit=${PW_GRADE_BUILD_TIMEOUT:-120}
[[ $build_limit =~ ^[1-9][0-9]*$ ]] || usage "PW_GRADE_BUILD_TIMEOUT must be a whole number of seconds, not '$build_limit'"
read -r -a map <<<"${GRADE_MAP:-}"
(( ${#map[@]} )) || usage "no exercises to grade (GRADE_MAP is empty: run it through make grade)"
# A CUDA exercise comes as ID=- (mk/grade.mk): its .cu is the last word of the
# grading command of `make ex-ID` (-o: without building its checker).
for i in "${!map[@]}"; do
    [[ ${map[i]} == *=- ]] || continue
    id=${map[i]%%=*}
    rel=$("$MAKE" -n --no-print-directory BUILD="$BUILD" -o "$BUILD/ex/$id/check" "ex-$id" 2>/dev/null |
         grep -m1 'tools/grade.sh' | awk '{print $NF}')
    [[ -n $rel ]] || usage "no exercise '$id' (make help lists them)"
    map[i]=$id=$rel
done

# ---- the class -----------------------------------------------------------------
students=()
shopt -s nullglob
for entry in "$subs"/*; do
    name=$(basename "$entry")
    if [[ -d $entry ]]; then :
    elif [[ -f $entry && $name == *.tar.gz ]]; then name=${name%.tar.gz}
    elif [[ -f $entry && $name == *.tgz ]]; then name=${name%.tgz}
    else continue
    fi
    if [[ ! $name =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]]; then
        echo "grade_class.sh: skipping '$name': a student's name is letters, digits, . _ -" >&2
        continue
    fi
    [[ " ${students[*]} " == *" $name "* ]] && { echo "grade_class.sh: '$name' handed in twice: grading the folder" >&2; continue; }
    students+=("$name")
done
(( ${#students[@]} )) || usage "SUBMISSIONS=$subs holds no student (a folder or a .tar.gz per student)"
IFS=$'\n' read -r -d '' -a students < <(printf '%s\n' "${students[@]}" | sort; printf '\0')

mkdir -p "$GRADE_BUILD" "$GRADES_DIR" "$(dirname "$GRADES_HTML")" || usage "cannot create the output folders"
# Where each student's files are: their folder, or their tarball unpacked.
for s in "${students[@]}"; do
    rm -rf "${GRADE_BUILD:?}/$s"
    mkdir -p "$GRADE_BUILD/$s"
    if [[ -d $subs/$s ]]; then
        (cd "$subs/$s" && pwd) > "$GRADE_BUILD/$s/src_dir"
        continue
    fi
    tarball=$subs/$s.tar.gz
    [[ -f $tarball ]] || tarball=$subs/$s.tgz
    mkdir -p "$GRADE_BUILD/$s/src"
    # GNU tar strips leading / and refuses members with .. in their path.
    if ! timeout 60 tar -xzf "$tarball" -C "$GRADE_BUILD/$s/src" 2>"$GRADE_BUILD/$s/tar.log"; then
        echo "$(head -n 1 "$GRADE_BUILD/$s/tar.log")" > "$GRADE_BUILD/$s/bad_tarball"
    fi
    dir=$GRADE_BUILD/$s/src
    tops=("$dir"/*)
    if (( ${#tops[@]} == 1 )) && [[ -d ${tops[0]} && ! $(basename "${tops[0]}") =~ ^[0-9][0-9]- ]]; then dir=${tops[0]}; fi
    (cd "$dir" && pwd) > "$GRADE_BUILD/$s/src_dir"
done

# The library and kernels every checker links, once, before the parallel part.
if ! "$MAKE" -s --no-print-directory BUILD="$BUILD" grade-deps >"$GRADE_BUILD/deps.log" 2>&1; then
    echo "grade_class.sh: the workbook's own library does not build (see $GRADE_BUILD/deps.log)" >&2
    exit 1
fi

# ---- one student x one exercise ------------------------------------------------------
# Writes GRADE_BUILD/<student>/ex/<id>/row: verdict TAB seconds TAB reason.
grade_one() {
    local s=$1 id=$2 rel=$3
    local out=$GRADE_BUILD/$s/ex/$id
    mkdir -p "$out"
    local t0 verdict reason
    local src; src=$(cat "$GRADE_BUILD/$s/src_dir" 2>/dev/null)
    t0=$(date +%s%N)
    row() {
        local t1; t1=$(date +%s%N)
        # paths as the student knows them: 03-threads/histogram.c, not /home/...
        [[ -n $src ]] && set -- "$1" "${2//"$src/"/}"
        set -- "$1" "${2//"$PWD/"/}"
        printf '%s\t%d.%d\t%s\n' "$1" $(( (t1 - t0) / 1000000000 )) $(( (t1 - t0) / 100000000 % 10 )) "$2" > "$out/row"
    }
    if [[ -f $GRADE_BUILD/$s/bad_tarball ]]; then row MISSING "the tarball does not unpack: $(cat "$GRADE_BUILD/$s/bad_tarball")"; return; fi
    local file=$src/${rel#exercises/}
    if [[ ! -f $file ]]; then row MISSING "no ${rel#exercises/} handed in"; return; fi
    # The build, as make ex-N.K does it, under its own time limit.
    local how=(grade-one)
    [[ $file == *.cu ]] && how=(grade-one-cu GRADE_EXDIR="$(dirname "$rel")")
    LC_ALL=C timeout -k 5 "$build_limit" "$MAKE" -s --no-print-directory BUILD="$BUILD" "${how[@]}" \
        GRADE_ID="$id" GRADE_FILE="$file" GRADE_OUT="$out/check" >"$out/build.log" 2>&1 </dev/null
    local rc=$?
    if (( rc == 124 || rc == 137 )); then row NOCOMPILE "the build did not finish in $build_limit s"; return; fi
    if (( rc != 0 )) || [[ ! -x $out/check ]]; then
        reason=$(grep -m1 -E 'error:|ex_inspect|FAIL' "$out/build.log" || grep -m1 -v '^[[:space:]]*$' "$out/build.log")
        row NOCOMPILE "${reason:-the build failed}"
        return
    fi
    # The checker, as make ex-N.K runs it (tools/grade.sh: its time limit).
    local line
    line=$(bash tools/grade.sh -q "$id" "$out/check" "$file" 2>&1 | tail -n 1)
    case $line in
        *"): PASS") verdict=PASS reason= ;;
        *"): SKIP: "*) verdict=SKIP line="): FAIL: ${line#*): SKIP: }" ;;   # this build cannot grade it
        *"): FAIL: timed out"*|*"): FAIL: still running after "*) verdict=TIMEOUT ;;   # the grader stopped it, or it stopped itself first (common/exercise.c)
        *"): FAIL: crashed"*) verdict=CRASH ;;
        *"): FAIL: AddressSanitizer: SEGV"*) verdict=CRASH ;;   # ASan catches the signal and reports it
        *"): FAIL: ThreadSanitizer: data race"*) verdict=RACE ;;
        *"): FAIL: "*) verdict=FAIL ;;
        *) verdict=FAIL line="): FAIL: no verdict from tools/grade.sh: $line" ;;
    esac
    [[ $verdict == PASS ]] || reason=${line#*): FAIL: }
    row "$verdict" "$reason"
}
export -f grade_one
export GRADE_BUILD BUILD MAKE build_limit

tasks=()
for s in "${students[@]}"; do
    for m in "${map[@]}"; do tasks+=("$s" "${m%%=*}" "${m#*=}"); done
done
started=$(date +%s%N)
echo "grading ${#students[@]} students x ${#map[@]} exercises, $jobs at a time"
printf '%s\0' "${tasks[@]}" | xargs -0 -n 3 -P "$jobs" bash -c 'grade_one "$@"' grade_one
wall=$(( ($(date +%s%N) - started) / 1000000 ))

# ---- the outputs ---------------------------------------------------------------------
csv=$GRADES_DIR/grades.csv
csv_field() { local f=${1//\"/\"\"}; [[ $f == *[,\"]* ]] && f="\"$f\""; printf '%s' "$f"; }
html() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g' <<<"$1"; }
ids=()
for m in "${map[@]}"; do ids+=("${m%%=*}"); done

echo "student,exercise,verdict,reason,seconds" > "$csv.tmp"
{
    echo '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Parallel Workbook: grades</title>'
    echo '<style>body{font-family:sans-serif} td,th{border:1px solid #999;padding:4px;vertical-align:top}'
    echo 'table{border-collapse:collapse} .PASS{background:#cfc} td.bad{background:#fcc}</style></head><body>'
    echo "<h1>Grades</h1><p>$(html "${#students[@]} students, ${#ids[@]} exercises, graded in $((wall / 1000)).$((wall / 100 % 10)) s. Each cell: the verdict, then the first failure's explanation.")</p>"
    echo -n '<table><tr><th>student</th>'
    for id in "${ids[@]}"; do echo -n "<th>$(html "$id")</th>"; done
    echo '</tr>'
} > "$GRADES_HTML.tmp"
table_w=10
for s in "${students[@]}"; do (( ${#s} > table_w )) && table_w=${#s}; done
printf "%-${table_w}s" student
for id in "${ids[@]}"; do printf ' %-9s' "$id"; done
echo
for s in "${students[@]}"; do
    printf "%-${table_w}s" "$s"
    echo -n "<tr><td>$(html "$s")</td>" >> "$GRADES_HTML.tmp"
    for id in "${ids[@]}"; do
        r=$GRADE_BUILD/$s/ex/$id/row
        if [[ -f $r ]]; then IFS=$'\t' read -r verdict secs reason < "$r"
        else verdict=CRASH secs=0 reason="the grader's own job for this cell died"
        fi
        printf ' %-9s' "$verdict"
        printf '%s,%s,%s,%s,%s\n' "$(csv_field "$s")" "$id" "$verdict" "$(csv_field "$reason")" "$secs" >> "$csv.tmp"
        cls=bad; [[ $verdict == PASS ]] && cls=PASS
        echo -n "<td class=\"$cls\"><b>$verdict</b>${reason:+<br>$(html "$reason")}</td>" >> "$GRADES_HTML.tmp"
    done
    echo
    echo '</tr>' >> "$GRADES_HTML.tmp"
done
echo '</table></body></html>' >> "$GRADES_HTML.tmp"
mv "$csv.tmp" "$csv"
mv "$GRADES_HTML.tmp" "$GRADES_HTML"
echo "graded ${#students[@]} students in $((wall / 1000)).$((wall / 100 % 10)) s (JOBS=$jobs): $csv, $GRADES_HTML"
