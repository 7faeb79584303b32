"""Every AMD reference answer of a reference bench (clang-19's kernel body, or a snippet translated from the task's
PTX) is in the language of the task's AMD grammar, in llama.cpp's own engine (`gasp grammar --match`): the grammar
offers what the verified answers are, so a model decoding under it is not kept from a correct answer.
usage: amd_grammar_refs.py GASP TARGET RESULTS.jsonl TMPDIR; exit 0 when all match, 3 when gasp has no grammar
engine (built without llama.cpp), 1 otherwise (each refused line printed)."""
import json
import os
import subprocess
import sys

gasp, target, results, tmp = sys.argv[1:5]
path = os.path.join(tmp, "ref.md")
n = refused = 0
for line in open(results):
    r = json.loads(line)
    answer = r.get("answer") or ""
    if ".amdhsa_kernel" in answer:  # a complete source: the grammar offers the body form the prompt asks for
        continue
    text = "```amdgcn\n" + answer + "```"
    with open(path, "w") as f:
        f.write(text)
    p = subprocess.run([gasp, "grammar", "--target", target, "--task", r["task"], "--match", path],
                       capture_output=True, text=True)
    if p.returncode == 3 and "without llama.cpp" in p.stdout + p.stderr:
        print("no grammar engine in this build")
        sys.exit(3)
    n += 1
    if p.returncode != 0:
        refused += 1
        where = p.stdout.strip().rsplit(": the grammar", 1)[0].split(":")[-2:]
        try:
            ln, col = int(where[0]), int(where[1])
            print("%s %s: refused at %d:%d: %r" % (target, r["task"], ln, col, text.split("\n")[ln - 1]))
        except (ValueError, IndexError):
            print("%s %s: %s %s" % (target, r["task"], p.stdout.strip(), p.stderr.strip()))
print("%s: %d of %d reference answers in the grammar's language" % (target, n - refused, n))
sys.exit(1 if refused or n < 40 else 0)
