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

# The exercises the grader can grade: the C ones (mk/chapter.mk sets
# ex_N.K_file); CUDA exercises are built through the emulator's launcher and
# are listed as "not graded" (see tools/grade_class.sh).
grade_map = $(foreach e,$(EXERCISES),$(e)=$(or $(ex_$(e)_file),-))

.PHONY: grade grade-deps grade-one
grade:
	@GRADE_MAP="$(grade_map)" GRADE_BUILD="$(GRADE_BUILD)" GRADES_DIR="$(GRADES_DIR)" \
	  GRADES_HTML="$(GRADES_HTML)" BUILD="$(BUILD)" MAKE="$(MAKE)" \
	  bash tools/grade_class.sh "$(SUBMISSIONS)" "$(JOBS)"

# What every student's checkers link and nobody's file changes: the library
# and the kernels of the exercises graded, built once before the students run
# in parallel (so that no two builds write the same object file).
grade-deps:
	@$(MAKE) -s --no-print-directory $(LIBPW) $(sort $(foreach e,$(EXERCISES),$(ex_$(e)_kobjs)))

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
