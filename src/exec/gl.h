/* The GL layer of the r300 target: compiles and runs R300-era ARB_fragment_program / ARB_vertex_program
 * assembly on Mesa's software renderer (llvmpipe) through a headless EGL surfaceless context.
 *
 * Why this shape (see shared/docs/amd-r300-facts.md): there is no R300 anywhere, but Mesa still implements
 * both ARB assembly languages, reports parse errors with a byte offset and a "line L, char C" message, and
 * reports the native instruction counts the r300 target needs to enforce R300's limits itself (llvmpipe
 * accepts far larger programs). Rendering into an RGBA32F framebuffer with colour clamping off and reading
 * back with glReadPixels(GL_FLOAT) returns exact floats, so a program's outputs can be compared bit for bit.
 *
 * Every function returns errors instead of printing or exiting. A gasp_gl belongs to the thread that opened
 * it (a GL context is current on one thread at a time); use one gasp_gl per thread. Link with -lEGL: every
 * GL entry point, core or ARB, is fetched with eglGetProcAddress (EGL_KHR_client_get_all_proc_addresses),
 * because glvnd's libOpenGL lacks the ARB entry points. */
#ifndef GASP_GL_H
#define GASP_GL_H

#include <stddef.h>

typedef struct gasp_gl gasp_gl;

/* Opens a headless desktop-GL compatibility context (ARB programs are legacy GL) on Mesa's software
 * renderer. Sets LIBGL_ALWAYS_SOFTWARE=1 unless the environment already sets it, so that a machine with a
 * GPU still runs llvmpipe (set GALLIUM_DRIVER=softpipe to get softpipe). Returns NULL with a reason in why
 * when no context can be made (no libEGL vendor, no surfaceless platform, missing ARB extensions). */
gasp_gl *gasp_gl_open(char *why, size_t cap);
void gasp_gl_close(gasp_gl *g);
/* One context for the whole process, opened on first use and kept (checking and running ARB programs
 * both need one; opening takes 15-120 ms). NULL with a reason when none can be had; the reason is kept
 * and returned again without retrying. */
gasp_gl *gasp_gl_shared(char *why, size_t cap);
/* GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"; GL_VERSION, e.g. "4.5 (Compatibility Profile) Mesa 22.3.6". */
const char *gasp_gl_renderer(const gasp_gl *g);
const char *gasp_gl_version(const gasp_gl *g);

typedef struct {
  int ok;                 /* the driver accepted the program */
  int error_offset;       /* byte offset of the offending token's first byte, -1 when ok; computed from the
                             "line L, char C" of Mesa's message, because Mesa 22.3's GL_PROGRAM_ERROR_POSITION_ARB
                             is not a byte offset (see gl_error_position) */
  int gl_error_position;  /* GL_PROGRAM_ERROR_POSITION_ARB as Mesa gives it, -1 when ok. Mesa 22.3 counts the
                             "!!ARBfp1.0" header as 1 and each newline as 2 and points at the END of the token:
                             do not show it to anyone, it is kept for the record */
  int line, col;          /* 1-based line and byte column of the error (parsed from the message; from
                             gl_error_position when the message has none); 0 when ok */
  char message[512];      /* GL_PROGRAM_ERROR_STRING_ARB, trimmed ("line 3, char 24: error: ...");
                             may hold a warning when ok */
  /* Native resource counts (glGetProgramivARB), valid when ok, -1 otherwise. The ALU/TEX/indirection
   * counts exist only for fragment programs (-1 for vertex programs). On llvmpipe "native" equals the
   * program's own count and Mesa does not model R300 limits, so under_native_limits is 1 far beyond them.
   * Mesa 22.3: instructions include END; KIL counts as a TEX instruction (as ARB_fragment_program says);
   * temporaries are the declared ones; tex_indirections is always 0 (Mesa does not count them: the r300
   * target must count dependent reads itself). */
  int native_instructions, native_alu, native_tex, native_tex_indirections, native_temporaries,
      native_parameters;
  int under_native_limits;
} gasp_arb_status;

/* Compiles an ARB program (vertex = 1 for !!ARBvp1.0, 0 for !!ARBfp1.0) and reports in *st. Returns 0
 * when the call itself worked (look at st->ok), -1 on a GL failure (message in st->message). A text with a
 * NUL byte is rejected here (ok = 0, offset of the NUL) without reaching the driver. */
int gasp_gl_check(gasp_gl *g, int vertex, const char *text, size_t len, gasp_arb_status *st);

typedef struct {
  const char *fragment;         /* !!ARBfp1.0 text, NUL-terminated; NULL only with attribs (then the
                                   fragment colour is passed through: MOV result.color, fragment.color) */
  const char *vertex;           /* !!ARBvp1.0 text, or NULL for fixed-function vertex processing */
  int width, height;            /* output: one RGBA32F pixel per element, width*height elements */
  const float *local_params;    /* program.local[i] = local_params[4i..4i+3] for both programs, may be NULL */
  int nlocal;
  const float *textures[4];     /* RGBA32F 2D textures on units 0..3 (NEAREST, clamp to edge, no mipmaps),
                                   each width x height, row 0 first (texel (x,y) at [4*(y*width+x)]); NULL
                                   entries are left unbound */
  int ntextures;
  /* Vertex tasks: attribs[i] (4 floats per element, element e at [4e..4e+3]) feeds generic attribute
   * vertex.attrib[i+1]. Attribute 0 (vertex.position) carries the element's pixel centre in clip space
   * (x, y, 0, 1), so "MOV result.position, vertex.position;" puts element e on pixel (e % width, e / width).
   * ARB_vertex_program lets generic attributes alias conventional ones (1 weight, 2 normal, 3 color) and
   * rejects a program naming both of a pair; Mesa keeps their data apart, so read them as vertex.attrib[n]. */
  const float *attribs[4];
  int nattribs;
  float poison;                 /* every channel of the framebuffer is cleared to this before drawing */
} gasp_gl_job;

/* Runs a job and reads back width*height*4 floats into out (pixel (x,y) at out[4*(y*width+x)]).
 * Without attribs: one full-screen quad; the fragment for pixel (x,y) gets fragment.position =
 * (x+0.5, y+0.5, z, 1) exactly and fragment.texcoord[0] = ((x+0.5)/width, (y+0.5)/height, 0, 1),
 * interpolated: exact for power-of-two sizes, otherwise within a few ulps and always inside texel (x,y),
 * so TEX on texture[u], 2D hits exactly one texel. With a vertex program but no attribs the quad's
 * corners are vertex.position (+-1, +-1, 0, 1) and vertex.texcoord[0] (0 or 1, 0 or 1, 0, 1).
 * With attribs: one point (size 1) per element at its pixel centre; fragment.color = the vertex program's
 * result.color, unclamped.
 * Returns 0, or -1 with a message in err (a rejected program with its line and char, or a GL error name
 * and code). Never aborts on a bad program. */
int gasp_gl_run(gasp_gl *g, const gasp_gl_job *job, float *out, char *err, size_t errcap);

#endif
