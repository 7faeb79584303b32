# Sourced by amd-pairs.sh, carry.sh and device-train.sh: the one place that decides whether a set's pairs are
# reworded with `gasp corpus reword --drop-permuted`, which leaves out a benchmark computation with its inputs
# exchanged. Every set is, except those named in KEEP_PERMUTED (default none: the eleventh run kept o97's and they
# taught the permuted answers, as src/corpus/corpus_gen.c says).
#   $(drop_permuted SET)   prints --drop-permuted, or nothing for a set in KEEP_PERMUTED
drop_permuted() { case " ${KEEP_PERMUTED:-} " in *" $1 "*) ;; *) echo --drop-permuted ;; esac; }
