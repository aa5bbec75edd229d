/* vary.c -- the names of --vary and the variations they give (gaps/vary.h). */
#include "gaps/vary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The names of issue 31's list: `pdf` is refused, the others are implemented. */
static const struct {
    const char *name;
    int bit;   /* 0: not yet */
} vary_names[] = { { "shower", GAPS_VARY_SHOWER }, { "scales", GAPS_VARY_SCALES }, { "pdf", 0 },
                   { "alphas", GAPS_VARY_ALPHAS } };

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
            return snprintf(msg, len, "--vary: unknown name '%.*s' (known: shower, scales, "
                            "alphas; pdf is not yet implemented)", (int)n, p), -1;
        if (!vary_names[found].bit)
            return snprintf(msg, len, "--vary %s: not yet implemented (shower, scales and "
                            "alphas are; doc/physics.md section 17)", vary_names[found].name), -1;
        if (*bits & vary_names[found].bit)
            return snprintf(msg, len, "--vary: '%s' given twice", vary_names[found].name), -1;
        *bits |= vary_names[found].bit;
        if (!end) break;
        p = end + 1;
    }
    return 0;
}

static gaps_variation *variation(gaps_variation *v, double mur_fsr, double mur_isr, double mur,
                                 double muf)
{
    v->mur_fsr = mur_fsr;
    v->mur_isr = mur_isr;
    v->mur = mur;
    v->muf = muf;
    v->alphas_mz = 0.0;
    return v;
}

int gaps_vary_list(int bits, int hadronic, double alphas_mz, gaps_variation out[GAPS_VARY_MAX])
{
    int n = 0;
    const double k[2] = { GAPS_VARY_MUR_DOWN, GAPS_VARY_MUR_UP };
    if (bits & GAPS_VARY_SHOWER) {
        /* FSR, ISR, then both (PS); down before up.  e+ e-: FSR alone, which is all of PS */
        static const struct { const char *what; int fsr, isr; } kinds[] = {
            { "FSR", 1, 0 }, { "ISR", 0, 1 }, { "PS", 1, 1 } };
        for (int i = 0; i < 3; ++i) {
            if (!hadronic && kinds[i].isr) continue;
            for (int j = 0; j < 2; ++j) {
                gaps_variation *v = variation(&out[n++], kinds[i].fsr ? k[j] : 1.0,
                                              kinds[i].isr ? k[j] : 1.0, 1.0, 1.0);
                snprintf(v->name, sizeof v->name, "MUR_%s=%g", kinds[i].what, k[j]);
            }
        }
    }
    if (bits & GAPS_VARY_SCALES) {
        /* the 7-point envelope less its centre, in the order of the LHEF files' scale weights
         * (mu_R slowest); e+ e-: mu_R alone */
        static const double points[][2] = {
            { 0.5, 0.5 }, { 0.5, 1.0 }, { 1.0, 0.5 }, { 1.0, 2.0 }, { 2.0, 1.0 }, { 2.0, 2.0 } };
        for (size_t i = 0; i < sizeof points / sizeof points[0]; ++i) {
            if (!hadronic && points[i][1] != 1.0) continue;
            gaps_variation *v = variation(&out[n++], 1.0, 1.0, points[i][0], points[i][1]);
            /* the factors are 0.5, 1 or 2: the names are at most 15 bytes */
            if (hadronic)
                snprintf(v->name, sizeof v->name, "MUR=%.1g_MUF=%.1g", points[i][0], points[i][1]);
            else
                snprintf(v->name, sizeof v->name, "MUR=%.1g", points[i][0]);
        }
    }
    if (bits & GAPS_VARY_ALPHAS) {   /* down, then up */
        for (int j = -1; j <= 1; j += 2) {
            gaps_variation *v = variation(&out[n++], 1.0, 1.0, 1.0, 1.0);
            /* the value its name says (0.117, not 0.118 - 0.001 = 0.11699999999999999) */
            snprintf(v->name, sizeof v->name, "ALPHAS_MZ=%.6g",
                     alphas_mz + j * GAPS_VARY_ALPHAS_DELTA);
            v->alphas_mz = strtod(v->name + strlen("ALPHAS_MZ="), NULL);
        }
    }
    return n;
}
