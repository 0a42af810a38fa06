# The Parallel Workbook in a container: every tool it uses, on NVIDIA's CUDA
# development image (Ubuntu 24.04), so nvcc is there for a GPU machine.
#
#   docker build -t parallel-workbook .
#   docker run --rm -it parallel-workbook make test                 # a laptop: no GPU needed
#   docker run --rm -it --gpus all parallel-workbook make chapters  # a GPU machine: the same
#                                     # commands, and nvcc builds the CUDA programs for the device
#
# The figures and the gallery stay in the container unless you mount a folder
# over them: add -v "$PWD/plots/out:/workbook/plots/out" to docker run (and
# -v "$PWD/results:/workbook/results" for the CSV), then open
# plots/out/index.html here.
FROM nvidia/cuda:13.0.2-devel-ubuntu24.04

# No questions from apt (tzdata) while the image builds.
ARG DEBIAN_FRONTEND=noninteractive
WORKDIR /workbook

# The packages come from one place, tools/deps.sh (what `make deps` runs):
# copied alone first, so this layer is rebuilt only when the list changes.
COPY tools/deps.sh tools/deps.sh
RUN bash tools/deps.sh make cc cxx clang omp gnuplot openblas mpi objdump
# git is no dependency of the workbook: make stamps each CSV's "# git:" line
# with it (".git" is not copied in, so that says unknown unless the checkout is
# mounted at /workbook, which root may then read: safe.directory).
RUN apt-get update && apt-get install -y --no-install-recommends git \
    && rm -rf /var/lib/apt/lists/* \
    && git config --system --add safe.directory /workbook

# Containers run as root; Open MPI refuses root unless told twice.
ENV OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# The workbook itself (.dockerignore leaves out build/, plots/out/, and
# results/ but the reference runs).
COPY . .

CMD ["bash", "-c", "echo 'Parallel Workbook (/workbook): run one of'; echo '  make chapters   # every chapter: tables, CSV, figures, the gallery plots/out/index.html'; echo '  make test       # every test; ends with \"N passed, 0 failed\"'; echo 'e.g. docker run --rm -it [--gpus all] parallel-workbook make chapters'"]
