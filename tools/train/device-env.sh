# Sourced by the tools/train/device-*.sh scripts on the GPU machine: the repository root R, the output folder OUT,
# the shared work folder W (kept between calls while the machine is warm), and gasp from the slim carry .dev/run
# (G, its libraries, its worker, the benchmark's tasks).
R=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${OUT:-/tmp/out}
W=/tmp/gasp-train
mkdir -p "$W" "$OUT"
export LD_LIBRARY_PATH=$R/.dev/run/devlibs GASP_WORKER=$R/.dev/run/gasp-worker GASP_TASKS_DIR=$R/tasks
# gasp train export and mkmodel take the tokenizer from here (the path compiled in is this machine's)
export GASP_LLAMA_VOCAB_DIR=$R/.dev/carry
G=$R/.dev/run/gasp
# Carried data may be gzip or xz: xz packs the pairs 3.5 times smaller (every prompt repeats the same ISA facts,
# 3 KB, which gzip's 32 KB window compresses less well than xz's 8 MB dictionary), and the device tool carries
# 64 MiB with the tree. Python's lzma unpacks it where no xz program is installed.
unpack() { # unpack FILE.{gz,xz}: its bytes on stdout
  case "$1" in
    *.xz) if command -v xz >/dev/null; then xz -dc "$1"
          else python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)' "$1"; fi ;;
    *) gunzip -c "$1" ;;
  esac
}
untar() { # untar ARCHIVE.{tgz,txz} DIR
  python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$1" "$2"
}
# carried NAME (without .jsonl.gz/.jsonl.xz or .tgz/.txz): the file in .dev/carry, xz preferred
carried() { for s in "$@"; do [ -f "$R/.dev/carry/$s" ] && { echo "$R/.dev/carry/$s"; return 0; }; done; return 1; }
