# mk/chapter.mk: the template every chapter uses. A chapter is its folder and
# one line in chapters/NN-name/chapter.mk:
#
#   $(call chapter,NN,name,programs,kernels,exercises[,libs])
#
#   programs   chapters/NN-name/<p>.c, each built to $(BUILD)/chNN/<p>
#   kernels    kernels/<k>.c, linked into every program of the chapter
#   exercises  exercises/NN-name/<e>.c, graded by exercises/NN-name/check_<e>.c;
#              the i-th is exercise N.i (ex-N.i, solution-N.i)
#   libs       extra link flags for the chapter's programs (e.g. -lopenblas)
#
# Flags are part of some lessons (a loop that must not be vectorised, a demo
# the optimiser must not "fix"). The fragment may set, after the call:
#   KFLAGS_<kernel> := ...        extra flags for kernels/<kernel>.c
#   PFLAGS_chNN_<program> := ...  extra flags for one program
# and say why next to them.
#
# Chapter-specific tests (what --tiny, --help and the bad-input matrix do not
# cover) go in tests/chNN.sh, which tests/run.sh sources: see tests/run.sh.
#
# Running the chapter is chapters/NN-name/run.sh (what a learner would type),
# then plots/render.sh draws plots/NN-name/*.gp from the CSV it wrote. run.sh
# names each CSV after its program (results/NN-name/<program>.csv): the tests
# draw every figure from the CSV of each program's --tiny run the same way.

define chapter_template
ch$(1)_num   := $(patsubst 0%,%,$(1))
ch$(1)_bins  := $(addprefix $$(BUILD)/ch$(1)/,$(3))
ch$(1)_kobjs := $(patsubst %,$$(BUILD)/kernels/%.o,$(4))
CHAPTER_NUMS += $$(ch$(1)_num)
CHAPTER_DIRS += $(1)-$(2)
PROGRAMS     += $$(ch$(1)_bins)

$$(BUILD)/ch$(1)/%: chapters/$(1)-$(2)/%.c $$(ch$(1)_kobjs) $$(LIBPW)
	@mkdir -p $$(@D)
	$$(CC) $$(ALL_CFLAGS) $$(PFLAGS_ch$(1)_$$*) -MMD -MP -o $$@ $$< $$(ch$(1)_kobjs) $$(LIBPW) $(6) $$(LDLIBS)

.PHONY: chapter-$$(ch$(1)_num)
chapter-$$(ch$(1)_num): $$(ch$(1)_bins)
	@mkdir -p $$(RESULTS_ROOT)/$(1)-$(2)
	@BIN=$$(BUILD)/ch$(1) RESULTS=$$(RESULTS_ROOT)/$(1)-$(2) FULL=$$(FULL) THREADS=$$(THREADS) \
	  bash chapters/$(1)-$(2)/run.sh
	@bash plots/render.sh $(1)-$(2)

$$(foreach e,$(5),$$(eval $$(call exercise_template,$(1),$(2),$$(ch$(1)_num).$$(words $$(ex_seen_$(1)) x),$$(e),$(4))))
endef

# $(1)=NN $(2)=name $(3)=N.K $(4)=exercise name $(5)=kernels
#
# The checker is built by tools/ex_build.sh, with the learner's file (ex) or
# the solution (sol) compiled alone first, so that its object file can be
# read: tools/ex_inspect.sh fails a file that calls the reference or the
# library's own answer, or lacks the vector instructions an intrinsics
# exercise is about; exercises/NN-name/check_<e>.rules says what each
# exercise asks (and `threads`: graded under ThreadSanitizer where it works).
# The exercise's headers are listed as prerequisites.
EX_TOOLS := tools/ex_build.sh tools/ex_inspect.sh tools/tsan_gomp.c tools/tsan_kmp.c
ex_build = @EX_ECHO=$(if $(findstring s,$(firstword -$(MAKEFLAGS))),,1) CC="$(CC)" LINK="$(if $(filter %.cu,$(2)),$(CXX_EMU))" CFLAGS="$(ALL_CFLAGS) $(3)" LDLIBS="$(LDLIBS)" SAN="$(SAN)" TSAN_FLAGS="$(TSAN_FLAGS)" \
	  OMP_FLAGS="$(OMP_FLAGS)" bash tools/ex_build.sh $(1) $(2)

define exercise_template
ex_seen_$(1) += x
EXERCISES += $(3)
# A bug hunt (a `bughunt` line in its rules): the file given is a working-looking
# program with a planted bug, not a skeleton; tests/run.sh grades it so.
BUGHUNTS += $$(if $$(shell sed 's/\#.*//' exercises/$(1)-$(2)/check_$(4).rules 2>/dev/null | grep -w bughunt),$(3))
ex_$(3)_file := exercises/$(1)-$(2)/$(4).c
ex_$(3)_kobjs := $(patsubst %,$$(BUILD)/kernels/%.o,$(5))
ex_$(3)_deps := exercises/$(1)-$(2)/check_$(4).c $$(wildcard exercises/$(1)-$(2)/*.h exercises/$(1)-$(2)/check_$(4).rules) \
                $$(ex_$(3)_kobjs) $$(LIBPW) $$(EX_TOOLS)

$$(BUILD)/ex/$(3)/check: exercises/$(1)-$(2)/$(4).c $$(ex_$(3)_deps)
	$$(call ex_build,$(3),exercises/$(1)-$(2)/$(4).c,-Iexercises/$(1)-$(2)) exercises/$(1)-$(2)/$(4).c \
	  exercises/$(1)-$(2)/check_$(4).c $$@ $$(ex_$(3)_kobjs) $$(LIBPW)
$$(BUILD)/sol/$(3)/check: solutions/$(1)-$(2)/$(4).c $$(ex_$(3)_deps)
	$$(call ex_build,$(3),solutions/$(1)-$(2)/$(4).c,-Iexercises/$(1)-$(2)) solutions/$(1)-$(2)/$(4).c \
	  exercises/$(1)-$(2)/check_$(4).c $$@ $$(ex_$(3)_kobjs) $$(LIBPW)

# The wrong answers tests/ex_loopholes.sh grades (tests/wrong/N.K-what.c),
# each built into $(BUILD)/wrong/N.K-what/check; `make test` builds them.
$$(BUILD)/wrong/$(3)-%/check: tests/wrong/$(3)-%.c $$(ex_$(3)_deps)
	$$(call ex_build,$(3),$$<,-Iexercises/$(1)-$(2)) $$< exercises/$(1)-$(2)/check_$(4).c $$@ $$(ex_$(3)_kobjs) $$(LIBPW)
test-build check-checkers-build: $$(patsubst tests/wrong/%.c,$$(BUILD)/wrong/%/check,$$(wildcard tests/wrong/$(3)-*.c))

.PHONY: ex-$(3) solution-$(3)
ex-$(3): $$(BUILD)/ex/$(3)/check
	@bash tools/grade.sh $(3) $$< exercises/$(1)-$(2)/$(4).c
solution-$(3): $$(BUILD)/sol/$(3)/check
	@bash tools/grade.sh $(3) $$< solutions/$(1)-$(2)/$(4).c
endef

chapter = $(eval $(call chapter_template,$(1),$(2),$(3),$(4),$(5),$(6)))
