/* The PTX backend's CUDA runtime shim (kc_ptx_runtime.cpp, docs/ptx.md "Host code"): the
 * calls through which the shim, compiled into a kernel's host library, reaches the ptx
 * backend in the worker process. The backend installs them right after loading the library
 * (kc_ptx_install); every result is a cudaError_t value. */
#ifndef KC_PTX_HOOKS_H
#define KC_PTX_HOOKS_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kc_ptx_hooks {
  void* ctx;
  /* A kernel launch: the mangled kernel name, grid and block, dynamic shared bytes, the
   * parameter pointers, the stream (the checker's, NULL, or one the kernel created). */
  int (*launch)(void* ctx, const char* kernel, const unsigned grid[3], const unsigned block[3], size_t shared,
                void** args, void* stream);
  void (*allocated)(void* ctx, void* p, size_t bytes);
  void (*freed)(void* ctx, void* p);
  /* Runs the work queued on `stream`; with all != 0, on every stream. */
  int (*synchronize)(void* ctx, void* stream, int all);
  /* The sticky error of an earlier fault, 0 when none. */
  int (*sticky)(void* ctx);
  /* cudaMemcpy's and cudaMemset's bytes, moved by the backend: its large buffers may be
   * lazy (made real only where touched). */
  void (*copy)(void* ctx, void* to, const void* from, size_t bytes);
  void (*set)(void* ctx, void* p, int value, size_t bytes);
} kc_ptx_hooks;

void kc_ptx_install(const kc_ptx_hooks* hooks);

#ifdef __cplusplus
}
#endif
#endif
