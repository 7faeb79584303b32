/* The GL layer of the r300 target: a headless EGL surfaceless context on Mesa's llvmpipe, ARB program
 * compilation with error positions and native counts, and exact-float rendering. See gl.h and GL-NOTES.md. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "gl.h"

#include <dlfcn.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

/* libEGL itself is opened at run time, not linked: gasp then starts on machines without it (the GPU
 * machine has no EGL loader unless one is carried there), and only the r300 target needs it. The EGL
 * calls below go through these pointers under their usual names. */
#define EGL_FUNCS(X) \
  X(eglGetProcAddress, PFNEGLGETPROCADDRESSPROC) \
  X(eglGetError, PFNEGLGETERRORPROC) \
  X(eglQueryString, PFNEGLQUERYSTRINGPROC) \
  X(eglGetPlatformDisplay, PFNEGLGETPLATFORMDISPLAYPROC) \
  X(eglInitialize, PFNEGLINITIALIZEPROC) \
  X(eglTerminate, PFNEGLTERMINATEPROC) \
  X(eglBindAPI, PFNEGLBINDAPIPROC) \
  X(eglChooseConfig, PFNEGLCHOOSECONFIGPROC) \
  X(eglCreateContext, PFNEGLCREATECONTEXTPROC) \
  X(eglDestroyContext, PFNEGLDESTROYCONTEXTPROC) \
  X(eglMakeCurrent, PFNEGLMAKECURRENTPROC) \
  X(eglGetCurrentContext, PFNEGLGETCURRENTCONTEXTPROC)

static struct {
#define EGL_SLOT(name, type) type name;
  EGL_FUNCS(EGL_SLOT)
#undef EGL_SLOT
} egl;

/* Loads libEGL.so.1 once. Returns 0, or -1 with a reason. */
static int load_egl(char *why, size_t cap) {
  static void *h;
  if (h) return 0;
  void *lib = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    snprintf(why, cap, "no EGL library (libEGL.so.1): %s; install libegl1 and libegl-mesa0", dlerror());
    return -1;
  }
#define EGL_LOAD(name, type)                                                          \
  if (!(*(void **)&egl.name = dlsym(lib, #name))) {                                   \
    snprintf(why, cap, "libEGL.so.1 lacks %s", #name);                                \
    dlclose(lib);                                                                     \
    return -1;                                                                        \
  }
  EGL_FUNCS(EGL_LOAD)
#undef EGL_LOAD
  h = lib;
  return 0;
}

#define eglGetProcAddress egl.eglGetProcAddress
#define eglGetError egl.eglGetError
#define eglQueryString egl.eglQueryString
#define eglGetPlatformDisplay egl.eglGetPlatformDisplay
#define eglInitialize egl.eglInitialize
#define eglTerminate egl.eglTerminate
#define eglBindAPI egl.eglBindAPI
#define eglChooseConfig egl.eglChooseConfig
#define eglCreateContext egl.eglCreateContext
#define eglDestroyContext egl.eglDestroyContext
#define eglMakeCurrent egl.eglMakeCurrent
#define eglGetCurrentContext egl.eglGetCurrentContext

/* Every GL function goes through eglGetProcAddress, core ones included (EGL_KHR_client_get_all_proc_addresses,
 * which Mesa's and glvnd's libEGL offer): the module then links only -lEGL and never depends on which GL
 * library (libGL, libOpenGL) exports the ARB entry points. X(name, type) lists them. */
#define GL_FUNCS(X)                                                                        \
  X(glGetString, PFNGLGETSTRINGPROC_)                                                      \
  X(glGetError, PFNGLGETERRORPROC_)                                                        \
  X(glGetIntegerv, PFNGLGETINTEGERVPROC_)                                                  \
  X(glEnable, PFNGLENABLEPROC_)                                                            \
  X(glDisable, PFNGLDISABLEPROC_)                                                          \
  X(glViewport, PFNGLVIEWPORTPROC_)                                                        \
  X(glClearColor, PFNGLCLEARCOLORPROC_)                                                    \
  X(glClear, PFNGLCLEARPROC_)                                                              \
  X(glReadPixels, PFNGLREADPIXELSPROC_)                                                    \
  X(glReadBuffer, PFNGLREADBUFFERPROC_)                                                    \
  X(glDrawBuffer, PFNGLDRAWBUFFERPROC_)                                                    \
  X(glPixelStorei, PFNGLPIXELSTOREIPROC_)                                                  \
  X(glFinish, PFNGLFINISHPROC_)                                                            \
  X(glBegin, PFNGLBEGINPROC_)                                                              \
  X(glEnd, PFNGLENDPROC_)                                                                  \
  X(glVertex4f, PFNGLVERTEX4FPROC_)                                                        \
  X(glTexCoord4f, PFNGLTEXCOORD4FPROC_)                                                    \
  X(glMatrixMode, PFNGLMATRIXMODEPROC_)                                                    \
  X(glLoadIdentity, PFNGLLOADIDENTITYPROC_)                                                \
  X(glPointSize, PFNGLPOINTSIZEPROC_)                                                      \
  X(glDrawArrays, PFNGLDRAWARRAYSPROC_)                                                    \
  X(glGenTextures, PFNGLGENTEXTURESPROC_)                                                  \
  X(glDeleteTextures, PFNGLDELETETEXTURESPROC_)                                            \
  X(glBindTexture, PFNGLBINDTEXTUREPROC_)                                                  \
  X(glTexImage2D, PFNGLTEXIMAGE2DPROC_)                                                    \
  X(glTexParameteri, PFNGLTEXPARAMETERIPROC_)                                              \
  X(glActiveTexture, PFNGLACTIVETEXTUREPROC)                                               \
  X(glGenFramebuffers, PFNGLGENFRAMEBUFFERSPROC)                                           \
  X(glDeleteFramebuffers, PFNGLDELETEFRAMEBUFFERSPROC)                                     \
  X(glBindFramebuffer, PFNGLBINDFRAMEBUFFERPROC)                                           \
  X(glFramebufferRenderbuffer, PFNGLFRAMEBUFFERRENDERBUFFERPROC)                           \
  X(glCheckFramebufferStatus, PFNGLCHECKFRAMEBUFFERSTATUSPROC)                             \
  X(glGenRenderbuffers, PFNGLGENRENDERBUFFERSPROC)                                         \
  X(glDeleteRenderbuffers, PFNGLDELETERENDERBUFFERSPROC)                                   \
  X(glBindRenderbuffer, PFNGLBINDRENDERBUFFERPROC)                                         \
  X(glRenderbufferStorage, PFNGLRENDERBUFFERSTORAGEPROC)                                   \
  X(glClampColorARB, PFNGLCLAMPCOLORARBPROC)                                               \
  X(glGenProgramsARB, PFNGLGENPROGRAMSARBPROC)                                             \
  X(glDeleteProgramsARB, PFNGLDELETEPROGRAMSARBPROC)                                       \
  X(glBindProgramARB, PFNGLBINDPROGRAMARBPROC)                                             \
  X(glProgramStringARB, PFNGLPROGRAMSTRINGARBPROC)                                         \
  X(glGetProgramivARB, PFNGLGETPROGRAMIVARBPROC)                                           \
  X(glProgramLocalParameter4fvARB, PFNGLPROGRAMLOCALPARAMETER4FVARBPROC)                   \
  X(glVertexAttribPointerARB, PFNGLVERTEXATTRIBPOINTERARBPROC)                             \
  X(glEnableVertexAttribArrayARB, PFNGLENABLEVERTEXATTRIBARRAYARBPROC)                     \
  X(glDisableVertexAttribArrayARB, PFNGLDISABLEVERTEXATTRIBARRAYARBPROC)

/* glext.h has no pointer types for GL 1.0/1.1 functions; these are theirs. */
typedef const GLubyte *(APIENTRYP PFNGLGETSTRINGPROC_)(GLenum);
typedef GLenum(APIENTRYP PFNGLGETERRORPROC_)(void);
typedef void(APIENTRYP PFNGLGETINTEGERVPROC_)(GLenum, GLint *);
typedef void(APIENTRYP PFNGLENABLEPROC_)(GLenum);
typedef void(APIENTRYP PFNGLDISABLEPROC_)(GLenum);
typedef void(APIENTRYP PFNGLVIEWPORTPROC_)(GLint, GLint, GLsizei, GLsizei);
typedef void(APIENTRYP PFNGLCLEARCOLORPROC_)(GLfloat, GLfloat, GLfloat, GLfloat);
typedef void(APIENTRYP PFNGLCLEARPROC_)(GLbitfield);
typedef void(APIENTRYP PFNGLREADPIXELSPROC_)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void *);
typedef void(APIENTRYP PFNGLREADBUFFERPROC_)(GLenum);
typedef void(APIENTRYP PFNGLDRAWBUFFERPROC_)(GLenum);
typedef void(APIENTRYP PFNGLPIXELSTOREIPROC_)(GLenum, GLint);
typedef void(APIENTRYP PFNGLFINISHPROC_)(void);
typedef void(APIENTRYP PFNGLBEGINPROC_)(GLenum);
typedef void(APIENTRYP PFNGLENDPROC_)(void);
typedef void(APIENTRYP PFNGLVERTEX4FPROC_)(GLfloat, GLfloat, GLfloat, GLfloat);
typedef void(APIENTRYP PFNGLTEXCOORD4FPROC_)(GLfloat, GLfloat, GLfloat, GLfloat);
typedef void(APIENTRYP PFNGLMATRIXMODEPROC_)(GLenum);
typedef void(APIENTRYP PFNGLLOADIDENTITYPROC_)(void);
typedef void(APIENTRYP PFNGLPOINTSIZEPROC_)(GLfloat);
typedef void(APIENTRYP PFNGLDRAWARRAYSPROC_)(GLenum, GLint, GLsizei);
typedef void(APIENTRYP PFNGLGENTEXTURESPROC_)(GLsizei, GLuint *);
typedef void(APIENTRYP PFNGLDELETETEXTURESPROC_)(GLsizei, const GLuint *);
typedef void(APIENTRYP PFNGLBINDTEXTUREPROC_)(GLenum, GLuint);
typedef void(APIENTRYP PFNGLTEXIMAGE2DPROC_)(GLenum, GLint, GLint, GLsizei, GLsizei, GLint, GLenum, GLenum,
                                             const void *);
typedef void(APIENTRYP PFNGLTEXPARAMETERIPROC_)(GLenum, GLenum, GLint);

typedef struct {
#define DECL(name, type) type name;
  GL_FUNCS(DECL)
#undef DECL
} gl_funcs;

struct gasp_gl {
  EGLDisplay dpy;
  EGLContext ctx;
  gl_funcs f;
  char renderer[128], version[128];
  GLint max_local, max_tex_units;
  GLuint fbo, rbo; /* cached RGBA32F target, reallocated when the size changes */
  int fb_w, fb_h;
};

/* The EGL display is process-wide: eglTerminate on one handle would pull it from under every other one, so
 * handles count themselves and the last close terminates it. */
static once_flag g_once = ONCE_FLAG_INIT;
static mtx_t g_mtx;
static int g_users;
static void init_mtx(void) { mtx_init(&g_mtx, mtx_plain); }

static void say(char *buf, size_t cap, const char *fmt, ...) {
  if (!buf || !cap) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, cap, fmt, ap);
  va_end(ap);
}

static int has_ext(const char *list, const char *name) {
  size_t n = strlen(name);
  for (const char *p = list; p && (p = strstr(p, name)); p += n)
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return 1;
  return 0;
}

static const char *gl_error_name(GLenum e) {
  switch (e) {
  case GL_NO_ERROR: return "GL_NO_ERROR";
  case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
  case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
  case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
  case GL_STACK_OVERFLOW: return "GL_STACK_OVERFLOW";
  case GL_STACK_UNDERFLOW: return "GL_STACK_UNDERFLOW";
  case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
  case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
  default: return "unknown GL error";
  }
}

/* GL errors are sticky until read; drain them so a later check sees only its own call's error. */
static void drain_errors(gasp_gl *g) {
  for (int i = 0; i < 32 && g->f.glGetError() != GL_NO_ERROR; i++) {
  }
}

static int make_current(gasp_gl *g, char *why, size_t cap) {
  if (eglGetCurrentContext() == g->ctx) return 0;
  if (!eglMakeCurrent(g->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, g->ctx)) {
    say(why, cap, "eglMakeCurrent failed (EGL error 0x%x)", (unsigned)eglGetError());
    return -1;
  }
  return 0;
}

static void release_display(EGLDisplay dpy) {
  mtx_lock(&g_mtx);
  if (--g_users == 0) eglTerminate(dpy);
  mtx_unlock(&g_mtx);
}

gasp_gl *gasp_gl_open(char *why, size_t cap) {
  say(why, cap, "no error");
  /* Mesa picks llvmpipe on this machine anyway (no /dev/dri); forcing software keeps a GPU machine on the
   * same renderer, so results and native counts do not depend on the host. The caller's setting wins. */
  setenv("LIBGL_ALWAYS_SOFTWARE", "1", 0);
  if (load_egl(why, cap)) return NULL;

  const char *cext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (!cext) {
    say(why, cap, "libEGL has no client extensions (EGL error 0x%x); is a Mesa EGL vendor installed "
                  "(libegl-mesa0)?", (unsigned)eglGetError());
    return NULL;
  }
  if (!has_ext(cext, "EGL_MESA_platform_surfaceless")) {
    say(why, cap, "EGL_MESA_platform_surfaceless is missing (client extensions: %s)", cext);
    return NULL;
  }
  if (!has_ext(cext, "EGL_KHR_client_get_all_proc_addresses")) {
    say(why, cap, "EGL_KHR_client_get_all_proc_addresses is missing: core GL entry points cannot be fetched");
    return NULL;
  }
  call_once(&g_once, init_mtx);

  gasp_gl *g = calloc(1, sizeof *g);
  if (!g) {
    say(why, cap, "out of memory");
    return NULL;
  }
  g->dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
  if (g->dpy == EGL_NO_DISPLAY) {
    say(why, cap, "eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA) failed (EGL error 0x%x)",
        (unsigned)eglGetError());
    free(g);
    return NULL;
  }
  mtx_lock(&g_mtx);
  EGLint major = 0, minor = 0;
  EGLBoolean inited = eglInitialize(g->dpy, &major, &minor);
  if (inited) g_users++;
  mtx_unlock(&g_mtx);
  if (!inited) {
    say(why, cap, "eglInitialize on the surfaceless display failed (EGL error 0x%x)", (unsigned)eglGetError());
    free(g);
    return NULL;
  }
  const char *dext = eglQueryString(g->dpy, EGL_EXTENSIONS);
  if (!has_ext(dext, "EGL_KHR_surfaceless_context")) {
    say(why, cap, "EGL_KHR_surfaceless_context is missing: cannot make a context current without a surface");
    goto fail;
  }
  /* ARB programs are legacy GL: desktop GL API and a context without core-profile flags (Mesa then gives
   * the compatibility profile, 4.5 on llvmpipe). */
  if (!eglBindAPI(EGL_OPENGL_API)) {
    say(why, cap, "eglBindAPI(EGL_OPENGL_API) failed (EGL error 0x%x)", (unsigned)eglGetError());
    goto fail;
  }
  EGLConfig cfg = EGL_NO_CONFIG_KHR;
  if (!has_ext(dext, "EGL_KHR_no_config_context")) {
    const EGLint want[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLint n = 0;
    if (!eglChooseConfig(g->dpy, want, &cfg, 1, &n) || n < 1) {
      say(why, cap, "no EGL config renders desktop OpenGL (EGL error 0x%x)", (unsigned)eglGetError());
      goto fail;
    }
  }
  g->ctx = eglCreateContext(g->dpy, cfg, EGL_NO_CONTEXT, NULL);
  if (g->ctx == EGL_NO_CONTEXT) {
    say(why, cap, "eglCreateContext(desktop GL) failed (EGL error 0x%x)", (unsigned)eglGetError());
    goto fail;
  }
  if (make_current(g, why, cap) < 0) goto fail;

#define LOAD(name, type)                                                 \
  g->f.name = (type)eglGetProcAddress(#name);                            \
  if (!g->f.name) {                                                      \
    say(why, cap, "GL entry point %s is missing", #name);                \
    goto fail;                                                           \
  }
  GL_FUNCS(LOAD)
#undef LOAD

  const char *r = (const char *)g->f.glGetString(GL_RENDERER);
  const char *v = (const char *)g->f.glGetString(GL_VERSION);
  const char *e = (const char *)g->f.glGetString(GL_EXTENSIONS); /* fine: compatibility profile */
  if (!r || !v || !e) {
    say(why, cap, "glGetString failed on the new context");
    goto fail;
  }
  snprintf(g->renderer, sizeof g->renderer, "%s", r);
  snprintf(g->version, sizeof g->version, "%s", v);
  static const char *const need[] = {"GL_ARB_fragment_program", "GL_ARB_vertex_program",
                                     "GL_ARB_color_buffer_float", "GL_ARB_texture_float"};
  for (size_t i = 0; i < sizeof need / sizeof *need; i++)
    if (!has_ext(e, need[i])) {
      say(why, cap, "%s is missing on %s (%s)", need[i], g->renderer, g->version);
      goto fail;
    }
  g->f.glGetProgramivARB(GL_FRAGMENT_PROGRAM_ARB, GL_MAX_PROGRAM_LOCAL_PARAMETERS_ARB, &g->max_local);
  GLint vmax = 0;
  g->f.glGetProgramivARB(GL_VERTEX_PROGRAM_ARB, GL_MAX_PROGRAM_LOCAL_PARAMETERS_ARB, &vmax);
  if (vmax < g->max_local) g->max_local = vmax;
  g->f.glGetIntegerv(GL_MAX_TEXTURE_IMAGE_UNITS_ARB, &g->max_tex_units);
  /* Values outside [0,1] must come back exactly: no clamping anywhere (ARB_color_buffer_float). */
  g->f.glClampColorARB(GL_CLAMP_VERTEX_COLOR_ARB, GL_FALSE);
  g->f.glClampColorARB(GL_CLAMP_FRAGMENT_COLOR_ARB, GL_FALSE);
  g->f.glClampColorARB(GL_CLAMP_READ_COLOR_ARB, GL_FALSE);
  g->f.glDisable(GL_DITHER);
  g->f.glDisable(GL_BLEND);
  g->f.glDisable(GL_DEPTH_TEST);
  g->f.glDisable(GL_CULL_FACE);
  g->f.glPixelStorei(GL_PACK_ALIGNMENT, 1);
  g->f.glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  GLenum err = g->f.glGetError();
  if (err != GL_NO_ERROR) {
    say(why, cap, "setting up the context failed: %s (0x%04x)", gl_error_name(err), (unsigned)err);
    goto fail;
  }
  say(why, cap, "ok");
  return g;

fail:
  if (g->ctx != EGL_NO_CONTEXT) {
    eglMakeCurrent(g->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(g->dpy, g->ctx);
  }
  release_display(g->dpy);
  free(g);
  return NULL;
}

void gasp_gl_close(gasp_gl *g) {
  if (!g) return;
  if (make_current(g, NULL, 0) == 0) {
    if (g->fbo) g->f.glDeleteFramebuffers(1, &g->fbo);
    if (g->rbo) g->f.glDeleteRenderbuffers(1, &g->rbo);
  }
  eglMakeCurrent(g->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(g->dpy, g->ctx);
  release_display(g->dpy);
  free(g);
}

const char *gasp_gl_renderer(const gasp_gl *g) { return g ? g->renderer : ""; }

gasp_gl *gasp_gl_shared(char *why, size_t cap) {
  static gasp_gl *shared;
  static int tried;
  static char reason[256];
  if (!tried) {
    tried = 1;
    shared = gasp_gl_open(reason, sizeof reason);
  }
  if (!shared) snprintf(why, cap, "%s", reason);
  return shared;
}
const char *gasp_gl_version(const gasp_gl *g) { return g ? g->version : ""; }

/* 1-based line and column of byte offset off in text (column counts bytes, the way Mesa's "char" does). */
static void line_col(const char *text, size_t len, long off, int *line, int *col) {
  if (off < 0) off = 0;
  if ((size_t)off > len) off = (long)len;
  int l = 1;
  long start = 0;
  for (long i = 0; i < off; i++)
    if (text[i] == '\n') l++, start = i + 1;
  *line = l;
  *col = (int)(off - start) + 1;
}

/* Byte offset of 1-based (line, col), clamped to the text: Mesa reports end of file one line past the last
 * newline, or on line 2 of an empty text. */
static int offset_of(const char *text, size_t len, int line, int col) {
  size_t i = 0;
  for (int l = 1; l < line && i < len; i++)
    if (text[i] == '\n') l++;
  for (int c = 1; c < col && i < len && text[i] != '\n'; c++) i++;
  return (int)i;
}

static void trim_into(char *dst, size_t cap, const char *src) {
  if (!src) src = "";
  while (*src == ' ' || *src == '\t' || *src == '\n' || *src == '\r') src++;
  snprintf(dst, cap, "%s", src);
  size_t n = strlen(dst);
  while (n && (dst[n - 1] == ' ' || dst[n - 1] == '\t' || dst[n - 1] == '\n' || dst[n - 1] == '\r')) dst[--n] = 0;
}

/* Compiles text into a new program object bound to its target. Returns the program's name (0 when the
 * driver rejected it: st says why) or -1 on a GL failure. */
static long compile(gasp_gl *g, int vertex, const char *text, size_t len, gasp_arb_status *st) {
  memset(st, 0, sizeof *st);
  st->error_offset = st->gl_error_position = -1;
  st->native_instructions = st->native_alu = st->native_tex = st->native_tex_indirections =
      st->native_temporaries = st->native_parameters = st->under_native_limits = -1;
  if (make_current(g, st->message, sizeof st->message) < 0) return -1;
  if (!text) {
    snprintf(st->message, sizeof st->message, "no program text");
    return 0;
  }
  /* The ARB specs define the text as ASCII of a given length and say nothing of NUL; Mesa's lexer would
   * stop there. Reject it here, with a position, so the answer does not depend on the driver. */
  const char *nul = memchr(text, 0, len);
  if (nul) {
    st->error_offset = (int)(nul - text);
    st->gl_error_position = -1;
    line_col(text, len, st->error_offset, &st->line, &st->col);
    snprintf(st->message, sizeof st->message, "line %d, char %d: error: NUL byte in program text", st->line,
             st->col);
    return 0;
  }
  if (len > (size_t)INT32_MAX) {
    snprintf(st->message, sizeof st->message, "program text too long");
    return 0;
  }
  GLenum target = vertex ? GL_VERTEX_PROGRAM_ARB : GL_FRAGMENT_PROGRAM_ARB;
  drain_errors(g);
  GLuint prog = 0;
  g->f.glGenProgramsARB(1, &prog);
  g->f.glBindProgramARB(target, prog);
  g->f.glProgramStringARB(target, GL_PROGRAM_FORMAT_ASCII_ARB, (GLsizei)len, text);
  GLenum err = g->f.glGetError();
  GLint pos = -1;
  g->f.glGetIntegerv(GL_PROGRAM_ERROR_POSITION_ARB, &pos);
  trim_into(st->message, sizeof st->message, (const char *)g->f.glGetString(GL_PROGRAM_ERROR_STRING_ARB));
  if (err == GL_NO_ERROR && pos == -1) {
    st->ok = 1;
    GLint v = -1;
#define Q(field, pname)                           \
  v = -1;                                         \
  g->f.glGetProgramivARB(target, pname, &v);      \
  st->field = v;
    Q(native_instructions, GL_PROGRAM_NATIVE_INSTRUCTIONS_ARB)
    Q(native_temporaries, GL_PROGRAM_NATIVE_TEMPORARIES_ARB)
    Q(native_parameters, GL_PROGRAM_NATIVE_PARAMETERS_ARB)
    Q(under_native_limits, GL_PROGRAM_UNDER_NATIVE_LIMITS_ARB)
    if (!vertex) { /* these three queries exist only for fragment programs (ARB_fragment_program) */
      Q(native_alu, GL_PROGRAM_NATIVE_ALU_INSTRUCTIONS_ARB)
      Q(native_tex, GL_PROGRAM_NATIVE_TEX_INSTRUCTIONS_ARB)
      Q(native_tex_indirections, GL_PROGRAM_NATIVE_TEX_INDIRECTIONS_ARB)
    }
#undef Q
    err = g->f.glGetError();
    if (err != GL_NO_ERROR) {
      snprintf(st->message, sizeof st->message, "querying native counts failed: %s (0x%04x)", gl_error_name(err),
               (unsigned)err);
      g->f.glDeleteProgramsARB(1, &prog);
      return -1;
    }
    return (long)prog;
  }
  if (err != GL_NO_ERROR && err != GL_INVALID_OPERATION) {
    snprintf(st->message, sizeof st->message, "glProgramStringARB failed: %s (0x%04x)", gl_error_name(err),
             (unsigned)err);
    g->f.glDeleteProgramsARB(1, &prog);
    return -1;
  }
  /* Rejected: GL_INVALID_OPERATION (0x0502). Mesa's message carries the offending token's line and char
   * (verified against the text); its GL_PROGRAM_ERROR_POSITION_ARB does not (GL-NOTES.md), so the byte
   * offset is computed from the message and the raw value kept apart. */
  st->gl_error_position = pos;
  if (sscanf(st->message, "line %d, char %d", &st->line, &st->col) == 2 && st->line >= 1 && st->col >= 1) {
    st->error_offset = offset_of(text, len, st->line, st->col);
  } else if (pos >= 0) {
    st->error_offset = pos > (GLint)len ? (int)len : pos;
    line_col(text, len, st->error_offset, &st->line, &st->col);
  } else {
    st->error_offset = 0;
    st->line = st->col = 0;
  }
  if (!st->message[0]) snprintf(st->message, sizeof st->message, "program rejected (no error string)");
  g->f.glDeleteProgramsARB(1, &prog);
  return 0;
}

int gasp_gl_check(gasp_gl *g, int vertex, const char *text, size_t len, gasp_arb_status *st) {
  long prog = compile(g, vertex, text, len, st);
  if (prog < 0) return -1;
  if (prog > 0) {
    GLuint p = (GLuint)prog;
    g->f.glDeleteProgramsARB(1, &p);
  }
  return 0;
}

static int ensure_fb(gasp_gl *g, int w, int h, char *err, size_t cap) {
  if (!g->fbo) g->f.glGenFramebuffers(1, &g->fbo);
  if (!g->rbo) g->f.glGenRenderbuffers(1, &g->rbo);
  g->f.glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
  if (g->fb_w != w || g->fb_h != h) {
    g->f.glBindRenderbuffer(GL_RENDERBUFFER, g->rbo);
    g->f.glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA32F, w, h);
    g->f.glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, g->rbo);
    g->fb_w = w, g->fb_h = h;
  }
  GLenum s = g->f.glCheckFramebufferStatus(GL_FRAMEBUFFER);
  if (s != GL_FRAMEBUFFER_COMPLETE) {
    g->fb_w = g->fb_h = 0;
    say(err, cap, "RGBA32F framebuffer %dx%d is incomplete (status 0x%04x)", w, h, (unsigned)s);
    return -1;
  }
  g->f.glDrawBuffer(GL_COLOR_ATTACHMENT0);
  g->f.glReadBuffer(GL_COLOR_ATTACHMENT0);
  return 0;
}

static const char passthrough_fp[] = "!!ARBfp1.0\nMOV result.color, fragment.color;\nEND\n";

int gasp_gl_run(gasp_gl *g, const gasp_gl_job *job, float *out, char *err, size_t errcap) {
  say(err, errcap, "no error");
  if (!g || !job || !out) {
    say(err, errcap, "gasp_gl_run: null argument");
    return -1;
  }
  const int w = job->width, h = job->height;
  GLint maxrb = 0;
  if (make_current(g, err, errcap) < 0) return -1;
  g->f.glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &maxrb);
  if (w <= 0 || h <= 0 || w > maxrb || h > maxrb) {
    say(err, errcap, "bad size %dx%d (1..%d each)", w, h, (int)maxrb);
    return -1;
  }
  if (job->ntextures < 0 || job->ntextures > 4 || job->ntextures > g->max_tex_units || job->nattribs < 0 ||
      job->nattribs > 4 || job->nlocal < 0 || job->nlocal > g->max_local || (job->nlocal && !job->local_params)) {
    say(err, errcap, "bad job: ntextures %d (0..4), nattribs %d (0..4), nlocal %d (0..%d)", job->ntextures,
        job->nattribs, job->nlocal, (int)g->max_local);
    return -1;
  }
  int points = 0;
  for (int i = 0; i < job->nattribs; i++) points |= job->attribs[i] != NULL;
  if (points && !job->vertex) {
    say(err, errcap, "bad job: vertex attributes need a vertex program");
    return -1;
  }
  const char *fp_text = job->fragment ? job->fragment : points ? passthrough_fp : NULL;
  if (!fp_text) {
    say(err, errcap, "bad job: no fragment program");
    return -1;
  }

  int rc = -1;
  GLuint fp = 0, vp = 0, tex[4] = {0};
  float *pos = NULL;
  gasp_arb_status st;
  long p = compile(g, 0, fp_text, strlen(fp_text), &st);
  if (p <= 0) {
    say(err, errcap, "fragment program %s: %s", p < 0 ? "failed" : "rejected", st.message);
    goto done;
  }
  fp = (GLuint)p;
  if (job->vertex) {
    p = compile(g, 1, job->vertex, strlen(job->vertex), &st);
    if (p <= 0) {
      say(err, errcap, "vertex program %s: %s", p < 0 ? "failed" : "rejected", st.message);
      goto done;
    }
    vp = (GLuint)p;
  }
  drain_errors(g);
  if (ensure_fb(g, w, h, err, errcap) < 0) goto done;
  g->f.glViewport(0, 0, w, h);

  /* program.local[] for both programs (each target has its own local parameters; compile left both bound). */
  for (int i = 0; i < job->nlocal; i++) {
    g->f.glProgramLocalParameter4fvARB(GL_FRAGMENT_PROGRAM_ARB, (GLuint)i, job->local_params + 4 * i);
    if (vp) g->f.glProgramLocalParameter4fvARB(GL_VERTEX_PROGRAM_ARB, (GLuint)i, job->local_params + 4 * i);
  }
  /* Textures: RGBA32F keeps floats exact; NEAREST with pixel-centre coordinates hits one texel. */
  for (int u = 0; u < job->ntextures; u++) {
    if (!job->textures[u]) continue;
    g->f.glActiveTexture(GL_TEXTURE0 + u);
    g->f.glGenTextures(1, &tex[u]);
    g->f.glBindTexture(GL_TEXTURE_2D, tex[u]);
    g->f.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    g->f.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    g->f.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    g->f.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    g->f.glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    g->f.glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F_ARB, w, h, 0, GL_RGBA, GL_FLOAT, job->textures[u]);
  }
  g->f.glActiveTexture(GL_TEXTURE0);

  g->f.glClearColor(job->poison, job->poison, job->poison, job->poison); /* unclamped for float buffers */
  g->f.glClear(GL_COLOR_BUFFER_BIT);

  g->f.glEnable(GL_FRAGMENT_PROGRAM_ARB);
  if (vp) g->f.glEnable(GL_VERTEX_PROGRAM_ARB);
  else g->f.glDisable(GL_VERTEX_PROGRAM_ARB);
  g->f.glMatrixMode(GL_PROJECTION); /* identity transforms: fixed function passes clip coords through */
  g->f.glLoadIdentity();
  g->f.glMatrixMode(GL_MODELVIEW);
  g->f.glLoadIdentity();
  g->f.glMatrixMode(GL_TEXTURE);
  g->f.glLoadIdentity();

  if (!points) {
    g->f.glBegin(GL_QUADS);
    g->f.glTexCoord4f(0, 0, 0, 1), g->f.glVertex4f(-1, -1, 0, 1);
    g->f.glTexCoord4f(1, 0, 0, 1), g->f.glVertex4f(1, -1, 0, 1);
    g->f.glTexCoord4f(1, 1, 0, 1), g->f.glVertex4f(1, 1, 0, 1);
    g->f.glTexCoord4f(0, 1, 0, 1), g->f.glVertex4f(-1, 1, 0, 1);
    g->f.glEnd();
  } else {
    /* One size-1 point per element at its pixel centre in clip space; the viewport maps it back to
     * (x+0.5, y+0.5) up to rounding far below half a pixel. */
    size_t n = (size_t)w * (size_t)h;
    pos = malloc(n * 4 * sizeof *pos);
    if (!pos) {
      say(err, errcap, "out of memory");
      goto done;
    }
    for (size_t e = 0; e < n; e++) {
      int x = (int)(e % (size_t)w), y = (int)(e / (size_t)w);
      pos[4 * e + 0] = (float)((2.0 * x + 1.0) / w - 1.0);
      pos[4 * e + 1] = (float)((2.0 * y + 1.0) / h - 1.0);
      pos[4 * e + 2] = 0.0f;
      pos[4 * e + 3] = 1.0f;
    }
    g->f.glPointSize(1.0f);
    g->f.glDisable(GL_POINT_SMOOTH);
    g->f.glDisable(GL_VERTEX_PROGRAM_POINT_SIZE_ARB);
    g->f.glVertexAttribPointerARB(0, 4, GL_FLOAT, GL_FALSE, 0, pos);
    g->f.glEnableVertexAttribArrayARB(0);
    for (int i = 0; i < job->nattribs; i++)
      if (job->attribs[i]) {
        g->f.glVertexAttribPointerARB((GLuint)i + 1, 4, GL_FLOAT, GL_FALSE, 0, job->attribs[i]);
        g->f.glEnableVertexAttribArrayARB((GLuint)i + 1);
      }
    g->f.glDrawArrays(GL_POINTS, 0, (GLsizei)n);
    for (int i = 0; i <= job->nattribs; i++) g->f.glDisableVertexAttribArrayARB((GLuint)i);
  }
  g->f.glReadPixels(0, 0, w, h, GL_RGBA, GL_FLOAT, out);
  g->f.glDisable(GL_FRAGMENT_PROGRAM_ARB);
  g->f.glDisable(GL_VERTEX_PROGRAM_ARB);
  GLenum e = g->f.glGetError();
  if (e != GL_NO_ERROR) {
    say(err, errcap, "GL error while drawing: %s (0x%04x)", gl_error_name(e), (unsigned)e);
    goto done;
  }
  rc = 0;
done:
  for (int u = 0; u < 4; u++)
    if (tex[u]) {
      g->f.glActiveTexture(GL_TEXTURE0 + u);
      g->f.glBindTexture(GL_TEXTURE_2D, 0);
      g->f.glDeleteTextures(1, &tex[u]);
    }
  g->f.glActiveTexture(GL_TEXTURE0);
  if (fp) g->f.glDeleteProgramsARB(1, &fp);
  if (vp) g->f.glDeleteProgramsARB(1, &vp);
  free(pos);
  return rc;
}
