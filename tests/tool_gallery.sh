# tests/tool_gallery.sh: plots/gallery.sh always writes the page, and lists
# every figure that is not drawn with why and the command that makes it.
# Sourced by tests/run.sh after the chapter tests (ok, bad, $tmp). Nothing is
# compiled or drawn: it runs gallery.sh with PLOTS_OUT and RESULTS_ROOT in
# $tmp, under a PATH of only the utilities it needs (with and without a fake
# gnuplot), so it never touches plots/out/ or results/. Names are gal_*: the
# file is sourced, and run.sh's own variables must survive it.

gal=$tmp/gallery
rm -rf "$gal"; mkdir -p "$gal/bin" "$gal/bin-gp"
# The PATH without gnuplot: links to the basic utilities gallery.sh uses.
for gal_u in bash sed head mkdir sort base64 tr awk date mv rm cat basename dirname; do
    gal_p=$(command -v "$gal_u") && ln -s "$gal_p" "$gal/bin/$gal_u" && ln -s "$gal_p" "$gal/bin-gp/$gal_u"
done
# The PATH with one: gallery.sh only asks whether it is there.
printf '#!/bin/sh\nexit 0\n' >"$gal/bin-gp/gnuplot"; chmod +x "$gal/bin-gp/gnuplot"
gal_gps=(plots/*/*.gp)
gal_n=${#gal_gps[@]}
# gal_run BIN OUT RESULTS: the gallery under PATH=BIN; stdout+stderr in OUT.log.
gal_run() { PATH=$1 PLOTS_OUT=$2 RESULTS_ROOT=$3 "$BASH" plots/gallery.sh >"$2.log" 2>&1; }
# gal_why PAGE CH/NAME: the "why" line of that figure in the not-drawn list.
gal_why() { grep -F "<li><span class=\"name\">$2</span>" "$1" 2>/dev/null | sed -n 's/.*<div class="why">\(.*\)<\/div><\/li>$/\1/p'; }
# gal_make CH: the make command that writes CH's data (make chapter-9, make ladder).
gal_make() { case $1 in [0-9][0-9]-*) echo "make chapter-$((10#${1%%-*}))" ;; *) echo "make $1" ;; esac; }

if PATH=$gal/bin command -v gnuplot >/dev/null 2>&1; then
    bad "gallery: the test's PATH without gnuplot has one" "$gal/bin"
elif [ "$gal_n" -lt 3 ]; then
    bad "gallery: fewer than 3 plots/*/*.gp to test with ($gal_n)"
else
    # ---- (a) no gnuplot, no figures, no data: the page says so, once. ----
    mkdir -p "$gal/res-a"
    gal_run "$gal/bin" "$gal/out-a" "$gal/res-a"; gal_rc=$?
    gal_pg=$gal/out-a/index.html
    if [ $gal_rc -eq 0 ] && [ -s "$gal_pg" ] && grep -q '</html>' "$gal_pg"; then
        ok "gallery: without gnuplot or figures it still writes the page and exits 0"
    else bad "gallery: page without gnuplot" "exit $gal_rc (want 0), page: $(ls -l "$gal_pg" 2>&1)" "$(tail -n 3 "$gal/out-a.log")"; fi
    gal_c=$(grep -o 'gnuplot is not installed' "$gal_pg" 2>/dev/null | wc -l)
    if [ "$gal_c" -eq 1 ] && grep -q '<code>make deps</code> installs it, then <code>make chapters</code> draws every figure' "$gal_pg" \
       && ! grep -q 'writes its data' "$gal_pg"; then
        ok "gallery: without gnuplot the page says so once, names make deps, and gives no reason per figure"
    else bad "gallery: the gnuplot sentence" "'gnuplot is not installed' $gal_c times (want 1), make deps: $(grep -c 'make deps' "$gal_pg" 2>/dev/null), per-figure reasons: $(grep -c 'writes its data' "$gal_pg" 2>/dev/null) (want 0)"; fi
    gal_probs=()
    for gal_gp in "${gal_gps[@]}"; do
        gal_id=$(basename "$(dirname "$gal_gp")")/$(basename "$gal_gp" .gp)
        grep -qF "<li><span class=\"name\">$gal_id</span>: " "$gal_pg" 2>/dev/null || gal_probs+=("$gal_id not listed")
    done
    gal_li=$(grep -c '^<li><span class="name">' "$gal_pg" 2>/dev/null)
    if [ ${#gal_probs[@]} -eq 0 ] && [ "$gal_li" -eq "$gal_n" ] && grep -q "<h2 id=\"not-drawn\">Figures not drawn ($gal_n)</h2>" "$gal_pg"; then
        ok "gallery: the $gal_n plots/*/*.gp are all listed under 'Figures not drawn', each once"
    else bad "gallery: the not-drawn list" "$gal_li entries (want $gal_n)" "${gal_probs[@]:0:5}"; fi
    gal_want="gallery: $gal_pg (0 figures, $gal_n not drawn: gnuplot is not installed: make deps)"
    if [ "$(wc -l <"$gal/out-a.log")" -eq 1 ] && [ "$(tail -n 1 "$gal/out-a.log")" = "$gal_want" ]; then
        ok "gallery: one line printed, '0 figures, $gal_n not drawn: gnuplot is not installed: make deps'"
    else bad "gallery: the printed line" "want: $gal_want" "got:  $(head -c 600 "$gal/out-a.log")"; fi

    # ---- (b) gnuplot there; one figure drawn, one chapter's CSV present. ----
    # Figure: the first script. CSV: every data file of the first script of
    # another chapter, so it is "there but not drawn" and that chapter's
    # other scripts (with other CSVs) are "no data".
    gal_gp1=${gal_gps[0]}
    gal_ch1=$(basename "$(dirname "$gal_gp1")") gal_nm1=$(basename "$gal_gp1" .gp)
    gal_gp2=""
    for gal_gp in "${gal_gps[@]}"; do
        [ "$(basename "$(dirname "$gal_gp")")" != "$gal_ch1" ] && { gal_gp2=$gal_gp; break; }
    done
    gal_ch2=$(basename "$(dirname "$gal_gp2")") gal_nm2=$(basename "$gal_gp2" .gp)
    mkdir -p "$gal/out-b/$gal_ch1" "$gal/res-b/$gal_ch2"
    printf '<svg xmlns="http://www.w3.org/2000/svg"><text>fake figure %s</text></svg>\n' "$gal_nm1" >"$gal/out-b/$gal_ch1/$gal_nm1.svg"
    for gal_csv in $(sed -n 's/^# data: *//p' "$gal_gp2" | head -n 1 | tr ',' ' '); do
        printf '# cpu: fake\nprogram,variant\nx,y\n' >"$gal/res-b/$gal_ch2/$gal_csv"
    done
    gal_run "$gal/bin-gp" "$gal/out-b" "$gal/res-b"; gal_rc=$?
    gal_pg=$gal/out-b/index.html
    gal_b64=$(base64 <"$gal/out-b/$gal_ch1/$gal_nm1.svg" | tr -d '\n')
    if [ $gal_rc -eq 0 ] && grep -q "<figure id=\"$gal_ch1-$gal_nm1\">" "$gal_pg" 2>/dev/null && grep -qF "base64,$gal_b64\"" "$gal_pg" \
       && [ -z "$(gal_why "$gal_pg" "$gal_ch1/$gal_nm1")" ] && ! grep -qF "<span class=\"name\">$gal_ch1/$gal_nm1</span>" "$gal_pg" 2>/dev/null; then
        ok "gallery: the figure that exists ($gal_ch1/$gal_nm1) is embedded, and not listed as missing"
    else bad "gallery: the existing figure $gal_ch1/$gal_nm1" "exit $gal_rc; figure: $(grep -c "<figure id=\"$gal_ch1-$gal_nm1\">" "$gal_pg" 2>/dev/null), embedded: $(grep -cF "$gal_b64" "$gal_pg" 2>/dev/null), listed missing: $(grep -cF "<span class=\"name\">$gal_ch1/$gal_nm1</span>" "$gal_pg" 2>/dev/null)"; fi
    gal_why2=$(gal_why "$gal_pg" "$gal_ch2/$gal_nm2")
    case $gal_ch2 in [0-9][0-9]-*) gal_draw="bash plots/render.sh $gal_ch2" ;; *) gal_draw="make $gal_ch2" ;; esac
    if [[ $gal_why2 == *"data is there"*"<code>$gal_draw</code> draws it"* ]]; then
        ok "gallery: a script whose CSV is there but has no figure says '$gal_draw' draws it"
    else bad "gallery: $gal_ch2/$gal_nm2 (CSV present, no figure)" "why: '$gal_why2'"; fi
    # Every other script: its CSV is missing (make chapter-N of its own
    # chapter), or, where it shares the CSV made above, there but not drawn.
    gal_probs=() gal_none=0 gal_there=1 gal_optin=0
    for gal_gp in "${gal_gps[@]}"; do
        [ "$gal_gp" = "$gal_gp1" ] || [ "$gal_gp" = "$gal_gp2" ] && continue
        gal_ch=$(basename "$(dirname "$gal_gp")") gal_id=$gal_ch/$(basename "$gal_gp" .gp)
        gal_w=$(gal_why "$gal_pg" "$gal_id") gal_all=1
        for gal_csv in $(sed -n 's/^# data: *//p' "$gal_gp" | head -n 1 | tr ',' ' '); do
            [ -f "$gal/res-b/$gal_ch/$gal_csv" ] || gal_all=0
        done
        gal_flag=$(sed -n 's/^# opt-in: *//p' "$gal_gp" | head -n 1)
        if [ $gal_all = 0 ] && [ -n "$gal_flag" ]; then
            gal_optin=$((gal_optin + 1))
            [[ $gal_w == "opt-in, no data ("*"missing): <code>$(gal_make "$gal_ch") $gal_flag</code> writes its data" ]] || gal_probs+=("$gal_id: '$gal_w' (want opt-in: $(gal_make "$gal_ch") $gal_flag)")
        elif [ $gal_all = 1 ]; then
            gal_there=$((gal_there + 1))
            [[ $gal_w == *"data is there"* ]] || gal_probs+=("$gal_id: '$gal_w' (want: data is there)")
        else
            gal_none=$((gal_none + 1))
            [[ $gal_w == "no data ("*"missing): <code>$(gal_make "$gal_ch")</code> writes its data" ]] || gal_probs+=("$gal_id: '$gal_w' (want $(gal_make "$gal_ch"))")
        fi
    done
    if [ ${#gal_probs[@]} -eq 0 ] && [ $gal_none -gt 0 ]; then
        ok "gallery: the $gal_none scripts without their CSV say so and name their own chapter's make chapter-N"
    else bad "gallery: reasons of scripts without data ($gal_none checked)" "${gal_probs[@]:0:5}"; fi
    gal_miss=$(grep -n 'id="not-drawn"' "$gal_pg" 2>/dev/null | head -n 1 | cut -d: -f1)
    gal_fig=$(grep -n '<figure ' "$gal_pg" 2>/dev/null | head -n 1 | cut -d: -f1)
    if [ -n "$gal_miss" ] && [ -n "$gal_fig" ] && [ "$gal_miss" -lt "$gal_fig" ] && ! grep -q 'gnuplot is not installed' "$gal_pg" 2>/dev/null; then
        ok "gallery: 'Figures not drawn' comes before the figures, and gnuplot is not blamed when it is there"
    else bad "gallery: order of the page" "not-drawn at line '$gal_miss', first figure at '$gal_fig'; gnuplot blamed: $(grep -c 'gnuplot is not installed' "$gal_pg" 2>/dev/null)"; fi
    gal_want="gallery: $gal_pg (1 figures, $((gal_n - 1)) not drawn: $gal_none without data: make chapter-N$([ $gal_optin = 0 ] || echo "; $gal_optin opt-in, not run by make chapters"); $gal_there with data: bash plots/render.sh NN-name)"
    if [ "$(wc -l <"$gal/out-b.log")" -eq 1 ] && [ "$(tail -n 1 "$gal/out-b.log")" = "$gal_want" ]; then
        ok "gallery: the printed line counts 1 figure and $((gal_n - 1)) not drawn, by reason"
    else bad "gallery: the printed line (b)" "want: $gal_want" "got:  $(head -c 600 "$gal/out-b.log")"; fi
fi

# ---- (c) a modelled figure says modelled, not measured ------------------------
# 13-3d-parallelism/step_time.gp is "# source: modelled": with its figure and
# CSV there, its caption line says modelled and the word "measured on" is not
# under it; every "# source:" line in plots/ names one of the four kinds.
gal_bad_src=$(sed -n 's/^# source: *//p' plots/*/*.gp | grep -vxE 'modelled|counted|computed|measured' | head -n 3)
mkdir -p "$gal/out-c/13-3d-parallelism" "$gal/res-c/13-3d-parallelism"
printf '<svg xmlns="http://www.w3.org/2000/svg"><text>fake</text></svg>\n' >"$gal/out-c/13-3d-parallelism/step_time.svg"
printf '# cpu: fake cpu\n# cores: 2\nprogram,variant\nx,y\n' >"$gal/res-c/13-3d-parallelism/scaling.csv"
gal_run "$gal/bin-gp" "$gal/out-c" "$gal/res-c"
gal_fig=$(sed -n '/<figure id="13-3d-parallelism-step_time">/,/<\/figure>/p' "$gal/out-c/index.html" 2>/dev/null)
if [ -z "$gal_bad_src" ] && grep -q 'modelled (no measurement' <<<"$gal_fig" && ! grep -q 'measured on' <<<"$gal_fig"; then
    ok "gallery: a figure marked '# source: modelled' is captioned modelled, not 'measured on'"
else
    bad "gallery: modelled figure caption" "unknown sources: '$gal_bad_src'" "$(grep -o 'class="machine">[^<]*' <<<"$gal_fig")"
fi
