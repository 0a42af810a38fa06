# Levelled hints for the exercises (tools/hint.sh).
#
#   make hint-N.K            the next level of hints for exercise N.K (1, 2, 3,
#                            then 3 again); state in $(BUILD)/hints/N.K
#   make hint-N.K LEVEL=L    show level L again (the state does not move)
#   make hint-reset-N.K      start exercise N.K over at level 1
#
# The hints live next to the exercise: exercises/NN-name/hints/<exercise>.md,
# first line "# Hints for N.K <exercise>". EXERCISES is complete only once the
# chapters are read, after this file: the recipe expands it when it runs.
LEVEL ?=

hint-reset-%:
	@bash tools/hint.sh --reset '$*' '$(BUILD)/hints'
hint-%:
	@bash tools/hint.sh '$*' '$(EXERCISES)' '$(BUILD)/hints' $(LEVEL)
