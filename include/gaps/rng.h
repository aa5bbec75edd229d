/* gaps/rng.h -- counter-based random numbers, one independent stream per event.
 *
 * Philox4x32-10 (Salmon et al., SC'11, from Random123).  The key is (low 32 bits of the
 * event number, seed); the counter is (draw index, high 32 bits of the event number, 0, 0).
 * An event's random numbers therefore depend only on the seed and its event number, never on
 * the thread, the pool slot or the backend that generates it.  The state is two integers, so
 * a pool slot stores only its draw index.  Each Philox block gives four 32-bit words: two
 * doubles with gaps_rng_uniform2(), one with gaps_rng_uniform().
 */
#ifndef GAPS_RNG_H
#define GAPS_RNG_H

#include <stdint.h>
#include <Random123/philox.h>

typedef struct gaps_rng {
    uint32_t seed;
    uint64_t event;   /* global event number */
    uint32_t draw;    /* how many blocks this event has used */
} gaps_rng;

static inline gaps_rng gaps_rng_make(uint32_t seed, uint64_t event, uint32_t draw)
{
    gaps_rng r = { seed, event, draw };
    return r;
}

/* The raw Philox block number `draw` of the stream. */
static inline philox4x32_ctr_t gaps_rng_block(const gaps_rng *r, uint32_t draw)
{
    philox4x32_ctr_t c = { { draw, (uint32_t)(r->event >> 32), 0u, 0u } };
    philox4x32_key_t k = { { (uint32_t)r->event, r->seed } };
    return philox4x32(c, k);
}

/* 2^-53, exact (a power of two in decimal; the headers avoid hex floats, which C++ has only
 * from C++17 on). */
#define GAPS_RNG_2POW_M53 1.1102230246251565404236316680908203125e-16

/* A uniform double in the open interval (0, 1): 53 random bits, centred in their cell, so
 * neither 0 nor 1 can occur (log(R) and R^(1/r) are always finite).  Exact in IEEE
 * arithmetic, hence identical on every backend.  Uses one Philox block per draw. */
static inline double gaps_rng_uniform(gaps_rng *r)
{
    philox4x32_ctr_t b = gaps_rng_block(r, r->draw++);
    uint64_t bits = ((uint64_t)b.v[0] << 32 | b.v[1]) >> 11;
    return ((double)bits + 0.5) * GAPS_RNG_2POW_M53;
}

/* Two uniform doubles from one Philox block (words 0-1 and 2-3), as gaps_rng_uniform. */
static inline void gaps_rng_uniform2(gaps_rng *r, double *u1, double *u2)
{
    philox4x32_ctr_t b = gaps_rng_block(r, r->draw++);
    *u1 = ((double)((((uint64_t)b.v[0] << 32) | b.v[1]) >> 11) + 0.5) * GAPS_RNG_2POW_M53;
    *u2 = ((double)((((uint64_t)b.v[2] << 32) | b.v[3]) >> 11) + 0.5) * GAPS_RNG_2POW_M53;
}

#endif
