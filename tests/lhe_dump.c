/* lhe_dump.c -- every number the Les Houches Event reader (src/io/lhe.h) gives, through its
 * API, as text that tests/test_lhe.py compares with its own parse of the same file:
 *
 *   I version beam1 beam2 E1 E2 pdfgup1 pdfgup2 pdfsup1 pdfsup2 idwtup nprup
 *   X xsec xerr xmax lprup            (one per process)
 *   N id group                        (one per weight name, after the last event)
 *   E number line nup idprup xwgtup scalup aqedup aqcdup nweights
 *   P id status m1 m2 c1 c2 px py pz e m vtim spin line
 *   W index value
 *   S refusal line                    (gaps_lhe_showerable with a record of 64)
 *   END | ERROR status message
 *
 * Doubles are printed with %.17g, so they compare exactly with Python's float() of the
 * file's text.  Usage: lhe_dump FILE (or - for standard input). */
#include "io/lhe.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: lhe_dump FILE\n");
        return 2;
    }
    char msg[1024], why[512];
    int status;
    gaps_lhe_reader *r = gaps_lhe_open(argv[1], &status, msg, sizeof msg);
    if (!r) {
        printf("ERROR %d %s\n", status, msg);
        return 2;
    }
    const gaps_lhe_init *in = gaps_lhe_init_of(r);
    printf("I %s %d %d %.17g %.17g %d %d %d %d %d %d\n", in->version, in->beam_id[0],
           in->beam_id[1], in->beam_energy[0], in->beam_energy[1], in->pdf_group[0],
           in->pdf_group[1], in->pdf_set[0], in->pdf_set[1], in->weighting, in->n_processes);
    for (int k = 0; k < in->n_processes; ++k)
        printf("X %.17g %.17g %.17g %d\n", in->process[k].xsec, in->process[k].xerr,
               in->process[k].xmax, in->process[k].id);
    static gaps_lhe_event ev;
    int rc;
    while ((rc = gaps_lhe_read_event(r, &ev, msg, sizeof msg)) == GAPS_LHE_EVENT) {
        printf("E %ld %ld %d %d %.17g %.17g %.17g %.17g %d\n", ev.number, ev.line, ev.n,
               ev.process_id, ev.weight, ev.scale, ev.alpha_qed, ev.alpha_qcd, ev.n_weights);
        for (int i = 0; i < ev.n; ++i) {
            const gaps_lhe_particle *p = &ev.particle[i];
            printf("P %d %d %d %d %d %d %.17g %.17g %.17g %.17g %.17g %.17g %.17g %ld\n", p->id,
                   p->status, p->mother[0], p->mother[1], p->colour[0], p->colour[1], p->p[0],
                   p->p[1], p->p[2], p->p[3], p->mass, p->lifetime, p->spin, p->line);
        }
        for (int k = 0; k < ev.n_weights; ++k) printf("W %d %.17g\n", k, ev.weights[k]);
        long line;
        const int refusal = gaps_lhe_showerable(in, &ev, 64, why, sizeof why, &line);
        printf("S %d %ld\n", refusal, line);
    }
    for (int k = 0; k < in->n_weights; ++k)
        printf("N %s %d\n", in->weight_id[k], in->weight_group[k]);
    if (rc == GAPS_LHE_END) printf("END\n");
    else printf("ERROR %d %s\n", rc, msg);
    gaps_lhe_close(r);
    return rc == GAPS_LHE_END ? 0 : 2;
}
