/* test_pp_w.c -- p p -> W -> e nu (the process pp-w, src/process/pp_w.c) against an
 * independent quadrature of its leading-order cross section.
 *
 *   test_pp_w PDFSETS_DIR [EVENTS]   the full test (default 10^6 hard events)
 *   test_pp_w PDFSETS_DIR --sigma    print the quadrature's sigma (pb) and exit
 *   test_pp_w PDFSETS_DIR --sigma charges   print the quadrature's sigma of W+ alone and of W-
 *                                    alone (pb, to 1e-5; their sum is the sigma of both) and exit
 *                                    (tests/test_pp_w.sh compares runs of gaps with them)
 *
 * The quadrature knows nothing of the generator's process code: its own constants (M_W,
 * Gamma_W, |V_ij| written out again, alpha and sin^2 theta_W of gaps/constants.h, the
 * electroweak scheme of pp-ll), its own partonic cross section in the textbook form
 *   sigma_hat(q qbar' -> W -> e nu) = |V_qq'|^2 / N_c g^4 s_hat / (192 pi D),
 *   g^2 = 4 pi alpha / sin^2 theta_W, D = (s_hat - M_W^2)^2 + M_W^2 Gamma_W^2,
 * (the angle integrated: the V-A law's (1 + cos)^2 gives 8/3), and its own integration:
 *   sigma = int dm^2 dy sum_channels [x_a f][x_b f'] sigma_hat(m^2) / m^2,
 * m in [M_W - 20 Gamma_W, M_W + 20 Gamma_W], mu_F = m, |y| < ln(sqrt s / m), adaptive
 * Gauss-Kronrod 7-15 in t (m^2 = M_W^2 + M_W Gamma_W tan t) and y; the parton densities
 * through gaps_pdf_xfxq2 (the project's PDF reader), flavour by flavour.  W+ and W- are
 * integrated separately, and the forward-backward difference of the charged lepton with
 * respect to the incoming quark, whose angular factor integrates to -+2 (W+ / W-) instead
 * of 8/3.
 *
 * Checked on the hard events of the process set up as a run sets it up (importance-sampling
 * tables): every record (q and qbar' along +-z with E = x sqrt(s)/2, lepton + neutrino carry
 * the incoming momentum, massless, m_lnu in the window, the charges add up: the up-type
 * quark's W+ gives e+ nu_e, W- e- nu_e~; colours q (1, 0), qbar (0, 1)), the weights' spread
 * (sd/mean < 0.2), and the mean weight of all events, of the W+ and W- events and the
 * forward-backward difference against the quadrature within 4 standard errors.  The process's
 * own options (gaps_process_init_with): --w-charge plus and minus make only W+ and only W-
 * records whose mean weights agree with the quadrature's W+ and W- alone (4 standard errors);
 * --leptons mu gives the e events' records with mu and nu_mu codes and nothing else changed
 * (bit for bit), e,mu the same records at twice the weight, each e or mu (binomial, 4 sd).
 * Exit status 0 pass, 1 fail, 2 usage or the PDF set does not load. */
#define _POSIX_C_SOURCE 200809L   /* check.h's clock */
#include "gaps/constants.h"
#include "gaps/pdf.h"
#include "gaps/process.h"
#include "gaps/rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "kronrod.h"

/* ---- the physics, written out again ---- */
#define ECM 13000.0
#define MW 80.379
#define GW 2.085
#define M_LO (MW - 20.0 * GW)
#define M_HI (MW + 20.0 * GW)
/* |V| of (up, down): rows u, c; columns d, s, b (PDG 2020) */
static const double CKM[2][3] = { { 0.97370, 0.2245, 0.00382 }, { 0.221, 0.987, 0.0410 } };

typedef struct wctx {
    const gaps_pdf *pdf;
    double m2;
    int charge;   /* +1: W+ only, -1: W- only, 0: both */
    int odd;      /* 1: forward minus backward of the charged lepton w.r.t. the quark */
    double tol;   /* relative tolerance of the rapidity integral */
} wctx;

static double dsigma_dm2dy(double y, void *vctx)
{
    const wctx *c = vctx;
    const double m2 = c->m2, m = sqrt(m2);
    const double xa = m / ECM * exp(y), xb = m / ECM * exp(-y);
    const double g2 = 4.0 * GAPS_PI * GAPS_ALPHA_EM / GAPS_SIN2_THETAW;
    const double d = (m2 - MW * MW) * (m2 - MW * MW) + MW * MW * GW * GW;
    /* sigma_hat without |V|^2; the angle: (1 -+ c)^2 integrates to 8/3 and its F - B part to
     * -+2 (W+: e+ opposite to the quark; W-: e- along it) */
    const double shat = g2 * g2 * m2 / (192.0 * GAPS_PI * GAPS_NC * d);
    double sum = 0.0;
    for (int iu = 0; iu < 2; ++iu)
        for (int id = 0; id < 3; ++id) {
            const int u = 2 + 2 * iu, dn = 1 + 2 * id;
            const double v2 = CKM[iu][id] * CKM[iu][id];
#define F(pid, x) gaps_pdf_xfxq2(c->pdf, pid, x, m2)
            const double wp = F(u, xa) * F(-dn, xb) + F(-dn, xa) * F(u, xb);   /* u dbar' */
            const double wm = F(dn, xa) * F(-u, xb) + F(-u, xa) * F(dn, xb);   /* d' ubar */
#undef F
            const double fp = c->odd ? -2.0 / (8.0 / 3.0) : 1.0;
            const double fm = c->odd ? 2.0 / (8.0 / 3.0) : 1.0;
            if (c->charge >= 0) sum += v2 * wp * fp;
            if (c->charge <= 0) sum += v2 * wm * fm;
        }
    return sum * shat / m2 * GAPS_GEV2_TO_PB;
}

static double dsigma_dt(double t, void *vctx)
{
    wctx c = *(const wctx *)vctx;
    const double tn = tan(t);
    c.m2 = MW * MW + MW * GW * tn;
    const double jac = MW * GW * (1.0 + tn * tn);   /* dm^2 / dt */
    const double ymax = log(ECM / sqrt(c.m2));
    return jac * integrate(dsigma_dm2dy, &c, -ymax, ymax, c.tol);
}

/* to a relative tolerance tol of the mass integral (tol / 10 of the rapidity integrals) */
static double quadrature_to(const gaps_pdf *pdf, int charge, int odd, double tol)
{
    wctx c = { pdf, 0.0, charge, odd, 0.1 * tol };
    const double t_lo = atan((M_LO * M_LO - MW * MW) / (MW * GW));
    const double t_hi = atan((M_HI * M_HI - MW * MW) / (MW * GW));
    return integrate(dsigma_dt, &c, t_lo, t_hi, tol);
}

static double quadrature(const gaps_pdf *pdf, int charge, int odd)
{
    return quadrature_to(pdf, charge, odd, 1e-7);
}

/* ---- Monte Carlo statistics ---- */
typedef struct stats { double n, sw, sw2; } stats;
static void add(stats *s, double w) { s->n += 1; s->sw += w; s->sw2 += w * w; }
/* the mean of w over all N events (w = 0 where the event is not in the subset) */
static double mean_over(const stats *s, double n) { return s->sw / n; }
static double err_over(const stats *s, double n)
{
    const double m = s->sw / n;
    return sqrt((s->sw2 / n - m * m) / (n - 1));
}
static void pull(const char *what, const stats *s, double n, double exact)
{
    const double m = mean_over(s, n), e = err_over(s, n), p = (m - exact) / e;
    printf("  %-26s MC %.4f +- %.4f pb, quadrature %.4f pb, pull %+.2f\n", what, m, e, exact, p);
    CHECK(fabs(p) < 4.0, "%s: pull %.2f beyond 4", what, p);
}

/* pp-w with its own options o, set up as a run sets it up */
static int setup(gaps_process *proc, const gaps_pdf *pdf, int w_charge, int leptons)
{
    gaps_process_options o = gaps_process_options_default();
    o.w_charge = w_charge;
    o.leptons = leptons;
    char msg[256];
    if (gaps_process_init_with(proc, GAPS_PROCESS_PP_W, ECM, &o, msg, sizeof msg) != 0) {
        printf("FAIL gaps_process_init_with: %s\n", msg);
        return -1;
    }
    gaps_process_prepare(proc, pdf);
    proc->pdf = pdf;
    return 0;
}

/* --w-charge plus (charge 1) or minus (-1) alone: every record of that charge (the up-type
 * quark's W+ with e+ nu_e, W- with e- nu_e~), the mean weight against the quadrature's */
static void one_charge(const gaps_pdf *pdf, int charge, long events, double exact)
{
    static gaps_process proc;   /* large: not on the stack */
    if (setup(&proc, pdf, charge > 0 ? GAPS_W_CHARGE_PLUS : GAPS_W_CHARGE_MINUS,
              GAPS_LEPTONS_E) != 0) {
        ++failures;
        return;
    }
    stats st = { 0 };
    long wrong = 0;
    for (long i = 0; i < events; ++i) {
        gaps_rng rng = gaps_rng_make(11, (uint64_t)i, 0);
        gaps_hard_event ev;
        gaps_process_generate(&proc, &rng, &ev);
        const int quark_up = ev.flav[0] % 2 == 0;   /* an up-type quark: W+ */
        const int ok = ev.n == 4 && (charge > 0 ? quark_up && ev.flav[2] == -11 && ev.flav[3] == 12
                                                : !quark_up && ev.flav[2] == 11 && ev.flav[3] == -12)
                       && isfinite(ev.weight) && ev.weight > 0.0;
        if (!ok && wrong++ < 5)
            printf("FAIL --w-charge %s event %ld: quark %d, leptons %d %d\n",
                   charge > 0 ? "plus" : "minus", i, ev.flav[0], ev.flav[2], ev.flav[3]);
        add(&st, ev.weight);
    }
    CHECK(wrong == 0, "--w-charge %s: %ld records of the other charge or broken",
          charge > 0 ? "plus" : "minus", wrong);
    pull(charge > 0 ? "--w-charge plus" : "--w-charge minus", &st, (double)events, exact);
}

/* --leptons mu and e,mu against the default e, event by event from the same random streams */
static void lepton_channels(const gaps_pdf *pdf, long events)
{
    static gaps_process pe, pm, pb;
    if (setup(&pe, pdf, GAPS_W_CHARGE_BOTH, GAPS_LEPTONS_E) != 0
        || setup(&pm, pdf, GAPS_W_CHARGE_BOTH, GAPS_LEPTONS_MU) != 0
        || setup(&pb, pdf, GAPS_W_CHARGE_BOTH, GAPS_LEPTONS_E_MU) != 0) {
        ++failures;
        return;
    }
    long bad_mu = 0, bad_both = 0, n_mu = 0;
    for (long i = 0; i < events; ++i) {
        gaps_hard_event e, m, b;
        gaps_rng r1 = gaps_rng_make(13, (uint64_t)i, 0), r2 = r1, r3 = r1;
        gaps_process_generate(&pe, &r1, &e);
        gaps_process_generate(&pm, &r2, &m);
        gaps_process_generate(&pb, &r3, &b);
        /* the mu record: e's with 11 -> 13, 12 -> 14 (signs kept), all else the same bits */
        gaps_hard_event x = e;
        for (int r = 2; r < 4; ++r) x.flav[r] += x.flav[r] > 0 ? 2 : -2;
        if (memcmp(&x.p, &m.p, sizeof x.p) || memcmp(x.flav, m.flav, sizeof x.flav)
            || memcmp(&x.weight, &m.weight, sizeof x.weight) || r2.draw != r1.draw) {
            if (bad_mu++ < 5) printf("FAIL --leptons mu event %ld differs from e's\n", i);
        }
        /* e,mu: the same momenta, twice the weight, e's or mu's codes */
        const int is_mu = b.flav[2] == x.flav[2] && b.flav[3] == x.flav[3];
        const int is_e = b.flav[2] == e.flav[2] && b.flav[3] == e.flav[3];
        n_mu += is_mu;
        if (memcmp(&e.p, &b.p, sizeof e.p) || b.weight != 2.0 * e.weight || !(is_mu || is_e)) {
            if (bad_both++ < 5) printf("FAIL --leptons e,mu event %ld\n", i);
        }
    }
    const double n = (double)events, dev = (n_mu - 0.5 * n) / sqrt(0.25 * n);
    printf("  --leptons mu: %ld records, %ld differ from e's but for the codes; e,mu: %ld mu "
           "of %ld (%+.2f sd from half), %ld wrong\n", events, bad_mu, n_mu, events, dev,
           bad_both);
    CHECK(bad_mu == 0, "--leptons mu: %ld records differ", bad_mu);
    CHECK(bad_both == 0, "--leptons e,mu: %ld records wrong", bad_both);
    CHECK(fabs(dev) < 4.0, "--leptons e,mu: %ld mu events of %ld", n_mu, events);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_pp_w PDFSETS_DIR [EVENTS | --sigma]\n");
        return 2;
    }
    gaps_pdf pdf;
    char err[512];
    if (gaps_pdf_load(&pdf, GAPS_DEFAULT_PDF, argv[1], err, sizeof err) != 0) {
        fprintf(stderr, "test_pp_w: %s\n", err);
        return 2;
    }
    if (argc > 2 && strcmp(argv[2], "--sigma") == 0) {
        if (argc > 3 && strcmp(argv[3], "charges")) {
            fprintf(stderr, "test_pp_w: --sigma takes nothing or 'charges', not '%s'\n", argv[3]);
            gaps_pdf_free(&pdf);
            return 2;
        }
        /* runs of 10^4 to 10^6 events need 1e-5 (their errors are 1e-3 to 1e-4 of sigma) */
        if (argc > 3)
            printf("%.10g %.10g\n", quadrature_to(&pdf, 1, 0, 1e-5),
                   quadrature_to(&pdf, -1, 0, 1e-5));
        else printf("%.10g\n", quadrature(&pdf, 0, 0));
        gaps_pdf_free(&pdf);
        return 0;
    }
    const double sigma = quadrature(&pdf, 0, 0);
    const double sigma_p = quadrature(&pdf, 1, 0), sigma_m = quadrature(&pdf, -1, 0);
    const double fb = quadrature(&pdf, 0, 1);
    printf("quadrature: sigma %.6f pb (W+ %.6f, W- %.6f), forward-backward %.6f pb\n", sigma,
           sigma_p, sigma_m, fb);
    CHECK(fabs(sigma_p + sigma_m - sigma) < 1e-6 * sigma, "W+ + W- != sigma");

    const long events = argc > 2 ? atol(argv[2]) : 1000000L;
    gaps_process proc;
    char msg[256];
    if (gaps_process_init(&proc, GAPS_PROCESS_PP_W, ECM, msg, sizeof msg) != 0) {
        printf("FAIL gaps_process_init: %s\n", msg);
        return 1;
    }
    gaps_process_prepare(&proc, &pdf);
    proc.pdf = &pdf;
    stats all = { 0 }, wp = { 0 }, wm = { 0 }, odd = { 0 };
    long bad = 0;
    for (long i = 0; i < events; ++i) {
        gaps_rng rng = gaps_rng_make(9, (uint64_t)i, 0);
        gaps_hard_event ev;
        gaps_process_generate(&proc, &rng, &ev);
        /* the record */
        int ok = ev.n == 4 && ev.n_in == 2 && isfinite(ev.weight) && ev.weight > 0.0;
        const int fq = ev.flav[0], fqb = ev.flav[1], fl = ev.flav[2], fn = ev.flav[3];
        ok = ok && fq >= 1 && fq <= 5 && fqb <= -1 && fqb >= -5 && (fq + fqb) % 2 != 0;
        const int w_plus = fq % 2 == 0;   /* an up-type quark: W+ */
        ok = ok && (w_plus ? (fl == -11 && fn == 12) : (fl == 11 && fn == -12));
        ok = ok && ev.col[0] == 1 && ev.acol[0] == 0 && ev.col[1] == 0 && ev.acol[1] == 1
             && ev.col[2] == 0 && ev.acol[2] == 0 && ev.col[3] == 0 && ev.acol[3] == 0
             && ev.next_tag == 2;
        double tot[4] = { 0, 0, 0, 0 };
        for (int r = 0; r < 4; ++r) {
            const double *p = ev.p[r];
            const double m2 = p[0] * p[0] - p[1] * p[1] - p[2] * p[2] - p[3] * p[3];
            ok = ok && fabs(m2) < 1e-9 * p[0] * p[0] + 1e-12;
            for (int k = 0; k < 4; ++k) tot[k] += (r < 2 ? 1.0 : -1.0) * p[k];
        }
        for (int k = 0; k < 4; ++k) ok = ok && fabs(tot[k]) < 1e-10 * ECM;
        ok = ok && ev.p[0][1] == 0.0 && ev.p[0][2] == 0.0 && ev.p[1][1] == 0.0
             && ev.p[1][2] == 0.0 && ev.p[0][3] * ev.p[1][3] < 0.0
             && fabs(ev.p[0][0] - ev.x[0] * ECM / 2) < 1e-9 * ECM
             && fabs(ev.p[1][0] - ev.x[1] * ECM / 2) < 1e-9 * ECM;
        double w4[4];
        for (int k = 0; k < 4; ++k) w4[k] = ev.p[2][k] + ev.p[3][k];
        const double mlv2 = w4[0] * w4[0] - w4[1] * w4[1] - w4[2] * w4[2] - w4[3] * w4[3];
        ok = ok && sqrt(mlv2) > M_LO * (1 - 1e-9) && sqrt(mlv2) < M_HI * (1 + 1e-9)
             && fabs(ev.t_start - mlv2) < 1e-8 * mlv2;
        if (!ok && bad++ < 5) printf("FAIL event %ld: record\n", i);
        add(&all, ev.weight);
        add(w_plus ? &wp : &wm, ev.weight);
        /* cos of the charged lepton to the quark in the l nu rest frame: the lepton's
         * rapidity minus the pair's, sign only: along the quark if the lepton's rapidity
         * relative to the pair's has the sign of the quark's direction */
        const double yl = 0.5 * log((ev.p[2][0] + ev.p[2][3]) / (ev.p[2][0] - ev.p[2][3]));
        const double yw = 0.5 * log((w4[0] + w4[3]) / (w4[0] - w4[3]));
        const double along = (yl - yw) * (ev.p[0][3] > 0.0 ? 1.0 : -1.0);
        add(&odd, along > 0.0 ? ev.weight : -ev.weight);
    }
    CHECK(bad == 0, "%ld records fail", bad);
    const double n = (double)events;
    const double m = mean_over(&all, n);
    const double rsd = sqrt(all.sw2 / n - m * m) / m;
    printf("  %ld events: weights sd/mean %.4f\n", events, rsd);
    CHECK(rsd < 0.2, "weight spread sd/mean %.4f beyond 0.2", rsd);
    pull("sigma", &all, n, sigma);
    pull("sigma(W+)", &wp, n, sigma_p);
    pull("sigma(W-)", &wm, n, sigma_m);
    pull("forward-backward", &odd, n, fb);
    /* the process's own options: a twentieth of the events for each charge, a fortieth for
     * the leptons */
    one_charge(&pdf, 1, events / 20, sigma_p);
    one_charge(&pdf, -1, events / 20, sigma_m);
    lepton_channels(&pdf, events / 40);
    gaps_pdf_free(&pdf);
    printf(failures ? "test_pp_w: %d FAILURES\n" : "test_pp_w: all checks passed\n", failures);
    return failures ? 1 : 0;
}
