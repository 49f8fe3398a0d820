/*
 * dma_local example backend: the DMA engine between main memory and the accelerator's
 * local memory, with the same pointer discipline as the accel example.
 *
 * The application registers each pool with what the DMA may do there. Before moving a byte,
 * dma_local_copy_in checks that `src` (with `bytes` after it) lies in a readable pool that is
 * `sram` and `dst` in a writable pool that is `local_mem`; dma_local_copy_out the reverse.
 * A violation prints "dma_local trap: ..." to stderr and exits with status 3.
 */
#ifndef DMA_LOCAL_RUNTIME_H_
#define DMA_LOCAL_RUNTIME_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define DMA_LOCAL_ACCESS_NONE 0
#define DMA_LOCAL_ACCESS_RO 1
#define DMA_LOCAL_ACCESS_RW 2
#define DMA_LOCAL_MAX_POOLS 16
#define DMA_LOCAL_TRAP_EXIT_CODE 3

/* Registers (or re-registers, by name) a pool; returns 0, or -1 when the table is full. */
int dma_local_register_pool(const char* name, const void* base, size_t size, int dma_access);

void dma_local_reset_pools(void);

/* sram -> local_mem */
int32_t dma_local_copy_in(const void* src, void* dst, int32_t bytes);

/* local_mem -> sram */
int32_t dma_local_copy_out(const void* src, void* dst, int32_t bytes);

#ifdef __cplusplus
}
#endif

#endif /* DMA_LOCAL_RUNTIME_H_ */
