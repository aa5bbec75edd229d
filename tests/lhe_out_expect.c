/* lhe_out_expect.c -- the hard events a run of gaps starts its showers from, computed here
 * through the library's API alone, for tests/test_lhe_out.py to compare with the events of
 * `--lhe-out` number for number.
 *
 *   lhe_out_expect PDFSETS_DIR PROCESS NLO COMPAT SEED FIRST N
 *
 * COMPAT is none or gaps21.  For each event number FIRST .. FIRST+N-1 one line
 *   E event draw n_in n weight t_start x1 x2
 * (x1, x2 0 without incoming rows) and then one line per row of the hard event
 *   R flav col acol E px py pz
 * every double with %.17g, so that the script reads back the same bits.  The last line is
 *   U w_unit
 * the run's weight unit.  Exit 2 for bad arguments or a PDF set that does not load. */
#include "gaps/event_pool.h"
#include "gaps/generator.h"
#include "gaps/process.h"
#include "gaps/rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 8) {
        fprintf(stderr, "usage: lhe_out_expect PDFSETS_DIR PROCESS NLO COMPAT SEED FIRST N\n");
        return 2;
    }
    const int process = gaps_process_lookup(argv[2]);
    if (process < 0) {
        fprintf(stderr, "lhe_out_expect: unknown process %s\n", argv[2]);
        return 2;
    }
    gaps_config cfg;
    gaps_config_defaults(&cfg);
    gaps_config_set_process(&cfg, process);
    cfg.nlo = atoi(argv[3]);
    cfg.compat = strcmp(argv[4], "gaps21") == 0 ? GAPS_COMPAT_GAPS21 : GAPS_COMPAT_NONE;
    cfg.seed = (uint32_t)strtoul(argv[5], NULL, 10);
    const long long first = atoll(argv[6]), n = atoll(argv[7]);
    char err[512];
    static gaps_physics phys;
    static gaps_pdf pdf;
    const int hadronic = gaps_process_table[process].hadronic;
    if (hadronic && gaps_pdf_load(&pdf, gaps_process_table[process].default_pdf, argv[1], err,
                                  sizeof err) != 0) {
        fprintf(stderr, "lhe_out_expect: %s\n", err);
        return 2;
    }
    if (gaps_physics_setup(&phys, &cfg, hadronic ? &pdf : NULL, err, sizeof err) != 0) {
        fprintf(stderr, "lhe_out_expect: %s\n", err);
        return 2;
    }
    phys.proc.pdf = hadronic ? &pdf : NULL;
    for (long long e = first; e < first + n; ++e) {
        gaps_rng rng = gaps_rng_make(cfg.seed, (uint64_t)e, 0);
        gaps_hard_event ev;
        memset(&ev, 0, sizeof ev);
        gaps_process_generate(&phys.proc, &rng, &ev);
        printf("E %lld %u %d %d %.17g %.17g %.17g %.17g\n", e, (unsigned)rng.draw, ev.n_in,
               ev.n, ev.weight, ev.t_start, ev.n_in > 0 ? ev.x[0] : 0.0,
               ev.n_in > 1 ? ev.x[1] : 0.0);
        for (int r = 0; r < ev.n; ++r)
            printf("R %d %d %d %.17g %.17g %.17g %.17g\n", ev.flav[r], ev.col[r], ev.acol[r],
                   ev.p[r][0], ev.p[r][1], ev.p[r][2], ev.p[r][3]);
    }
    printf("U %.17g\n", phys.proc.w_unit);
    gaps_pdf_free(&pdf);
    return ferror(stdout) ? 1 : 0;
}
