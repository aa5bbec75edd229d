/* outfile.h -- output files that appear complete, or not at all.
 *
 * A run of gaps writes several files (histograms, JSON summary, CSV tables, HepMC3 events,
 * state and checkpoint files).  A reader must never see a half-written one, a failed run must
 * leave the old files as they were, and a destination that is not a plain file (a FIFO, a
 * terminal, /dev/null, standard output) must be written like any Unix tool writes it: in
 * place, without replacing the node by a regular file.  This module does that for a set of
 * outputs at once:
 *
 *   gaps_outfile out[2];
 *   gaps_outfile_init(&out[0], "--output", "lep.yoda", GAPS_OUTFILE_ATOMIC);
 *   gaps_outfile_init(&out[1], "--json", json_path_or_NULL, GAPS_OUTFILE_ATOMIC);
 *   if (gaps_outfiles_prepare(out, 2, msg, sizeof msg) != 0) { report msg; exit 2; }
 *   ... run; write to gaps_outfile_stream(&out[k]) where it is not NULL ...
 *   if (failed) gaps_outfiles_discard(out, 2);
 *   else if (gaps_outfiles_commit(out, 2, msg, sizeof msg) != 0) { report msg; exit 1; }
 *
 * How each destination is written (decided by gaps_outfiles_prepare):
 *
 *   regular file or new name, mode ATOMIC: the content goes to an anonymous file in the
 *     destination's directory (Linux O_TMPFILE).  It has no name until commit, so an
 *     interrupted or killed run (SIGKILL included) leaves nothing behind.  Commit gives it a
 *     hidden name (".gaps-XXXXXX") and renames that over the destination.  Where the file
 *     system has no O_TMPFILE, a hidden file ".gaps-XXXXXX" is created instead; only that case
 *     leaves a file on SIGKILL (see "Signals" below).  Temporary names are short and unrelated
 *     to the destination's name, so a 255-byte file name or a path at PATH_MAX still works
 *     and a temporary name can never be the destination itself.
 *   regular file or new name, mode PARTIAL: for streamed outputs of a checkpointed run.  The
 *     content goes to the visible file DEST.part, which a later run can resume
 *     (gaps_outfile_resume); commit renames it to DEST.  A failed or interrupted run keeps
 *     DEST.part on purpose.  DEST.part is owned by the run for its whole life: an advisory
 *     lock (an open file description lock, see outfile.c) is taken on it before anything else
 *     happens to it, so a second run given the same output, or a --resume of a run that is
 *     still going, is refused at once with the other run's process id, before anything is
 *     cut; and the commit checks that DEST.part is still the file the run holds.
 *   FIFO, character device (terminal, /dev/null), or "-" (standard output): written in
 *     place (DIRECT); never renamed over and never truncated.  What was written to such a
 *     destination cannot be taken back when the run later fails.  A path through a link to
 *     one of the program's open descriptors (/dev/stdout, /dev/fd/N, /proc/self/fd/N)
 *     writes to a duplicate of that descriptor, as a shell does, whatever its type; other
 *     /proc links are opened by the kernel and written in place (a regular file appended
 *     to, never truncated or replaced).
 *
 * Symbolic links are written through: the link stays, the file it names gets the content (a
 * dangling link creates the file it names, if that file's directory exists).  A replaced
 * regular file keeps its permission bits (and, when run as root, its owner).  Paths are
 * handled relative to an open descriptor of the destination's directory, so the only length
 * limit is that of each directory path and file name the kernel accepts.
 *
 * Signals: an anonymous file needs no cleanup.  The names that do exist for a while (the
 * fallback hidden files, and each ATOMIC output's hidden name between link and rename in
 * commit) are kept in a small fixed table of GAPS_OUTFILE_MAX entries, each a directory
 * descriptor and a short name.  A signal handler of the program should call
 * gaps_outfiles_cleanup_signal_safe() (async-signal-safe: it only calls getpid and unlinkat)
 * and then die by the signal.  That table is this module's only global state; it is not
 * changed by the signal handler.  Names are removed only by the process that made them, so a
 * forked child's handler does not remove its parent's files.  DEST.part files are never
 * removed by it (only gaps_outfiles_abandon removes those its own prepare created).
 *
 * Not thread-safe: prepare, commit and discard belong to the main thread, outside parallel
 * regions.  A gaps_outfile must not move in memory between prepare and commit/discard (its
 * stream refers to it), and every prepared set must be committed or discarded before the
 * program exits or the set goes out of scope: exit() flushes every open stdio stream.
 * Linux with glibc or musl (O_TMPFILE, linkat, fopencookie).
 */
#ifndef GAPS_OUTFILE_H
#define GAPS_OUTFILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* Most outputs in one call, and most hidden temporary names existing at once in a process. */
#define GAPS_OUTFILE_MAX 16

enum gaps_outfile_mode {
    GAPS_OUTFILE_ATOMIC = 0,   /* appears at the destination only on commit (the default) */
    GAPS_OUTFILE_PARTIAL = 1   /* written as DEST.part, resumable, renamed to DEST on commit */
};

/* Private state; read and written only by outfile.c. */
struct gaps_outfile_internal {
    int kind;             /* how the destination is written (outfile.c: enum kind) */
    int state;            /* initialised, prepared, finished */
    FILE *f;              /* the stream handed out; writes go to fd through it */
    char *buf;            /* f's buffer */
    int fd;               /* the file written, -1 when none */
    int dirfd;            /* the final target's directory, -1 when none */
    int dir_syncable;     /* dirfd was opened for reading, so it can be fsync'ed */
    char *base;           /* the final target's name inside dirfd */
    char *part;           /* PARTIAL: base + ".part" */
    char tmp[16];         /* hidden temporary name, "" when none exists */
    int slot;             /* entry of the signal-cleanup table reserved for tmp, -1: none */
    int exists;           /* the target existed when prepared (2: the null device) */
    int magic;            /* the path ends in a /proc link (/dev/stdout): kernel follows it */
    int magic_fd;         /* that link is our own descriptor N (/proc/self/fd/N), else -1 */
    int has_dir;          /* dir_dev/dir_ino are valid (not for standard output) */
    int dest_fd;          /* the existing destination, held (O_PATH) until the commit */
    dev_t dev, dir_dev;   /* identity of the existing target and of its directory */
    ino_t ino, dir_ino;
    int part_created;     /* prepare created DEST.part (so a failing prepare removes it) */
    int locked;           /* PARTIAL: fd holds the ownership lock of DEST.part */
    dev_t part_dev;       /* PARTIAL: identity of the DEST.part that fd holds */
    ino_t part_ino;
    char bak[16];         /* commit: hidden name of the replaced file kept for a rollback */
    int old_present;      /* commit: a file was at the destination when the commit began */
    int aside;            /* commit: that file is moved aside (no hard links here), not linked */
    int renamed;          /* commit: this output is in place (a rollback takes it back) */
    int discarding;       /* set while discarding: the stream's last bytes are dropped */
    int err;              /* first write error (errno value), 0 while none */
    long long resume;     /* PARTIAL: byte offset to resume at, -1 for a fresh start */
    long long bytes;      /* bytes written through f, plus the resume offset */
    mode_t new_mode;      /* mode of a new file made through the fallback (0666 & ~umask) */
};

/* One requested output. */
typedef struct gaps_outfile {
    const char *path;    /* destination as given; NULL: not requested; "-": standard output */
    const char *label;   /* names the output in messages, e.g. "--json" */
    int mode;            /* enum gaps_outfile_mode */
    struct gaps_outfile_internal in;
} gaps_outfile;

/* Describe an output; nothing is opened yet.  path NULL means the output was not requested
 * (every function then treats it as absent); path "-" means standard output.  label and path
 * are not copied and must live until the output is committed or discarded. */
void gaps_outfile_init(gaps_outfile *o, const char *label, const char *path, int mode);

/* Ask that a PARTIAL output continue its DEST.part from a checkpoint: the file is cut to
 * offset bytes (whatever was written after the checkpoint's sync is dropped) and writing goes
 * on from there.  Call it after gaps_outfile_init and BEFORE gaps_outfiles_prepare, which
 * checks that DEST.part exists, is a regular file and has at least offset bytes; so a
 * resume that cannot work fails before anything is changed.  Returns 0, or -1 with a message
 * (not a PARTIAL output, negative offset, already prepared). */
int gaps_outfile_resume(gaps_outfile *o, long long offset, char *msg, size_t len);

/* Check every requested output of set[0..n-1], then open them all.  Refused, with nothing
 * created or changed: an empty path, a path ending in '/', a directory, a missing parent
 * directory, a directory or existing file that cannot be written (an existing file is opened
 * for writing without truncation to find out, which also catches immutable files), a block
 * device or socket, two outputs that are the same file (same name, names through symbolic
 * links or hard links, "./x" and "x"; only the null device may be shared), "-" for more than
 * one output, a PARTIAL name DEST.part longer than the system allows, and a resume that does
 * not match its DEST.part.  On refusal msg gets one line such as
 *   cannot write '--json' to 'x/y.json': No such file or directory
 * and -1 is returned (the program should exit with status 2); -2 when the system failed
 * rather than the request (out of file descriptors, memory or disk space, an I/O error: exit
 * status 1), with the message as well.  A DEST.part that another run holds is refused (-1)
 * with "'LABEL' 'DEST.part' belongs to a run that is still going (process N)...".  A path in
 * a kernel file system (/proc, /sys) that is not a device or FIFO is refused as such.  On
 * success returns 0.
 * A FIFO with a reader is opened without blocking; one without a reader is opened last,
 * waiting for a reader as a shell redirection would.  Output to "-" flushes stdout first;
 * afterwards the program must not write to stdout itself (see gaps_outfile_is_stdout).  Must
 * not be called again on an output that is prepared and not yet committed or discarded. */
int gaps_outfiles_prepare(gaps_outfile *set, int n, char *msg, size_t len);

/* The stream to write an output with, or NULL when it was not requested or is not prepared.
 * Write errors are remembered with their reason and reported by gaps_outfiles_commit; a
 * stream that had an error drops everything written after it.  Do not fclose it. */
FILE *gaps_outfile_stream(gaps_outfile *o);

/* 1 when the output goes to standard output ("-"), so that the program can send its own
 * messages to stderr instead; valid before prepare. */
int gaps_outfile_is_stdout(const gaps_outfile *o);

/* 1 when a prepared output is written in place (FIFO, device, standard output): it cannot be
 * resumed or taken back. */
int gaps_outfile_is_direct(const gaps_outfile *o);

/* Bytes written to the output so far (after flushing the stream), counting from the start of
 * the file, so a resumed PARTIAL output includes the resume offset: the value a checkpoint
 * records for gaps_outfile_resume.  -1 with errno set if the output is not prepared or a
 * write failed. */
long long gaps_outfile_tell(gaps_outfile *o);

/* Flush the stream and fsync the file, so that gaps_outfile_tell's bytes are on disk before a
 * checkpoint names them.  For a pipe or device the fsync is skipped where it does not apply.
 * 0, or -1 with errno set. */
int gaps_outfile_sync(gaps_outfile *o);

/* Flush the streams of set[0..n-1] and report the first output that has had a write error:
 * -1 with msg as gaps_outfiles_commit would put it (e.g. "writing '--output' to '/dev/full'
 * failed: No space left on device"), else 0.  Changes nothing else: for a program whose
 * writer returned an error, to say why before it discards the set. */
int gaps_outfiles_error(gaps_outfile *set, int n, char *msg, size_t len);

/* Put every prepared output of set[0..n-1] in place, all or nothing:
 *   1. flush and fsync every file (DIRECT outputs: flush, and close unless standard output);
 *      if any output had a write error, discard them all;
 *   2. give every ATOMIC file a hidden name and copy the replaced file's mode and owner; if
 *      that fails for any output, remove those names and discard them all;
 *   3. check every file output before anything changes: its DEST.part is still the file the
 *      run holds (not removed or replaced), no other file took the destination's place since
 *      prepare (a file removed meanwhile is no conflict), its directory takes a new entry;
 *      if not, discard them all;
 *   4. give each file about to be replaced a second, hidden name (a hard link; where the file
 *      system has none, the file is moved to that name just before its rename), then rename
 *      the outputs into place in the order of the set.  If a rename fails, the outputs already
 *      renamed are put back, newest first: the replaced file returns from its hidden name, a
 *      DEST.part returns to its name, a new name is removed; then all are discarded;
 *   5. remove the hidden names and fsync the directories.
 * Signals are held during step 4.  So a failure leaves every destination as it was (unless
 * putting one back fails as well, which the message says).  Returns 0, or -1 with one line
 * in msg such as
 *   writing '--hepmc' to 'ev.hepmc' failed: No space left on device
 * Afterwards every output of the set is finished (its stream is gone).  What was written in
 * place (FIFOs, devices, standard output) cannot be taken back. */
int gaps_outfiles_commit(gaps_outfile *set, int n, char *msg, size_t len);

/* As gaps_outfiles_discard, and also remove each DEST.part that this prepare created: for a
 * run that fails before it has written anything worth resuming (its first checkpoint). */
void gaps_outfiles_abandon(gaps_outfile *set, int n);

/* Drop every prepared, uncommitted output of set[0..n-1]: anonymous files vanish, hidden
 * fallback files are removed, DEST.part files are KEPT (closed), because a later run resumes
 * them from its checkpoint; FIFOs and devices are closed with what was written.  Safe to call
 * on outputs that are not requested, not prepared or already finished. */
void gaps_outfiles_discard(gaps_outfile *set, int n);

/* Remove every hidden temporary name this process currently has, using only
 * async-signal-safe calls (getpid, unlinkat), with errno preserved: call it from the
 * program's handler of SIGINT, SIGTERM, SIGHUP, SIGPIPE... before re-raising the signal.
 * Anonymous files need nothing and DEST.part files are kept. */
void gaps_outfiles_cleanup_signal_safe(void);

/* ---- a file owned for the life of a run: the checkpoint ----
 * A checkpoint is replaced at every checkpoint (a new file renamed over the old), so the lock
 * cannot simply stay on one file: each new checkpoint is locked before it gets its name and
 * the old one's lock is let go only after the rename.  And before every checkpoint and before
 * the final commit the path must still name the file this run holds: a checkpoint that
 * another process replaced or removed means two runs share it, and the run stops (exit 1)
 * before it commits anything.
 *
 *   gaps_owned ck;  gaps_owned_init(&ck);
 *   gaps_owned_take(&ck, "--checkpoint", path, 1, msg, len);  -- at the start, before anything
 *   ... each checkpoint: prepare an ATOMIC gaps_outfile for path, write, gaps_owned_commit
 *   gaps_owned_check(&ck, ...) before committing the outputs; gaps_owned_remove at the end. */
typedef struct gaps_owned {
    gaps_outfile where;   /* the path, resolved as an output is (label and path as given) */
    int active;           /* a regular file or none at path: owned; 0 for devices, "-", NULL */
    int fd;               /* holds the lock of the file now at path; -1: none held (yet) */
    dev_t dev;            /* its identity */
    ino_t ino;
} gaps_owned;

void gaps_owned_init(gaps_owned *w);
/* Lock the file at path (opened for writing if `writable`, else for reading), if there is
 * one.  0: locked, or nothing there yet, or a path that is no regular file (not owned; the
 * outputs' own checks judge it); -1: another run holds it, msg names its process id ("LABEL
 * 'PATH' belongs to a run that is still going (process N)...": exit 2); -2: the system failed
 * (exit 1).  label and path must live until gaps_owned_release. */
int gaps_owned_take(gaps_owned *w, const char *label, const char *path, int writable, char *msg,
                    size_t len);
/* 0 if path still names the file this run holds (or still nothing, if it holds none); -1 with
 * "LABEL 'PATH' was replaced/removed/created ...; nothing was committed" otherwise. */
int gaps_owned_check(const gaps_owned *w, char *msg, size_t len);
/* Commit o, a prepared ATOMIC output to the owned path, in place of the file held: checks
 * ownership first, locks the new file, and holds it afterwards.  0, or -1 with msg (o is
 * finished either way). */
int gaps_owned_commit(gaps_owned *w, gaps_outfile *o, char *msg, size_t len);
/* The run is complete: remove the file if the path (not followed if a symbolic link) still
 * names the file held, then let go. */
void gaps_owned_remove(gaps_owned *w);
/* Let go of the lock and the path (the file stays). */
void gaps_owned_release(gaps_owned *w);

#endif
