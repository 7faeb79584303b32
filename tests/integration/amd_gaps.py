"""Judges one AMD target's reference-bench results against the list of known emulator gaps.
usage: amd_gaps.py TARGET RESULTS.jsonl KNOWN_GAPS.txt; exit 0 when every task passes or fails exactly as listed."""
import json
import sys

target, results, gaps_path = sys.argv[1:4]
known = {}
for line in open(gaps_path):
    line = line.split('#', 1)[0].strip()
    if not line:
        continue
    t, task, cls, phrase = line.split(None, 3)
    if t == target:
        known[task] = (cls, phrase)
bad = 0
seen = set()
for line in open(results):
    r = json.loads(line)
    task, cls, detail = r["task"], r["class"], r.get("detail", "")
    seen.add(task)
    if task in known:
        want_cls, phrase = known[task]
        if cls == "pass":
            print(f"{target} {task}: passes now; remove it from the known gaps")
            bad += 1
        elif cls != want_cls or phrase not in detail:
            print(f"{target} {task}: {cls}: {detail[:300]} (listed as {want_cls} '{phrase}')")
            bad += 1
    elif cls != "pass":
        print(f"{target} {task}: {cls}: {detail[:300]}")
        bad += 1
for task in known:
    if task not in seen:
        print(f"{target} {task}: listed but not run")
        bad += 1
print(f"{target}: {len(seen)} tasks, {len(seen) - len(known)} must pass, {len(known)} known emulator gaps, {bad} problems")
sys.exit(1 if bad else 0)
