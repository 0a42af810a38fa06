# tests/tool_docker.sh: the container (Dockerfile, .dockerignore). Sourced by
# tests/run.sh after the chapter tests (ok, bad, skip, $tmp). Always: the
# Dockerfile is checked as text. Where a docker daemon answers: the image is
# built (up to 20 minutes the first time; later builds reuse the layers, the
# image stays tagged parallel-workbook:test) and make and tools/deps.sh run in
# it. Names are dk_*: the file is sourced.

# ---- static: what the Dockerfile must say, without building it ----
if [ -f Dockerfile ]; then
    # Lines that are not comments, continuations joined.
    dk_lines=$(sed '/^[[:space:]]*#/d' Dockerfile | sed -e ':a' -e '/\\$/N; s/\\\n//; ta')
    dk_from=$(grep -iE '^[[:space:]]*FROM[[:space:]]' <<<"$dk_lines")
    if [ "$(grep -c . <<<"$dk_from")" -eq 1 ] &&
       grep -qiE '^[[:space:]]*FROM[[:space:]]+(--platform=[^[:space:]]+[[:space:]]+)?(docker\.io/|nvcr\.io/)?nvidia/cuda:[^[:space:]]*-devel-[^[:space:]]+([[:space:]]|$)' <<<"$dk_from"; then
        ok "docker: the Dockerfile is one stage FROM an nvidia/cuda *-devel-* image ($(awk '{print $NF}' <<<"$dk_from"))"
    else bad "docker: the Dockerfile's FROM" "want one FROM nvidia/cuda:<version>-devel-<os>" "got: ${dk_from:-(none)}"; fi
    # The package list stays in tools/deps.sh: it is copied alone, run, and
    # only then is the rest copied; no package of the list is named here.
    dk_cp=$(grep -nE '^[[:space:]]*COPY[[:space:]]+tools/deps\.sh[[:space:]]' <<<"$dk_lines" | head -n 1 | cut -d: -f1)
    dk_run=$(grep -nE '^[[:space:]]*RUN[[:space:]].*bash[[:space:]]+tools/deps\.sh[[:space:]]+[a-z]' <<<"$dk_lines" | head -n 1 | cut -d: -f1)
    dk_all=$(grep -nE '^[[:space:]]*COPY[[:space:]]+\.[[:space:]]' <<<"$dk_lines" | head -n 1 | cut -d: -f1)
    dk_named=$(grep -oiE 'gnuplot-nox|libopenblas[a-z0-9-]*|openmpi-bin|libopenmpi-dev|libomp-dev|build-essential' <<<"$dk_lines" | sort -u | tr '\n' ' ')
    if [ -n "$dk_cp" ] && [ -n "$dk_run" ] && [ -n "$dk_all" ] && [ "$dk_cp" -lt "$dk_run" ] && [ "$dk_run" -lt "$dk_all" ] && [ -z "$dk_named" ]; then
        ok "docker: the packages come from tools/deps.sh (copied alone, run, then the rest copied; none named in the Dockerfile)"
    else bad "docker: the Dockerfile and tools/deps.sh" "COPY tools/deps.sh at '$dk_cp', RUN bash tools/deps.sh ... at '$dk_run', COPY . at '$dk_all' (want them in that order)" \
             "packages named in the Dockerfile itself: '${dk_named% }' (want none)"; fi
    if grep -qE 'OMPI_ALLOW_RUN_AS_ROOT=1' <<<"$dk_lines" && grep -qE 'OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1' <<<"$dk_lines" &&
       grep -qE '^[[:space:]]*WORKDIR[[:space:]]+/workbook[[:space:]]*$' <<<"$dk_lines"; then
        ok "docker: WORKDIR /workbook, and Open MPI allowed to run as root"
    else bad "docker: WORKDIR /workbook and OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM)=1"; fi
else
    bad "docker: no Dockerfile at the repo root"
fi
# .dockerignore: no build output or local runs in the image, the reference runs kept.
if [ -f .dockerignore ] && grep -qxE '/?build/?' .dockerignore && grep -qxE '/?plots/out/?' .dockerignore &&
   grep -qxE '/?results/\*' .dockerignore && grep -qxE '!/?results/reference/?' .dockerignore; then
    ok "docker: .dockerignore leaves out build/, plots/out/ and results/* but results/reference"
else bad "docker: .dockerignore" "want lines build/, plots/out/, results/*, !results/reference/" "$(head -c 300 .dockerignore 2>&1)"; fi

# ---- with a daemon: build the image and run in it ----
if [ "${PW_DOCKER_TEST:-}" != 1 ]; then
    # Building the image takes minutes (the CUDA image is GBs): opt-in.
    printf 'SKIP docker: the image is built only with PW_DOCKER_TEST=1 (and a docker daemon)\n'; skip=$((skip + 1))
elif ! timeout 30 docker info >/dev/null 2>&1; then
    printf 'SKIP docker: no docker daemon here (docker info failed): the Dockerfile was not built\n'; skip=$((skip + 1))
else
    dk_img=parallel-workbook:test
    if timeout 1200 docker build -t "$dk_img" . >"$tmp/docker-build.log" 2>&1; then
        ok "docker: the image builds ($dk_img)"
        if timeout 120 docker run --rm "$dk_img" make --version >"$tmp/docker-run.log" 2>&1 && grep -q '^GNU Make' "$tmp/docker-run.log"; then
            ok "docker: make runs in the image ($(head -n 1 "$tmp/docker-run.log"))"
        else bad "docker: make --version in the image" "$(tail -n 5 "$tmp/docker-run.log")"; fi
        # Nothing left to install, so it needs no network.
        if timeout 300 docker run --rm --network none "$dk_img" bash tools/deps.sh >"$tmp/docker-run.log" 2>&1; then
            ok "docker: tools/deps.sh in the image finds everything (no network needed)"
        else bad "docker: bash tools/deps.sh in the image (without network)" "$(tail -n 8 "$tmp/docker-run.log")"; fi
        if timeout 60 docker run --rm "$dk_img" >"$tmp/docker-run.log" 2>&1 &&
           grep -q 'make chapters' "$tmp/docker-run.log" && grep -q 'make test' "$tmp/docker-run.log"; then
            ok "docker: the image's default command names make chapters and make test"
        else bad "docker: the default command" "$(head -n 5 "$tmp/docker-run.log")"; fi
    else
        bad "docker: docker build failed (or ran past 1200 s)" "$(tail -n 15 "$tmp/docker-build.log")"
    fi
fi
