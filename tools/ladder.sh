#!/usr/bin/env bash
# tools/ladder.sh: what `make ladder` runs. The speedup ladder of one GEMM
# (chapter 07's size) from the CSVs the chapters wrote, running what is missing:
#   chapter 07: $RESULTS_ROOT/07-gemm-cpu/gemm.csv (else: build/ch07/gemm --csv, as make chapter-7)
#   chapter 09: its H100 model at chapter 07's n: results/09-tensor-cores/gemm.csv
#               if it holds the model at that n, else build/ch09/gemm --model-n n
#               --csv $RESULTS_ROOT/ladder/gemm09.csv (chapter 09's own CSV models 4096)
# then tools/ladder.c (table, terminal plot, $RESULTS_ROOT/ladder/ladder.csv)
# and plots/ladder/ladder.gp ($PLOTS_OUT/ladder/ladder.png and .svg, which the
# gallery shows).
#   BUILD         where the programs are (default build)
#   RESULTS_ROOT  the results folder (default results; tests use a temp one)
#   PLOTS_OUT     the figures' folder (default plots/out)
#   TINY=1        run missing chapters with --tiny (tests)
#   DEVICES=8     the cluster rungs' device count
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
root=${RESULTS_ROOT:-results}
plots=${PLOTS_OUT:-plots/out}
tiny=()
[ "${TINY:-}" = 1 ] && tiny=(--tiny)
f07=$root/07-gemm-cpu/gemm.csv
mkdir -p "$root/07-gemm-cpu" "$root/ladder"

if [ ! -f "$f07" ]; then
    echo "ladder: $f07 missing: running chapter 07's gemm"
    "$BUILD/ch07/gemm" "${tiny[@]}" --csv "$f07" >"$root/ladder/gemm07.log" 2>&1 ||
        { echo "ladder: chapter 07's gemm failed (see $root/ladder/gemm07.log): no ladder" >&2; exit 1; }
fi
# chapter 07's size: the n of its 5_omp thread sweep
n=$(awk -F, '$2 == "5_omp" && $3 == "summary" && $7 == "threads" { print $5; exit }' "$f07")
[ -n "$n" ] || { echo "ladder: $f07: no 5_omp thread sweep: not a complete chapter 07 run (rerun make chapter-7)" >&2; exit 1; }

has_model() { [ -f "$1" ] && awk -F, -v n="$n" '$2 == "9_wmma_shared_fp16" && $5 == n && $7 == "model_h100_t_s" { f = 1 } END { exit !f }' "$1"; }
f09=results/09-tensor-cores/gemm.csv
[ "$root" = results ] && has_model "$f09" || f09=$root/ladder/gemm09.csv
if ! has_model "$f09"; then
    echo "ladder: chapter 09's H100 model at n = $n missing: running $BUILD/ch09/gemm --model-n $n"
    "$BUILD/ch09/gemm" "${tiny[@]}" --model-n "$n" --csv "$f09" >"$root/ladder/gemm09.log" 2>&1 ||
        { echo "ladder: chapter 09's gemm failed (see $root/ladder/gemm09.log): no ladder" >&2; exit 1; }
fi

"$BUILD/tools/ladder" --gemm07 "$f07" --gemm09 "$f09" --devices "${DEVICES:-8}" --csv "$root/ladder/ladder.csv"

if ! command -v gnuplot >/dev/null 2>&1; then
    echo "figure skipped: gnuplot not found (apt install gnuplot-nox)"; exit 0
fi
mkdir -p "$plots/ladder"
for fmt in png svg; do
    gnuplot -e "results='$root/ladder'; out='$plots/ladder/ladder'; fmt='$fmt'" plots/ladder/ladder.gp
done
echo "figure: $plots/ladder/ladder.png and .svg (the gallery: bash plots/gallery.sh)"
