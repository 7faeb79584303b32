/* Every target, one row each. */
#include <stdlib.h>
#include <string.h>

#include "target.h"

extern const gasp_target gasp_target_ptx_sm90;
extern const gasp_target gasp_target_ptx_sm89;
extern const gasp_target gasp_target_r300;
extern const gasp_target gasp_target_gfx900, gasp_target_gfx1030, gasp_target_gfx1100;
extern const gasp_target gasp_target_sass_sm90;
extern const gasp_target gasp_target_sass_sm89;

static const gasp_target *const all[] = {&gasp_target_ptx_sm90, &gasp_target_ptx_sm89, &gasp_target_r300,
                                         &gasp_target_sass_sm90, &gasp_target_sass_sm89, &gasp_target_gfx900,
                                         &gasp_target_gfx1030, &gasp_target_gfx1100, NULL};

const gasp_target *const *gasp_targets(void) { return all; }

const gasp_target *gasp_target_find(const char *name) {
  for (int i = 0; all[i]; i++)
    if (!strcmp(all[i]->name, name)) return all[i];
  return NULL;
}

int gasp_prepare_verbatim(const gasp_target *t, const gasp_task *task, const char *code, int first, gasp_source *out,
                          gasp_diags *d) {
  (void)t, (void)task, (void)d;
  memset(out, 0, sizeof *out);
  out->text = gasp_strdup(code);
  out->map_first = 1;
  out->map_count = 1 << 30;
  out->map_orig_first = first;
  return 0;
}

void gasp_source_free(gasp_source *s) {
  free(s->text);
  free(s->line_map);
  memset(s, 0, sizeof *s);
}

int gasp_source_map_line(const gasp_source *s, int line) {
  if (s->line_map) return line >= 1 && line <= s->line_map_len ? s->line_map[line - 1] : 0;
  if (line >= s->map_first && line < s->map_first + s->map_count) return line - s->map_first + s->map_orig_first;
  return 0;
}

void gasp_binary_free(gasp_binary *b) {
  free(b->data);
  free(b->launch);
  memset(b, 0, sizeof *b);
  b->regs = b->shared_static = -1;
}
