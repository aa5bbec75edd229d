/* gaps/pdf.h -- parton distributions x f(x, Q^2) of the proton, read from an LHAPDF6 grid set
 * and interpolated the same way, bit for bit, on every backend.
 *
 * A set is a directory NAME/ holding NAME.info (the metadata, a YAML subset) and one file
 * NAME_MMMM.dat per member (format "lhagrid1": the values x f(x, Q) on a grid of x and Q
 * knots, in one or more Q subgrids).  gaps_pdf_load() reads one member into a gaps_pdf, which
 * is plain data: a few arrays allocated once on the host, nothing allocated or freed when it
 * is evaluated, so the same struct (with device copies of its arrays, gaps_pdf_to_device())
 * serves the loops on the GPU.
 *
 * Interpolation (doc/physics.md, section "Parton distributions"): LHAPDF's "logcubic", a
 * cubic Hermite polynomial in ln x on each Q knot of the bracketing Q interval and its two
 * neighbours, then a cubic Hermite polynomial in ln Q^2 through those values, with slopes from
 * finite differences.  The polynomials along x are precomputed per interval, Q knot and
 * flavour at load time (as LHAPDF does), so a lookup is two binary searches and a few
 * multiply-adds per flavour.  A Q subgrid is a range of Q knots that the interpolation never
 * leaves: the bracket and the neighbouring knots used for the Q slopes are taken from one
 * subgrid only (sets put a flavour threshold at a subgrid boundary, where a PDF may jump).
 * Subgrids must have the same x knots, and each must start at the last Q knot of the one
 * before (the lhagrid1 layout); a Q^2 equal to such a boundary knot takes the upper subgrid.
 *
 * Outside the grid the result follows a fixed policy (why: see each line):
 *   - Q^2 below Q^2_min or above Q^2_max: the value at that edge ("frozen", LHAPDF's
 *     "nearest" in Q).  Below Q_min the set has no information and a parton shower stops its
 *     initial-state evolution at Q_min anyway; above Q_max (10^5 GeV for CT14lo) the evolution
 *     is logarithmically slow.  Freezing never creates a value the grid does not contain.
 *     A Q^2 <= 0 is treated as below Q^2_min.
 *   - 0 < x < x_min: a power law through the two lowest x knots (ln xf linear in ln x), at
 *     the requested Q^2, when both of those values are positive; otherwise the value at x_min.
 *     Small-x PDFs do behave as powers of x, so this continues the grid's trend with no jump
 *     at x_min; where the trend has no sign (a heavy flavour at its threshold) freezing is the
 *     only choice that cannot change sign.  This branch is never reached by a shower that
 *     keeps x above x_min (1e-9 for CT14lo).
 *   - x > x_max, x <= 0: 0.  There is no parton with x above the grid's top (x_max = 1 in
 *     the sets used here) and x <= 0 is no momentum fraction.
 *   - x or Q^2 NaN: NaN (never an out-of-range read).
 *   - a PDG id that the set does not hold: 0.  Id 0 means the gluon, as in LHAPDF.
 * ForcePositive (from the set's metadata) is then applied to every interpolated or
 * extrapolated value, as LHAPDF does: 1 turns negative values into 0, 2 raises every value
 * below 1e-10 to 1e-10, 0 leaves them.
 *
 * Bit identity: the evaluation uses only +, -, *, / and gaps_log/gaps_exp (gaps/fpmath.h),
 * with contraction off, so the serial, OpenMP and GPU builds return the same bits; the
 * knots' logarithms are computed with the same gaps_log as the query's, so at a knot the
 * interpolation returns the grid value exactly.  gaps_pdf_xfxq2_all() returns, flavour by
 * flavour, exactly the bits of gaps_pdf_xfxq2().
 */
#ifndef GAPS_PDF_H
#define GAPS_PDF_H

#include <stddef.h>
#include <stdint.h>
#include "gaps/decl.h"

GAPS_C_BEGIN

/* Capacities of the fixed-size parts of a gaps_pdf (kept inside the struct, so that a device
 * copy of the struct needs no further allocation). */
#define GAPS_PDF_MAX_FLAVOURS 32
#define GAPS_PDF_MAX_SUBGRIDS 32
#define GAPS_PDF_NAME_MAX 128
/* Longest ErrorType of a set's .info file, its terminating zero included */
#define GAPS_PDF_ERROR_TYPE_MAX 32
/* Columns of gaps_pdf_xfxq2_all(): pid -6 .. 6 at [pid + 6], the gluon at [6]. */
#define GAPS_PDF_NPARTONS 13
/* The value ForcePositive = 2 raises small values to (LHAPDF's). */
#define GAPS_PDF_TINY 1e-10
/* The longest directory of a search path (longer entries are skipped) and the longest path of
 * a set's file in one: DIR/NAME/NAME_MMMM.dat. */
#define GAPS_PDF_DIR_MAX 4096
#define GAPS_PDF_FILE_MAX (GAPS_PDF_DIR_MAX + 2 * GAPS_PDF_NAME_MAX + 32)

typedef struct gaps_pdf {
    /* --- the grid, read by the evaluation (device memory in a device view) --- */
    int nx;          /* x knots; every subgrid has the same ones */
    int nq;          /* Q^2 knots of all subgrids in order (a boundary knot in both subgrids) */
    int nfl;         /* flavours (columns) */
    int nsub;        /* Q subgrids */
    int sub_first[GAPS_PDF_MAX_SUBGRIDS + 1];   /* first Q^2 knot of subgrid s; [nsub] = nq */
    double *lnx;     /* ln x of the knots, [nx], strictly increasing */
    double *lnq2;    /* ln Q^2 of the knots, [nq], strictly increasing within a subgrid */
    /* The cubic along ln x on interval [ix, ix+1] at Q^2 knot iq for column k, in Hermite
     * form: the values and the end slopes (d xf / d ln x times the interval width) at its two
     * ends, {v_lo, s_lo, v_hi, s_hi} at hermite[(((size_t)iq * (nx - 1) + ix) * nfl + k) * 4].
     * The Hermite form (rather than powers of t) returns the knot values exactly at both
     * ends of an interval, and its four basis weights are shared by every row and column of
     * one lookup.  All columns of one (iq, ix) are adjacent: one lookup of all flavours reads
     * 4 runs of 32 nfl contiguous bytes. */
    double *hermite;
    int pid[GAPS_PDF_MAX_FLAVOURS];   /* PDG id of column k (21 = gluon) */
    int column[GAPS_PDF_NPARTONS];    /* column of pid -6..6 at [pid + 6], the gluon's at [6];
                                         -1 where the set lacks the flavour */
    double xmin, xmax;     /* first and last x knot */
    double q2min, q2max;   /* first and last Q^2 knot, GeV^2 */
    int force_positive;    /* 0, 1 or 2 (see above) */

    /* --- metadata (host only) --- */
    char name[GAPS_PDF_NAME_MAX];   /* set name, e.g. "CT14lo" */
    int member;                     /* member number (file NAME_MMMM.dat) */
    int num_members;                /* NumMembers, or -1 if the set does not say */
    long set_index;                 /* SetIndex (LHAPDF id of member 0), or -1 */
    /* ErrorType ("hessian", "symmhessian", "replicas", with "+as" where the last two members
     * vary alpha_s; "" if the set does not say) and ErrorConfLevel (percent, NaN if not
     * given): how the members make an uncertainty (--vary pdf, gaps/vary.h) */
    char error_type[GAPS_PDF_ERROR_TYPE_MAX];
    double error_conf_level;
    int order_qcd;                  /* OrderQCD (0 = LO), or -1 */
    /* NaN where the set does not give them; GeV */
    double mz, alphas_mz, m_charm, m_bottom, m_top;
    /* What the set is, beyond its name: a 64-bit FNV-1a digest of everything of the member
     * that can change a result (doc/formats.md, "PDF digest"): the knots, the flavour list,
     * every grid value as its IEEE bit pattern, ForcePositive, OrderQCD and the masses and
     * couplings of the metadata.  Two sets of one name with different grids (another
     * LHAPDF_DATA_PATH, an edited file) have different digests, which states, checkpoints
     * and MPI ranks compare.  Computed on the host from the values as read, so it is the same
     * in every build; never 0 (0 stands for "no PDF set"). */
    uint64_t digest;
    char file[GAPS_PDF_FILE_MAX];   /* the member file read: DIR/NAME/NAME_MMMM.dat */
} gaps_pdf;

/* Host: load member MEMBER of set NAME, spec = "NAME" (member 0) or "NAME/MEMBER" (0..9999).
 * search_path is a colon-separated list of directories, tried in order for NAME/NAME.info
 * (empty entries are skipped); the member file is taken from the same directory.  Numbers are
 * read in the C locale whatever the caller's locale.  Returns 0, or -1 with one line (no
 * newline) in err naming the file and what is wrong; on failure *pdf is left zeroed (and
 * gaps_pdf_free() on it is harmless).  Memory is bounded: member files above 128 MiB and grids
 * above 2^22 values (4 x 10^6; CT14lo has 10^5) are refused.  Also refused: a file that is not
 * a regular file (a FIFO would block for ever), a set without the gluon, and a set whose gluon
 * or d, u, dbar, ubar (where listed) is zero at every knot (doc/physics.md section 12.1).
 * pdf->digest and pdf->file say what was read. */
int gaps_pdf_load(gaps_pdf *pdf, const char *spec, const char *search_path, char *err,
                  size_t errlen);
/* Host: the search path for PDF sets, colon-separated, in this order: user_dir (--pdf-path;
 * NULL or "" for none), $LHAPDF_DATA_PATH, the installed share directory (GAPS_PDF_DATADIR,
 * if the build defines it), the source tree's share/pdfsets (GAPS_PDF_SOURCE_DATADIR, if
 * defined).  Each of the two defines is an absolute path or one relative to the directory of
 * the executable (/proc/self/exe): relative paths keep an installed tree relocatable and keep
 * the source and build paths out of the installed program; a program of its own that links
 * the library finds the sets through user_dir or $LHAPDF_DATA_PATH.  Returns 0, or -1 if the
 * path does not fit in len bytes. */
int gaps_pdf_search_path(const char *user_dir, char *buf, size_t len);
/* The longest search path (bytes, with the final NUL): --pdf-path's 4096 bytes and a long
 * LHAPDF_DATA_PATH.  The one limit of both a run and `gaps pdf`: a path that fits one fits the
 * other. */
#define GAPS_PDF_SEARCH_PATH_MAX 65536
/* The longest --pdf-path (bytes, with the final NUL), of a run and of `gaps pdf` alike. */
#define GAPS_PDF_USER_DIRS_MAX 4096
/* Host: check the directories a user named (--pdf-path, colon-separated; NULL or "" for none):
 * each must exist and be a directory, since a set not found there would otherwise be taken
 * silently from $LHAPDF_DATA_PATH or the installed sets.  Returns 0, or -1 with one line in
 * err naming the entry. */
int gaps_pdf_check_user_dirs(const char *user_dir, char *err, size_t errlen);

/* Host: release what gaps_pdf_load() allocated and zero the struct. */
void gaps_pdf_free(gaps_pdf *pdf);

/* Host: a view of `host` whose arrays are device copies (gaps_device_alloc() and
 * gaps_host_to_device(), backend/gaps_runtime.h; heap copies in the CPU builds).  The view
 * itself is a host struct: copy it to the device with gaps_device_copy(&view, sizeof view)
 * and hand the loops that pointer.  Returns 0, or -1 (nothing left allocated). */
int gaps_pdf_to_device(const gaps_pdf *host, gaps_pdf *dev_view);
/* Host: free the device arrays of a view made by gaps_pdf_to_device() and zero it. */
void gaps_pdf_device_free(gaps_pdf *dev_view);

GAPS_DEVICE_BEGIN
/* Column of PDG id pid in the set, or -1 if the set does not hold it (0 means the gluon). */
static inline int gaps_pdf_column(const gaps_pdf *pdf, int pid)
{
    if (pid == 21) pid = 0;
    if (pid >= -6 && pid <= 6) return pdf->column[pid + 6];
    for (int k = 0; k < pdf->nfl; ++k)   /* e.g. a photon, 22, in a QED set */
        if (pdf->pid[k] == pid) return k;
    return -1;
}

/* x f(x, Q^2) of parton pid (PDG id; 21 or 0 for the gluon) at momentum fraction x and
 * scale q2 (GeV^2); outside the grid, see the policy above. */
double gaps_pdf_xfxq2(const gaps_pdf *pdf, int pid, double x, double q2);

/* x f(x, Q^2) of every parton -6..6 at once: xf[pid + 6], the gluon at xf[6], 0 for the
 * flavours the set lacks.  The bracket and the Hermite weights are computed once; each value
 * has exactly the bits gaps_pdf_xfxq2() returns for it. */
void gaps_pdf_xfxq2_all(const gaps_pdf *pdf, double x, double q2,
                        double xf[GAPS_PDF_NPARTONS]);
GAPS_DEVICE_END

GAPS_C_END

#endif
