/* The target interface: everything specific to one ISA and architecture sits behind this struct.
 * Adding a target means one folder under src/target/ and one row in registry.c. */
#ifndef GASP_TARGET_H
#define GASP_TARGET_H

#include <stddef.h>

#include "../core/diag.h"
#include "../core/util.h"
#include "../task/task.h"

/* GL: Mesa in-process; EMU: the AMD functional emulator in-process (src/target/amdgcn/emu) */
typedef enum { GASP_EXEC_NONE = 0, GASP_EXEC_CUDA, GASP_EXEC_GL, GASP_EXEC_EMU } gasp_exec_kind;

/* Source text ready for the assembler, with the mapping of its lines back to the answer the model
 * wrote: text lines [first, first+count) are answer lines [orig_first, orig_first+count). */
typedef struct {
  char *text;
  int map_first, map_count, map_orig_first;
  int *line_map;     /* optional, for rewriters that insert lines: line_map[text_line - 1] is the answer line
                      * (0: added by the harness); when set it replaces the range above. Owned. */
  int line_map_len;
} gasp_source;

void gasp_source_free(gasp_source *s);
/* Maps a line of s->text to the answer's line; 0 when the line belongs to the scaffold. */
int gasp_source_map_line(const gasp_source *s, int text_line);

typedef struct {
  void *data;
  size_t len;
  char kernel[128];     /* the entry to launch */
  int regs;             /* registers per thread the assembler reported (-1 unknown) */
  int shared_static;    /* static shared memory bytes (-1 unknown) */
  void *launch;         /* what the run stage needs beyond the image (AMD: the kernel-argument layout); one
                         * malloc'ed block without inner pointers, owned, freed with the binary; may be NULL */
} gasp_binary;

void gasp_binary_free(gasp_binary *b);

typedef struct gasp_target gasp_target;
struct gasp_target {
  const char *name;         /* "ptx-sm90" */
  const char *isa;          /* "PTX" */
  const char *arch;         /* "sm_90" */
  const char *gpu;          /* hardware it describes, for prompts: "NVIDIA H200 (Hopper, sm_90)" */
  gasp_exec_kind exec;
  int cc;                   /* compute capability the binary needs (90) */
  const char *fence_tags;   /* markdown fence languages that mean this ISA, space separated */

  /* ISA facts for prompts, drawn from the target's description (registers, limits, conventions). */
  void (*facts)(const gasp_target *t, const gasp_task *task, gasp_str *out);
  /* Syntax and semantic constraint layers for prompts. */
  void (*constraints)(const gasp_target *t, const gasp_task *task, gasp_str *out);
  /* A short example of well-formed output for this task's shape (not the answer). */
  void (*example)(const gasp_target *t, const gasp_task *task, gasp_str *out);
  /* Does a line look like code of this ISA? Used by extraction to find code in prose. */
  int (*looks_like_code)(const char *line, size_t len);
  /* Turns extracted code into an assembler input (snippet tasks: splice into the scaffold). */
  int (*prepare)(const gasp_target *t, const gasp_task *task, const char *code, int code_first_line,
                 gasp_source *out, gasp_diags *d);
  /* Static validation; when bin is not NULL also produces the binary. Returns 0 when clean. Diagnostic
   * lines are answer lines. */
  int (*check)(const gasp_target *t, const gasp_task *task, const gasp_source *src, gasp_binary *bin,
               gasp_diags *d);
  /* The reference answer: assembly made by the vendor compiler from the task's reference kernel. */
  int (*reference_answer)(const gasp_target *t, const gasp_task *task, char **answer, gasp_diags *d);
  /* Rewriters run before checking when asked (optional): repair what can be repaired mechanically, each
   * change noted in d. Returns the number of changes. */
  int (*rewrite)(const gasp_target *t, const gasp_task *task, gasp_source *src, gasp_diags *d);
  /* A GBNF grammar (malloc'ed) whose language is well-formed answers for this task, generated from the
   * target's ISA description, for grammar-constrained decoding (optional; NULL: none, reason in d). */
  char *(*grammar)(const gasp_target *t, const gasp_task *task, gasp_diags *d);
  /* Our own parser over extracted code, driven by the same description as the grammar (optional).
   * Returns the number of syntax errors added to d (0: it parses). */
  int (*parse)(const gasp_target *t, const gasp_task *task, const char *code, int code_first_line, gasp_diags *d);
  /* The speed baseline binary, compiled from the task's reference kernel (optional). */
  int (*baseline)(const gasp_target *t, const gasp_task *task, gasp_binary *bin, gasp_diags *d);
};

/* A `prepare` for targets whose answer is the whole assembler input (no scaffold): the code as written,
 * its lines mapped one to one onto the answer's from code_first_line. */
int gasp_prepare_verbatim(const gasp_target *t, const gasp_task *task, const char *code, int code_first_line,
                          gasp_source *out, gasp_diags *d);

const gasp_target *gasp_target_find(const char *name);
/* NULL-terminated list of all targets. */
const gasp_target *const *gasp_targets(void);

#endif
