/* vary.c -- the names of --vary and the variations they give (gaps/vary.h). */
#include "gaps/vary.h"

#include <stdio.h>
#include <string.h>

/* The names of issue 31's list: `shower` is implemented, the others are refused. */
static const struct {
    const char *name;
    int bit;   /* 0: not yet */
} vary_names[] = { { "shower", GAPS_VARY_SHOWER }, { "scales", 0 }, { "pdf", 0 },
                   { "alphas", 0 } };

int gaps_vary_parse(const char *text, int *bits, char *msg, size_t len)
{
    *bits = 0;
    const char *p = text;
    for (;;) {
        const char *end = strchr(p, ',');
        const size_t n = end ? (size_t)(end - p) : strlen(p);
        int found = -1;
        for (size_t i = 0; i < sizeof vary_names / sizeof vary_names[0]; ++i)
            if (strlen(vary_names[i].name) == n && !strncmp(p, vary_names[i].name, n))
                found = (int)i;
        if (found < 0)
            return snprintf(msg, len, "--vary: unknown name '%.*s' (known: shower; scales, pdf "
                            "and alphas are not yet implemented)", (int)n, p), -1;
        if (!vary_names[found].bit)
            return snprintf(msg, len, "--vary %s: not yet implemented (only --vary shower is; "
                            "doc/physics.md section 17)", vary_names[found].name), -1;
        if (*bits & vary_names[found].bit)
            return snprintf(msg, len, "--vary: '%s' given twice", vary_names[found].name), -1;
        *bits |= vary_names[found].bit;
        if (!end) break;
        p = end + 1;
    }
    return 0;
}

int gaps_vary_list(int bits, int hadronic, gaps_variation out[GAPS_VARY_MAX])
{
    int n = 0;
    if (!(bits & GAPS_VARY_SHOWER)) return 0;
    /* FSR, ISR, then both (PS); down before up.  e+ e-: FSR alone, which is all of PS */
    static const struct { const char *what; int fsr, isr; } kinds[] = {
        { "FSR", 1, 0 }, { "ISR", 0, 1 }, { "PS", 1, 1 } };
    const double k[2] = { GAPS_VARY_MUR_DOWN, GAPS_VARY_MUR_UP };
    for (int i = 0; i < 3; ++i) {
        if (!hadronic && kinds[i].isr) continue;
        for (int j = 0; j < 2; ++j) {
            gaps_variation *v = &out[n++];
            snprintf(v->name, sizeof v->name, "MUR_%s=%g", kinds[i].what, k[j]);
            v->mur_fsr = kinds[i].fsr ? k[j] : 1.0;
            v->mur_isr = kinds[i].isr ? k[j] : 1.0;
        }
    }
    return n;
}
