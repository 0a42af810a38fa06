# Chapter 01: measure. Programs, the kernels they link, and the exercises
# (1.1 square, 1.2 summary).
$(call chapter,01,measure,probe loops timing dependence,elementwise,square summary)
