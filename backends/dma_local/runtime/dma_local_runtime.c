/* dma_local example backend: pool registry, pointer checks and DMA copies. */
#include "dma_local_runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  char name[32];
  uintptr_t base;
  size_t size;
  int access;
} dma_local_pool;

static dma_local_pool dma_pools[DMA_LOCAL_MAX_POOLS];
static int dma_pool_count = 0;

int dma_local_register_pool(const char* name, const void* base, size_t size, int dma_access) {
  int i;
  for (i = 0; i < dma_pool_count; ++i) {
    if (strncmp(dma_pools[i].name, name, sizeof(dma_pools[i].name) - 1) == 0) break;
  }
  if (i == dma_pool_count) {
    if (dma_pool_count == DMA_LOCAL_MAX_POOLS) return -1;
    ++dma_pool_count;
  }
  strncpy(dma_pools[i].name, name, sizeof(dma_pools[i].name) - 1);
  dma_pools[i].name[sizeof(dma_pools[i].name) - 1] = '\0';
  dma_pools[i].base = (uintptr_t)base;
  dma_pools[i].size = size;
  dma_pools[i].access = dma_access;
  return 0;
}

void dma_local_reset_pools(void) { dma_pool_count = 0; }

static void dma_trap(const char* kernel, const char* arg, const void* ptr, const char* problem) {
  fprintf(stderr, "dma_local trap: %s argument '%s' at %p %s\n", kernel, arg, ptr, problem);
  fflush(stderr);
  exit(DMA_LOCAL_TRAP_EXIT_CODE);
}

static void dma_check(const char* kernel, const char* arg, const void* ptr, size_t bytes, int mode, const char* allowed) {
  char problem[160];
  uintptr_t p = (uintptr_t)ptr;
  const dma_local_pool* pool = NULL;
  int i;
  for (i = 0; i < dma_pool_count; ++i) {
    if (p >= dma_pools[i].base && p < dma_pools[i].base + dma_pools[i].size) {
      pool = &dma_pools[i];
      break;
    }
  }
  if (pool == NULL) dma_trap(kernel, arg, ptr, "lies outside every registered pool");
  if (pool->access < mode) {
    snprintf(problem, sizeof(problem), "lies in pool '%s' which dma_local cannot %s", pool->name,
             mode == DMA_LOCAL_ACCESS_RW ? "write" : "read");
    dma_trap(kernel, arg, ptr, problem);
  }
  if (bytes > pool->size - (size_t)(p - pool->base)) {
    snprintf(problem, sizeof(problem), "covers %lu bytes, past the end of pool '%s'", (unsigned long)bytes, pool->name);
    dma_trap(kernel, arg, ptr, problem);
  }
  if (strcmp(pool->name, allowed) != 0) {
    snprintf(problem, sizeof(problem), "lies in pool '%s', its operand constraint allows {%s}", pool->name, allowed);
    dma_trap(kernel, arg, ptr, problem);
  }
}

static int32_t dma_copy(const char* kernel, const void* src, void* dst, int32_t bytes, const char* from, const char* to) {
  if (bytes < 0) return -1;
  dma_check(kernel, "src", src, (size_t)bytes, DMA_LOCAL_ACCESS_RO, from);
  dma_check(kernel, "dst", dst, (size_t)bytes, DMA_LOCAL_ACCESS_RW, to);
  memmove(dst, src, (size_t)bytes);
  return 0;
}

int32_t dma_local_copy_in(const void* src, void* dst, int32_t bytes) {
  return dma_copy("dma_local_copy_in", src, dst, bytes, "sram", "local_mem");
}

int32_t dma_local_copy_out(const void* src, void* dst, int32_t bytes) {
  return dma_copy("dma_local_copy_out", src, dst, bytes, "local_mem", "sram");
}
