# tests/tool_mpi.sh: sourced by tests/run.sh (part tool_mpi). The model
# against the real transport (chapter 10's mpi_model) and the launch past one
# machine (chapters/mpi.sh, make mpi-check, tools/slurm/workbook.sbatch).
#
# What is checked holds on any machine: the fit is the weighted least-squares
# optimum of this run's own points (a nudge of alpha or beta makes it worse),
# the residuals and ratio columns are the quotients of the numbers beside
# them, the 25% count is the count of this run's rows, oversubscription is
# said exactly when the processes outnumber the cores; never one machine's
# alpha or beta. About 10 s: --tiny sizes (ping-pong up to 1 MiB, 3 repeats).
m10=$BUILD/ch10
if [ "${SAN:-}" = tsan ]; then
    echo "SKIP tool_mpi: not under ThreadSanitizer (Open MPI's progress threads are outside our code)"
elif [ ! -x "$m10/mpi_model" ] || ! command -v mpirun >/dev/null 2>&1; then
    echo "SKIP tool_mpi: mpicc/mpirun not found (apt install openmpi-bin libopenmpi-dev)"
else
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
    . chapters/mpi.sh
    mpi_t() { timeout 120 mpirun --oversubscribe -np "$@"; }

    # ---- the fit ---------------------------------------------------------------
    mpi_t 2 "$m10/mpi_model" --tiny --csv "$tmp/mm2.csv" >"$tmp/mm2" 2>"$tmp/mm2e"
    rc=$?
    if [ $rc -eq 0 ] && grep -q '^fit: alpha = ' "$tmp/mm2" && ! sanitizer_report "$tmp/mm2e"; then
        ok "mpi_model -np 2 --tiny: ping-pong, fit, all-reduce table, DP step"
    else
        bad "mpi_model -np 2 --tiny" "exit $rc" "$(tail -3 "$tmp/mm2e")"
    fi
    # Residuals: (alpha + beta n - t) / t from the CSV's own numbers; the
    # weighted sum of squares is lowest at the fitted (alpha, beta): 1% off
    # either way in either is worse. The printed rms is sqrt(mean(r^2)).
    got=$(awk -F, '/^#/ || /^program,/ { next }
        $2 == "pingpong" && $7 == "one_way" { n[++k] = $5; t[k] = $9 }
        $2 == "fit" && $3 == "quantity" && $7 == "residual" { r[$5] = $NF }
        $2 == "fit" && $7 == "alpha_s" { a = $NF } $2 == "fit" && $7 == "beta_s_per_byte" { b = $NF }
        function ss(A, B,   i, s, e) { s = 0; for (i = 1; i <= k; i++) { e = (A + B * n[i] - t[i]) / t[i]; s += e * e } return s }
        END { bad = 0
              for (i = 1; i <= k; i++) { e = (a + b * n[i] - t[i]) / t[i]; d = e - r[n[i]]; if (d < 0) d = -d; if (d > 1e-5) bad++ }
              s0 = ss(a, b); worse = 0
              if (ss(a * 1.01, b) > s0 && ss(a * 0.99, b) > s0 && ss(a, b * 1.01) > s0 && ss(a, b * 0.99) > s0) worse = 1
              printf "%d %d %d %.1f", k, bad, worse, 100 * sqrt(s0 / k) }' "$tmp/mm2.csv")
    set -- $got
    rms=$(sed -n 's/^  residuals: rms \([0-9.]*\)%.*/\1/p' "$tmp/mm2")
    if [ "${1:-0}" -ge 20 ] && [ "$2" = 0 ] && [ "$3" = 1 ] && [ "$rms" = "$4" ]; then
        ok "mpi_model fit: $1 ping-pong sizes, residuals = (alpha + n beta - t)/t, the weighted optimum, rms $rms% as printed"
    else
        bad "mpi_model fit against its CSV" "sizes ${1:-?} (want >= 20), residuals off ${2:-?}, optimum ${3:-?}, rms printed '$rms' recomputed '${4:-?}'"
    fi
    # The table: meas/mod is measured / modelled (CSV, exact); the printed
    # ratio is the printed times' quotient (rounded: 2%); the 25% count is
    # the count of ring rows of 1 MiB and more within 25%.
    got=$(awk -F, '/^#/ || /^program,/ { next }
        $3 == "modelled" && $7 == "model" { m[$2 "/" $5] = $NF }
        $3 == "summary" && $7 == "mpi" { t[$2 "/" $5] = $9 }
        $3 == "quantity" && $7 == "measured_over_modelled" && $2 ~ /^(naive|tree|ring)$/ { q[$2 "/" $5] = $NF }
        END { bad = 0; n = 0; within = 0; from = 0
              for (k in q) { n++; e = q[k] - t[k] / m[k]; if (e < 0) e = -e; if (e > 1e-6 * q[k]) bad++
                             split(k, p, "/"); if (p[1] == "ring" && p[2] >= 1048576) { from++; d = q[k] - 1; if (d < 0) d = -d; if (d <= 0.25) within++ } }
              printf "%d %d %d %d", n, bad, within, from }' "$tmp/mm2.csv")
    set -- $got
    printed=$(awk 'function sec(v, u) { return u == "ms" ? v * 1e-3 : v * 1e-6 }
        /^ +[0-9.]+ [KMG]?i?B +(naive|tree|ring) / { n++; two = NF == 12; r = (two ? sec($8, $9) : sec($6, $7)) / sec($4, $5)
                                                     p = two ? $11 : $NF; d = r / p - 1; if (d < 0) d = -d
                                                     if (d > 0.02 && (r > p ? r - p : p - r) > 0.011) bad++ }
        END { printf "%d %d", n, bad }' "$tmp/mm2")
    answer=$(sed -n 's/^answer: ring from 1 MiB up, one line: .* within 25% at \([0-9]*\) of \([0-9]*\) sizes.*/\1 \2/p' "$tmp/mm2")
    if [ "${1:-0}" = 9 ] && [ "$2" = 0 ] && [ "$printed" = "9 0" ] && [ "$answer" = "$3 $4" ]; then
        ok "mpi_model table: 9 ratios = measured/modelled (CSV and printed), the answer's 25% count ($answer) is the rows'"
    else
        bad "mpi_model table ratios" "CSV rows ${1:-?} (want 9), off ${2:-?}; printed rows/off '$printed' (want 9 0); answer '$answer' want '${3:-?} ${4:-?}'"
    fi
    # Modelled rows carry no spread; the DP step is modelled against measured.
    if awk -F, '/^#/ || /^program,/ { next } $3 == "modelled" && ($9 != "" || $11 != "" || $12 != "") { exit 1 }' "$tmp/mm2.csv" \
       && grep -qE '^  modelled .*: compute .* GFLOP/s' "$tmp/mm2" && grep -qE '^  measured .* \(median of 7 steps after the first, IQR [0-9.]+%\): measured/modelled [0-9.]+$' "$tmp/mm2"; then
        ok "mpi_model: modelled rows have no median or IQR; the DP step prints modelled and measured (median, IQR)"
    else
        bad "mpi_model: modelled vs measured labels" "$(grep -A2 '^one data-parallel' "$tmp/mm2")"
    fi
    # Oversubscription: said exactly when the processes outnumber the cores.
    cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc)
    mpi_t 3 "$m10/mpi_model" --tiny -n 4096,1048576 --fit "$tmp/mm2.csv" >"$tmp/mm3" 2>"$tmp/mm3e"
    rc=$?
    over=no; grep -q 'OVERSUBSCRIBED' "$tmp/mm3" && over=yes
    want=no; [ 3 -gt "$cores" ] && want=yes
    if [ $rc -eq 0 ] && [ $over = $want ] && grep -q '^fit read from ' "$tmp/mm3" && ! grep -q '^ping-pong' "$tmp/mm3"; then
        ok "mpi_model -np 3 --fit: the 2-process fit predicts; oversubscribed said: $over (3 processes, $cores cores)"
    else
        bad "mpi_model -np 3 --fit" "exit $rc, oversubscribed said $over, want $want" "$(tail -2 "$tmp/mm3e")"
    fi
    # Bad input: one line each.
    ASAN_OPTIONS=$ASAN_OPTIONS expect_usage "mpi_model as a singleton: needs two processes" "$m10/mpi_model" --tiny
    for bad_args in "-n 4098" "--fit $tmp/nothing.csv" "--fit $tmp/mm2.csv --max-bytes 64"; do
        mpi_t 2 "$m10/mpi_model" --tiny $bad_args >"$tmp/so" 2>"$tmp/se"
        rc=$?
        if [ $rc -ne 0 ] && [ "$(grep -c '^mpi_model: ' "$tmp/se")" = 1 ]; then
            ok "mpi_model $bad_args: refused in one line (exit $rc)"
        else
            bad "mpi_model $bad_args" "exit $rc" "$(head -3 "$tmp/se")"
        fi
    done
    # The figures draw from the run's CSV.
    mkdir -p "$tmp/res/10-data-parallel"
    cp "$tmp/mm2.csv" "$tmp/res/10-data-parallel/mpi_model.csv"
    grep -vE '^#|^program,' "$tmp/mm3.csv" >>"$tmp/res/10-data-parallel/mpi_model.csv" 2>/dev/null
    if ! command -v gnuplot >/dev/null 2>&1; then
        echo "SKIP tool_mpi figures: gnuplot not found"
    elif RESULTS_ROOT=$tmp/res PLOTS_OUT=$tmp/plots bash plots/render.sh 10-data-parallel >"$tmp/so" 2>&1 \
         && [ -s "$tmp/plots/10-data-parallel/pingpong.png" ] && [ -s "$tmp/plots/10-data-parallel/allreduce_model.png" ]; then
        ok "mpi_model figures: pingpong and allreduce_model drawn from the run's CSV"
    else
        bad "mpi_model figures" "$(tail -3 "$tmp/so")"
    fi

    # ---- the launch ------------------------------------------------------------
    # The command each setting builds (chapters/mpi.sh's mpi_command).
    c1=$(mpi_command 4 | tr '\n' ' ')
    c2=$(HOSTFILE=hosts NP=16 MPIRUN_FLAGS="--mca btl tcp,self" mpi_command 4 | tr '\n' ' ')
    c3=$(MPIRUN=srun NP=8 mpi_command 4 | tr '\n' ' ')
    if [ "$c1" = "mpirun --oversubscribe -np 4 " ] && [ "$c2" = "mpirun --hostfile hosts -np 16 --mca btl tcp,self " ] \
       && [ "$c3" = "srun -n 8 " ]; then
        ok "launch: one machine oversubscribes, HOSTFILE/NP/MPIRUN_FLAGS pass through, MPIRUN=srun uses -n"
    else
        bad "launch commands" "got '$c1' | '$c2' | '$c3'"
    fi
    printf 'localhost slots=2\n' >"$tmp/hosts"
    HOSTFILE=$tmp/hosts NP=2 timeout 60 bash tools/mpi_check.sh "$m10/mpi_check" >"$tmp/so" 2>"$tmp/se"
    rc=$?
    if [ $rc -eq 0 ] && grep -q '^2 ranks:' "$tmp/so" && grep -q "^(launch: mpirun --hostfile $tmp/hosts -np 2 " "$tmp/so" \
       && grep -q '^ok: the workbook.s ring all-reduce over all 2 ranks' "$tmp/so" && grep -qE '^transport' "$tmp/so" \
       && grep -qE '^  0 <-> 1 .*1 MiB .* GB/s$' "$tmp/so"; then
        ok "make mpi-check with a localhost hostfile (slots=2, NP=2): ranks, hosts, transport, ping-pong"
    else
        bad "mpi-check with a hostfile" "exit $rc" "$(tail -3 "$tmp/so")" "$(tail -3 "$tmp/se")"
    fi
    # The errors a user meets: one line each (and no Open MPI banner).
    chk_err() {   # LABEL PATTERN ENV...
        local label=$1 pat=$2; shift 2
        env "$@" timeout 60 bash tools/mpi_check.sh "$m10/mpi_check" >"$tmp/so" 2>"$tmp/se"
        local rc=$? lines
        lines=$(grep -cv '^$' "$tmp/se")
        if [ $rc -ne 0 ] && [ "$lines" = 1 ] && grep -qE "$pat" "$tmp/se"; then ok "launch error in one line: $label"
        else bad "launch error: $label" "exit $rc, $lines lines (want 1)" "$(head -3 "$tmp/se")"; fi
    }
    chk_err "a hostfile that does not exist" '^HOSTFILE=.*: no such file' HOSTFILE="$tmp/no-hosts"
    chk_err "no such launcher" '^MPIRUN=.*: no such command' MPIRUN=no-such-mpirun
    chk_err "more ranks than slots" 'offers fewer slots \(2 listed\).*--oversubscribe' HOSTFILE="$tmp/hosts" NP=4
    if [ "$(id -u)" = 0 ]; then
        chk_err "root without OMPI_ALLOW_RUN_AS_ROOT" 'refuses to run as root' -u OMPI_ALLOW_RUN_AS_ROOT -u OMPI_ALLOW_RUN_AS_ROOT_CONFIRM PW_MPI_ROOT=0
    else
        echo "SKIP tool_mpi root refusal: not running as root here"
    fi
    # Slurm: srun as the launcher (a stand-in srun that logs its arguments
    # and runs mpirun), and the batch script checked by Slurm where it exists.
    mkdir -p "$tmp/bin"
    printf '#!/bin/sh\necho "$*" >>"%s"\n[ "$1" = -n ] || exit 9\nn=$2; shift 2\nexec mpirun --oversubscribe -np "$n" "$@"\n' "$tmp/srun.log" >"$tmp/bin/srun"
    chmod +x "$tmp/bin/srun"
    PATH=$tmp/bin:$PATH MPIRUN=srun NP=2 timeout 60 bash tools/mpi_check.sh "$m10/mpi_check" >"$tmp/so" 2>"$tmp/se"
    rc=$?
    if [ $rc -eq 0 ] && grep -q "^-n 2 $m10/mpi_check" "$tmp/srun.log" && grep -q '^2 ranks:' "$tmp/so"; then
        ok "launch with MPIRUN=srun: srun -n NP PROGRAM"
    else
        bad "launch with MPIRUN=srun" "exit $rc" "$(cat "$tmp/srun.log" 2>/dev/null)" "$(tail -2 "$tmp/se")"
    fi
    if command -v sbatch >/dev/null 2>&1; then
        if sbatch --test-only tools/slurm/workbook.sbatch >"$tmp/so" 2>&1; then ok "slurm: sbatch --test-only accepts tools/slurm/workbook.sbatch"
        else bad "slurm: sbatch --test-only" "$(tail -2 "$tmp/so")"; fi
    else
        echo "SKIP tool_mpi sbatch --test-only: no Slurm here (sbatch not found); bash -n checks the script's syntax"
        if bash -n tools/slurm/workbook.sbatch && grep -q '^#SBATCH --ntasks-per-node=' tools/slurm/workbook.sbatch; then
            ok "slurm: tools/slurm/workbook.sbatch parses (bash -n) and asks for tasks"
        else bad "slurm: tools/slurm/workbook.sbatch does not parse"; fi
    fi
    unset -f mpi_t chk_err
fi
