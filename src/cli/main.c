/* gasp: GPU Assembly Synthesis and Proof. Git-style subcommands, one file each. */
#include <stdio.h>
#include <string.h>

#include "../bench/results.h"
#include "cli.h"

static const struct {
  const char *name;
  int (*fn)(int, char **);
  const char *help;
} commands[] = {
    {"tasks", cmd_tasks, "list the task suite"},
    {"targets", cmd_targets, "list the targets"},
    {"prompt", cmd_prompt, "print the prompt sent to a model for a task"},
    {"check", cmd_check, "statically validate an answer (file:line:col diagnostics)"},
    {"asm", cmd_asm, "assemble an answer into a loadable binary"},
    {"run", cmd_run, "assemble, run on the GPU and verify an answer against a task"},
    {"bench", cmd_bench, "generate and evaluate answers for many tasks (JSONL results, resumable)"},
    {"report", cmd_report, "summarise a results file"},
    {"merge", cmd_merge, "merge results files of shards or MPI ranks into one"},
    {"experiment", cmd_experiment, "rerun the source article's experiment matrix for one model"},
    {"throughput", cmd_throughput, "measure candidates verified per second on the GPU"},
    {"genspeed", cmd_genspeed, "measure the llama backend's tokens per second (parallel sequences, grammar)"},
    {"mkmodel", cmd_mkmodel, "write a random-weight GGUF model with a real tokenizer (tests, speed runs)"},
    {"train", cmd_train, "tokenize pairs, convert trainer weights <-> GGUF, fine-tune with llama.cpp"},
    {"tune", cmd_tune, "improve a model on its own verified answers (generate, verify, fine-tune, repeat)"},
    {"grammar", cmd_grammar, "print the GBNF grammar of well-formed answers to a task"},
    {"corpus", cmd_corpus, "generate task families and build verified (prompt, answer) training pairs"},
};

static void usage(FILE *out) {
  fprintf(out, "usage: gasp <command> [options]\n\ncommands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(out, "  %-11s %s\n", commands[i].name, commands[i].help);
  fprintf(out, "\n'gasp <command> --help' describes a command. gasp %s\n", GASP_VERSION);
}

int main(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
    if (argc >= 3 && !strcmp(argv[1], "help")) {
      for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(commands[i].name, argv[2])) {
          char *a[] = {argv[2], "--help", NULL};
          return commands[i].fn(2, a);
        }
    }
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? GASP_EXIT_USAGE : GASP_EXIT_OK;
  }
  if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
    printf("gasp %s\n", GASP_VERSION);
    return 0;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (!strcmp(commands[i].name, argv[1])) return commands[i].fn(argc - 1, argv + 1);
  fprintf(stderr, "gasp: error: '%s' is not a gasp command (see 'gasp --help')\n", argv[1]);
  return GASP_EXIT_USAGE;
}
