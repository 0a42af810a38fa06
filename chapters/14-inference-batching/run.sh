#!/usr/bin/env bash
# chapters/14-inference-batching/run.sh: what `make chapter-14` runs, in the
# order the README reads. Before each step a question to answer first;
# after it, the program prints the answer from its own numbers. Each
# program checks every run (every request answered once or rejected, the
# queue bound, the budget, every answer equal to the request run alone)
# before it prints a table, and exits 1 if a check fails, which stops the
# chapter here.
#   BIN      where the programs are (default build/ch14)
#   RESULTS  where the CSV goes (default results/14-inference-batching)
#   FULL=1   longer runs (1 s of arrivals a point, 1000 decode requests)
set -euo pipefail
BIN=${BIN:-build/ch14}
RESULTS=${RESULTS:-results/14-inference-batching}
mkdir -p "$RESULTS"
long=()
dlong=()
if [ "${FULL:-}" = 1 ]; then long=(--duration 1); dlong=(-n 1000); fi

# step and predict, with each step's pace: chapters/lib.sh
. "$(dirname "$0")/../lib.sh"

predict "one forward pass of a 512-wide, 4-layer model takes t(1) for one request. How long
  for 32 requests at once: 32 t(1), or closer to t(1)? Then: at twice the rate one request at
  a time can serve, which rule keeps p99 under a 20 ms budget with nothing rejected: none,
  greedy or budget?"
step "1. the GEMM rate per batch, then the server under three batching rules" "$BIN/serve" "${long[@]}" --csv "$RESULTS/serve.csv"

predict "requests ask for 1 to 64 tokens. With 8 slots, static batching admits a new batch
  only when all 8 have finished. How full are its slots on average: 8, 6, or about 4?
  And what happens to the time to first token when admissions wait for the longest request?"
step "2. decoding: static against continuous batching" "$BIN/decode" "${dlong[@]}" --csv "$RESULTS/decode.csv"

predict "now all 200 requests wait at the start, so the engine, not the arrivals, sets the
  pace. Continuous batching fills more slots per iteration; does it make more tokens per
  second in the same proportion, or less? (Step 2's first line: what does a row cost?)"
step "3. the engine's own capacity: every request waiting at once" "$BIN/decode" --burst "${dlong[@]}"
