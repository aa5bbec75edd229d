/* options.h -- the command line and run card of the program `gaps`, and of `gaps merge`.
 *
 * Syntax (the full list of options is printed by `gaps --help`):
 *   --name VALUE, --name=VALUE, -x VALUE, -xVALUE; flags may be grouped (-qV).
 *   Long names must be written in full (no abbreviations: a new option must not change the
 *   meaning of an old command line).  "--" ends the options; `gaps` takes no other arguments.
 *   Given twice on the command line, an option's last value counts (except --card).
 *   Short options: -n --events, -s --seed, -o --output, -t --threads, -q --quiet,
 *   -c --card, -h --help, -V --version.
 *
 * Numbers are decimal: digits, an optional decimal point, an optional exponent (e or E, an
 * optional sign, digits).  No sign in front, no hexadecimal, no inf or nan, no spaces.  An
 * integer option accepts any such number whose value is an exact integer in its range
 * (1e6, 2.5e6, 1000e-3, 7.0), computed exactly: no rounding through a double.
 *
 * A file value that starts with '-' and is not "-" itself is refused (it is almost always a
 * forgotten value, as in `--json --quiet`); write ./-name for such a file.
 *
 * Run card (--card FILE): one `key = value` per line, key = a long option name without "--";
 * `#` starts a comment anywhere on a line (so values cannot contain '#'); blank lines are
 * ignored; spaces, tabs and a carriage return around key and value are trimmed; a UTF-8
 * byte-order mark at the start of the card is skipped, and characters that print as nothing
 * are shown by their code point in messages (\uFEFF); a flag takes
 * true/false/yes/no/1/0 (any case), false meaning "as if the line were absent".  A key may
 * appear once (progress and no-progress set the same thing and count as one key).  Options on
 * the command line override the card wherever --card stands.  Lines may hold at most
 * GAPS_CARD_MAX_LINE characters, the card at most GAPS_CARD_MAX_BYTES bytes.
 */
#ifndef GAPS_OPTIONS_H
#define GAPS_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "gaps/generator.h"   /* gaps_config, gaps_config_defaults(), GAPS_MAX_EVENT_NUMBER */

#define GAPS_CARD_MAX_LINE 4096
#define GAPS_MAX_LHE_THREADS 256            /* --lhe-threads */
#define GAPS_MAX_LHE_PIECE (1 << 26)        /* --lhe-piece, bytes */
#define GAPS_LHE_PIECE_DEFAULT (1 << 20)
#define GAPS_MAX_LHE_BATCH (1 << 24)        /* --lhe-batch, events (some 4 GB of host and
                                               device memory each) */
#define GAPS_CARD_MAX_BYTES (1 << 20)

typedef struct gaps_options {
    gaps_config cfg;              /* physics and execution settings */
    const char *output;           /* YODA histograms; default "gaps.yoda"; "-" = standard
                                     output; NULL when the user said "none" */
    const char *json, *observables_out, *hepmc, *cycles_out;   /* NULL = not requested;
                                                                  "-" = standard output */
    const char *lhe_out;          /* --lhe-out FILE: the hard events as LHEF 3.0 ("-" ok) */
    const char *state_out;        /* --state-out FILE: exact accumulators for merging ("-" ok) */
    const char *checkpoint;       /* --checkpoint FILE */
    int64_t checkpoint_every;     /* --checkpoint-every N events; 0 = backend default */
    const char *resume;           /* --resume FILE */
    const char *lhe;              /* --lhe FILE: hard events from a Les Houches Event file
                                     ("-" standard input); NULL = the process draws them */
    int events_given;             /* --events given (checked against --lhe's file) */
    int lhe_threads;              /* --lhe-threads N; -1: not given (the CPUs less one, at
                                     most 16) */
    int64_t lhe_piece;            /* --lhe-piece BYTES; 0: not given */
    int lhe_strict_pdf;           /* --lhe-strict-pdf: the file's PDF set must be the run's */
    unsigned char param_given[GAPS_N_PARAMS];   /* each physics parameter given on the command
                                                   line or in the card (--lhe: the file's
                                                   beams choose the process, whose defaults
                                                   the others then take) */
    const char *card;             /* --card FILE, for messages; NULL if none */
    int quiet;                    /* --quiet: no summary, no progress */
    int progress;                 /* -1 auto (default), 0 --no-progress, 1 --progress */
    int energy;                   /* --energy: measure GPU energy */
    char *card_text_;             /* private: the card's text; card strings point into it */
    size_t card_size_;            /* private: its size in bytes */
} gaps_options;

/* Parse the command line (argv[0] is the program name) and the run card it names.
 *   0: run; call gaps_options_free(o) once the strings are no longer needed.
 *   1: --help or --version was printed to standard output (exit 0).
 *   2: error: msg holds one line, without newline and without the "gaps: " that the caller
 *      prints before it, as for gaps_config_check (exit 2); a run card's errors start with
 *      "FILE:LINE: ".
 *   3: the run card could not be read because the system ran short (file descriptors,
 *      memory): msg as for 2, but the input is not to blame (exit 1).
 * On 1 and 2 nothing stays allocated (gaps_options_free is harmless).  Strings point into
 * argv or into memory owned by o.  No global state: the function may be called many times. */
int gaps_options_parse(int argc, char **argv, gaps_options *o, char *msg, size_t len);
void gaps_options_free(gaps_options *o);

/* The job's options as a list of hashes, one per option that must be the same in every
 * process of a run shared by MPI ranks: every option except --threads and --pool (which apply
 * to each rank) and --card (what a card sets is compared, not its name); the physics
 * parameters of gaps/parameters.h all take part.  fp[i] is a hash of
 * the value of option gaps_options_fingerprint_name(i) ("--seed", ...), so the first index
 * that differs names the option. */
#define GAPS_OPTIONS_FINGERPRINT (22 + GAPS_N_PARAMS)   /* 22 options, then the parameters */
void gaps_options_fingerprint(const gaps_options *o, uint64_t fp[GAPS_OPTIONS_FINGERPRINT]);
const char *gaps_options_fingerprint_name(int i);

/* The help text (what --help prints). */
void gaps_options_usage(FILE *f);

/* `gaps merge [options] STATE...`: argv[0] is "merge".
 *   -o, --output FILE  merged YODA histograms (default "merged.yoda"; "-" = standard output,
 *                      "none" = no histograms)
 *   --json FILE        summary as JSON          --state-out FILE  merged state
 *   -q, --quiet        -h, --help
 * At least one input; the same path twice is refused (it would count its events twice).
 * Return values as gaps_options_parse; on 0 call gaps_merge_options_free. */
typedef struct gaps_merge_options {
    const char *output;   /* default "merged.yoda"; "-" = standard output; NULL for "none" */
    const char *json;     /* NULL = not requested */
    const char *state_out;
    int quiet;
    const char **inputs;  /* n_inputs state files, in command-line order (heap array) */
    int n_inputs;
} gaps_merge_options;

int gaps_merge_options_parse(int argc, char **argv, gaps_merge_options *m, char *msg,
                             size_t len);
void gaps_merge_options_free(gaps_merge_options *m);
void gaps_merge_options_usage(FILE *f);

#endif
