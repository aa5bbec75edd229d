/* Known-answer tests of the counter-based generator.  The Philox4x32-10 vectors are the
 * published ones of Random123 (kat_vectors); the rest checks the stream layout the generator
 * relies on. */
#include "gaps/rng.h"
#include <stdio.h>

static int failures = 0;
#define CHECK(cond, ...) do { if (!(cond)) { printf("FAIL: " __VA_ARGS__); printf("\n"); ++failures; } } while (0)

int main(void)
{
    static const struct { uint32_t ctr[4], key[2], out[4]; } kat[] = {
        { { 0, 0, 0, 0 }, { 0, 0 }, { 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8 } },
        { { 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff }, { 0xffffffff, 0xffffffff },
          { 0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd } },
        { { 0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344 }, { 0xa4093822, 0x299f31d0 },
          { 0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1 } },
    };
    for (int i = 0; i < 3; ++i) {
        philox4x32_ctr_t c = { { kat[i].ctr[0], kat[i].ctr[1], kat[i].ctr[2], kat[i].ctr[3] } };
        philox4x32_key_t k = { { kat[i].key[0], kat[i].key[1] } };
        philox4x32_ctr_t r = philox4x32(c, k);
        for (int w = 0; w < 4; ++w)
            CHECK(r.v[w] == kat[i].out[w], "Philox KAT %d word %d: %08x != %08x", i, w, r.v[w],
                  kat[i].out[w]);
    }

    /* The stream of (seed, event) is Philox with key (event low, seed) and counter
     * (draw, event high, 0, 0): event 0x243f6a8800000000 + 0xa4093822... */
    {
        gaps_rng r = gaps_rng_make(0x299f31d0u, 0x85a308d3a4093822ull, 0x243f6a88u);
        philox4x32_ctr_t b = gaps_rng_block(&r, r.draw);
        philox4x32_ctr_t c = { { 0x243f6a88, 0x85a308d3, 0, 0 } };
        philox4x32_key_t k = { { 0xa4093822, 0x299f31d0 } };
        philox4x32_ctr_t ref = philox4x32(c, k);
        for (int w = 0; w < 4; ++w) CHECK(b.v[w] == ref.v[w], "stream layout word %d", w);
        /* uniform = top 53 bits of (v0, v1), centred */
        double u = gaps_rng_uniform(&r);
        uint64_t bits = (((uint64_t)ref.v[0] << 32) | ref.v[1]) >> 11;
        CHECK(u == ((double)bits + 0.5) / 9007199254740992.0, "uniform conversion");
        CHECK(r.draw == 0x243f6a89u, "draw counter advances");
    }
    /* (0, 1) open interval, mean and variance of a long stream, distinct events differ */
    {
        gaps_rng r = gaps_rng_make(7, 12345, 0);
        double s = 0, s2 = 0, lo = 1, hi = 0;
        const int n = 1000000;
        for (int i = 0; i < n; ++i) {
            double u = gaps_rng_uniform(&r);
            s += u; s2 += u * u;
            if (u < lo) lo = u;
            if (u > hi) hi = u;
        }
        double mean = s / n, var = s2 / n - mean * mean;
        CHECK(lo > 0.0 && hi < 1.0, "open interval");
        CHECK(mean > 0.5 - 5 * 0.2887 / 1000 && mean < 0.5 + 5 * 0.2887 / 1000, "mean %g", mean);
        CHECK(var > 1.0 / 12 - 0.001 && var < 1.0 / 12 + 0.001, "variance %g", var);
        gaps_rng a = gaps_rng_make(7, 1, 0), b = gaps_rng_make(7, 2, 0), c = gaps_rng_make(8, 1, 0);
        double ua = gaps_rng_uniform(&a);
        CHECK(ua != gaps_rng_uniform(&b) && ua != gaps_rng_uniform(&c), "streams differ");
        gaps_rng a2 = gaps_rng_make(7, 1, 0);
        CHECK(gaps_rng_uniform(&a2) == ua, "stream reproducible");
    }
    if (failures) printf("%d failures\n", failures);
    else printf("rng: all known answers agree\n");
    return failures != 0;
}
