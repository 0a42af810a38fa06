# tests/tool_deps.sh: tools/deps.sh, the installer of missing optional tools.
# Sourced by tests/run.sh (ok, bad, $tmp). It never installs anything: every
# run of tools/deps.sh gets an empty environment and a PATH of fake package
# managers (apt-get dnf zypper pacman apk brew: they log their argv and exit
# $FAKE_RC), fake id (uid $FAKE_UID), sudo (-n true succeeds when
# FAKE_SUDO_OK=1; otherwise logs "sudo" and runs the rest) and uname
# (-s: $FAKE_OS), plus links to a few real basic utilities; no real package
# manager is on it, which the first check makes sure of.

dt=$tmp/deps
rm -rf "$dt"
mkdir -p "$dt/bin" "$dt/sys" "$dt/all"
dbash=$(command -v bash)
for u in bash sh env cat sed grep tr head; do
    p=$(command -v "$u") && ln -s "$p" "$dt/sys/$u"
done
cat >"$dt/bin/id" <<'EOF'
#!/bin/sh
echo "${FAKE_UID:-1000}"
EOF
cat >"$dt/bin/sudo" <<'EOF'
#!/bin/sh
if [ "$1" = -n ] && [ "$2" = true ]; then [ "${FAKE_SUDO_OK:-0}" = 1 ]; exit; fi
echo sudo >>"$DEPS_LOG"
exec env "$@"
EOF
cat >"$dt/bin/uname" <<'EOF'
#!/bin/sh
case ${1:-} in -m) echo x86_64 ;; *) echo "${FAKE_OS:-Linux}" ;; esac
EOF
for m in apt-get dnf zypper pacman apk brew; do
    mkdir -p "$dt/only-$m"
    # apt-get also logs DEBIAN_FRONTEND, to see that it reaches the install.
    # shellcheck disable=SC2016  # $* and DEBIAN_FRONTEND are the fake's, expanded when it runs
    printf '#!/bin/sh\necho "%s $*%s" >>"$DEPS_LOG"\nexit ${FAKE_RC:-0}\n' "$m" \
        "$([ $m = apt-get ] && echo ' [DEBIAN_FRONTEND=${DEBIAN_FRONTEND:-}]')" >"$dt/only-$m/$m"
    cp "$dt/only-$m/$m" "$dt/all/$m"
done
chmod +x "$dt"/bin/* "$dt"/only-*/* "$dt"/all/*
# Nothing real gets installed: dpkg's database is the same at the end.
deps_dpkg=$(cksum /var/lib/dpkg/status 2>/dev/null)

# deps_run DIR [VAR=VALUE...] -- ARGS...: tools/deps.sh ARGS with PATH=DIR
# (a fake manager's folder, or "none"), the fakes and the basic utilities, and
# only the variables given (as root unless FAKE_UID says otherwise). Sets
# drc; stdout in $dt/out, stderr in $dt/err, the managers' log in $dt/log.
deps_run() {
    local dir=$1 envs=()
    shift
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    : >"$dt/log"
    env -i PATH="$dt/$dir:$dt/bin:$dt/sys" DEPS_LOG="$dt/log" FAKE_UID=0 "${envs[@]+"${envs[@]}"}" \
        "$dbash" tools/deps.sh "$@" >"$dt/out" 2>"$dt/err"
    drc=$?
}
deps_show() { printf 'exit %s; stdout: %s; stderr: %s; log: %s' "$drc" "$(head -c 600 "$dt/out")" \
              "$(head -c 300 "$dt/err")" "$(cat "$dt/log")"; }

# The sandbox itself, before anything runs: without the fake managers' folders
# no package manager at all is on its PATH, and id, sudo, uname are the fakes.
# Otherwise every other check is skipped: they could install for real.
leak=""
for m in apt-get dnf zypper pacman apk brew id sudo uname; do
    p=$(env -i PATH="$dt/bin:$dt/sys" "$dbash" -c "command -v $m")
    case $m:$p in
        id:"$dt/bin/id" | sudo:"$dt/bin/sudo" | uname:"$dt/bin/uname") ;;
        apt-get: | dnf: | zypper: | pacman: | apk: | brew:) ;;
        *) leak="$leak $m=${p:-none}" ;;
    esac
done
if [ -n "$leak" ]; then
    bad "deps: the test's PATH reaches real tools, so no deps check runs:$leak"
    return 0
fi
ok "deps: the test's PATH reaches no real package manager (nothing can be installed for real)"

# Each manager, found on PATH alone and named by PW_PKG, as root:
# the exact argv for gnuplot openblas mpi.
deps_want() {
    case $1 in
        apt-get) printf '%s\n' "apt-get update [DEBIAN_FRONTEND=]" \
                 "apt-get install -y --no-install-recommends gnuplot-nox libopenblas-dev openmpi-bin libopenmpi-dev [DEBIAN_FRONTEND=noninteractive]" ;;
        dnf)     echo "dnf install -y gnuplot openblas-devel openmpi openmpi-devel" ;;
        zypper)  echo "zypper --non-interactive install gnuplot libopenblas_pthreads-devel openmpi4 openmpi4-devel" ;;
        pacman)  echo "pacman -S --needed --noconfirm gnuplot openblas openmpi" ;;
        apk)     echo "apk add gnuplot openblas-dev openmpi openmpi-dev" ;;
        brew)    echo "brew install gnuplot openblas open-mpi" ;;
    esac
}
for m in apt-get dnf zypper pacman apk brew; do
    os=Linux; [ $m = brew ] && os=Darwin
    deps_run "only-$m" FAKE_OS=$os -- gnuplot openblas mpi
    if [ $drc -eq 0 ] && [ "$(cat "$dt/log")" = "$(deps_want $m)" ] && grep -q "^deps: running: " "$dt/out" \
       && grep -q '^deps: missing gnuplot (figures), openblas (the GEMM baseline), mpi (multi-process runs)$' "$dt/out"; then
        ok "deps: $m found on PATH ($os) installs gnuplot openblas mpi as: $(tail -n 1 "$dt/log")"
    else bad "deps: $m found on PATH ($os)" "want: $(deps_want $m)" "$(deps_show)"; fi
    deps_run all PW_PKG=$m -- gnuplot openblas mpi
    if [ $drc -eq 0 ] && [ "$(cat "$dt/log")" = "$(deps_want $m)" ]; then
        ok "deps: PW_PKG=$m picks $m among all six and runs the same"
    else bad "deps: PW_PKG=$m" "want: $(deps_want $m)" "$(deps_show)"; fi
done
# The order when several are there: apt-get first on Linux; brew on macOS.
deps_run all FAKE_OS=Linux -- gnuplot
g1=$(cut -d' ' -f1 "$dt/log" 2>/dev/null | sort -u | tr '\n' ' ')
deps_run all FAKE_OS=Darwin -- gnuplot
g2=$(cut -d' ' -f1 "$dt/log" 2>/dev/null | sort -u | tr '\n' ' ')
if [ "$g1" = "apt-get " ] && [ "$g2" = "brew " ]; then ok "deps: with every manager on PATH, Linux uses apt-get and macOS brew"
else bad "deps: manager order" "Linux ran: '$g1' (want apt-get), macOS ran: '$g2' (want brew)"; fi
# The notes for a tool that needs a step more: Fedora's MPI, Homebrew's kegs.
deps_run only-dnf -- mpi
n1=$(grep -c 'note: .*module load mpi/openmpi-x86_64' "$dt/out")
deps_run only-brew FAKE_OS=Darwin -- openblas
n2=$(grep -c 'note: .*keg-only' "$dt/out")
if [ "$n1" = 1 ] && [ "$n2" = 1 ]; then ok "deps: one note after installing Fedora's openmpi (module load) and Homebrew's openblas (keg-only)"
else bad "deps: notes" "Fedora module-load notes: $n1, Homebrew keg-only notes: $n2 (want 1 and 1)"; fi
# omp follows $CC: libomp for clang, gcc's libgomp otherwise.
deps_run only-apt-get CC=clang-16 -- omp
l1=$(tail -n 1 "$dt/log")
deps_run only-apt-get CC=gcc -- omp
l2=$(tail -n 1 "$dt/log")
if [[ $l1 == *" libomp-dev "* ]] && [[ $l2 == *" libgomp1 "* ]]; then ok "deps: omp is libomp-dev with CC=clang-16, libgomp1 with CC=gcc"
else bad "deps: omp by CC" "clang: $l1" "gcc: $l2"; fi
# A package two components share is asked for once: cc and cxx are gcc on Arch.
deps_run only-pacman -- cc cxx objdump
if [ $drc -eq 0 ] && [ "$(cat "$dt/log")" = "pacman -S --needed --noconfirm gcc binutils" ]; then
    ok "deps: pacman cc cxx objdump asks for gcc once: gcc binutils"
else bad "deps: shared packages" "want: pacman -S --needed --noconfirm gcc binutils" "$(deps_show)"; fi
# Homebrew has no compilers, make or objdump: Xcode's tools, and no brew run.
deps_run only-brew FAKE_OS=Darwin -- cc make
r1=$drc
deps_run only-brew FAKE_OS=Darwin -- --auto cc make
if [ $r1 -eq 1 ] && [ $drc -eq 0 ] && [ ! -s "$dt/log" ] && grep -q "Xcode's command line tools" "$dt/out"; then
    ok "deps: brew with only cc and make points at Xcode's command line tools, runs nothing, exit 1 (0 with --auto)"
else bad "deps: brew cc make" "exit $r1 (want 1), with --auto: $(deps_show)"; fi

# Privileges.
deps_run only-dnf FAKE_UID=0 FAKE_SUDO_OK=1 -- gnuplot
if [ $drc -eq 0 ] && [ "$(cat "$dt/log")" = "dnf install -y gnuplot" ] && grep -qx 'deps: running: dnf install -y gnuplot' "$dt/out"; then
    ok "deps: as root the command runs without sudo"
else bad "deps: as root" "$(deps_show)"; fi
deps_run only-apt-get FAKE_UID=1000 FAKE_SUDO_OK=1 -- gnuplot
want=$(printf '%s\n' sudo "apt-get update [DEBIAN_FRONTEND=]" sudo "apt-get install -y --no-install-recommends gnuplot-nox [DEBIAN_FRONTEND=noninteractive]")
if [ $drc -eq 0 ] && [ "$(cat "$dt/log")" = "$want" ]; then
    ok "deps: non-root with passwordless sudo: both halves of the apt-get command run under sudo"
else bad "deps: passwordless sudo" "want: $want" "$(deps_show)"; fi
deps_run only-apt-get FAKE_UID=1000 FAKE_SUDO_OK=0 -- gnuplot mpi
if [ $drc -eq 1 ] && [ ! -s "$dt/log" ] && grep -q '^deps: cannot install without a password; run this yourself:$' "$dt/out" \
   && grep -qx '  sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends gnuplot-nox openmpi-bin libopenmpi-dev' "$dt/out"; then
    ok "deps: non-root without passwordless sudo installs nothing, prints the sudo command, exit 1"
else bad "deps: no sudo" "$(deps_show)"; fi
deps_run only-apt-get FAKE_UID=1000 FAKE_SUDO_OK=0 -- --auto gnuplot mpi
if [ $drc -eq 0 ] && [ ! -s "$dt/log" ] && grep -q 'cannot install without a password' "$dt/out" \
   && grep -qF '(the run goes on without them; PW_INSTALL=0 skips this step)' "$dt/out"; then
    ok "deps: the same with --auto: nothing installed, the command printed, exit 0"
else bad "deps: no sudo, --auto" "$(deps_show)"; fi
# brew as a user: no sudo where it has one, and no need of one where not.
deps_run only-brew FAKE_OS=Darwin FAKE_UID=501 FAKE_SUDO_OK=1 -- gnuplot
b1=$(cat "$dt/log") o1=$(grep -c sudo "$dt/out")
deps_run only-brew FAKE_OS=Darwin FAKE_UID=501 FAKE_SUDO_OK=0 -- gnuplot
if [ "$b1" = "brew install gnuplot" ] && [ "$o1" = 0 ] && [ $drc -eq 0 ] && [ "$(cat "$dt/log")" = "brew install gnuplot" ]; then
    ok "deps: brew as non-root runs as the user, never with sudo (with or without passwordless sudo)"
else bad "deps: brew and sudo" "with passwordless sudo the log was: $b1 ($o1 lines saying sudo)" "without: $(deps_show)"; fi

# No manager, bad usage, nothing to do, dry run.
deps_run none FAKE_OS=Linux -- gnuplot mpi
if [ $drc -eq 1 ] && [ "$(cat "$dt/out" "$dt/err" | wc -l)" -eq 1 ] && grep -q 'no package manager found.*gnuplot (figures), mpi (multi-process runs)' "$dt/err"; then
    ok "deps: no package manager: exit 1, one line naming gnuplot and mpi and what they are for"
else bad "deps: no package manager" "$(deps_show)"; fi
deps_run none FAKE_OS=Linux -- --auto gnuplot
if [ $drc -eq 0 ] && [ "$(cat "$dt/out" "$dt/err" | wc -l)" -eq 1 ]; then ok "deps: no package manager with --auto: the same line, exit 0"
else bad "deps: no package manager, --auto" "$(deps_show)"; fi
deps_run only-apt-get -- gnuplot fortran
if [ $drc -eq 2 ] && [ "$(wc -l <"$dt/err")" -eq 1 ] && [ ! -s "$dt/out" ] && [ ! -s "$dt/log" ] && grep -q fortran "$dt/err"; then
    ok "deps: an unknown component (fortran): exit 2, one line on stderr, nothing run"
else bad "deps: unknown component" "$(deps_show)"; fi
deps_run only-apt-get -- --auto
if [ $drc -eq 0 ] && [ ! -s "$dt/log" ] && grep -qx 'deps: nothing to install: every optional tool is here' "$dt/out"; then
    ok "deps: no components: exit 0, says so, nothing run"
else bad "deps: no components" "$(deps_show)"; fi
deps_run only-apt-get -- --dry-run gnuplot openblas
if [ $drc -eq 0 ] && [ ! -s "$dt/log" ] && grep -q 'dry run: nothing installed' "$dt/out" && grep -q 'apt-get install .*gnuplot-nox libopenblas-dev' "$dt/out"; then
    ok "deps: --dry-run prints the command and runs nothing"
else bad "deps: --dry-run" "$(deps_show)"; fi

# The install command fails: exit 1, or 0 with --auto, saying its status.
deps_run only-zypper FAKE_RC=7 -- gnuplot
r1=$drc o1=$(grep -c 'failed (exit 7)' "$dt/out")
deps_run only-zypper FAKE_RC=7 -- --auto gnuplot
if [ $r1 -eq 1 ] && [ "$o1" = 1 ] && [ $drc -eq 0 ] && grep -q 'failed (exit 7)' "$dt/out"; then
    ok "deps: a failing install command (exit 7): exit 1 saying so, exit 0 with --auto"
else bad "deps: failing install" "exit $r1 (want 1), 'failed (exit 7)' lines: $o1; with --auto: $(deps_show)"; fi

if [ "$(cksum /var/lib/dpkg/status 2>/dev/null)" = "$deps_dpkg" ]; then ok "deps: dpkg's database is unchanged: nothing was installed for real"
else bad "deps: /var/lib/dpkg/status changed during the test"; fi
