/* commands.h -- the commands of the program `gaps` and what they share.
 *
 *   gaps [options]          a run: run.c (options.h, outfile.h, ranks.h, report.h)
 *   gaps merge STATE...     merge.c
 *   gaps pdf X Q            pdf_command.c (pdf_command.h)
 *   gaps lhe-check FILE     lhe_check.c (the reader: io/lhe.h)
 *
 * main.c picks one by the first argument; each returns the program's exit status.
 *
 * Exit statuses (README "Exit statuses"):
 *   0    success
 *   1    the run failed (device, memory, file descriptors, a write error, a rename of the
 *        commit; a .part file or the checkpoint removed or replaced under the run, a
 *        destination another run wrote meanwhile); no output was committed.  One exception:
 *        when only the summary cannot be written to standard output, the outputs were
 *        committed before it and the message says so.  Also: --help or --version could not
 *        be written, and `gaps pdf` could not write to standard output.
 *   2    bad input: an option, a run card, an output path, a state or checkpoint file, a
 *        file that another run still going writes, MPI ranks with different options, a Les
 *        Houches Event file that `gaps lhe-check` finds invalid; nothing was created or
 *        changed
 *   3    the run (or merge) finished, but some events failed the built-in checks (outputs
 *        written)
 *   128 + signal   killed by a signal.  SIGINT (130), SIGTERM (143) and SIGHUP (129) with
 *        --checkpoint: a last checkpoint was written and the run can be resumed; without it,
 *        and for SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM and SIGKILL, no output appears (a
 *        checkpointed run keeps its FILE.part files and last checkpoint for --resume)
 */
#ifndef GAPS_COMMANDS_H
#define GAPS_COMMANDS_H

#include <stddef.h>
#include "gaps/state.h"
#include "program/outfile.h"

#define EXIT_RUN_FAILED 1
#define EXIT_USAGE 2
#define EXIT_BAD_EVENTS 3

/* `gaps [options]`: a run (run.c); argv as main's. */
int gaps_run_command(int argc, char **argv);

/* `gaps merge [options] STATE...` (merge.c); argv[0] is "merge". */
int gaps_merge_command(int argc, char **argv);

/* `gaps lhe-check [--quiet] FILE` (lhe_check.c); argv[0] is "lhe-check".  0 for a valid
 * Les Houches Event file, EXIT_USAGE for an invalid one, EXIT_RUN_FAILED when the system
 * fails (memory, a read error). */
int gaps_lhe_check_command(int argc, char **argv);

/* ---- shared by the run and the merge (commands.c) ---- */

/* gaps_state_read, with two reasons it does not give: a directory is named as one (not a
 * "read error"), and a failure for want of descriptors or memory is the system's (exit 1),
 * not the file's (exit 2).  0, or an exit status with the reason in msg. */
int gaps_read_state(const char *path, gaps_state *st, gaps_resume_point *rp, char *msg,
                    size_t len);

/* An output must not replace a file the program reads (a run card, a state to merge): the
 * input would be lost.  -1 with a message when one of outs[0..n) is the file `input` (same
 * device and inode, whatever the names and links), else 0. */
int gaps_clobbers_input(const gaps_outfile *outs, int n, const char *input, const char *what,
                        char *msg, size_t len);

/* --help and --version: their text must reach standard output, or the exit status says not.
 * 0, or EXIT_RUN_FAILED with a message on standard error. */
int gaps_finish_stdout(void);

#endif
