/* outfile.c -- output files that appear complete, or not at all (see outfile.h).
 *
 * Every file operation is relative to a descriptor of the final target's directory (openat,
 * fstatat, linkat, renameat), so the code never builds a longer path than the one it was
 * given, and a directory renamed during the run does not redirect the commit.
 *
 * Test-only switches (never set in a normal build):
 *   GAPS_OUTFILE_TEST_NO_TMPFILE     act as if the file system had no O_TMPFILE (fallback)
 *   GAPS_OUTFILE_TEST_NO_EMPTY_PATH  link anonymous files through /proc/self/fd only
 */
#define _GNU_SOURCE   /* O_TMPFILE, AT_EMPTY_PATH, fopencookie */
#include "program/outfile.h"
#include "program/shown_path.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
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
    for (char *c = msg; *c; ++c)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
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
        if (in->part_created) unlinkat(in->dirfd, in->part, 0);
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
    if (in->exists) {
        /* Can it be written?  Opened without O_TRUNC, so nothing changes; an immutable or
         * read-only file fails here rather than after the run. */
        int fd = openat(in->dirfd, in->base, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
                                                 O_CLOEXEC);
        if (fd < 0) goto fail;
        close(fd);
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
        struct stat ps;
        if (fstatat(in->dirfd, in->part, &ps, AT_SYMLINK_NOFOLLOW) == 0) {
            if (!S_ISREG(ps.st_mode)) {
                say(msg, len, "cannot write '%s' to '%s': '%s.part' exists and is not a "
                              "regular file",
                    label_of(o), shown(o->path, sb), shown(o->path, sb));
                return -1;
            }
            if (in->resume > (long long)ps.st_size) {
                say(msg, len, "cannot resume '%s' from '%s.part': it has %lld bytes, the "
                              "checkpoint needs %lld", label_of(o), shown(o->path, sb),
                    (long long)ps.st_size, in->resume);
                return -1;
            }
            /* Keep it open: no change yet (it is cut to size only when all is ready). */
            int fd = openat(in->dirfd, in->part, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
            if (fd < 0) goto fail;
            in->fd = fd;
        } else if (errno != ENOENT) {
            goto fail;
        } else if (in->resume >= 0) {
            say(msg, len, "cannot resume '%s' from '%s.part': %s", label_of(o),
                shown(o->path, sb), strerror(ENOENT));
            return -1;
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
fail:
    say(msg, len, "cannot write '%s' to '%s': %s", label_of(o), shown(o->path, sb),
        why ? why : strerror(errno));
    return -1;
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
        if (check_one(&set[i], &null_st, have_null, msg, len) != 0) goto fail;
    }
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
            if (create_atomic(o, set, n) != 0) {
                say(msg, len, "cannot write '%s' to '%s': %s", label_of(o), shown(o->path, sb),
                    strerror(errno));
                goto fail;
            }
        } else if (in->kind == K_PART && in->fd < 0) {
            in->fd = openat(in->dirfd, in->part,
                            O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC,
                            0666);
            if (in->fd < 0) {
                say(msg, len, "cannot write '%s' to '%s.part': %s", label_of(o),
                    shown(o->path, sb), strerror(errno));
                goto fail;
            }
            in->part_created = 1;
        }
        if (in->kind == K_STDOUT || in->magic_fd == STDOUT_FILENO)
            fflush(stdout);   /* what the program printed before comes first */
        if (in->fd >= 0 && stream_open(o) != 0) {
            say(msg, len, "cannot write '%s' to '%s': %s", label_of(o), shown(o->path, sb),
                strerror(errno));
            goto fail;
        }
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
        if (bad || stream_open(o) != 0) {
            say(msg, len, "cannot write '%s' to '%s': %s", label_of(o), shown(o->path, sb),
                strerror(errno));
            goto fail;
        }
    }
    /* 5. The one change to existing data, last: a resumed .part is cut back to its
     *    checkpoint, a stale one from an abandoned run is emptied. */
    for (int i = 0; i < n; ++i) {
        struct gaps_outfile_internal *in = &set[i].in;
        if (!set[i].path) continue;
        if (in->kind == K_PART) {
            const long long at = in->resume >= 0 ? in->resume : 0;
            if (ftruncate(in->fd, (off_t)at) != 0 || lseek(in->fd, (off_t)at, SEEK_SET) < 0) {
                say(msg, len, "cannot write '%s' to '%s.part': %s", label_of(&set[i]),
                    shown(set[i].path, sb), strerror(errno));
                goto fail;
            }
            in->bytes = at;
        }
        in->state = S_PREPARED;
    }
    return 0;
fail:
    unprepare(set, n);
    return -1;
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

int gaps_outfiles_commit(gaps_outfile *set, int n, char *msg, size_t len)
{
    char sb[SHOWN];
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
    /* 3. Into place. */
    int status = 0;
    for (int i = 0; i < n; ++i) {
        gaps_outfile *o = &set[i];
        struct gaps_outfile_internal *in = &o->in;
        if (!o->path || in->state != S_PREPARED) continue;
        if (is_file_kind(in->kind)) {
            const char *from = in->kind == K_PART ? in->part : in->tmp;
            sigset_t old;
            signals_block(&old);
            int r = renameat(in->dirfd, from, in->dirfd, in->base);
            const int e = errno;
            if (r == 0) {
                slot_clear(in->slot);
                in->tmp[0] = '\0';
            }
            signals_restore(&old);
            if (r != 0) {
                say(msg, len, "cannot write '%s' to '%s': %s", label_of(o), shown(o->path, sb),
                    strerror(e));
                status = -1;
                break;   /* the rest are discarded below */
            }
            /* Durability of the new name; the data itself was synced in step 1.  A failure
             * here cannot be undone and is not reported. */
            if (in->dir_syncable) fsync(in->dirfd);
            in->discarding = 1;   /* nothing left to write: close without another flush */
        }
        release(o);
        in->state = S_FINISHED;
    }
    gaps_outfiles_discard(set, n);
    return status;
}
