# mk/grade.mk: the class grader (tools/grade_class.sh does the work).
#
#   make grade SUBMISSIONS=dir/ [JOBS=N] [EXERCISES="1.1 3.1"]
#
# dir/ holds one entry per student: a folder that is a copy of exercises/
# (same relative paths: dir/alice/01-measure/square.c) or a tarball
# dir/alice.tar.gz of one. Each student's checkers are built in
# $(GRADE_BUILD)/<student>/ex/N.K/ by the very command `make ex-N.K` runs
# (the ex_build call of mk/chapter.mk: same flags, same ThreadSanitizer
# rule), only with the student's file in place of exercises/'s; then graded
# by tools/grade.sh (same time limit). Outputs: $(GRADES_DIR)/grades.csv, a
# terminal table, $(GRADES_HTML).
#
# mk/*.mk is read before the chapters define their exercises, so nothing
# here names ex_N.K_* at read time: only recipes (expanded when they run) do.

SUBMISSIONS ?=
JOBS        ?=
GRADE_BUILD ?= $(BUILD)/grade
GRADES_DIR  ?= results/grades
GRADES_HTML ?= plots/out/grades.html

# Each exercise and the file a student hands in for it: the C ones from
# mk/chapter.mk (ex_N.K_file); a CUDA one (mk/cuda.mk keeps no such variable)
# is "-", and tools/grade_class.sh asks `make -n ex-N.K` for its .cu.
grade_map = $(foreach e,$(EXERCISES),$(e)=$(or $(ex_$(e)_file),-))

.PHONY: grade grade-deps grade-one grade-one-cu
grade:
	@GRADE_MAP="$(grade_map)" GRADE_BUILD="$(GRADE_BUILD)" GRADES_DIR="$(GRADES_DIR)" \
	  GRADES_HTML="$(GRADES_HTML)" BUILD="$(BUILD)" MAKE="$(MAKE)" \
	  bash tools/grade_class.sh "$(SUBMISSIONS)" "$(JOBS)"

# What every student's checkers link and nobody's file changes: the library
# and the kernels of the exercises graded, built once before the students run
# in parallel (so that no two builds write the same object file).
grade-deps:
	@$(MAKE) -s --no-print-directory $(LIBPW) $(sort $(foreach e,$(EXERCISES),$(ex_$(e)_kobjs))) \
	  $(if $(strip $(foreach e,$(EXERCISES),$(if $(ex_$(e)_file),,$(e)))),$(SIMT_TR))

# One student's checker for one exercise (tools/grade_class.sh calls it):
#   make grade-one GRADE_ID=1.1 GRADE_FILE=<student's square.c> GRADE_OUT=<dir>/check
# The checker source, its rules and the headers stay exercises/'s: a student
# hands in the file they write, not the test.
grade_exdir = $(patsubst %/,%,$(dir $(ex_$(GRADE_ID)_file)))
grade_checker = $(grade_exdir)/check_$(basename $(notdir $(ex_$(GRADE_ID)_file))).c
grade-one:
	$(if $(ex_$(GRADE_ID)_file),,$(error grade-one: no C exercise '$(GRADE_ID)'))
	$(call ex_build,$(GRADE_ID),$(GRADE_FILE),-I$(grade_exdir)) $(GRADE_FILE) \
	  $(grade_checker) $(GRADE_OUT) $(ex_$(GRADE_ID)_kobjs) $(LIBPW)

# A CUDA exercise (mk/cuda.mk): the student's .cu through the emulator's
# translator (tools/pwcc, as `make ex-N.K` does), then the same ex_build.
#   make grade-one-cu GRADE_ID=8.1 GRADE_FILE=<student's block_sum.cu> GRADE_EXDIR=exercises/08-cuda-warps GRADE_OUT=<dir>/check
ifneq ($(GRADE_EXDIR),)
grade_cu_obj = $(dir $(GRADE_OUT))cu/$(basename $(notdir $(GRADE_FILE))).o
grade-one-cu: $(grade_cu_obj)
	$(call ex_build,$(GRADE_ID),$(GRADE_FILE),-I. -I$(GRADE_EXDIR)) $(grade_cu_obj) \
	  $(GRADE_EXDIR)/check_$(basename $(notdir $(GRADE_FILE))).c $(GRADE_OUT) $(LIBPW)
$(grade_cu_obj): $(GRADE_FILE)
	$(call simt_cu,-I$(GRADE_EXDIR))
endif
