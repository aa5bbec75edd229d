/* vary.c -- the names of --vary and the variations they give (gaps/vary.h). */
#include "gaps/vary.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The names --vary takes */
static const struct {
    const char *name;
    int bit;
} vary_names[] = { { "shower", GAPS_VARY_SHOWER }, { "scales", GAPS_VARY_SCALES },
                   { "pdf", GAPS_VARY_PDF }, { "alphas", GAPS_VARY_ALPHAS } };

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
                            "alphas, pdf)", (int)n, p), -1;
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
    v->pdf_member = 0;
    return v;
}

int gaps_vary_list(int bits, int hadronic, double alphas_mz, const gaps_vary_pdf_set *set,
                   gaps_variation out[GAPS_VARY_MAX])
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
    if ((bits & GAPS_VARY_PDF) && hadronic && set) {   /* members 1, 2, ... in order */
        const int members = set->members - 1 < GAPS_VARY_PDF_MAX ? set->members - 1
                                                                 : GAPS_VARY_PDF_MAX;
        for (int m = 1; m <= members; ++m) {
            gaps_variation *v = variation(&out[n++], 1.0, 1.0, 1.0, 1.0);
            v->pdf_member = m;
            if (set->set_index >= 0)
                snprintf(v->name, sizeof v->name, "PDF=%ld", set->set_index + m);
            else
                snprintf(v->name, sizeof v->name, "PDF_MEMBER=%d", m);
        }
    }
    return n;
}

void gaps_vary_pdf_errors(const char *error_type, int *errors, int *alphas_members)
{
    static const struct {
        const char *name;
        int errors;
    } types[] = { { "hessian", GAPS_PDF_ERRORS_HESSIAN },
                  { "symmhessian", GAPS_PDF_ERRORS_SYMMHESSIAN },
                  { "replicas", GAPS_PDF_ERRORS_REPLICAS } };
    *errors = GAPS_PDF_ERRORS_UNKNOWN;
    *alphas_members = 0;
    if (!error_type) return;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i) {
        const size_t n = strlen(types[i].name);
        if (strncmp(error_type, types[i].name, n) != 0) continue;
        if (error_type[n] == '\0') *errors = types[i].errors;
        else if (strcmp(error_type + n, "+as") == 0) *errors = types[i].errors, *alphas_members = 2;
    }
}

const char *gaps_vary_pdf_errors_name(int errors, int alphas_members)
{
    static const char *names[2][4] = {
        { "unknown", "hessian", "symmhessian", "replicas" },
        { "unknown", "hessian+as", "symmhessian+as", "replicas+as" } };
    if (errors < 0 || errors > 3) errors = 0;
    return names[alphas_members != 0][errors];
}

/* The two-sided normal quantile z of a confidence level cl (percent): erf(z / sqrt 2) =
 * cl / 100, by bisection (erf is monotonic; 200 halvings of [0, 40] reach the double's
 * precision long before the end). */
static double normal_quantile(double cl)
{
    double lo = 0.0, hi = 40.0;
    for (int k = 0; k < 200 && hi - lo > 0.0; ++k) {
        const double mid = 0.5 * (lo + hi);
        if (erf(mid / sqrt(2.0)) < cl / 100.0) lo = mid;
        else hi = mid;
    }
    return 0.5 * (lo + hi);
}

int gaps_vary_pdf_band(const gaps_vary_pdf_set *set, double x0, const double *x, double *centre,
                       double *up, double *down)
{
    const int n = set->members - 1 - set->alphas_members;   /* the PDF members */
    double u = 0.0, d = 0.0;
    *centre = x0;
    switch (set->errors) {
    case GAPS_PDF_ERRORS_HESSIAN:
        if (n < 2 || n % 2) return -1;
        for (int k = 0; k < n; k += 2) {
            const double a = x[k] - x0, b = x[k + 1] - x0;
            const double hi = fmax(fmax(a, b), 0.0), lo = fmax(fmax(-a, -b), 0.0);
            u += hi * hi;
            d += lo * lo;
        }
        break;
    case GAPS_PDF_ERRORS_SYMMHESSIAN:
        if (n < 1) return -1;
        for (int k = 0; k < n; ++k) u += (x[k] - x0) * (x[k] - x0);
        d = u;
        break;
    case GAPS_PDF_ERRORS_REPLICAS: {
        if (n < 2) return -1;
        double mean = 0.0, var = 0.0;
        for (int k = 0; k < n; ++k) mean += x[k];
        mean /= n;
        for (int k = 0; k < n; ++k) var += (x[k] - mean) * (x[k] - mean);
        *centre = mean;
        *up = *down = sqrt(var / (n - 1));
        return 0;
    }
    default:
        return -1;
    }
    /* Hessian errors at the set's confidence level, rescaled to one standard deviation */
    const double one_sigma = 68.268949213708585;
    const double scale = set->conf_level > 0.0 && fabs(set->conf_level - one_sigma) > 1e-6
                             ? normal_quantile(one_sigma) / normal_quantile(set->conf_level)
                             : 1.0;
    *up = sqrt(u) * scale;
    *down = sqrt(d) * scale;
    return 0;
}
