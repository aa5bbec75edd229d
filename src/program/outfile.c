/* outfile.c -- output files that appear complete, or not at all (see outfile.h).
 *
 * Every file operation is relative to a descriptor of the final target's directory (openat,
 * fstatat, linkat, renameat), so the code never builds a longer path than the one it was
 * given, and a directory renamed during the run does not redirect the commit.
 *
 * Test-only switches (never set in a normal build):
 *   GAPS_OUTFILE_TEST_NO_TMPFILE     act as if the file system had no O_TMPFILE (fallback)
 *   GAPS_OUTFILE_TEST_NO_EMPTY_PATH  link anonymous files through /proc/self/fd only
 *   GAPS_OUTFILE_TEST_NO_HARDLINK    act as if the file system had no hard links for the
 *                                    commit's rollback names (files are moved aside instead)
 *   GAPS_TEST_HOOKS                  run the hooks of testhook.h in the commit
 */
#define _GNU_SOURCE   /* O_TMPFILE, AT_EMPTY_PATH, fopencookie */
#include "program/outfile.h"
#include "program/one_line.h"
#include "program/shown_path.h"
#include "program/testhook.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

enum kind {
    K_NONE = 0,
    K_ANON,     /* ATOMIC, anonymous O_TMPFILE file */
    K_NAMED,    /* ATOMIC, hidden fallback file */
    K_PART,     /* PARTIAL, DEST.part */
    K_DEVICE,   /* in place: a character device, or a descriptor reached through /proc */
    K_FIFO,     /* FIFO, written in place */
    K_STDOUT    /* "-" */
};

enum state { S_INIT = 0, S_PREPARED, S_FINISHED };

#define STREAM_BUF (1 << 16)    /* large writes for big event files */
#define MAX_LINKS 40            /* symbolic links followed, as the kernel's own limit */
#define TMP_PREFIX ".gaps-"
#define PROC_FS_MAGIC 0x9fa0   /* statfs f_type of /proc (linux/magic.h) */

/* ---- the signal-cleanup table: the module's only global state ----
 * An entry is filled while `used` is 0 and published by storing 1 (release); the handler
 * reads `used` (acquire) before the rest.  atomic_int is lock-free on every Linux target, so
 * reading it is async-signal-safe.  `reserved` is touched only by the main thread. */
static struct {
    atomic_int used;
    pid_t pid;
    int dirfd;
    char name[16];
} cleanup_table[GAPS_OUTFILE_MAX];
static int cleanup_reserved[GAPS_OUTFILE_MAX];

static int slot_reserve(void)
{
    for (int i = 0; i < GAPS_OUTFILE_MAX; ++i)
        if (!cleanup_reserved[i]) {
            cleanup_reserved[i] = 1;
            return i;
        }
    return -1;
}

static void slot_publish(int i, int dirfd, const char *name)
{
    cleanup_table[i].pid = getpid();
    cleanup_table[i].dirfd = dirfd;
    strcpy(cleanup_table[i].name, name);   /* at most 15 bytes: see temp_name */
    atomic_store_explicit(&cleanup_table[i].used, 1, memory_order_release);
}

static void slot_clear(int i)
{
    if (i >= 0) atomic_store_explicit(&cleanup_table[i].used, 0, memory_order_release);
}

static void slot_release(int i)
{
    if (i < 0) return;
    slot_clear(i);
    cleanup_reserved[i] = 0;
}

void gaps_outfiles_cleanup_signal_safe(void)
{
    const int saved = errno;
    const pid_t me = getpid();
    for (int i = 0; i < GAPS_OUTFILE_MAX; ++i)
        if (atomic_load_explicit(&cleanup_table[i].used, memory_order_acquire) &&
            cleanup_table[i].pid == me)
            unlinkat(cleanup_table[i].dirfd, cleanup_table[i].name, 0);
    errno = saved;
}

/* Creating a name and entering it in the table happen with signals blocked in this thread,
 * so that a handler never runs between the two and misses the name. */
static void signals_block(sigset_t *old)
{
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, old);
}

static void signals_restore(const sigset_t *old) { sigprocmask(SIG_SETMASK, old, NULL); }

/* ---- messages: one line, whatever bytes the paths contain ---- */
static void say(char *msg, size_t len, const char *fmt, ...)
{
    if (!msg || len == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, len, fmt, ap);
    va_end(ap);
    gaps_one_line(msg);
}

static const char *label_of(const gaps_outfile *o) { return o->label ? o->label : "output"; }

/* A path as shown in a message (shown_path.h), so that the reason after it still fits the
 * caller's buffer.  buf must have SHOWN bytes. */
#define SHOWN (GAPS_SHOWN_PATH_MAX + 1)
static const char *shown(const char *p, char *buf)
{
    const size_t n = strlen(p);
    size_t head, tail;
    if (!gaps_shown_path_cut(p, n, &head, &tail)) return p;
    memcpy(buf, p, head);
    memcpy(buf + head, "...", 3);
    memcpy(buf + head + 3, p + tail, n - tail + 1);
    return buf;
}

/* ---- ownership: advisory locks on the files a run writes in place ----
 * A DEST.part and the checkpoint are locked for the life of the run with an open file
 * description lock (fcntl F_OFD_SETLK, Linux 3.15+): it belongs to the descriptor, so no
 * other open or close of the same file in this process can drop it (as it would a classic
 * POSIX lock), and it goes away with the process however it ends.  Byte 0 is the lock itself.
 * Such locks do not tell another process who holds them (F_OFD_GETLK reports pid -1), so the
 * holder also locks the one byte at OWNER_BASE + its pid, far beyond any real file size: a
 * process that finds byte 0 taken asks for the first lock in [OWNER_BASE, OWNER_BASE + 2^32)
 * and reads the pid off its offset.  Advisory locks do not stop anyone writing; every gaps
 * process takes them, so two runs of gaps cannot share a file, and a file replaced or
 * removed by anything else is found by its identity (device, inode) before the commit.
 * Where the kernel has no OFD locks, flock() does the exclusion (without the pid). */
#define OWNER_BASE ((off_t)1 << 40)
#define OWNER_SPAN ((off_t)1 << 32)

/* errno values that say the system ran short, not that the user asked for something
 * impossible: exit status 1 rather than 2 (outfile.h, gaps_outfiles_prepare). */
static int resource_errno(int e)
{
    return e == EMFILE || e == ENFILE || e == ENOMEM || e == ENOSPC || e == EDQUOT || e == EIO
           || e == ENOLCK;
}

/* Lock fd's file for this run.  0: locked; 1: another process holds it (*owner: its pid, or 0
 * when it cannot be told); 2: this file system has no locks (ENOLCK, EOPNOTSUPP: the run goes
 * on, guarded by the identity checks alone); -1: error (errno). */
static int own_fd(int fd, pid_t *owner)
{
    *owner = 0;
    const int fl = fcntl(fd, F_GETFL);
    const short type = fl >= 0 && (fl & O_ACCMODE) == O_RDONLY ? F_RDLCK : F_WRLCK;
#ifdef F_OFD_SETLK
    struct flock lk;
    memset(&lk, 0, sizeof lk);
    lk.l_type = type;
    lk.l_whence = SEEK_SET;
    lk.l_start = 0;
    lk.l_len = 1;
    if (fcntl(fd, F_OFD_SETLK, &lk) == 0) {
        memset(&lk, 0, sizeof lk);
        lk.l_type = type;
        lk.l_whence = SEEK_SET;
        lk.l_start = OWNER_BASE + (off_t)getpid();
        lk.l_len = 1;
        (void)fcntl(fd, F_OFD_SETLK, &lk);   /* only tells others who we are */
        return 0;
    }
    if (errno == EAGAIN || errno == EACCES) {
        memset(&lk, 0, sizeof lk);
        lk.l_type = F_WRLCK;
        lk.l_whence = SEEK_SET;
        lk.l_start = OWNER_BASE;
        lk.l_len = OWNER_SPAN;
        if (fcntl(fd, F_OFD_GETLK, &lk) == 0 && lk.l_type != F_UNLCK && lk.l_start > OWNER_BASE
            && lk.l_start < OWNER_BASE + OWNER_SPAN)
            *owner = (pid_t)(lk.l_start - OWNER_BASE);
        return 1;
    }
    if (errno == ENOLCK || errno == EOPNOTSUPP) return 2;
    if (errno != EINVAL) return -1;
#endif
    if (flock(fd, (type == F_RDLCK ? LOCK_SH : LOCK_EX) | LOCK_NB) == 0) return 0;
    if (errno == EWOULDBLOCK) return 1;
    return errno == ENOLCK || errno == EOPNOTSUPP ? 2 : -1;
}

/* "... belongs to a run that is still going (process N)" */
static void say_held(char *msg, size_t len, const char *what, const char *path, pid_t who)
{
    char sb[SHOWN], pid[48] = "another process";
    if (who > 0) snprintf(pid, sizeof pid, "process %ld", (long)who);
    say(msg, len, "%s '%s' belongs to a run that is still going (%s): two runs cannot write "
                  "one file; wait for it to end or stop it first", what, shown(path, sb), pid);
}

/* The kernel's own file systems: they hold no files a program creates, and what looks like a
 * regular file there is an interface of the kernel.  The name of the type, else NULL. */
static const char *kernel_fs_name(int dirfd)
{
    struct statfs sf;
    if (fstatfs(dirfd, &sf) != 0) return NULL;
    switch ((unsigned long)sf.f_type) {
    case 0x9fa0: return "proc";
    case 0x62656572: return "sysfs";
    case 0x27e0eb: return "cgroup";
    case 0x63677270: return "cgroup2";
    case 0x64626720: return "debugfs";
    case 0x74726163: return "tracefs";
    case 0x73636673: return "securityfs";
    case 0x62656570: return "configfs";
    case 0xcafe4a11: return "bpf";
    case 0x6165676c: return "pstore";
    case 0xde5e81e4: return "efivarfs";
    default: return NULL;
    }
}

static int part_is_ours(const struct gaps_outfile_internal *in);

/* ---- the stream: a stdio FILE over our descriptor that remembers why a write failed ----
 * stdio's error flag loses errno; with fopencookie the first failure's errno is kept, so the
 * commit can say "No space left on device", and bytes are counted even on pipes. */
static ssize_t stream_write(void *cookie, const char *data, size_t size)
{
    struct gaps_outfile_internal *in = cookie;
    if (in->discarding) return (ssize_t)size;   /* being thrown away: skip the I/O */
    if (in->err) {                              /* keep failing: no file with a hole */
        errno = in->err;
        return 0;
    }
    size_t done = 0;
    while (done < size) {
        ssize_t w = write(in->fd, data + done, size - done);
        if (w < 0) {
            if (errno == EINTR) continue;   /* a handler that returns: the data still goes */
            in->err = errno;
            break;
        }
        done += (size_t)w;
    }
    in->bytes += (long long)done;
    if (in->err) {
        errno = in->err;
        return 0;   /* fopencookie: 0 reports an error */
    }
    return (ssize_t)size;
}

static int stream_open(gaps_outfile *o)
{
    struct gaps_outfile_internal *in = &o->in;
    cookie_io_functions_t io = { NULL, stream_write, NULL, NULL };   /* we close fd ourselves */
    in->buf = malloc(STREAM_BUF);
    if (!in->buf) return -1;
    in->f = fopencookie(in, "w", io);
    if (!in->f) {
        free(in->buf);
        in->buf = NULL;
        return -1;
    }
    /* A terminal gets each line as it is written, as stdio does for stdout. */
    setvbuf(in->f, in->buf, isatty(in->fd) ? _IOLBF : _IOFBF, STREAM_BUF);
    return 0;
}

/* Close the stream (flushing it unless discarding); 0, or -1 with the write error's errno. */
static int stream_close(struct gaps_outfile_internal *in)
{
    if (!in->f) return in->err ? (errno = in->err, -1) : 0;
    int bad = fclose(in->f) != 0;
    in->f = NULL;
    free(in->buf);
    in->buf = NULL;
    if (in->err) {
        errno = in->err;
        return -1;
    }
    if (bad && !in->discarding) {
        if (!errno) errno = EIO;
        return -1;
    }
    return 0;
}

/* Flush, returning the first write error through errno. */
static int stream_flush(struct gaps_outfile_internal *in)
{
    if (!in->f) return 0;
    errno = 0;
    int bad = fflush(in->f) != 0 || ferror(in->f);
    if (in->err) {
        errno = in->err;
        return -1;
    }
    if (bad) {
        if (!errno) errno = EIO;
        return -1;
    }
    return 0;
}

/* ---- names ---- */

/* A fresh hidden name ".gaps-XXXXXX" (12 bytes).  It is short whatever the destination, and
 * it never equals any destination or DEST.part name of the set (a destination may itself
 * look like one).  No state: the clock, the pid, the buffer's address and the attempt number
 * are mixed, and a name already present makes the caller try again. */
static void temp_name(char name[16], const gaps_outfile *set, int n, unsigned attempt)
{
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^
                 ((uint64_t)getpid() << 20) ^ (uint64_t)(uintptr_t)name ^
                 ((uint64_t)attempt * 0x9e3779b97f4a7c15u);
    for (;;) {
        x += 0x9e3779b97f4a7c15u;   /* splitmix64 */
        uint64_t z = x;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
        z ^= z >> 31;
        memcpy(name, TMP_PREFIX, sizeof TMP_PREFIX - 1);
        for (size_t k = 0; k < 6; ++k) {
            name[sizeof TMP_PREFIX - 1 + k] = abc[z % (sizeof abc - 1)];
            z /= sizeof abc - 1;
        }
        name[sizeof TMP_PREFIX - 1 + 6] = '\0';
        int clash = 0;
        for (int i = 0; i < n && !clash; ++i)
            clash = (set[i].in.base && !strcmp(set[i].in.base, name)) ||
                    (set[i].in.part && !strcmp(set[i].in.part, name));
        if (!clash) return;
    }
}

/* Open the directory part of p (the bytes before its last '/'), relative to at. */
static int open_dir(int at, const char *p, const char *slash, int *syncable)
{
    char *d;
    if (!slash) d = strdup(".");
    else if (slash == p) d = strdup("/");
    else d = strndup(p, (size_t)(slash - p));
    if (!d) return -1;
    int fd = openat(at, d, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    *syncable = fd >= 0;
    if (fd < 0 && errno == EACCES)   /* write+search but no read permission: still usable */
        fd = openat(at, d, O_PATH | O_DIRECTORY | O_CLOEXEC);
    const int e = errno;
    free(d);
    errno = e;
    return fd;
}

/* Find the file that writing to o->path would write: open its directory as in->dirfd and
 * store its name there in in->base, following symbolic links in the last component (those in
 * the directory part are followed by the kernel).  *st gets the target's status when it
 * exists.  0, or -1 with errno set, or with *why set for a reason errno cannot express. */
static int resolve(gaps_outfile *o, struct stat *st, const char **why)
{
    struct gaps_outfile_internal *in = &o->in;
    const char *name = o->path;
    char *link = NULL;
    int at = AT_FDCWD, syncable = 0;
    for (int depth = 0;; ++depth) {
        if (depth > MAX_LINKS) {
            errno = ELOOP;
            goto fail;
        }
        const size_t len = strlen(name);
        if (len == 0) {
            if (depth == 0) *why = "empty file name";
            else errno = ENOENT;
            goto fail;
        }
        if (name[len - 1] == '/') {
            if (depth == 0) *why = "the name ends in '/' (a directory)";
            else errno = EISDIR;
            goto fail;
        }
        const char *slash = strrchr(name, '/');
        int fd = open_dir(at, name, slash, &syncable);
        if (fd < 0) goto fail;
        if (at != AT_FDCWD) close(at);
        at = fd;
        const char *base = slash ? slash + 1 : name;
        int r = fstatat(at, base, st, AT_SYMLINK_NOFOLLOW);
        if (r != 0 && errno != ENOENT) goto fail;
        if (r != 0 || !S_ISLNK(st->st_mode)) {
            in->exists = r == 0;
            in->base = strdup(base);
            if (!in->base) goto fail;
            break;
        }
        /* A link in /proc (/dev/stdout -> /proc/self/fd/1, /dev/fd/N) names an open
         * descriptor's file, which its text ("pipe:[123]", "/x (deleted)") need not name:
         * only the kernel can follow it.  Such a path is written in place (see check_one). */
        struct statfs sf;
        if (fstatfs(at, &sf) == 0 && sf.f_type == PROC_FS_MAGIC) {
            /* One of our own descriptors (/proc/self/fd/N, also reached through /dev/stdout
             * and /dev/fd/N) is used through a duplicate, as a shell does: no permission
             * check on reopening, and a file keeps its offset and O_APPEND. */
            struct stat ds, self;
            char *end;
            errno = 0;
            const long fdn = strtol(base, &end, 10);
            if (fstat(at, &ds) == 0 && stat("/proc/self/fd", &self) == 0 &&
                ds.st_dev == self.st_dev && ds.st_ino == self.st_ino && base[0] >= '0' &&
                base[0] <= '9' && *end == '\0' && errno == 0 && fdn <= INT_MAX)
                in->magic_fd = (int)fdn;
            else if (stat(o->path, st) != 0)
                goto fail;
            in->magic = 1;
            in->exists = 1;
            in->base = strdup(base);
            if (!in->base) goto fail;
            break;
        }
        /* A symbolic link: continue with what it names, relative to its directory. */
        char *target = malloc(PATH_MAX);
        if (!target) goto fail;
        ssize_t n = readlinkat(at, base, target, PATH_MAX);
        if (n < 0 || n >= PATH_MAX) {
            if (n >= PATH_MAX) errno = ENAMETOOLONG;
            free(target);
            goto fail;
        }
        target[n] = '\0';
        free(link);
        link = target;
        name = link;
    }
    free(link);
    struct stat ds;
    if (fstat(at, &ds) != 0) {
        const int e = errno;
        close(at);
        free(in->base);
        in->base = NULL;
        errno = e;
        return -1;
    }
    in->dirfd = at;
    in->dir_syncable = syncable;
    in->dir_dev = ds.st_dev;
    in->dir_ino = ds.st_ino;
    in->has_dir = !in->magic;   /* a /proc link's name says nothing about its file */
    return 0;
fail:;
    const int e = errno;
    if (at != AT_FDCWD) close(at);
    free(link);
    errno = e;
    return -1;
}

/* ---- life cycle ---- */

void gaps_outfile_init(gaps_outfile *o, const char *label, const char *path, int mode)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    o->label = label;
    o->mode = mode == GAPS_OUTFILE_PARTIAL ? GAPS_OUTFILE_PARTIAL : GAPS_OUTFILE_ATOMIC;
    o->in.fd = -1;
    o->in.dirfd = -1;
    o->in.slot = -1;
    o->in.resume = -1;
    o->in.magic_fd = -1;
    o->in.dest_fd = -1;
}

int gaps_outfile_resume(gaps_outfile *o, long long offset, char *msg, size_t len)
{
    char sb[SHOWN];
    if (!o->path) {
        say(msg, len, "cannot resume '%s': the output is not requested", label_of(o));
        return -1;
    }
    if (o->mode != GAPS_OUTFILE_PARTIAL || offset < 0 || o->in.state != S_INIT) {
        say(msg, len, "cannot resume '%s' to '%s': %s", label_of(o), shown(o->path, sb),
            o->mode != GAPS_OUTFILE_PARTIAL ? "not a partial (resumable) output"
            : offset < 0                    ? "negative offset"
                                            : "already prepared");
        return -1;
    }
    o->in.resume = offset;
    return 0;
}

/* Give back everything an output holds; its files are left as they are. */
static void release(gaps_outfile *o)
{
    struct gaps_outfile_internal *in = &o->in;
    if (in->f) {
        in->discarding = 1;
        stream_close(in);
    }
    if (in->fd >= 0 && in->kind != K_STDOUT) close(in->fd);
    in->fd = -1;
    if (in->dirfd >= 0) close(in->dirfd);
    in->dirfd = -1;
    if (in->dest_fd >= 0) close(in->dest_fd);
    in->dest_fd = -1;
    slot_release(in->slot);
    in->slot = -1;
    free(in->base);
    free(in->part);
    in->base = in->part = NULL;
    in->tmp[0] = '\0';
}

/* Undo a failed prepare: remove what it created, change nothing else. */
static void unprepare(gaps_outfile *set, int n)
{
    for (int i = 0; i < n; ++i) {
        struct gaps_outfile_internal *in = &set[i].in;
        if (!set[i].path) continue;
        if (in->tmp[0]) {
            unlinkat(in->dirfd, in->tmp, 0);
            slot_clear(in->slot);
        }
        if (in->part_created && part_is_ours(in)) unlinkat(in->dirfd, in->part, 0);
        release(&set[i]);
        const long long resume = in->resume;
        gaps_outfile_init(&set[i], set[i].label, set[i].path, set[i].mode);
        set[i].in.resume = resume;
    }
}

static int is_null_device(const struct stat *st, const struct stat *null_st, int have_null)
{
    return have_null && S_ISCHR(st->st_mode) && st->st_rdev == null_st->st_rdev;
}

/* Create the file an ATOMIC output is written to: anonymous where possible, else hidden. */
static int create_atomic(gaps_outfile *o, gaps_outfile *set, int n)
{
    struct gaps_outfile_internal *in = &o->in;
    int fd = -1;
#if defined(O_TMPFILE) && !defined(GAPS_OUTFILE_TEST_NO_TMPFILE)
    fd = openat(in->dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) return -1;
    if (fd >= 0) {
        /* Commit links it through AT_EMPTY_PATH (needs CAP_DAC_READ_SEARCH on many kernels)
         * or else through /proc/self/fd.  Without /proc the second way is unavailable and
         * the first uncertain, so use the fallback rather than lose the output at commit. */
        char proc[40];
        struct stat a, b;
        snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
        if (fstat(fd, &a) == 0 && stat(proc, &b) == 0 && a.st_dev == b.st_dev &&
            a.st_ino == b.st_ino) {
            in->fd = fd;
            in->kind = K_ANON;
            return 0;
        }
        close(fd);
    }
#endif
    /* Fallback: a hidden file, private (0600) until commit gives it its final mode. */
    const mode_t mask = umask(0);   /* read the umask; prepare runs before any threads */
    umask(mask);
    in->new_mode = 0666 & ~mask;
    for (unsigned attempt = 0; attempt < 1000; ++attempt) {
        temp_name(in->tmp, set, n, attempt);
        sigset_t old;
        signals_block(&old);
        fd = openat(in->dirfd, in->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                    0600);
        if (fd >= 0) slot_publish(in->slot, in->dirfd, in->tmp);
        const int e = errno;
        signals_restore(&old);
        if (fd >= 0) {
            in->fd = fd;
            in->kind = K_NAMED;
            return 0;
        }
        in->tmp[0] = '\0';
        if (e != EEXIST) {
            errno = e;
            return -1;
        }
    }
    errno = EEXIST;
    return -1;
}

/* Open an existing FIFO or device where it is (through the kernel for a /proc link). */
static int open_target(const gaps_outfile *o, int flags)
{
    flags |= O_WRONLY | O_NOCTTY | O_CLOEXEC;
    return o->in.magic ? open(o->path, flags) : openat(o->in.dirfd, o->in.base, flags);
}

/* Take fd, an open DEST.part, for this run: lock it and make sure that DEST.part still names
 * it (it may have been renamed or replaced between the open and the lock: by a run that
 * committed it, for one).  0: held, in->fd is fd; 1: it changed, fd closed, look again; -1 (a
 * run holds it) or -2 (system error): fd closed, msg says why. */
static int lock_part(gaps_outfile *o, int fd, char *msg, size_t len)
{
    struct gaps_outfile_internal *in = &o->in;
    char part[SHOWN + 8], sb[SHOWN];
    pid_t who;
    const int r = own_fd(fd, &who);
    if (r == 1 || r < 0) {
        const int e = errno;
        close(fd);
        snprintf(part, sizeof part, "%s.part", shown(o->path, sb));
        if (r == 1) {
            char what[64];
            snprintf(what, sizeof what, "%s", label_of(o));
            say_held(msg, len, what, part, who);
            return -1;
        }
        say(msg, len, "cannot write '%s' to '%s': cannot lock it: %s", label_of(o), part,
            strerror(e));
        return resource_errno(e) ? -2 : -1;
    }
    struct stat a, b;
    if (fstat(fd, &a) != 0 || fstatat(in->dirfd, in->part, &b, AT_SYMLINK_NOFOLLOW) != 0
        || a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
        close(fd);
        return 1;
    }
    in->fd = fd;
    in->locked = r == 0;
    in->part_dev = a.st_dev;
    in->part_ino = a.st_ino;
    return 0;
}

/* Is DEST.part still the file this run holds? */
static int part_is_ours(const struct gaps_outfile_internal *in)
{
    struct stat st;
    return in->part && fstatat(in->dirfd, in->part, &st, AT_SYMLINK_NOFOLLOW) == 0
           && st.st_dev == in->part_dev && st.st_ino == in->part_ino;
}

/* Check one output and open what can be opened without creating or changing anything.
 * 0, or -1 with the message written. */
static int check_one(gaps_outfile *o, const struct stat *null_st, int have_null, char *msg,
                     size_t len)
{
    struct gaps_outfile_internal *in = &o->in;
    const char *why = NULL;
    struct stat st;
    char sb[SHOWN];
    in->kind = K_NONE;

    if (!strcmp(o->path, "-")) {
        int fl = fcntl(STDOUT_FILENO, F_GETFL);
        if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY || fstat(STDOUT_FILENO, &st) != 0) {
            errno = EBADF;
            goto fail;
        }
        in->kind = K_STDOUT;
        in->fd = STDOUT_FILENO;
        in->exists = 1;
        in->dev = st.st_dev;
        in->ino = st.st_ino;
        if (is_null_device(&st, null_st, have_null)) in->exists = 2;   /* shareable */
        goto check_resume;
    }
    if (resolve(o, &st, &why) != 0) goto fail;
    if (in->magic_fd >= 0) {
        int fd = fcntl(in->magic_fd, F_DUPFD_CLOEXEC, 0);
        int fl = fd >= 0 ? fcntl(fd, F_GETFL) : -1;
        if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY || fstat(fd, &st) != 0 ||
            S_ISDIR(st.st_mode)) {
            if (fd >= 0) close(fd);
            errno = EBADF;   /* closed, or not open for writing */
            goto fail;
        }
        in->fd = fd;
        in->kind = S_ISFIFO(st.st_mode) ? K_FIFO : K_DEVICE;   /* any type, as "-" */
        in->dev = st.st_dev;
        in->ino = st.st_ino;
        if (is_null_device(&st, null_st, have_null)) in->exists = 2;
        goto check_resume;
    }
    if (in->exists) {
        in->dev = st.st_dev;
        in->ino = st.st_ino;
        if (is_null_device(&st, null_st, have_null)) in->exists = 2;
    }
    if (in->exists && S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        goto fail;
    }
    if (in->exists && S_ISFIFO(st.st_mode)) {
        /* Opening without O_NONBLOCK would wait for a reader.  With a reader present the
         * descriptor is kept: closing it could end the reader's input (EOF). */
        int fd = open_target(o, O_NONBLOCK);
        if (fd < 0 && errno != ENXIO) goto fail;   /* ENXIO: no reader yet */
        if (fd >= 0) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        in->fd = fd;
        in->kind = K_FIFO;
        goto check_resume;
    }
    if (in->exists && S_ISCHR(st.st_mode)) {
        /* O_NONBLOCK: a device such as a serial line may otherwise wait in open. */
        int fd = open_target(o, O_NONBLOCK);
        if (fd < 0) goto fail;
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
        in->fd = fd;
        in->kind = K_DEVICE;
        goto check_resume;
    }
    if (in->magic && S_ISREG(st.st_mode)) {
        /* /dev/stdout redirected to a file: the shell opened it (perhaps with >>), so add
         * to it in place, never truncate or replace it. */
        int fd = open_target(o, O_APPEND);
        if (fd < 0) goto fail;
        in->fd = fd;
        in->kind = K_DEVICE;
        goto check_resume;
    }
    if (in->exists && !S_ISREG(st.st_mode)) {
        why = "not a regular file, FIFO or character device";
        goto fail;
    }
    const char *kfs = kernel_fs_name(in->dirfd);
    if (kfs) {
        say(msg, len, "cannot write '%s' to '%s': it is in a kernel file system (%s), which "
                      "holds no files that a program creates or replaces",
            label_of(o), shown(o->path, sb), kfs);
        return -1;
    }
    if (in->exists) {
        /* Can it be written?  Opened without O_TRUNC, so nothing changes; an immutable or
         * read-only file fails here rather than after the run. */
        int fd = openat(in->dirfd, in->base, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
                                                 O_CLOEXEC);
        if (fd < 0) goto fail;
        close(fd);
        /* Held until the commit, so that the file's identity (device, inode) stays its own:
         * a file put in its place meanwhile cannot get its inode number. */
        in->dest_fd = openat(in->dirfd, in->base, O_PATH | O_NOFOLLOW | O_CLOEXEC);
        if (in->dest_fd < 0 && errno == ENOENT) {
            in->exists = 0;   /* removed the moment it was looked at */
        } else if (in->dest_fd < 0) {
            goto fail;
        } else if (fstat(in->dest_fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            errno = EAGAIN;   /* replaced by something else the moment it was looked at */
            goto fail;
        } else {
            in->dev = st.st_dev;
            in->ino = st.st_ino;
        }
    }
    /* The directory must take a new entry (created by the commit's rename). */
    if (faccessat(in->dirfd, ".", W_OK | X_OK, AT_EACCESS) != 0) goto fail;
    in->kind = o->mode == GAPS_OUTFILE_PARTIAL ? K_PART : K_ANON;

    if (in->kind == K_PART) {
        const size_t blen = strlen(in->base);
        long name_max = fpathconf(in->dirfd, _PC_NAME_MAX);
        if (name_max <= 0) name_max = NAME_MAX;
        if (blen + 5 > (size_t)name_max || strlen(o->path) + 5 >= PATH_MAX) {
            say(msg, len, "cannot write '%s' to '%s': the name of its partial file "
                          "(with '.part' added) would be too long",
                label_of(o), shown(o->path, sb));
            return -1;
        }
        in->part = malloc(blen + 6);
        if (!in->part) goto fail;
        memcpy(in->part, in->base, blen);
        memcpy(in->part + blen, ".part", 6);
        /* An existing DEST.part is locked before anything else happens to it: another run
         * that writes it (a live run that --resume would continue, or a second run given the
         * same output) is refused here, before anything is cut. */
        for (int attempt = 0; in->fd < 0; ++attempt) {
            struct stat ps;
            if (fstatat(in->dirfd, in->part, &ps, AT_SYMLINK_NOFOLLOW) != 0) {
                if (errno != ENOENT) goto fail;
                if (in->resume >= 0) {
                    say(msg, len, "cannot resume '%s' from '%s.part': %s", label_of(o),
                        shown(o->path, sb), strerror(ENOENT));
                    return -1;
                }
                break;   /* none: prepare creates it (and locks it) */
            }
            if (!S_ISREG(ps.st_mode)) {
                say(msg, len, "cannot write '%s' to '%s': '%s.part' exists and is not a "
                              "regular file",
                    label_of(o), shown(o->path, sb), shown(o->path, sb));
                return -1;
            }
            int fd = openat(in->dirfd, in->part, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
            if (fd < 0 && errno == ENOENT && attempt < 100) continue;   /* just removed */
            if (fd < 0) goto fail;
            const int r = lock_part(o, fd, msg, len);
            if (r < 0) return r;
            if (r == 1 && attempt >= 100) {
                errno = EAGAIN;   /* replaced again and again while we looked */
                goto fail;
            }
        }
        if (in->fd >= 0 && in->resume >= 0) {
            struct stat ps;
            if (fstat(in->fd, &ps) != 0) goto fail;
            if (in->resume > (long long)ps.st_size) {
                say(msg, len, "cannot resume '%s' from '%s.part': it has %lld bytes, the "
                              "checkpoint needs %lld", label_of(o), shown(o->path, sb),
                    (long long)ps.st_size, in->resume);
                return -1;
            }
        }
    }
    return 0;

check_resume:
    if (in->resume >= 0) {   /* only PARTIAL outputs get here with one (see resume) */
        say(msg, len, "cannot resume '%s' on '%s': it is not a regular file", label_of(o),
            shown(o->path, sb));
        return -1;
    }
    return 0;
fail:;
    const int e = errno;
    say(msg, len, "cannot write '%s' to '%s': %s", label_of(o), shown(o->path, sb),
        why ? why : strerror(e));
    return !why && resource_errno(e) ? -2 : -1;
}

/* Do outputs a and b name the same file?  Also catches a DEST.part that is another output. */
static int same_file(const gaps_outfile *a, const gaps_outfile *b)
{
    const struct gaps_outfile_internal *x = &a->in, *y = &b->in;
    if (x->kind == K_STDOUT && y->kind == K_STDOUT) return 1;
    if (x->exists == 1 && y->exists == 1 && x->dev == y->dev && x->ino == y->ino) return 1;
    if (!x->has_dir || !y->has_dir || x->dir_dev != y->dir_dev || x->dir_ino != y->dir_ino)
        return 0;
    if (x->exists == 2 && y->exists == 2) return 0;   /* the null device may be shared */
    if (!strcmp(x->base, y->base)) return 1;
    if (x->part && (!strcmp(x->part, y->base) || (y->part && !strcmp(x->part, y->part))))
        return 1;
    return y->part && !strcmp(y->part, x->base);
}

int gaps_outfiles_prepare(gaps_outfile *set, int n, char *msg, size_t len)
{
    char sb[SHOWN], sb2[SHOWN];
    int rc = -1;   /* -1: refused (bad input), -2: the system failed (see resource_errno) */
    /* a failure with errno's reason: the message, and whether it is the system's */
#define SYS_FAIL(...)                                  \
    do {                                               \
        const int e_ = errno;                          \
        say(msg, len, __VA_ARGS__, strerror(e_));      \
        rc = resource_errno(e_) ? -2 : -1;             \
        goto fail;                                     \
    } while (0)
    if (n < 0 || n > GAPS_OUTFILE_MAX) {
        say(msg, len, "too many outputs (%d, at most %d)", n, GAPS_OUTFILE_MAX);
        return -1;
    }
    for (int i = 0; i < n; ++i)
        if (set[i].path && set[i].in.state == S_PREPARED) {
            say(msg, len, "output '%s' is already prepared", label_of(&set[i]));
            return -1;
        }
    for (int i = 0; i < n; ++i) {   /* a fresh start; a resume request holds only once */
        gaps_outfile *o = &set[i];
        const long long resume = o->in.state == S_INIT ? o->in.resume : -1;
        gaps_outfile_init(o, o->label, o->path, o->mode);
        o->in.resume = resume;
    }
    struct stat null_st;
    const int have_null = stat("/dev/null", &null_st) == 0 && S_ISCHR(null_st.st_mode);

    /* 1. Each output alone: resolve, check, open what exists (nothing created). */
    for (int i = 0; i < n; ++i) {
        if (!set[i].path) continue;
        if ((rc = check_one(&set[i], &null_st, have_null, msg, len)) != 0) goto fail;
    }
    rc = -1;
    /* 2. Pairs: no two outputs may write the same file. */
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < i; ++j) {
            if (!set[i].path || !set[j].path || !same_file(&set[i], &set[j])) continue;
            if (set[i].in.kind == K_STDOUT && set[j].in.kind == K_STDOUT)
                say(msg, len, "cannot write '%s' to '-': standard output is already used by "
                              "'%s'", label_of(&set[i]), label_of(&set[j]));
            else
                say(msg, len, "cannot write '%s' to '%s': same file as '%s' ('%s')",
                    label_of(&set[i]), shown(set[i].path, sb), label_of(&set[j]),
                    shown(set[j].path, sb2));
            goto fail;
        }
    /* 3. Create the files (anonymous ones are invisible; hidden and new .part files are
     *    removed again if a later step fails) and wrap every descriptor in a stream. */
    for (int i = 0; i < n; ++i) {
        gaps_outfile *o = &set[i];
        struct gaps_outfile_internal *in = &o->in;
        if (!o->path) continue;
        if (in->kind == K_ANON) {
            in->slot = slot_reserve();   /* for the hidden name that commit gives it */
            if (in->slot < 0) {
                say(msg, len, "cannot write '%s' to '%s': too many outputs at once",
                    label_of(o), shown(o->path, sb));
                goto fail;
            }
            if (create_atomic(o, set, n) != 0)
                SYS_FAIL("cannot write '%s' to '%s': %s", label_of(o), shown(o->path, sb));
        } else if (in->kind == K_PART && in->fd < 0) {
            /* a new DEST.part, locked at once: a run that opens it in between holds it */
            const int fd = openat(in->dirfd, in->part, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
                                                           O_NOCTTY | O_CLOEXEC, 0666);
            if (fd < 0)
                SYS_FAIL("cannot write '%s' to '%s.part': %s", label_of(o), shown(o->path, sb));
            const int r = lock_part(o, fd, msg, len);
            if (r == 1) {
                errno = EAGAIN;   /* renamed or removed the moment it was made */
                SYS_FAIL("cannot write '%s' to '%s.part': %s", label_of(o), shown(o->path, sb));
            }
            if (r < 0) {
                rc = r;
                goto fail;
            }
            in->part_created = 1;
        }
        if (in->kind == K_STDOUT || in->magic_fd == STDOUT_FILENO)
            fflush(stdout);   /* what the program printed before comes first */
        if (in->fd >= 0 && stream_open(o) != 0)
            SYS_FAIL("cannot write '%s' to '%s': %s", label_of(o), shown(o->path, sb));
    }
    /* 4. FIFOs without a reader: wait for one, as 'cmd > fifo' does, now that nothing else
     *    can fail before the run. */
    for (int i = 0; i < n; ++i) {
        gaps_outfile *o = &set[i];
        struct gaps_outfile_internal *in = &o->in;
        if (!o->path || in->kind != K_FIFO || in->fd >= 0) continue;
        struct stat st;
        in->fd = open_target(o, 0);
        int bad = in->fd < 0;
        if (!bad && (fstat(in->fd, &st) != 0 || !S_ISFIFO(st.st_mode))) {
            errno = EAGAIN;   /* replaced by something else since the check */
            bad = 1;
        }
        if (bad || stream_open(o) != 0)
            SYS_FAIL("cannot write '%s' to '%s': %s", label_of(o), shown(o->path, sb));
    }
    /* 5. The one change to existing data, last: a resumed .part is cut back to its
     *    checkpoint, a stale one from an abandoned run is emptied.  Each is locked by now. */
    for (int i = 0; i < n; ++i) {
        struct gaps_outfile_internal *in = &set[i].in;
        if (!set[i].path) continue;
        if (in->kind == K_PART) {
            const long long at = in->resume >= 0 ? in->resume : 0;
            if (ftruncate(in->fd, (off_t)at) != 0 || lseek(in->fd, (off_t)at, SEEK_SET) < 0)
                SYS_FAIL("cannot write '%s' to '%s.part': %s", label_of(&set[i]),
                         shown(set[i].path, sb));
            in->bytes = at;
        }
        in->state = S_PREPARED;
    }
    return 0;
#undef SYS_FAIL
fail:
    unprepare(set, n);
    return rc;
}

FILE *gaps_outfile_stream(gaps_outfile *o)
{
    return o->path && o->in.state == S_PREPARED ? o->in.f : NULL;
}

int gaps_outfile_is_stdout(const gaps_outfile *o) { return o->path && !strcmp(o->path, "-"); }

int gaps_outfile_is_direct(const gaps_outfile *o)
{
    const int k = o->in.kind;
    return o->path && o->in.state == S_PREPARED && (k == K_DEVICE || k == K_FIFO ||
                                                    k == K_STDOUT);
}

long long gaps_outfile_tell(gaps_outfile *o)
{
    if (!gaps_outfile_stream(o)) {
        errno = EBADF;
        return -1;
    }
    return stream_flush(&o->in) != 0 ? -1 : o->in.bytes;
}

int gaps_outfile_sync(gaps_outfile *o)
{
    if (!gaps_outfile_stream(o)) {
        errno = EBADF;
        return -1;
    }
    struct gaps_outfile_internal *in = &o->in;
    if (stream_flush(in) != 0) return -1;
    if (fsync(in->fd) != 0) {
        /* Pipes, terminals and /dev/null cannot be synced, and need not be. */
        if (gaps_outfile_is_direct(o) && (errno == EINVAL || errno == EROFS)) return 0;
        if (!in->err) in->err = errno;
        return -1;
    }
    return 0;
}

/* Give the replaced file's permission bits (and owner, for root) to the new file. */
static int copy_mode(struct gaps_outfile_internal *in)
{
    struct stat old;
    if (fstatat(in->dirfd, in->base, &old, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(old.st_mode)) {
        /* A new file: ANON and PART files were created with the umask (or the directory's
         * default ACL) applied; the private fallback file gets 0666 & ~umask now. */
        return in->kind == K_NAMED ? fchmod(in->fd, in->new_mode) : 0;
    }
    struct stat now;
    if (fstat(in->fd, &now) != 0) return -1;
    /* Owner first: chown clears set-user-ID bits, which fchmod then restores. */
    if (geteuid() == 0 && (now.st_uid != old.st_uid || now.st_gid != old.st_gid) &&
        fchown(in->fd, old.st_uid, old.st_gid) != 0 && errno != EPERM)
        return -1;
    return fchmod(in->fd, old.st_mode & 07777);
}

/* Give an anonymous file a hidden name in its directory, entered in the cleanup table. */
static int link_anon(gaps_outfile *o, gaps_outfile *set, int n)
{
    struct gaps_outfile_internal *in = &o->in;
    char proc[40];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", in->fd);
    for (unsigned attempt = 0; attempt < 1000; ++attempt) {
        temp_name(in->tmp, set, n, attempt);
        sigset_t old;
        signals_block(&old);
        int r = -1;
        errno = ENOENT;
#ifndef GAPS_OUTFILE_TEST_NO_EMPTY_PATH
        r = linkat(in->fd, "", in->dirfd, in->tmp, AT_EMPTY_PATH);
#endif
        /* Without CAP_DAC_READ_SEARCH, AT_EMPTY_PATH fails (ENOENT, or EPERM); the /proc
         * link to the open file works for its owner. */
        if (r != 0 && (errno == ENOENT || errno == EPERM || errno == EINVAL))
            r = linkat(AT_FDCWD, proc, in->dirfd, in->tmp, AT_SYMLINK_FOLLOW);
        if (r == 0) slot_publish(in->slot, in->dirfd, in->tmp);
        const int e = errno;
        signals_restore(&old);
        if (r == 0) return 0;
        in->tmp[0] = '\0';
        if (e != EEXIST) {
            errno = e;
            return -1;
        }
    }
    errno = EEXIST;
    return -1;
}

static int is_file_kind(int k) { return k == K_ANON || k == K_NAMED || k == K_PART; }

static void discard_one(gaps_outfile *o)
{
    struct gaps_outfile_internal *in = &o->in;
    if (!o->path || in->state != S_PREPARED) return;
    if (in->kind == K_ANON || in->kind == K_NAMED) {
        in->discarding = 1;   /* do not write out the buffer of a file being dropped */
        if (in->tmp[0]) unlinkat(in->dirfd, in->tmp, 0);
        slot_clear(in->slot);
        in->tmp[0] = '\0';
    }
    if (in->f) stream_close(in);   /* DEST.part and in-place outputs: flushed */
    release(o);
    in->state = S_FINISHED;
}

void gaps_outfiles_discard(gaps_outfile *set, int n)
{
    for (int i = 0; i < n; ++i) discard_one(&set[i]);
}

int gaps_outfiles_error(gaps_outfile *set, int n, char *msg, size_t len)
{
    char sb[SHOWN];
    for (int i = 0; i < n; ++i) {
        gaps_outfile *o = &set[i];
        if (!gaps_outfile_stream(o) || stream_flush(&o->in) == 0) continue;
        say(msg, len, "writing '%s' to '%s' failed: %s", label_of(o), shown(o->path, sb),
            strerror(errno));
        return -1;
    }
    return 0;
}

/* The test build's hooks (testhook.h) stop the final commit of a run, not its checkpoints. */
static int commit_hooks_off;

/* The destination of a file output as the commit finds it, against what prepare saw:
 * 1 if it is unchanged (the same file, or still no file; a file removed since is no conflict
 * either), 0 if another file is there now (*created: there was none), -1 on error (errno).
 * *now and *present describe what is there. */
static int dest_unchanged(const struct gaps_outfile_internal *in, struct stat *now, int *present,
                          int *created)
{
    *present = fstatat(in->dirfd, in->base, now, AT_SYMLINK_NOFOLLOW) == 0;
    *created = 0;
    if (!*present) return errno == ENOENT ? 1 : -1;
    /* the old file is held open since prepare (dest_fd): its inode number is its own */
    if (in->exists == 1 && in->dest_fd >= 0 && now->st_dev == in->dev && now->st_ino == in->ino)
        return 1;
    *created = in->exists != 1;
    return 0;
}

/* Undo what the commit put in place, newest first: a replaced file comes back from its
 * hidden link; a DEST.part goes back to its name (a later --resume continues it).  Returns
 * the number of outputs that could not be put back (errno: the first reason). */
static int roll_back(gaps_outfile *set, int n)
{
    int failed = 0, first = 0;
    for (int i = n - 1; i >= 0; --i) {
        struct gaps_outfile_internal *in = &set[i].in;
        if (!set[i].path || !in->renamed) continue;
        int r = 0;
        if (in->kind == K_PART) {
            r = renameat(in->dirfd, in->base, in->dirfd, in->part);
            if (r == 0 && in->bak[0]) {
                r = renameat(in->dirfd, in->bak, in->dirfd, in->base);
                if (r == 0) in->bak[0] = '\0';
            }
        } else if (in->bak[0]) {
            r = renameat(in->dirfd, in->bak, in->dirfd, in->base);
            if (r == 0) in->bak[0] = '\0';
        } else {
            r = unlinkat(in->dirfd, in->base, 0);
        }
        if (r != 0) {
            if (!failed++) first = errno;
            in->old_present = 2;   /* keep its hidden link: the old file may be only there */
        }
        in->renamed = 0;
    }
    errno = first;
    return failed;
}

/* Remove the hidden links to replaced files (after success or a rollback). */
static void drop_backups(gaps_outfile *set, int n)
{
    for (int i = 0; i < n; ++i) {
        struct gaps_outfile_internal *in = &set[i].in;
        if (!set[i].path || !in->bak[0]) continue;
        if (in->old_present != 2 && (!in->aside || in->renamed)) unlinkat(in->dirfd, in->bak, 0);
        in->bak[0] = '\0';
    }
}

int gaps_outfiles_commit(gaps_outfile *set, int n, char *msg, size_t len)
{
    char sb[SHOWN], part[SHOWN + 8];
    /* 1. Everything written and on disk, or nothing goes in place. */
    for (int i = 0; i < n; ++i) {
        gaps_outfile *o = &set[i];
        struct gaps_outfile_internal *in = &o->in;
        if (!o->path || in->state != S_PREPARED) continue;
        int bad;
        if (is_file_kind(in->kind)) {
            bad = stream_flush(in) != 0 || fsync(in->fd) != 0;
        } else {
            /* In place: flush (and close, which can report a late error); stdout stays. */
            bad = stream_close(in) != 0;
            if (!bad && in->kind != K_STDOUT) {
                bad = close(in->fd) != 0;
                in->fd = -1;
            }
        }
        if (bad) {
            say(msg, len, "writing '%s' to '%s' failed: %s", label_of(o), shown(o->path, sb),
                strerror(errno ? errno : EIO));
            gaps_outfiles_discard(set, n);
            return -1;
        }
    }
    /* 2. Final modes and hidden names for all, before any destination changes. */
    for (int i = 0; i < n; ++i) {
        gaps_outfile *o = &set[i];
        struct gaps_outfile_internal *in = &o->in;
        if (!o->path || in->state != S_PREPARED || !is_file_kind(in->kind)) continue;
        if (copy_mode(in) != 0 || (in->kind == K_ANON && link_anon(o, set, n) != 0)) {
            say(msg, len, "cannot write '%s' to '%s': %s", label_of(o), shown(o->path, sb),
                strerror(errno));
            gaps_outfiles_discard(set, n);
            return -1;
        }
    }
    /* 3. Every output can go in place: each DEST.part is still the file this run holds (not
     *    removed, not replaced), no other file has taken a destination's place since prepare,
     *    and each directory takes a new entry.  Nothing has changed yet. */
    for (int i = 0; i < n; ++i) {
        gaps_outfile *o = &set[i];
        struct gaps_outfile_internal *in = &o->in;
        if (!o->path || in->state != S_PREPARED || !is_file_kind(in->kind)) continue;
        snprintf(part, sizeof part, "%s.part", shown(o->path, sb));
        if (in->kind == K_PART && !part_is_ours(in)) {
            say(msg, len, "cannot write '%s' to '%s': '%s' was removed or replaced during the "
                          "run; nothing was committed", label_of(o), shown(o->path, sb), part);
            goto abort;
        }
        struct stat now;
        int present, created;
        const int same = dest_unchanged(in, &now, &present, &created);
        if (same < 0 || faccessat(in->dirfd, ".", W_OK | X_OK, AT_EACCESS) != 0) {
            say(msg, len, "cannot write '%s' to '%s': %s; nothing was committed", label_of(o),
                shown(o->path, sb), strerror(errno));
            goto abort;
        }
        if (!same) {
            say(msg, len, "cannot write '%s' to '%s': another %s was %s there during the run "
                          "(two runs writing one file?); nothing was committed", label_of(o),
                shown(o->path, sb), S_ISDIR(now.st_mode) ? "directory" : "file",
                created ? "created" : "put");
            goto abort;
        }
        in->old_present = present && S_ISREG(now.st_mode);
    }
    /* 4. Into place, all or nothing.  A file about to be replaced first gets a hidden second
     *    name, so that a failure at any later rename can put it back; then each output is
     *    renamed in the order of the set.  Signals wait until it is over. */
    sigset_t old;
    signals_block(&old);
    for (int i = 0; i < n; ++i) {
        gaps_outfile *o = &set[i];
        struct gaps_outfile_internal *in = &o->in;
        in->renamed = in->aside = 0;
        in->bak[0] = '\0';
        if (!o->path || in->state != S_PREPARED || !is_file_kind(in->kind) || !in->old_present)
            continue;
        for (unsigned attempt = 0;; ++attempt) {
            temp_name(in->bak, set, n, attempt + 1000);
#ifdef GAPS_OUTFILE_TEST_NO_HARDLINK
            errno = EPERM;   /* as on a file system without hard links (vfat, exfat) */
#else
            if (linkat(in->dirfd, in->base, in->dirfd, in->bak, 0) == 0) break;
#endif
            if (errno == EEXIST && attempt < 1000) continue;
            if (errno == ENOENT) {   /* removed since step 3: nothing to keep */
                in->bak[0] = '\0';
                break;
            }
            if (errno == EPERM || errno == EMLINK || errno == EOPNOTSUPP) {
                in->aside = 1;   /* no hard links here: moved aside just before its rename */
                break;
            }
            const int e = errno;
            in->bak[0] = '\0';
            drop_backups(set, n);
            signals_restore(&old);
            say(msg, len, "cannot write '%s' to '%s': cannot keep the old file for a rollback: "
                          "%s; nothing was committed", label_of(o), shown(o->path, sb),
                strerror(e));
            goto abort;
        }
    }
    int k = 0;
    for (int i = 0; i < n; ++i) {
        gaps_outfile *o = &set[i];
        struct gaps_outfile_internal *in = &o->in;
        if (!o->path || in->state != S_PREPARED || !is_file_kind(in->kind)) continue;
        if (!commit_hooks_off) gaps_test_hook("RENAME", k);
        k++;
        const char *from = in->kind == K_PART ? in->part : in->tmp;
        int r = 0, e = 0;
        if (in->kind == K_PART && !part_is_ours(in)) {
            r = -1;
            e = ESTALE;
        }
        struct stat now;
        int present, created;
        if (r == 0 && dest_unchanged(in, &now, &present, &created) == 0) {
            r = -1;   /* taken since step 3: neither overwrite nor move it */
            e = EEXIST;
        }
        if (r == 0 && in->aside && renameat(in->dirfd, in->base, in->dirfd, in->bak) != 0) {
            if (errno == ENOENT) {
                in->bak[0] = '\0';   /* gone meanwhile: nothing to put back */
                in->aside = 0;
            } else {
                r = -1;
                e = errno;
                in->bak[0] = '\0';
            }
        }
        if (r == 0 && renameat(in->dirfd, from, in->dirfd, in->base) != 0) {
            r = -1;
            e = errno;
            if (in->aside && in->bak[0]) {   /* moved aside just now: back in place */
                renameat(in->dirfd, in->bak, in->dirfd, in->base);
                in->bak[0] = '\0';
            }
        }
        if (r != 0) {
            int renamed_before = 0;
            for (int j = 0; j < i; ++j) renamed_before += set[j].path && set[j].in.renamed;
            const int lost = roll_back(set, n);
            const int le = errno;
            drop_backups(set, n);
            signals_restore(&old);
            snprintf(part, sizeof part, "%s.part", shown(o->path, sb));
            if (e == ESTALE)
                say(msg, len, "cannot write '%s' to '%s': '%s' was removed or replaced during "
                              "the commit; nothing was committed", label_of(o),
                    shown(o->path, sb), part);
            else if (e == EEXIST)
                say(msg, len, "cannot write '%s' to '%s': another %s was put there during the "
                              "commit; nothing was committed", label_of(o), shown(o->path, sb),
                    S_ISDIR(now.st_mode) ? "directory" : "file");
            else
                say(msg, len, "cannot write '%s' to '%s': %s; nothing was committed",
                    label_of(o), shown(o->path, sb), strerror(e));
            if (renamed_before > 0 && lost == 0 && strlen(msg) + 60 < len)
                snprintf(msg + strlen(msg), len - strlen(msg), " (the %d output%s renamed "
                         "before it %s put back)", renamed_before, renamed_before == 1 ? "" : "s",
                         renamed_before == 1 ? "was" : "were");
            else if (lost > 0 && strlen(msg) + 80 < len)
                snprintf(msg + strlen(msg), len - strlen(msg), "; but %d output%s renamed "
                         "before it could not be put back: %s", lost, lost == 1 ? "" : "s",
                         strerror(le));
            goto abort;
        }
        in->renamed = 1;
        if (in->kind != K_PART) {
            slot_clear(in->slot);
            in->tmp[0] = '\0';
        }
    }
    drop_backups(set, n);
    signals_restore(&old);
    /* 5. Durability of the new names (the data was synced in step 1); a failure here cannot
     *    be undone and is not reported.  Then every output is finished. */
    for (int i = 0; i < n; ++i) {
        gaps_outfile *o = &set[i];
        struct gaps_outfile_internal *in = &o->in;
        if (!o->path || in->state != S_PREPARED) continue;
        if (is_file_kind(in->kind)) {
            if (in->dir_syncable) fsync(in->dirfd);
            in->discarding = 1;   /* nothing left to write: close without another flush */
            in->renamed = 0;
        }
        release(o);
        in->state = S_FINISHED;
    }
    return 0;
abort:
    gaps_outfiles_discard(set, n);
    return -1;
}

void gaps_outfiles_abandon(gaps_outfile *set, int n)
{
    for (int i = 0; i < n; ++i) {
        struct gaps_outfile_internal *in = &set[i].in;
        if (set[i].path && in->state == S_PREPARED && in->kind == K_PART && in->part_created
            && part_is_ours(in))
            unlinkat(in->dirfd, in->part, 0);
    }
    gaps_outfiles_discard(set, n);
}

/* ---- a file owned for the life of the run: the checkpoint ---- */

void gaps_owned_init(gaps_owned *w)
{
    memset(w, 0, sizeof *w);
    w->fd = -1;
    gaps_outfile_init(&w->where, NULL, NULL, GAPS_OUTFILE_ATOMIC);
}

int gaps_owned_take(gaps_owned *w, const char *label, const char *path, int writable, char *msg,
                    size_t len)
{
    gaps_owned_release(w);
    if (!path || !strcmp(path, "-")) return 0;
    gaps_outfile_init(&w->where, label, path, GAPS_OUTFILE_ATOMIC);
    struct gaps_outfile_internal *in = &w->where.in;
    struct stat st;
    const char *why = NULL;
    if (resolve(&w->where, &st, &why) != 0) {
        const int e = errno;
        release(&w->where);
        if (!why && resource_errno(e)) {
            char sb[SHOWN];
            say(msg, len, "cannot use %s '%s': %s", label, shown(path, sb), strerror(e));
            return -2;
        }
        return 0;   /* a path that cannot be used: the outputs' checks say why */
    }
    if (in->magic || (in->exists && !S_ISREG(st.st_mode))) {
        release(&w->where);   /* a device or FIFO: written in place, owned by no one */
        return 0;
    }
    w->active = 1;
    for (int attempt = 0; attempt < 100; ++attempt) {
        const int fd = openat(in->dirfd, in->base, (writable ? O_WRONLY : O_RDONLY) | O_NOFOLLOW
                                                     | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) {
            const int e = errno;
            if (e == ENOENT) return 0;   /* none yet: the run's first checkpoint makes it */
            if (resource_errno(e)) {
                char sb[SHOWN];
                say(msg, len, "cannot use %s '%s': %s", label, shown(path, sb), strerror(e));
                gaps_owned_release(w);
                return -2;
            }
            gaps_owned_release(w);   /* not readable or writable: its checks say so */
            return 0;
        }
        struct stat a, b;
        if (fstat(fd, &a) != 0 || !S_ISREG(a.st_mode)) {
            close(fd);
            gaps_owned_release(w);
            return 0;
        }
        pid_t who;
        const int r = own_fd(fd, &who);
        if (r == 1 || r < 0) {
            const int e = errno;
            close(fd);
            gaps_owned_release(w);
            if (r == 1) {
                say_held(msg, len, label, path, who);
                return -1;
            }
            char sb[SHOWN];
            say(msg, len, "cannot lock %s '%s': %s", label, shown(path, sb), strerror(e));
            return resource_errno(e) ? -2 : -1;
        }
        if (fstatat(in->dirfd, in->base, &b, AT_SYMLINK_NOFOLLOW) == 0 && a.st_dev == b.st_dev
            && a.st_ino == b.st_ino) {
            w->fd = fd;
            w->dev = a.st_dev;
            w->ino = a.st_ino;
            return 0;
        }
        close(fd);   /* replaced between the open and the lock: look again */
    }
    char sb[SHOWN];
    say(msg, len, "cannot use %s '%s': it is being replaced again and again", label,
        shown(path, sb));
    gaps_owned_release(w);
    return -1;
}

int gaps_owned_check(const gaps_owned *w, char *msg, size_t len)
{
    if (!w->active) return 0;
    const struct gaps_outfile_internal *in = &w->where.in;
    char sb[SHOWN];
    struct stat st;
    const int present = fstatat(in->dirfd, in->base, &st, AT_SYMLINK_NOFOLLOW) == 0;
    if (w->fd >= 0 && present && st.st_dev == w->dev && st.st_ino == w->ino) return 0;
    if (w->fd < 0 && !present) return 0;
    const char *what = w->fd < 0 ? "was created by another run during this one"
                       : present ? "was replaced during the run (by another run?)"
                                 : "was removed during the run";
    say(msg, len, "%s '%s' %s; nothing was committed", w->where.label, shown(w->where.path, sb),
        what);
    return -1;
}

int gaps_owned_commit(gaps_owned *w, gaps_outfile *o, char *msg, size_t len)
{
    struct gaps_outfile_internal *in = &o->in;
    if (!w->active || !o->path || in->state != S_PREPARED || !is_file_kind(in->kind)) {
        commit_hooks_off = 1;
        const int r = gaps_outfiles_commit(o, 1, msg, len);
        commit_hooks_off = 0;
        return r;
    }
    /* The new file is locked before it has a name, so that it is never seen unlocked; the
     * old one stays locked until the new one has taken its place. */
    struct stat st;
    pid_t who;
    const int nfd = fcntl(in->fd, F_DUPFD_CLOEXEC, 0);
    int lr = -1;
    if (nfd >= 0 && fstat(nfd, &st) == 0) lr = own_fd(nfd, &who);
    if (lr == 1 || lr < 0) {
        if (lr == 1) errno = EAGAIN;
        char sb[SHOWN];
        say(msg, len, "cannot write '%s' to '%s': cannot lock the new file: %s",
            label_of(o), shown(o->path, sb), strerror(errno));
        if (nfd >= 0) close(nfd);
        gaps_outfiles_discard(o, 1);
        return -1;
    }
    if (gaps_owned_check(w, msg, len) != 0) {
        close(nfd);
        gaps_outfiles_discard(o, 1);
        return -1;
    }
    commit_hooks_off = 1;
    const int r = gaps_outfiles_commit(o, 1, msg, len);
    commit_hooks_off = 0;
    if (r != 0) {
        close(nfd);
        return -1;
    }
    if (w->fd >= 0) close(w->fd);   /* the old file's lock */
    w->fd = nfd;
    w->dev = st.st_dev;
    w->ino = st.st_ino;
    return 0;
}

void gaps_owned_remove(gaps_owned *w)
{
    struct stat st;
    if (w->active && w->fd >= 0 && lstat(w->where.path, &st) == 0 && S_ISREG(st.st_mode)
        && st.st_dev == w->dev && st.st_ino == w->ino)
        unlink(w->where.path);   /* a symbolic link the user made to it stays */
    gaps_owned_release(w);
}

void gaps_owned_release(gaps_owned *w)
{
    if (w->fd >= 0) close(w->fd);
    w->fd = -1;
    w->active = 0;
    release(&w->where);
}
