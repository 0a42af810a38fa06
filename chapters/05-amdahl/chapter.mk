# Chapter 05: Amdahl, Gustafson, Karp-Flatt. (5.1 serial_fraction, 5.2 karp_flatt)
$(call chapter,05,amdahl,amdahl scaling,busywork,serial_fraction karp_flatt)
