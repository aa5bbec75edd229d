/* gaps/decl.h -- how the library's headers declare things, for C, C++ and OpenMP callers.
 *
 * GAPS_C_BEGIN / GAPS_C_END give every declaration C linkage, so that a C++ program can call
 * the library (the library itself is C11).
 *
 * GAPS_DEVICE_BEGIN / GAPS_DEVICE_END mark functions that run inside the data-parallel loops.
 * In a build with OpenMP they become `omp declare target`, which tells an offloading compiler
 * to compile them for the accelerator as well; a host-only OpenMP build and a build without
 * OpenMP ignore the mark.  The mark depends only on whether the includer compiles with OpenMP,
 * never on the backend: which backend the library was built for is known to backend/ alone.
 */
#ifndef GAPS_DECL_H
#define GAPS_DECL_H

#ifdef __cplusplus
#  define GAPS_C_BEGIN extern "C" {
#  define GAPS_C_END }
#else
#  define GAPS_C_BEGIN
#  define GAPS_C_END
#endif

#if defined(_OPENMP)
#  define GAPS_DEVICE_BEGIN _Pragma("omp declare target")
#  define GAPS_DEVICE_END _Pragma("omp end declare target")
#else
#  define GAPS_DEVICE_BEGIN
#  define GAPS_DEVICE_END
#endif

/* GAPS_ALWAYS_INLINE marks the small pure functions of the shower's hot path (kernels,
 * kinematic maps, colour updates).  Left to itself clang's inliner kept the final-final map
 * as a call inside the fused GPU shower kernel, which then spilled past its register cap and
 * ran 3-8 % slower than the same code written in place (H200, 10^8 events). */
#if defined(__GNUC__) || defined(__clang__)
#  define GAPS_ALWAYS_INLINE __attribute__((always_inline)) static inline
#else
#  define GAPS_ALWAYS_INLINE static inline
#endif

/* GAPS_OUT_OF_LINE marks the large functions of one kind of process (the hadronic steps of
 * the shower) that must stay calls: inlined into a kernel shared with e+e- (the fused
 * cycles), their registers become that kernel's, which then spills past its cap.  Left to
 * itself the inliner decides anew whenever the whole program changes (an unrelated kernel
 * added in 2026-11 made it inline one of them: 144 bytes of spills in the LEP kernel). */
#if defined(__GNUC__) || defined(__clang__)
#  define GAPS_OUT_OF_LINE __attribute__((noinline)) static
#else
#  define GAPS_OUT_OF_LINE static
#endif

#endif
