# Sourced by tools/train/sets.sh, carry.sh and heldout.sh: the training task sets sets.sh makes under .dev/d9 (one
# line each in sets.sh's header). carry.sh packs each as NAME.txz for PTX_TASKS; heldout.sh keeps out every map
# they hold, so that a set added here, and only here, is never among the held-out tasks. Not here: a93 (ARB
# programs, no L1 computation) and the AMD subsets (s83a ..., chosen from these sets).
TRAIN_SETS="s83 k92 t7 base near arr i96 o97 s81 s82 c101 h102 k103 k104 n105"
