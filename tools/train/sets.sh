#!/usr/bin/env bash
# Here, before the device calls of tools/train: the ninth run's task sets (tools/train/README.md, "The ninth run"),
# made again byte for byte from their seeds, under DIR (default .dev/d9):
#   s83  ew_op,ew_seq,ew_idiom, 3,000 tasks        k92  ew_kernel, 3,000 tasks
#   t7   the one-instruction tasks of seed 71 whose operation is a conversion, fma, shift, integer multiply or
#        square root, and the seed-72 sequences with a popc, a shift at the root or an f32 square root of an input
#   base every family, seed 1, 5,000 tasks      a93  ARB programs (r300), 1,500 tasks
#   near ew_near, seed 94, 1,500 tasks (new after the ninth run: not in its data)
#   s81, s82 the eighth run's ew_op,ew_seq,ew_idiom seed 81 (4,500) and ew_op,ew_seq seed 82 (1,800)
#   arr  ew_array, seed 95, 1,500 tasks: short kernels with parameters named as kernels are (the tenth run)
#   i96  ew_idiom, seed 96, 2,500 tasks: L1 idioms for the run after the tenth (2,261 not in the sets before)
#   o97  ew_order, seed 97, 2,000 tasks: the idioms' shapes with their operands in every order (the eleventh run)
#   c101 ew_seq,ew_idiom,ew_array, seed 101, 12,000 tasks less g_ew_idiom_908 (its map is heldout.sh's
#        g_ew_idiom_20): fresh computations for the fourteenth run, whose subset c101a (1,500 ew_seq, 1,500
#        ew_idiom, 1,000 ew_array) amd-pairs.sh verifies
#   h102 ew_shape, seed 102, 4,000 tasks: ew_idiom's forms each keeping its share (clamps, selects, absolute values
#        and interpolations as often as polynomials; none has a held-out map)
#   k103 ew_kin, seed 103, 700 tasks: the never-passing L1 structures at the other types (clamp, lerp, dot3,
#        select_sign, abs_diff; none has a held-out map; 777 distinct instances exist, names included)
#   k104 ew_kin_order, seed 104, 1,500 tasks: k103's structures with the inputs read in another order than listed
#        (lerp's addend, clamp's bounds bound by the description only; after the sixteenth run)
#   n105 ew_array_near, seed 105, 1,500 tasks: kernels around vector_add, relu_array and saxpy (their computation at
#        f64 or an integer type, or one step away; after the seventeenth run)
# and the AMD subsets verified here by amd-pairs.sh (s83a 2,000 of s83, k92a 600 of k92, t7a 1,000 of t7's
# one-instruction tasks and all its sequences), chosen with a fixed random source so that they repeat.
# Then tools/train/carry.sh rewords the verified pairs kept in tools/train/data/ into .dev/carry (minutes), instead
# of verifying them again with amd-pairs.sh (30 to 60 minutes of the 2 cores).
set -eu
cd "$(dirname "$0")/../.."
G=$PWD/build/gasp D=${1:-.dev/d9}
. tools/train/sets-list.sh
mkdir -p "$D" && cd "$D"
gen() { rm -rf "$1" && "$G" corpus gen -q -o "$1/tasks" "${@:2}"; }
gen s83 --seed 83 --count 3000 --families ew_op,ew_seq,ew_idiom
gen k92 --seed 92 --count 3000 --families ew_kernel
gen base --seed 1 --count 5000
gen a93 --seed 93 --count 1500 --families arb
gen near --seed 94 --count 1500 --families ew_near
gen arr --seed 95 --count 1500 --families ew_array
gen i96 --seed 96 --count 2500 --families ew_idiom
gen o97 --seed 97 --count 2000 --families ew_order
gen c101 --seed 101 --count 12000 --families ew_seq,ew_idiom,ew_array
rm c101/tasks/g_ew_idiom_908.yaml c101/tasks/amdgcn/g_ew_idiom_908.cl
gen h102 --seed 102 --count 4000 --families ew_shape
gen k103 --seed 103 --count 700 --families ew_kin
gen k104 --seed 104 --count 1500 --families ew_kin_order
gen n105 --seed 105 --count 1500 --families ew_array_near
# the eighth run's s81 and s82, whose AMD pairs tools/train/data keeps too
gen s81 --seed 81 --count 4500 --families ew_op,ew_seq,ew_idiom
gen s82 --seed 82 --count 1800 --families ew_op,ew_seq
rm -rf o71all q72all t7 && "$G" corpus gen -q --seed 71 --count 8000 --families ew_op -o o71all/tasks &&
  "$G" corpus gen -q --seed 72 --count 12000 --families ew_seq -o q72all/tasks
# take FILE.yaml and its OpenCL reference from SRC into DST
take() { cp "$1/tasks/$3.yaml" "$2/tasks/"; cp "$1/tasks/amdgcn/$3.cl" "$2/tasks/amdgcn/"; }
mkdir -p t7/tasks/amdgcn && cp s83/tasks/amdgcn/gasp_amd.h t7/tasks/amdgcn/
for f in o71all/tasks/*.yaml; do
  grep -q '^map: "(\(cvt\|fma\|shl\|shr\|mul\.[su]32\|sqrt\)' "$f" && take o71all t7 "$(basename "$f" .yaml)"
done
for f in q72all/tasks/*.yaml; do
  grep -q '^map: "(\(popc\|shl\|sqrt.f32 [^(]\)\|^map: .*popc' "$f" && take q72all t7 "$(basename "$f" .yaml)"
done
rm -rf o71all q72all
# pick SRC DST N PATTERN: add to DST N of SRC's tasks whose file names match PATTERN, the same N every time
pick() {
  ls "$1/tasks/" | grep "$4" | grep 'yaml$' | shuf --random-source=<(yes) -n "$3" |
    while read -r f; do take "$1" "$2" "${f%.yaml}"; done
}
# sub SRC DST N PATTERN: DST made afresh with pick's N tasks
sub() {
  rm -rf "$2" && mkdir -p "$2/tasks/amdgcn" && cp s83/tasks/amdgcn/gasp_amd.h "$2/tasks/amdgcn/"
  pick "$@"
}
sub s83 s83a 2000 .
sub k92 k92a 600 .
sub t7 t7a 1000 g_ew_op
sub c101 c101a 1500 g_ew_seq_
pick c101 c101a 1500 g_ew_idiom_
pick c101 c101a 1000 g_ew_array_
for f in t7/tasks/g_ew_seq_*.yaml; do take t7 t7a "$(basename "$f" .yaml)"; done
cp -r near neara
for s in $TRAIN_SETS a93 s83a k92a t7a neara c101a; do
  [ -d "$s/tasks" ] || { echo "sets: $s was not made (a name in tools/train/sets-list.sh needs its gen line above)" >&2; exit 2; }
  echo "$s: $(ls $s/tasks/*.yaml | wc -l) tasks"; done
