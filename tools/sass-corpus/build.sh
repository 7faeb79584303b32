#!/bin/sh
# Compiles the SASS corpus to cubins for sm_90 and sm_89, each at two ptxas optimisation levels
# (-O3 schedules and fuses; -O0 keeps plain forms and many more moves), into $1 (default build/sass-corpus).
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-build/sass-corpus}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
mkdir -p "$out"
for src in "$here"/src/*.cu; do
    base=$(basename "$src" .cu)
    for arch in 90 89; do
        [ "$base" = hopper ] && [ "$arch" = 89 ] && continue
        for opt in 3 0; do
            "$nvcc" -cubin -arch=sm_$arch -O3 -Xptxas -O$opt -o "$out/${base}.sm$arch.O$opt.cubin" "$src"
        done
    done
done
