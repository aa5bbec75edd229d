/* test_locale.c -- the library writes the same bytes whatever locale its caller chose.
 *
 * A program may call setlocale(LC_ALL, "") and then use the library; under a locale whose
 * decimal point is a comma (de_DE.UTF-8), printf writes "3,33e-05", which no reader of a YODA,
 * HepMC3 or CSV file takes for a number.  This program generates a few hundred events and
 * writes every text the library makes (YODA, HepMC3 header, events and footer, the CSV of the
 * event stream, a message of gaps_config_check that holds decimals), and the program's Les
 * Houches Event file (--lhe-out, src/program/lhe_out.h), twice: first in the C
 * locale the program starts in, then after setlocale(LC_ALL, ""), and compares the bytes.  It
 * also checks that printf really writes a comma there (else the test would prove nothing:
 * exit 77, skipped) and that the caller's locale is still in force afterwards.
 * Run it with LC_ALL naming such a locale (tests/test_locale.sh makes one if needed). */
#define _POSIX_C_SOURCE 200809L
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gaps/generator.h"
#include "gaps/hepmc.h"
#include "gaps/yoda.h"
#include "io/event_stream.h"
#include "program/lhe_out.h"

typedef struct texts {
    char *yoda, *hepmc, *csv, *lhe;
    size_t n_yoda, n_hepmc, n_csv, n_lhe;
    char msg[512];
} texts;

static int to_stream(void *ctx, const double *rows, const gaps_records *records, int n)
{
    return gaps_event_stream_add(ctx, rows, records, n);
}

static int produce(texts *t)
{
    memset(t, 0, sizeof *t);
    FILE *fy = open_memstream(&t->yoda, &t->n_yoda);
    FILE *fh = open_memstream(&t->hepmc, &t->n_hepmc);
    FILE *fc = open_memstream(&t->csv, &t->n_csv);
    FILE *fl = open_memstream(&t->lhe, &t->n_lhe);
    if (!fy || !fh || !fc || !fl) return -1;
    gaps_config cfg;
    gaps_config_defaults(&cfg);
    cfg.events = 400;
    cfg.seed = 11;
    cfg.keep_rows = cfg.keep_records = 1;
    const char *attributes[] = { "sqrt_s_GeV", "91.200000000000003", "alphas_mz", "0.118" };
    gaps_event_stream s;
    gaps_process proc;
    char perr[128];
    if (gaps_process_init(&proc, (enum gaps_process_id)cfg.process, cfg.ecm, perr, sizeof perr)
        != 0)
        return -1;
    if (gaps_event_stream_init(&s, fc, fh, &proc, cfg.max_partons, 0, 0, attributes, 2, NULL)
        != 0)
        return -1;
    gaps_hooks hooks = { &s, to_stream, NULL, NULL, NULL, NULL, NULL, NULL, NULL };
    gaps_run run;
    char why[256];
    if (gaps_generate_with(&cfg, &hooks, NULL, NULL, &run, why, sizeof why) != 0) {
        fprintf(stderr, "test_locale: %s\n", why);
        return -1;
    }
    int bad = gaps_event_stream_finish(&s) != 0 || gaps_yoda_write(fy, run.state, "test") != 0
              || gaps_lhe_out_write(fl, &cfg, &run, why, sizeof why) != 0;
    gaps_run_free(&run);
    gaps_event_stream_free(&s);
    /* a message with decimals in it */
    cfg.ecm = 3.5;
    cfg.t_cut = 3.25;
    if (gaps_config_check(&cfg, t->msg, sizeof t->msg) == 0) bad = 1;
    bad |= fclose(fy) != 0;
    bad |= fclose(fh) != 0;
    bad |= fclose(fc) != 0;
    bad |= fclose(fl) != 0;
    return bad ? -1 : 0;
}

/* Same bytes?  Otherwise say where they part. */
static int same(const char *what, const char *a, size_t na, const char *b, size_t nb)
{
    if (na == nb && memcmp(a, b, na) == 0) {
        printf("ok: %s: %zu bytes, the same in both locales\n", what, na);
        return 1;
    }
    size_t i = 0;
    while (i < na && i < nb && a[i] == b[i]) ++i;
    size_t line = i;
    while (line > 0 && a[line - 1] != '\n') --line;
    int la = 0, lb = 0;   /* the line each has there */
    while (la < 100 && line + la < na && a[line + la] != '\n') ++la;
    while (lb < 100 && line + lb < nb && b[line + lb] != '\n') ++lb;
    printf("FAIL: %s differs at byte %zu (%zu and %zu bytes): C locale '%.*s', caller's "
           "locale '%.*s'\n", what, i, na, nb, la, a + line, lb, b + line);
    return 0;
}

int main(void)
{
    texts c, l;
    if (produce(&c) != 0) return 1;
    const char *name = setlocale(LC_ALL, "");
    if (!name) {
        printf("skip: setlocale(LC_ALL, \"\") failed (LC_ALL=%s)\n",
               getenv("LC_ALL") ? getenv("LC_ALL") : "");
        return 77;
    }
    char probe[32];
    snprintf(probe, sizeof probe, "%.2f", 3.25);
    if (strcmp(localeconv()->decimal_point, ",") != 0 || strcmp(probe, "3,25") != 0) {
        printf("skip: the locale '%s' has no decimal comma (printf writes %s)\n", name, probe);
        return 77;
    }
    printf("locale %s: printf writes %s\n", name, probe);
    if (produce(&l) != 0) return 1;
    int ok = same("YODA", c.yoda, c.n_yoda, l.yoda, l.n_yoda);
    ok &= same("HepMC3", c.hepmc, c.n_hepmc, l.hepmc, l.n_hepmc);
    ok &= same("CSV", c.csv, c.n_csv, l.csv, l.n_csv);
    ok &= same("Les Houches events", c.lhe, c.n_lhe, l.lhe, l.n_lhe);
    ok &= same("gaps_config_check message", c.msg, strlen(c.msg), l.msg, strlen(l.msg));
    snprintf(probe, sizeof probe, "%.2f", 3.25);
    if (strcmp(probe, "3,25") != 0) {
        printf("FAIL: the caller's locale was not given back (printf writes %s)\n", probe);
        ok = 0;
    }
    free(c.yoda), free(c.hepmc), free(c.csv), free(l.yoda), free(l.hepmc), free(l.csv);
    free(c.lhe), free(l.lhe);
    printf("%s\n", ok ? "locale: all checks passed" : "locale: SOME CHECKS FAILED");
    return ok ? 0 : 1;
}
