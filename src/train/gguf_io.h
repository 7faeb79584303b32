/* Between the trainer's weights (weights.h) and llama-architecture GGUF files: export writes a GGUF with the
 * vocabulary's real tokenizer (as mkmodel does), quantized by llama.cpp's own llama_model_quantize; dump reads
 * any llama-architecture GGUF back to f32 (ggml's type traits dequantize). Needs llama.cpp (GASP_HAVE_LLAMA). */
#ifndef GASP_TRAIN_GGUF_IO_H
#define GASP_TRAIN_GGUF_IO_H

#include <stddef.h>

#include "weights.h"

typedef enum { GASP_EXPORT_F32, GASP_EXPORT_F16, GASP_EXPORT_Q8_0 } gasp_export_type;

/* Parses "f32", "f16", "q8_0". Returns 0, or -1 for another name. */
int gasp_export_type_parse(const char *s, gasp_export_type *t);

/* Writes m as a llama GGUF at path. name goes to general.name (NULL: "gasp trained llama"). The tokenizer is
 * copied from m->cfg.vocab (a name or a GGUF path), whose size must equal n_vocab. f16 and q8_0 go through an
 * f32 file next to path, quantized by llama_model_quantize. Returns 0, or -1 with the reason in err. */
int gasp_train_export(const gasp_train_model *m, const char *path, gasp_export_type type, const char *name, char *err,
                      size_t cap);

/* Reads a llama-architecture GGUF into m, every tensor dequantized to f32, dims in PyTorch order. The config's
 * vocab is "llama-spm" or "qwen2" when the tokenizer is that vocabulary file's (same model, same size), else
 * the GGUF's own path. Returns 0, or -1 with the reason in err. */
int gasp_train_dump(const char *path, gasp_train_model *m, char *err, size_t cap);

/* 1 when every tensor of the GGUF at path is f32 (what llama.cpp's trainer needs), 0 when not, -1 unreadable. */
int gasp_gguf_all_f32(const char *path);

#endif
