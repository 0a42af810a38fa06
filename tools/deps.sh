#!/usr/bin/env bash
# tools/deps.sh: installs the optional tools this machine lacks, with its
# package manager. The Makefile works out which are missing and calls
#
#   bash tools/deps.sh [--auto] [--dry-run] COMPONENT...
#
# COMPONENT: make cc cxx clang omp gnuplot openblas mpi objdump (the table
# below says what each installs). This script does not look for the tools
# themselves: it trusts the list it is given.
#
#   --dry-run  print the command, install nothing (exit 0)
#   --auto     how make chapters / make test call it: it never stops the run,
#              so whatever it could not do it says so and exits 0
#   PW_PKG     apt-get, dnf, zypper, pacman, apk or brew: use that manager
#              (default: brew on macOS, else the first of apt-get dnf zypper
#              pacman apk found on PATH)
#   CC         which OpenMP runtime omp means: libomp for clang, libgomp
#              (gcc's own) for anything else
#
# As root the command runs as is; otherwise with sudo when sudo needs no
# password (Homebrew: never sudo). Failing that it prints the command for
# you to run and installs nothing.
# Exit: 0 installed, nothing to do, dry run, or --auto; 1 nothing or not all
# installed; 2 bad usage (one line on stderr).
set -u
set -f   # package names are words, never patterns

say()   { printf 'deps: %s\n' "$*"; }
usage() { printf 'deps: %s\n' "$*" >&2; exit 2; }
# Nothing (more) will be installed: a failure, except under --auto, where the
# run goes on without the tools.
give_up() { [ "$auto" = 1 ] && exit 0; exit 1; }

# What each component is for: the "missing" line, and the list of names.
what() {
    case $1 in
        make)     echo "the build" ;;
        cc)       echo "the C compiler" ;;
        cxx)      echo "C++, for the SIMT emulator" ;;
        clang)    echo "the clang build" ;;
        omp)      echo "OpenMP threads" ;;
        gnuplot)  echo "figures" ;;
        openblas) echo "the GEMM baseline" ;;
        mpi)      echo "multi-process runs" ;;
        objdump)  echo "the disassembly checks" ;;
    esac
}
components="make cc cxx clang omp gnuplot openblas mpi objdump"

# The packages of each component, for each manager. A comma joins several
# packages; "-": the manager has none to give (on macOS the compilers, make
# and objdump come with Xcode's command line tools). omp is two rows: gcc's
# runtime comes with gcc (installing it again is harmless), clang needs LLVM's.
# Arch's openblas has had CBLAS (cblas.h) in it since 0.3.23-2, so no cblas
# package; openSUSE's headers come in with libopenblas_pthreads-devel
# (it requires openblas-common-devel); Alpine needs musl-dev for libc's headers.
table='
#  component  apt-get                     dnf                     zypper                      pacman    apk                  brew
   make       make                        make                    make                        make      make                 -
   cc         gcc                         gcc                     gcc                         gcc       gcc,musl-dev         -
   cxx        g++                         gcc-c++                 gcc-c++                     gcc       g++                  -
   clang      clang                       clang                   clang                       clang     clang                llvm
   omp-gcc    libgomp1                    libgomp                 libgomp1                    gcc-libs  libgomp              libomp
   omp-clang  libomp-dev                  libomp-devel            libomp-devel                openmp    openmp-dev           libomp
   gnuplot    gnuplot-nox                 gnuplot                 gnuplot                     gnuplot   gnuplot              gnuplot
   openblas   libopenblas-dev             openblas-devel          libopenblas_pthreads-devel  openblas  openblas-dev         openblas
   mpi        openmpi-bin,libopenmpi-dev  openmpi,openmpi-devel   openmpi4,openmpi4-devel     openmpi   openmpi,openmpi-dev  open-mpi
   objdump    binutils                    binutils                binutils                    binutils  binutils             -
'
# lookup ROW: the packages in the manager's column ($col), space-separated.
lookup() {
    local c cols
    while read -r c cols; do
        [ "$c" = "$1" ] || continue
        # shellcheck disable=SC2086  # split the row into its columns (set -f above)
        set -- $cols
        shift $((col - 1))
        printf '%s' "${1//,/ }"
        return
    done <<EOF
$table
EOF
}

# The packages whose tools are not where make looks once installed: one
# line each, after the install, on the extra step.
note() {
    case $mgr:$1 in
        dnf:mpi)        say "note: Fedora's openmpi puts mpicc in /usr/lib64/openmpi/bin: run 'module load mpi/openmpi-$(uname -m)' (or put that folder on PATH) before make" ;;
        dnf:openblas)   say "note: Fedora's openblas-devel puts cblas.h in /usr/include/openblas: export CPATH=/usr/include/openblas before make" ;;
        zypper:mpi)     say "note: openSUSE's openmpi4 puts mpicc in /usr/lib64/mpi/gcc/openmpi4/bin: run '. /usr/lib64/mpi/gcc/openmpi4/bin/mpivars.sh' (or put that folder on PATH) before make" ;;
        zypper:openblas) say "note: openSUSE's OpenBLAS puts cblas.h in /usr/include/openblas: export CPATH=/usr/include/openblas before make" ;;
        brew:openblas)  say "note: Homebrew's openblas is keg-only: export CPATH=\$(brew --prefix openblas)/include LIBRARY_PATH=\$(brew --prefix openblas)/lib before make" ;;
        brew:omp)       say "note: Homebrew's libomp is keg-only (omp.h and libomp under \$(brew --prefix libomp)), and Apple's clang takes it as -Xpreprocessor -fopenmp -lomp, not -fopenmp" ;;
        brew:clang)     say "note: Homebrew's llvm is keg-only: its clang is \$(brew --prefix llvm)/bin/clang (make CC=\$(brew --prefix llvm)/bin/clang)" ;;
    esac
}

# ---- the arguments ----------------------------------------------------------
auto=0 dry=0 comps=""
for a in "$@"; do
    case $a in
        --auto) auto=1 ;;
        --dry-run) dry=1 ;;
        -*) usage "unknown option '$a' (usage: tools/deps.sh [--auto] [--dry-run] COMPONENT...)" ;;
        *) [ -n "$(what "$a")" ] || usage "unknown component '$a' (one of: $components)"
           case " $comps " in *" $a "*) ;; *) comps="$comps${comps:+ }$a" ;; esac ;;
    esac
done
if [ -z "$comps" ]; then say "nothing to install: every optional tool is here"; exit 0; fi
missing=""
for c in $comps; do missing="$missing${missing:+, }$c ($(what "$c"))"; done

# ---- the package manager ----------------------------------------------------
mgr=""
if [ -n "${PW_PKG:-}" ]; then
    case $PW_PKG in
        apt-get|dnf|zypper|pacman|apk|brew) mgr=$PW_PKG ;;
        *) usage "PW_PKG='$PW_PKG' is not one of apt-get dnf zypper pacman apk brew" ;;
    esac
else
    # Homebrew on Linux is left alone unless PW_PKG asks: the system's own
    # manager is what the distribution's compilers link against.
    if [ "$(uname -s 2>/dev/null)" = Darwin ]; then cands=brew; else cands="apt-get dnf zypper pacman apk"; fi
    for m in $cands; do
        if command -v "$m" >/dev/null 2>&1; then mgr=$m; break; fi
    done
fi
if [ -z "$mgr" ]; then
    printf 'deps: no package manager found (apt-get, dnf, zypper, pacman, apk, brew; PW_PKG=NAME picks one): install these yourself: %s%s\n' \
        "$missing" "$([ "$auto" = 1 ] && echo '; the run goes on without them')" >&2
    give_up
fi
case $mgr in apt-get) col=1 ;; dnf) col=2 ;; zypper) col=3 ;; pacman) col=4 ;; apk) col=5 ;; brew) col=6 ;; esac

# ---- the packages -----------------------------------------------------------
pkgs="" xcode=""
for c in $comps; do
    row=$c
    if [ "$c" = omp ]; then
        case ${CC:-cc} in *clang*) row=omp-clang ;; *) row=omp-gcc ;; esac
    fi
    p=$(lookup "$row")
    if [ "$p" = - ]; then xcode="$xcode${xcode:+, }$c"; continue; fi
    for q in $p; do    # once each: cc and cxx are both gcc on Arch
        case " $pkgs " in *" $q "*) ;; *) pkgs="$pkgs${pkgs:+ }$q" ;; esac
    done
done
say "missing $missing"
[ -z "$xcode" ] || say "$xcode: not from Homebrew, they come with Xcode's command line tools: run xcode-select --install"
if [ -z "$pkgs" ]; then [ "$dry" = 1 ] && exit 0; give_up; fi

# ---- privileges, and the one command ----------------------------------------
sudo="" can=1
if [ "$mgr" != brew ] && [ "$(id -u)" != 0 ]; then
    # Homebrew refuses root; every other manager needs it.
    sudo="sudo "
    command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null || can=0
fi
case $mgr in
    apt-get) cmd="${sudo}apt-get update && ${sudo}DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $pkgs" ;;
    dnf)     cmd="${sudo}dnf install -y $pkgs" ;;
    zypper)  cmd="${sudo}zypper --non-interactive install $pkgs" ;;
    pacman)  cmd="${sudo}pacman -S --needed --noconfirm $pkgs" ;;
    apk)     cmd="${sudo}apk add $pkgs" ;;
    brew)    cmd="brew install $pkgs" ;;
esac

if [ "$dry" = 1 ]; then
    say "would run: $cmd"
    say "dry run: nothing installed"
    exit 0
fi
if [ "$can" = 0 ]; then
    say "cannot install without a password; run this yourself:"
    printf '  %s\n' "$cmd"
    [ "$auto" = 1 ] && echo "(the run goes on without them; PW_INSTALL=0 skips this step)"
    give_up
fi
say "running: $cmd"
sh -c "$cmd"
rc=$?
if [ $rc -ne 0 ]; then
    say "the install command failed (exit $rc)$([ "$auto" = 1 ] && echo '; the run goes on without them')"
    give_up
fi
for c in $comps; do note "$c"; done
[ -z "$xcode" ] || give_up   # those are still missing
exit 0
