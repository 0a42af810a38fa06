# mk/ladder.mk: `make ladder`, the speedup ladder of one GEMM (chapter 07's
# size) from the sequential loop to the virtual cluster (tools/ladder.c,
# tools/ladder.sh, plots/ladder/ladder.gp). It runs chapter 07's and 09's
# gemm where their CSV is missing.

$(BUILD)/tools/ladder: tools/ladder.c $(BUILD)/kernels/collectives.o $(LIBPW)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -MMD -MP -o $@ $< $(BUILD)/kernels/collectives.o $(LIBPW) $(LDLIBS)

.PHONY: ladder
ladder: $(BUILD)/tools/ladder $(BUILD)/ch07/gemm $(BUILD)/ch09/gemm
	@BUILD=$(BUILD) bash tools/ladder.sh
