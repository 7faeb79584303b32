# gasp experiment: the article's matrix for one backend, resumable, tabulated with 95% intervals. Run on the
# r300 target, which executes on Mesa here; the PTX rows need a GPU and show "no candidates ran" without one.
. "$(dirname "$0")/lib.sh"
expect_rc 0 "experiment" "$GASP" experiment -o "$TMP/exp" --target r300 --backend reference
[ -s "$TMP/exp/table.md" ] && ok || bad "table.md written"
grep -q "| old side: R300 ARB programs, all levels | 92% (old AMD) | 100.0% (9/9) | 70.1-100.0% |" "$TMP/exp/table.md" && ok || { bad "R300 row with its Wilson interval"; cat "$TMP/exp/table.md"; }
grep -q "| all tasks, prompt variant bare | - | 100.0% (9/9)" "$TMP/exp/table.md" && ok || bad "every prompt variant ran"
grep -q "| single instruction (L0), PTX | > 92% | - (no candidates ran) | - |" "$TMP/exp/table.md" && ok || bad "rows without candidates say so"
grep -q "| all tasks, with the rewriters (alignment split, SASS hazards, AMD s_waitcnt) | .* | 100.0% (9/9)" "$TMP/exp/table.md" && ok || bad "rewriter arm"
n0=$(wc -l <"$TMP/exp/repair0.jsonl")
[ "$n0" = 36 ] && ok || bad "4 variants x 9 tasks in the repair-0 arm ($n0)"
expect_rc 0 "experiment again resumes" "$GASP" experiment -o "$TMP/exp" --target r300 --backend reference
[ "$(wc -l <"$TMP/exp/repair0.jsonl")" = "$n0" ] && ok || bad "a second run adds nothing"
# the AMD rows, from the emulator (no GPU needed)
expect_rc 0 "experiment on gfx900" "$GASP" experiment -o "$TMP/exp2" --target gfx900 --backend reference --tasks vector_add
grep -qF "| AMD GCN/RDNA (gfx900, gfx1030, gfx1100; our emulator), all levels | GFX9/10/11 reported | 100.0% (1/1)" "$TMP/exp2/table.md" && ok || { bad "AMD row"; cat "$TMP/exp2/table.md"; }
expect_rc 2 "experiment without -o" "$GASP" experiment --target r300
finish
