/* test_outfile.c -- the output-file module (src/program/outfile.c) against real files, FIFOs and
 * devices.  Usage: test_outfile SCRATCH_DIR (created if missing).  Each run works in a new
 * directory SCRATCH_DIR/run-XXXXXX, one subdirectory per case, removed when every check
 * passed and kept for inspection otherwise.  Returns non-zero if any check fails.
 *
 * Every check looks at the file system afterwards (contents, file types, modes, inodes and
 * the full list of names in the directory), so a stray temporary file, a replaced FIFO or a
 * half-committed set fails it.  Built normally and with -DGAPS_OUTFILE_TEST_NO_TMPFILE (the
 * hidden-file fallback, as on a file system without O_TMPFILE); also with
 * -DGAPS_OUTFILE_TEST_NO_EMPTY_PATH (linking through /proc only).
 */
#define _GNU_SOURCE
#include "program/outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef GAPS_OUTFILE_TEST_NO_TMPFILE
#define FALLBACK 1   /* hidden named temporaries: they exist during the run */
#else
#define FALLBACK 0
#endif

static int failures, checks;
static char scratch[PATH_MAX];

#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        ++checks;                                                                          \
        if (!(cond)) {                                                                     \
            ++failures;                                                                    \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                           \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fputc('\n', stderr);                                                           \
        }                                                                                  \
    } while (0)

/* ---- helpers ---- */

static void die(const char *what)
{
    fprintf(stderr, "test_outfile: %s: %s\n", what, strerror(errno));
    exit(2);
}

/* Start a case in the fresh directory SCRATCH/name. */
static void enter(const char *name)
{
    char d[PATH_MAX + 64];
    snprintf(d, sizeof d, "%s/%s", scratch, name);
    if (mkdir(d, 0777) != 0 || chdir(d) != 0) die(d);
}

static void put_file(const char *path, const char *text, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text) || fchmod(fd, mode) ||
        close(fd))
        die(path);
}

/* Whole file as a string ("<missing>" if it cannot be read); static buffer. */
static const char *slurp(const char *path)
{
    static char buf[1 << 20];
    int fd = open(path, O_RDONLY);
    if (fd < 0) return "<missing>";
    size_t n = 0;
    ssize_t r;
    while (n < sizeof buf - 1 && (r = read(fd, buf + n, sizeof buf - 1 - n)) > 0) n += (size_t)r;
    close(fd);
    buf[n] = '\0';
    return buf;
}

/* Names in a directory (hidden ones too), sorted, joined by ','; static buffer. */
static const char *listing(const char *dir)
{
    static char buf[8192];
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort);
    buf[0] = '\0';
    if (n < 0) return "<no dir>";
    size_t at = 0;
    for (int i = 0; i < n; ++i) {
        const char *s = names[i]->d_name;
        if (strcmp(s, ".") && strcmp(s, "..")) {
            /* long names are shortened to keep the listing readable */
            at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%.40s", at ? "," : "", s);
            if (at >= sizeof buf) at = sizeof buf - 1;
        }
        free(names[i]);
    }
    free(names);
    return buf;
}

static int count_hidden_temps(const char *dir)
{
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort), k = 0;
    for (int i = 0; i < n; ++i) {
        k += !strncmp(names[i]->d_name, ".gaps-", 6);
        free(names[i]);
    }
    if (n >= 0) free(names);
    return k;
}

static mode_t mode_of(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 ? st.st_mode & 07777 : (mode_t)-1;
}

static int contains(const char *hay, const char *needle) { return strstr(hay, needle) != NULL; }

static void put(gaps_outfile *o, const char *text)
{
    FILE *f = gaps_outfile_stream(o);
    if (f) fputs(text, f);
}

/* A long deterministic text, for outputs larger than the stream buffer. */
static char *big_text(size_t n, char c)
{
    char *s = malloc(n + 1);
    if (!s) die("malloc");
    for (size_t i = 0; i < n; ++i) s[i] = (i % 64 == 63) ? '\n' : (char)(c + (char)(i % 7));
    s[n] = '\0';
    return s;
}

static int prepare1(gaps_outfile *o, const char *label, const char *path, int mode, char *msg,
                    size_t len)
{
    gaps_outfile_init(o, label, path, mode);
    return gaps_outfiles_prepare(o, 1, msg, len);
}

/* ---- cases ---- */

static void test_atomic_new(void)
{
    enter("atomic_new");
    char msg[512];
    gaps_outfile o;
    CHECK(prepare1(&o, "--json", "out.json", GAPS_OUTFILE_ATOMIC, msg, sizeof msg) == 0,
          "prepare: %s", msg);
    put(&o, "{\"a\": 1}\n");
    /* While running, the destination does not exist, and (O_TMPFILE) no name at all. */
    CHECK(access("out.json", F_OK) != 0, "destination exists before commit");
    CHECK(count_hidden_temps(".") == FALLBACK, "hidden temporaries: %s", listing("."));
    CHECK(gaps_outfile_tell(&o) == 9, "tell %lld", gaps_outfile_tell(&o));
    CHECK(gaps_outfiles_error(&o, 1, msg, sizeof msg) == 0, "error without one: '%s'", msg);
    CHECK(gaps_outfile_sync(&o) == 0, "sync");
    CHECK(!gaps_outfile_is_direct(&o) && !gaps_outfile_is_stdout(&o), "kind");
    CHECK(gaps_outfiles_commit(&o, 1, msg, sizeof msg) == 0, "commit: %s", msg);
    CHECK(!strcmp(slurp("out.json"), "{\"a\": 1}\n"), "content '%s'", slurp("out.json"));
    CHECK(!strcmp(listing("."), "out.json"), "listing '%s'", listing("."));
    CHECK(mode_of("out.json") == 0644, "new file mode %o (umask 022)", mode_of("out.json"));
    CHECK(gaps_outfile_stream(&o) == NULL, "stream after commit");
    gaps_outfiles_discard(&o, 1);   /* harmless after commit */
    CHECK(!strcmp(slurp("out.json"), "{\"a\": 1}\n"), "discard after commit changed the file");
}

static void test_atomic_replace(void)
{
    enter("atomic_replace");
    put_file("x", "old\n", 0640);
    struct stat before, after;
    stat("x", &before);
    char msg[512];
    gaps_outfile o;
    CHECK(prepare1(&o, "--output", "x", GAPS_OUTFILE_ATOMIC, msg, sizeof msg) == 0, "%s", msg);
    char *big = big_text(300000, 'a');   /* larger than the stream buffer */
    put(&o, big);
    CHECK(!strcmp(slurp("x"), "old\n"), "old content changed before commit");
    CHECK(gaps_outfiles_commit(&o, 1, msg, sizeof msg) == 0, "commit: %s", msg);
    CHECK(!strcmp(slurp("x"), big), "new content wrong");
    CHECK(mode_of("x") == 0640, "mode %o, want 0640", mode_of("x"));
    stat("x", &after);
    CHECK(before.st_ino != after.st_ino, "not replaced by rename (same inode)");
    CHECK(!strcmp(listing("."), "x"), "listing '%s'", listing("."));
    free(big);

    /* Owner kept when run as root. */
    if (geteuid() == 0) {
        put_file("owned", "old\n", 0604);
        if (chown("owned", 65534, 65534) != 0) die("chown");
        CHECK(prepare1(&o, "--output", "owned", GAPS_OUTFILE_ATOMIC, msg, sizeof msg) == 0,
              "%s", msg);
        put(&o, "new\n");
        CHECK(gaps_outfiles_commit(&o, 1, msg, sizeof msg) == 0, "commit: %s", msg);
        stat("owned", &after);
        CHECK(after.st_uid == 65534 && after.st_gid == 65534 && (after.st_mode & 07777) == 0604,
              "owner %d:%d mode %o", (int)after.st_uid, (int)after.st_gid,
              after.st_mode & 07777);
    }
}

static void test_discard(void)
{
    enter("discard");
    put_file("x", "old\n", 0644);
    char msg[512];
    gaps_outfile o[2];
    gaps_outfile_init(&o[0], "--output", "x", GAPS_OUTFILE_ATOMIC);
    gaps_outfile_init(&o[1], "--json", "new.json", GAPS_OUTFILE_ATOMIC);
    CHECK(gaps_outfiles_prepare(o, 2, msg, sizeof msg) == 0, "%s", msg);
    put(&o[0], "new content\n");
    put(&o[1], "{}\n");
    CHECK(count_hidden_temps(".") == 2 * FALLBACK, "temporaries: %s", listing("."));
    gaps_outfiles_discard(o, 2);
    CHECK(!strcmp(slurp("x"), "old\n"), "old file changed: '%s'", slurp("x"));
    CHECK(!strcmp(listing("."), "x"), "listing '%s'", listing("."));
    CHECK(gaps_outfile_stream(&o[0]) == NULL, "stream after discard");
    /* Committing a discarded set does nothing. */
    CHECK(gaps_outfiles_commit(o, 2, msg, sizeof msg) == 0, "commit after discard");
    CHECK(!strcmp(listing("."), "x"), "listing '%s'", listing("."));
}

/* A reader child for a FIFO: reads everything, exits 0 if it equals want. */
static pid_t fifo_reader(const char *path, const char *want, double delay)
{
    pid_t pid = (fflush(stdout), fork());
    if (pid < 0) die("fork");
    if (pid > 0) return pid;
    struct timespec ts = { (time_t)delay, (long)((delay - (double)(time_t)delay) * 1e9) };
    nanosleep(&ts, NULL);
    int fd = open(path, O_RDONLY);
    if (fd < 0) _exit(3);
    size_t n = strlen(want), got = 0;
    char *buf = malloc(n + 2);
    ssize_t r;
    while (got < n + 1 && (r = read(fd, buf + got, n + 1 - got)) > 0) got += (size_t)r;
    _exit(got == n && !memcmp(buf, want, n) ? 0 : 1);
}

static void test_fifo(void)
{
    enter("fifo");
    char msg[512];
    char *big = big_text(200000, 'f');   /* more than a pipe buffer */
    if (mkfifo("p", 0644) != 0) die("mkfifo");
    /* Two orders: the reader arrives after prepare began waiting, and before prepare (then
     * prepare's check must keep the descriptor it opened, or the reader may see EOF).
     * inotify counts how often the write end is closed: exactly once, at commit (IN_OPEN
     * is watched too, because inotify merges identical consecutive events). */
    for (int reader_first = 0; reader_first < 2; ++reader_first) {
        int ino = inotify_init1(IN_NONBLOCK);
        if (ino < 0 || inotify_add_watch(ino, "p", IN_OPEN | IN_CLOSE_WRITE) < 0) die("inotify");
        pid_t child = fifo_reader("p", big, reader_first ? 0.0 : 0.3);
        if (reader_first) {
            struct timespec ts = { 0, 300000000 };
            nanosleep(&ts, NULL);
        }
        gaps_outfile o;
        CHECK(prepare1(&o, "--hepmc", "p", GAPS_OUTFILE_ATOMIC, msg, sizeof msg) == 0, "%s", msg);
        CHECK(gaps_outfile_is_direct(&o), "FIFO not direct");
        put(&o, big);
        CHECK(gaps_outfiles_commit(&o, 1, msg, sizeof msg) == 0, "commit: %s", msg);
        int status;
        waitpid(child, &status, 0);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "reader (reader_first=%d) got wrong data, status %d", reader_first, status);
        struct stat st;
        CHECK(lstat("p", &st) == 0 && S_ISFIFO(st.st_mode), "p is no longer a FIFO");
        char ev[4096];
        int closes = 0;
        ssize_t n = read(ino, ev, sizeof ev);
        for (ssize_t at = 0; at < n;) {
            const struct inotify_event *e = (const struct inotify_event *)(void *)(ev + at);
            closes += (e->mask & IN_CLOSE_WRITE) != 0;
            at += (ssize_t)(sizeof *e + e->len);
        }
        close(ino);
        CHECK(closes == 1, "write end closed %d times (reader_first=%d)", closes, reader_first);
        CHECK(!strcmp(listing("."), "p"), "listing '%s'", listing("."));
    }
    free(big);
}

static void test_devnull(void)
{
    enter("devnull");
    char msg[512];
    struct stat before, after;
    stat("/dev/null", &before);
    if (symlink("/dev/null", "nul") != 0) die("symlink");
    gaps_outfile o[3];
    gaps_outfile_init(&o[0], "--output", "/dev/null", GAPS_OUTFILE_ATOMIC);
    gaps_outfile_init(&o[1], "--json", "/dev/null", GAPS_OUTFILE_ATOMIC);   /* may share */
    gaps_outfile_init(&o[2], "--hepmc", "nul", GAPS_OUTFILE_PARTIAL);
    CHECK(gaps_outfiles_prepare(o, 3, msg, sizeof msg) == 0, "%s", msg);
    for (int i = 0; i < 3; ++i) put(&o[i], "discarded\n");
    CHECK(gaps_outfiles_commit(o, 3, msg, sizeof msg) == 0, "commit: %s", msg);
    CHECK(lstat("/dev/null", &after) == 0 && S_ISCHR(after.st_mode) &&
              after.st_rdev == before.st_rdev && after.st_ino == before.st_ino,
          "/dev/null is no longer the device");
    CHECK(lstat("nul", &after) == 0 && S_ISLNK(after.st_mode), "link replaced");
    CHECK(!strcmp(listing("."), "nul"), "listing '%s'", listing("."));
    CHECK(access("/dev/null.part", F_OK) != 0, "/dev/null.part created");
}

static void test_symlinks(void)
{
    enter("symlinks");
    char msg[512], buf[64];
    gaps_outfile o;
    if (mkdir("sub", 0777) != 0) die("mkdir");
    put_file("sub/t", "old\n", 0600);
    if (symlink("sub/t", "l") || symlink("l", "l2")) die("symlink");
    CHECK(prepare1(&o, "--output", "l2", GAPS_OUTFILE_ATOMIC, msg, sizeof msg) == 0, "%s", msg);
    put(&o, "new\n");
    CHECK(gaps_outfiles_commit(&o, 1, msg, sizeof msg) == 0, "commit: %s", msg);
    struct stat st;
    CHECK(lstat("l", &st) == 0 && S_ISLNK(st.st_mode), "l replaced");
    CHECK(lstat("l2", &st) == 0 && S_ISLNK(st.st_mode), "l2 replaced");
    ssize_t n = readlink("l", buf, sizeof buf - 1);
    buf[n > 0 ? n : 0] = '\0';
    CHECK(!strcmp(buf, "sub/t"), "l now points to '%s'", buf);
    CHECK(!strcmp(slurp("sub/t"), "new\n"), "target content '%s'", slurp("sub/t"));
    CHECK(mode_of("sub/t") == 0600, "target mode %o", mode_of("sub/t"));
    CHECK(!strcmp(listing("sub"), "t"), "sub listing '%s'", listing("sub"));
    CHECK(!strcmp(listing("."), "l,l2,sub"), "listing '%s'", listing("."));

    /* Dangling link whose directory exists: the named file is created. */
    if (symlink("sub/new", "d")) die("symlink");
    CHECK(prepare1(&o, "--output", "d", GAPS_OUTFILE_ATOMIC, msg, sizeof msg) == 0, "%s", msg);
    put(&o, "made\n");
    CHECK(gaps_outfiles_commit(&o, 1, msg, sizeof msg) == 0, "commit: %s", msg);
    CHECK(!strcmp(slurp("sub/new"), "made\n") && lstat("d", &st) == 0 && S_ISLNK(st.st_mode),
          "dangling link not written through");

    /* Dangling link into a missing directory: refused, nothing created. */
    if (symlink("nodir/new", "e")) die("symlink");
    CHECK(prepare1(&o, "--json", "e", GAPS_OUTFILE_ATOMIC, msg, sizeof msg) != 0,
          "dangling link into a missing directory accepted");
    CHECK(!strcmp(msg, "cannot write '--json' to 'e': No such file or directory"), "msg '%s'",
          msg);
    /* A link loop. */
    if (symlink("loop2", "loop1") || symlink("loop1", "loop2")) die("symlink");
    CHECK(prepare1(&o, "--json", "loop1", GAPS_OUTFILE_ATOMIC, msg, sizeof msg) != 0 &&
              contains(msg, "Too many levels of symbolic links"),
          "loop: '%s'", msg);
    /* An absolute link, PARTIAL mode: DEST.part goes next to the target, the link stays. */
    char abs[PATH_MAX + 64];
    snprintf(abs, sizeof abs, "%s/symlinks/sub/abs", scratch);
    if (symlink(abs, "a")) die("symlink");
    CHECK(prepare1(&o, "--hepmc", "a", GAPS_OUTFILE_PARTIAL, msg, sizeof msg) == 0, "%s", msg);
    CHECK(access("sub/abs.part", F_OK) == 0, "no sub/abs.part while running");
    put(&o, "events\n");
    CHECK(gaps_outfiles_commit(&o, 1, msg, sizeof msg) == 0, "commit: %s", msg);
    CHECK(!strcmp(slurp("sub/abs"), "events\n") && lstat("a", &st) == 0 && S_ISLNK(st.st_mode),
          "absolute link not written through");
    CHECK(!strcmp(listing("sub"), "abs,new,t"), "sub listing '%s'", listing("sub"));
}

/* Two outputs naming one file must be refused before anything is created. */
static void expect_same(const char *a, const char *b, const char *want_listing)
{
    char msg[512], want[512];
    gaps_outfile o[3];
    gaps_outfile_init(&o[0], "--output", a, GAPS_OUTFILE_ATOMIC);
    gaps_outfile_init(&o[1], "--json", "unrelated.json", GAPS_OUTFILE_ATOMIC);
    gaps_outfile_init(&o[2], "--hepmc", b, GAPS_OUTFILE_ATOMIC);
    int r = gaps_outfiles_prepare(o, 3, msg, sizeof msg);
    snprintf(want, sizeof want, "cannot write '--hepmc' to '%s': same file as '--output' ('%s')",
             b, a);
    CHECK(r == -1 && !strcmp(msg, want), "'%s' and '%s': r=%d msg '%s'", a, b, r, msg);
    if (r == 0) gaps_outfiles_discard(o, 3);
    CHECK(!strcmp(listing("."), want_listing), "'%s' '%s': listing '%s'", a, b, listing("."));
    CHECK(gaps_outfile_stream(&o[1]) == NULL, "unrelated output left open");
}

static void test_same_file(void)
{
    enter("same_file");
    expect_same("x", "x", "");
    expect_same("x", "./x", "");
    expect_same("x", "../same_file/x", "");
    put_file("y", "old\n", 0644);
    if (symlink("y", "ly") || link("y", "hy") || symlink("n", "ln") || mkdir("d", 0777))
        die("ln");
    expect_same("y", "ly", "d,hy,ln,ly,y");
    expect_same("y", "hy", "d,hy,ln,ly,y");
    expect_same("ln", "n", "d,hy,ln,ly,y");    /* dangling link and the name it points to */
    expect_same("d/../y", "y", "d,hy,ln,ly,y");
    /* A PARTIAL output's DEST.part may not be another output. */
    char msg[512];
    gaps_outfile o[2];
    gaps_outfile_init(&o[0], "--hepmc", "ev", GAPS_OUTFILE_PARTIAL);
    gaps_outfile_init(&o[1], "--json", "ev.part", GAPS_OUTFILE_ATOMIC);
    CHECK(gaps_outfiles_prepare(o, 2, msg, sizeof msg) == -1 && contains(msg, "same file"),
          ".part clash: '%s'", msg);
    CHECK(!strcmp(slurp("y"), "old\n") && !strcmp(listing("."), "d,hy,ln,ly,y"),
          "changed: '%s'", listing("."));
    /* stdout twice */
    gaps_outfile_init(&o[0], "--output", "-", GAPS_OUTFILE_ATOMIC);
    gaps_outfile_init(&o[1], "--hepmc", "-", GAPS_OUTFILE_PARTIAL);
    CHECK(gaps_outfile_is_stdout(&o[0]) && gaps_outfile_is_stdout(&o[1]), "is_stdout");
    CHECK(gaps_outfiles_prepare(o, 2, msg, sizeof msg) == -1 &&
              !strcmp(msg, "cannot write '--hepmc' to '-': standard output is already used by "
                           "'--output'"),
          "'-' twice: '%s'", msg);
    /* "-" and /dev/stdout are one file too (unless stdout is the shareable null device). */
    struct stat so, nul;
    if (fstat(1, &so) == 0 && stat("/dev/null", &nul) == 0 &&
        !(S_ISCHR(so.st_mode) && so.st_rdev == nul.st_rdev)) {
        gaps_outfile_init(&o[1], "--hepmc", "/dev/stdout", GAPS_OUTFILE_ATOMIC);
        CHECK(gaps_outfiles_prepare(o, 2, msg, sizeof msg) == -1 && contains(msg, "same file"),
              "'-' and /dev/stdout: '%s'", msg);
    }
}

static void expect_refused(const char *path, const char *reason, const char *want_listing)
{
    char msg[512], want[PATH_MAX + 200];
    gaps_outfile o[2];
    gaps_outfile_init(&o[0], "--output", "fine.yoda", GAPS_OUTFILE_ATOMIC);
    gaps_outfile_init(&o[1], "--json", path, GAPS_OUTFILE_ATOMIC);
    int r = gaps_outfiles_prepare(o, 2, msg, sizeof msg);
    snprintf(want, sizeof want, "cannot write '--json' to '%s': %s", path, reason);
    CHECK(r == -1 && !strcmp(msg, want), "'%s': r=%d msg '%s'", path, r, msg);
    CHECK(!strcmp(listing("."), want_listing), "'%s': listing '%s'", path, listing("."));
}

static void test_refused(void)
{
    enter("refused");
    if (mkdir("d", 0777)) die("mkdir");
    put_file("f", "file\n", 0644);
    expect_refused("d", "Is a directory", "d,f");
    expect_refused("", "empty file name", "d,f");
    expect_refused("x/", "the name ends in '/' (a directory)", "d,f");
    expect_refused("d/", "the name ends in '/' (a directory)", "d,f");
    expect_refused(".", "Is a directory", "d,f");
    expect_refused("nodir/x.json", "No such file or directory", "d,f");
    expect_refused("f/x.json", "Not a directory", "d,f");
    char msg[512];
    gaps_outfile o;
    /* A path with a newline still gives a one-line message. */
    CHECK(prepare1(&o, "--json", "no\ndir/x", GAPS_OUTFILE_ATOMIC, msg, sizeof msg) == -1 &&
              !strchr(msg, '\n'),
          "multi-line message '%s'", msg);
    /* A socket is not written. */
    int sock = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un sa = { .sun_family = AF_UNIX, .sun_path = "sock" };
    if (sock < 0 || bind(sock, (struct sockaddr *)&sa, sizeof sa) != 0) die("socket");
    expect_refused("sock", "not a regular file, FIFO or character device", "d,f,sock");
    close(sock);
    unlink("sock");
    /* Immutable file: found by the trial open (needs root and a file system with flags). */
    put_file("imm", "keep\n", 0644);
    int fd = open("imm", O_RDONLY), flags = 0;
    if (fd >= 0 && ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 &&
        (flags |= FS_IMMUTABLE_FL, ioctl(fd, FS_IOC_SETFLAGS, &flags) == 0)) {
        expect_refused("imm", "Operation not permitted", "d,f,imm");
        flags &= ~FS_IMMUTABLE_FL;
        ioctl(fd, FS_IOC_SETFLAGS, &flags);
    } else {
        printf("note: immutable-file case skipped (no FS_IOC_SETFLAGS here)\n");
    }
    if (fd >= 0) close(fd);
    unlink("imm");
    /* Without privileges: read-only file and read-only directory. */
    if (geteuid() != 0) {
        put_file("ro", "keep\n", 0444);
        expect_refused("ro", "Permission denied", "d,f,ro");
        if (mkdir("rodir", 0555)) die("mkdir");
        expect_refused("rodir/x", "Permission denied", "d,f,ro,rodir");
        chmod("ro", 0644);
        unlink("ro");
        rmdir("rodir");
    }
    /* Too many outputs in one call. */
    gaps_outfile many[GAPS_OUTFILE_MAX + 1];
    for (int i = 0; i <= GAPS_OUTFILE_MAX; ++i)
        gaps_outfile_init(&many[i], "--x", NULL, GAPS_OUTFILE_ATOMIC);
    CHECK(gaps_outfiles_prepare(many, GAPS_OUTFILE_MAX + 1, msg, sizeof msg) == -1,
          "more than GAPS_OUTFILE_MAX accepted");
    CHECK(gaps_outfiles_prepare(many, GAPS_OUTFILE_MAX, msg, sizeof msg) == 0,
          "unrequested outputs: %s", msg);
}

static void test_long_names(void)
{
    enter("long_names");
    char msg[512], name[300];
    gaps_outfile o;
    memset(name, 'n', 255);
    name[255] = '\0';
    for (int round = 0; round < 2; ++round) {   /* new, then replacing the existing one */
        CHECK(prepare1(&o, "--output", name, GAPS_OUTFILE_ATOMIC, msg, sizeof msg) == 0,
              "255-byte name: %s", msg);
        put(&o, round ? "second\n" : "first\n");
        CHECK(gaps_outfiles_commit(&o, 1, msg, sizeof msg) == 0, "commit: %s", msg);
        CHECK(!strcmp(slurp(name), round ? "second\n" : "first\n"), "content '%s'", slurp(name));
        CHECK(!strcmp(listing("."), "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn"), "listing '%s'",
              listing("."));
    }
    /* 256 bytes is refused cleanly. */
    name[255] = 'n';
    name[256] = '\0';
    CHECK(prepare1(&o, "--output", name, GAPS_OUTFILE_ATOMIC, msg, sizeof msg) == -1 &&
              contains(msg, "File name too long"),
          "256-byte name: '%s'", msg);
    /* PARTIAL adds ".part": 251 bytes is too long for it, 250 is fine. */
    name[251] = '\0';
    CHECK(prepare1(&o, "--hepmc", name, GAPS_OUTFILE_PARTIAL, msg, sizeof msg) == -1 &&
              contains(msg, "would be too long"),
          "251-byte PARTIAL name: '%s'", msg);
    name[250] = '\0';
    CHECK(prepare1(&o, "--hepmc", name, GAPS_OUTFILE_PARTIAL, msg, sizeof msg) == 0, "%s", msg);
    put(&o, "ev\n");
    CHECK(gaps_outfiles_commit(&o, 1, msg, sizeof msg) == 0, "commit: %s", msg);
    CHECK(!strcmp(slurp(name), "ev\n"), "250-byte PARTIAL content");
    /* A destination that looks like a temporary name. */
    CHECK(prepare1(&o, "--json", ".gaps-AAAAAA", GAPS_OUTFILE_ATOMIC, msg, sizeof msg) == 0,
          "%s", msg);
    put(&o, "t\n");
    CHECK(gaps_outfiles_commit(&o, 1, msg, sizeof msg) == 0 &&
              !strcmp(slurp(".gaps-AAAAAA"), "t\n"),
          "temporary-looking name: %s", msg);
}

/* Paths at PATH_MAX: 20 directories of 200 bytes and a 75-byte name make 4095 bytes. */
static void test_path_max(void)
{
    enter("path_max");
    char path[8192], comp[201], msg[512];
    memset(comp, 'd', 200);
    comp[200] = '\0';
    path[0] = '\0';
    for (int i = 0; i < 20; ++i) {
        strcat(path, i ? "/" : "");
        strcat(path, comp);
        if (mkdir(path, 0777)) die("mkdir deep");
    }
    size_t dirlen = strlen(path);
    strcat(path, "/");
    memset(path + dirlen + 1, 'f', 4095 - dirlen - 1);
    path[4095] = '\0';
    CHECK(strlen(path) == PATH_MAX - 1, "length %zu", strlen(path));
    gaps_outfile o;
    for (int round = 0; round < 2; ++round) {
        CHECK(prepare1(&o, "--output", path, GAPS_OUTFILE_ATOMIC, msg, sizeof msg) == 0,
              "4095-byte path: %s", msg);
        put(&o, round ? "again\n" : "deep\n");
        CHECK(gaps_outfiles_commit(&o, 1, msg, sizeof msg) == 0, "commit: %s", msg);
        CHECK(!strcmp(slurp(path), round ? "again\n" : "deep\n"), "content '%s'", slurp(path));
        path[dirlen] = '\0';
        CHECK(!strcmp(listing(path), "ffffffffffffffffffffffffffffffffffffffff"),
              "deep listing '%s'", listing(path));
        path[dirlen] = '/';
    }
    /* DEST.part would pass PATH_MAX: refused with a clear message, nothing created. */
    path[4092] = '\0';
    CHECK(prepare1(&o, "--hepmc", path, GAPS_OUTFILE_PARTIAL, msg, sizeof msg) == -1 &&
              contains(msg, "would be too long"),
          "PARTIAL at 4092: '%s'", msg);
    /* A directory part beyond PATH_MAX: refused cleanly (or written, but never wrong). */
    path[dirlen] = '\0';
    if (chdir(path) != 0) die("chdir deep");
    for (int i = 0; i < 4; ++i)
        if (mkdir(comp, 0777) || chdir(comp)) die("mkdir deeper");
    char longpath[8192];
    strcpy(longpath, path);
    for (int i = 0; i < 4; ++i) {
        strcat(longpath, "/");
        strcat(longpath, comp);
    }
    strcat(longpath, "/x");
    char back[PATH_MAX + 64];
    snprintf(back, sizeof back, "%s/path_max", scratch);
    if (chdir(back)) die("chdir back");
    int r = prepare1(&o, "--output", longpath, GAPS_OUTFILE_ATOMIC, msg, sizeof msg);
    CHECK(r == -1 && contains(msg, "File name too long"), "%zu-byte path: r=%d '%s'",
          strlen(longpath), r, msg);
}

/* One output fails at commit: no destination may change. */
static void test_commit_failure(void)
{
    enter("commit_failure");
    put_file("a", "oldA\n", 0644);
    char msg[512];
    for (int big = 0; big < 2; ++big) {   /* error at the final flush, or during the run */
        gaps_outfile o[4];
        gaps_outfile_init(&o[0], "--output", "a", GAPS_OUTFILE_ATOMIC);
        gaps_outfile_init(&o[1], "--json", "b", GAPS_OUTFILE_ATOMIC);
        gaps_outfile_init(&o[2], "--hepmc", "c", GAPS_OUTFILE_PARTIAL);
        gaps_outfile_init(&o[3], "--cycles-out", "/dev/full", GAPS_OUTFILE_ATOMIC);
        CHECK(gaps_outfiles_prepare(o, 4, msg, sizeof msg) == 0, "%s", msg);
        char *text = big_text(big ? 200000 : 100, 'z');
        for (int i = 0; i < 4; ++i) put(&o[i], text);
        free(text);
        if (big) CHECK(gaps_outfile_tell(&o[3]) == -1 && errno == ENOSPC, "tell on /dev/full");
        /* gaps_outfiles_error names it (flushing the small case's buffer too), changing
         * nothing: a second call says the same. */
        for (int k = 0; k < 2; ++k)
            CHECK(gaps_outfiles_error(o, 4, msg, sizeof msg) == -1 &&
                      !strcmp(msg, "writing '--cycles-out' to '/dev/full' failed: No space "
                                   "left on device"),
                  "gaps_outfiles_error: '%s'", msg);
        CHECK(gaps_outfiles_commit(o, 4, msg, sizeof msg) == -1, "commit succeeded");
        CHECK(!strcmp(msg, "writing '--cycles-out' to '/dev/full' failed: No space left on "
                           "device"),
              "msg '%s'", msg);
        CHECK(!strcmp(slurp("a"), "oldA\n"), "a changed");
        /* c.part stays for a resume; nothing else exists. */
        CHECK(!strcmp(listing("."), "a,c.part"), "listing '%s'", listing("."));
        unlink("c.part");
    }
    /* Standard output on /dev/full (in a child, whose stdout is redirected). */
    pid_t pid = (fflush(stdout), fork());
    if (pid == 0) {
        int fd = open("/dev/full", O_WRONLY);
        if (fd < 0 || dup2(fd, 1) < 0) _exit(3);
        gaps_outfile o[2];
        gaps_outfile_init(&o[0], "--output", "a", GAPS_OUTFILE_ATOMIC);
        gaps_outfile_init(&o[1], "--json", "-", GAPS_OUTFILE_ATOMIC);
        if (gaps_outfiles_prepare(o, 2, msg, sizeof msg) != 0) _exit(4);
        put(&o[0], "newA\n");
        put(&o[1], "{}\n");
        int r = gaps_outfiles_commit(o, 2, msg, sizeof msg);
        _exit(r == -1 && !strcmp(msg, "writing '--json' to '-' failed: No space left on device")
                  ? 0 : 1);
    }
    int status;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "stdout on /dev/full: status %d",
          status);
    CHECK(!strcmp(slurp("a"), "oldA\n") && !strcmp(listing("."), "a"), "changed: %s",
          listing("."));

    /* A regular output fails during the run (file size limit: EFBIG, in a child). */
    pid = (fflush(stdout), fork());
    if (pid == 0) {
        struct rlimit rl = { 50000, 50000 };
        signal(SIGXFSZ, SIG_IGN);
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0) _exit(3);
        gaps_outfile o[2];
        gaps_outfile_init(&o[0], "--output", "a", GAPS_OUTFILE_ATOMIC);
        gaps_outfile_init(&o[1], "--hepmc", "big", GAPS_OUTFILE_ATOMIC);
        if (gaps_outfiles_prepare(o, 2, msg, sizeof msg) != 0) _exit(4);
        char *text = big_text(200000, 'e');
        put(&o[0], "newA\n");
        put(&o[1], text);
        free(text);
        int r = gaps_outfiles_commit(o, 2, msg, sizeof msg);
        _exit(r == -1 && !strcmp(msg, "writing '--hepmc' to 'big' failed: File too large")
                  ? 0 : 1);
    }
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "file size limit: status %d", status);
    CHECK(!strcmp(slurp("a"), "oldA\n") && !strcmp(listing("."), "a"), "changed: %s",
          listing("."));

    /* The destination turns into a directory during the run: its rename fails, and the
     * outputs after it in the set are not committed. */
    gaps_outfile o[2];
    gaps_outfile_init(&o[0], "--output", "b", GAPS_OUTFILE_ATOMIC);
    gaps_outfile_init(&o[1], "--json", "a", GAPS_OUTFILE_ATOMIC);
    CHECK(gaps_outfiles_prepare(o, 2, msg, sizeof msg) == 0, "%s", msg);
    put(&o[0], "B\n");
    put(&o[1], "newA\n");
    if (mkdir("b", 0777) || mkdir("b/inside", 0777)) die("mkdir");
    CHECK(gaps_outfiles_commit(o, 2, msg, sizeof msg) == -1, "rename over a directory worked");
    CHECK(contains(msg, "cannot write '--output' to 'b': "), "msg '%s'", msg);
    CHECK(!strcmp(slurp("a"), "oldA\n") && !strcmp(listing("."), "a,b"), "after: %s",
          listing("."));
}

/* Ownership: a DEST.part is locked by the set that prepared it (open file description
 * locks conflict between two opens even in one process, so a second prepare here stands for a
 * second run); the commit checks the destinations and puts back what it renamed when a later
 * rename fails (the test hook of testhook.h breaks a destination at a chosen position); the
 * checkpoint's ownership (gaps_owned) follows it across replacements. */
static void test_ownership(void)
{
    enter("ownership");
    char msg[512], want[128];
    snprintf(want, sizeof want, "belongs to a run that is still going (process %ld)",
             (long)getpid());
    gaps_outfile a, b;
    CHECK(prepare1(&a, "--hepmc", "ev", GAPS_OUTFILE_PARTIAL, msg, sizeof msg) == 0, "%s", msg);
    put(&a, "first\n");
    CHECK(gaps_outfile_sync(&a) == 0, "sync");
    CHECK(prepare1(&b, "--hepmc", "ev", GAPS_OUTFILE_PARTIAL, msg, sizeof msg) == -1
              && contains(msg, "'ev.part' belongs") && contains(msg, want),
          "second writer of ev.part: '%s'", msg);
    CHECK(!strcmp(slurp("ev.part"), "first\n"), "ev.part changed: '%s'", slurp("ev.part"));
    gaps_outfile_init(&b, "--hepmc", "ev", GAPS_OUTFILE_PARTIAL);
    CHECK(gaps_outfile_resume(&b, 0, msg, sizeof msg) == 0, "%s", msg);
    CHECK(gaps_outfiles_prepare(&b, 1, msg, sizeof msg) == -1 && contains(msg, want),
          "a resume of a live ev.part: '%s'", msg);
    gaps_outfiles_discard(&a, 1);   /* the first run ends: ev.part is free */
    CHECK(prepare1(&b, "--hepmc", "ev", GAPS_OUTFILE_PARTIAL, msg, sizeof msg) == 0, "%s", msg);
    gaps_outfiles_discard(&b, 1);
    unlink("ev.part");

    /* A destination that another file took during the run: nothing committed. */
    put_file("x", "oldX\n", 0644);
    put_file("y", "oldY\n", 0644);
    gaps_outfile o[3];
    gaps_outfile_init(&o[0], "--output", "x", GAPS_OUTFILE_ATOMIC);
    gaps_outfile_init(&o[1], "--hepmc", "z", GAPS_OUTFILE_PARTIAL);
    gaps_outfile_init(&o[2], "--json", "y", GAPS_OUTFILE_ATOMIC);
    CHECK(gaps_outfiles_prepare(o, 3, msg, sizeof msg) == 0, "%s", msg);
    for (int i = 0; i < 3; ++i) put(&o[i], "new\n");
    put_file("other", "theirs\n", 0644);
    if (rename("other", "y")) die("rename");
    CHECK(gaps_outfiles_commit(o, 3, msg, sizeof msg) == -1
              && contains(msg, "'y': another file was put there during the run")
              && contains(msg, "nothing was committed"), "msg '%s'", msg);
    CHECK(!strcmp(slurp("x"), "oldX\n") && !strcmp(slurp("y"), "theirs\n")
              && !strcmp(slurp("z.part"), "new\n") && !strcmp(listing("."), "x,y,z.part"),
          "after: %s", listing("."));
    unlink("z.part");

    /* A rename that fails at the third output: the first two are put back. */
    put_file("y", "oldY\n", 0644);
    CHECK(gaps_outfiles_prepare(o, 3, msg, sizeof msg) == 0, "%s", msg);
    for (int i = 0; i < 3; ++i) put(&o[i], "new\n");
#ifdef GAPS_TEST_HOOKS
    setenv("GAPS_TEST_HOOK_RENAME_2", "rm y && mkdir y && touch y/inside", 1);
    CHECK(gaps_outfiles_commit(o, 3, msg, sizeof msg) == -1
              && contains(msg, "cannot write '--json' to 'y': another directory was put there "
                               "during the commit")
              && contains(msg, "(the 2 outputs renamed before it were put back)"),
          "msg '%s'", msg);
    unsetenv("GAPS_TEST_HOOK_RENAME_2");
    CHECK(!strcmp(slurp("x"), "oldX\n") && !strcmp(slurp("z.part"), "new\n")
              && !strcmp(listing("."), "x,y,z.part") && count_hidden_temps(".") == 0,
          "after the rollback: %s", listing("."));
    if (unlink("y/inside") || rmdir("y")) die("y");
#else
    gaps_outfiles_discard(o, 3);
#endif
    unlink("z.part");

    /* The checkpoint: held across its replacements, removed only if still its own. */
    gaps_owned ck, other;
    gaps_owned_init(&ck);
    gaps_owned_init(&other);
    CHECK(gaps_owned_take(&ck, "--checkpoint", "ck", 1, msg, sizeof msg) == 0 && ck.fd < 0,
          "take of a new checkpoint: %s", msg);
    for (int k = 0; k < 2; ++k) {
        gaps_outfile c;
        CHECK(prepare1(&c, "--checkpoint", "ck", GAPS_OUTFILE_ATOMIC, msg, sizeof msg) == 0,
              "%s", msg);
        put(&c, k ? "two\n" : "one\n");
        CHECK(gaps_owned_commit(&ck, &c, msg, sizeof msg) == 0, "checkpoint %d: %s", k, msg);
        CHECK(gaps_owned_check(&ck, msg, sizeof msg) == 0, "check: %s", msg);
        CHECK(gaps_owned_take(&other, "--resume", "ck", 0, msg, sizeof msg) == -1
                  && contains(msg, "--resume 'ck' belongs") && contains(msg, want),
              "a second owner of ck: '%s'", msg);
    }
    put_file("foreign", "foreign\n", 0644);
    if (rename("foreign", "ck")) die("rename");
    CHECK(gaps_owned_check(&ck, msg, sizeof msg) == -1 && contains(msg, "was replaced"),
          "replaced checkpoint: '%s'", msg);
    gaps_owned_remove(&ck);   /* not its own any more: stays */
    CHECK(!strcmp(slurp("ck"), "foreign\n"), "a foreign checkpoint was removed");
}

static void test_partial(void)
{
    enter("partial");
    char msg[512];
    /* First run: write, checkpoint (tell + sync), write more, then die without commit. */
    int pfd[2];
    if (pipe(pfd)) die("pipe");
    pid_t pid = (fflush(stdout), fork());
    if (pid == 0) {
        gaps_outfile o;
        if (prepare1(&o, "--hepmc", "ev", GAPS_OUTFILE_PARTIAL, msg, sizeof msg) != 0) _exit(3);
        char *a = big_text(100000, 'A'), *b = big_text(5000, 'a');
        put(&o, a);
        long long at = gaps_outfile_tell(&o);
        if (gaps_outfile_sync(&o) != 0) _exit(4);
        put(&o, b);
        fflush(gaps_outfile_stream(&o));   /* these bytes reach the file but not a checkpoint */
        if (write(pfd[1], &at, sizeof at) != sizeof at) _exit(5);
        raise(SIGKILL);
    }
    close(pfd[1]);
    long long at = -1;
    if (read(pfd[0], &at, sizeof at) != sizeof at) at = -1;
    close(pfd[0]);
    int status;
    waitpid(pid, &status, 0);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "first run status %d", status);
    CHECK(at == 100000, "tell at checkpoint %lld", at);
    struct stat st;
    CHECK(stat("ev.part", &st) == 0 && st.st_size == 105000, "ev.part size %lld",
          (long long)st.st_size);
    CHECK(!strcmp(listing("."), "ev.part"), "after crash: '%s'", listing("."));

    /* Resume errors change nothing: offset beyond the file, not PARTIAL, missing .part. */
    gaps_outfile o;
    gaps_outfile_init(&o, "--hepmc", "ev", GAPS_OUTFILE_PARTIAL);
    CHECK(gaps_outfile_resume(&o, 200000, msg, sizeof msg) == 0, "%s", msg);
    CHECK(gaps_outfiles_prepare(&o, 1, msg, sizeof msg) == -1 &&
              !strcmp(msg, "cannot resume '--hepmc' from 'ev.part': it has 105000 bytes, the "
                           "checkpoint needs 200000"),
          "resume beyond the end: '%s'", msg);
    CHECK(stat("ev.part", &st) == 0 && st.st_size == 105000, "ev.part changed");
    gaps_outfile_init(&o, "--json", "j", GAPS_OUTFILE_ATOMIC);
    CHECK(gaps_outfile_resume(&o, 0, msg, sizeof msg) == -1, "ATOMIC resume accepted");
    gaps_outfile_init(&o, "--hepmc", "other", GAPS_OUTFILE_PARTIAL);
    gaps_outfile_resume(&o, 0, msg, sizeof msg);
    CHECK(gaps_outfiles_prepare(&o, 1, msg, sizeof msg) == -1 &&
              !strcmp(msg, "cannot resume '--hepmc' from 'other.part': No such file or "
                           "directory"),
          "missing .part: '%s'", msg);
    CHECK(!strcmp(listing("."), "ev.part"), "after refusals: '%s'", listing("."));
    gaps_outfile_init(&o, "--hepmc", "-", GAPS_OUTFILE_PARTIAL);
    gaps_outfile_resume(&o, 0, msg, sizeof msg);
    CHECK(gaps_outfiles_prepare(&o, 1, msg, sizeof msg) == -1 && contains(msg, "not a regular"),
          "resume on stdout: '%s'", msg);

    /* Resume at the checkpoint: the unsynced tail is cut, new data follows. */
    gaps_outfile_init(&o, "--hepmc", "ev", GAPS_OUTFILE_PARTIAL);
    CHECK(gaps_outfile_resume(&o, at, msg, sizeof msg) == 0, "%s", msg);
    CHECK(gaps_outfiles_prepare(&o, 1, msg, sizeof msg) == 0, "resume: %s", msg);
    CHECK(stat("ev.part", &st) == 0 && st.st_size == 100000, "not cut: %lld",
          (long long)st.st_size);
    CHECK(gaps_outfile_tell(&o) == 100000, "tell after resume %lld", gaps_outfile_tell(&o));
    char *c = big_text(3000, 'C');
    put(&o, c);
    CHECK(gaps_outfile_tell(&o) == 103000, "tell %lld", gaps_outfile_tell(&o));
    CHECK(gaps_outfiles_commit(&o, 1, msg, sizeof msg) == 0, "commit: %s", msg);
    char *want = malloc(103001), *a = big_text(100000, 'A');
    strcpy(want, a);
    strcat(want, c);
    CHECK(!strcmp(slurp("ev"), want), "resumed content wrong (%zu bytes)", strlen(slurp("ev")));
    CHECK(!strcmp(listing("."), "ev"), "after commit: '%s'", listing("."));
    free(a);
    free(c);
    free(want);

    /* Discard keeps DEST.part; a fresh (not resumed) run empties a stale one; the mode of
     * a replaced DEST is kept. */
    put_file("keep", "old\n", 0640);
    CHECK(prepare1(&o, "--hepmc", "keep", GAPS_OUTFILE_PARTIAL, msg, sizeof msg) == 0, "%s", msg);
    put(&o, "partial\n");
    gaps_outfiles_discard(&o, 1);
    CHECK(!strcmp(slurp("keep.part"), "partial\n") && !strcmp(slurp("keep"), "old\n"),
          "discard: part '%s' dest '%s'", slurp("keep.part"), slurp("keep"));
    CHECK(prepare1(&o, "--hepmc", "keep", GAPS_OUTFILE_PARTIAL, msg, sizeof msg) == 0, "%s", msg);
    CHECK(stat("keep.part", &st) == 0 && st.st_size == 0, "stale .part not emptied");
    put(&o, "fresh\n");
    CHECK(gaps_outfiles_commit(&o, 1, msg, sizeof msg) == 0, "commit: %s", msg);
    CHECK(!strcmp(slurp("keep"), "fresh\n") && mode_of("keep") == 0640, "keep: '%s' mode %o",
          slurp("keep"), mode_of("keep"));
    CHECK(!strcmp(listing("."), "ev,keep"), "end: '%s'", listing("."));
    /* A stale .part that is not a regular file is refused. */
    if (mkdir("dd.part", 0777)) die("mkdir");
    CHECK(prepare1(&o, "--hepmc", "dd", GAPS_OUTFILE_PARTIAL, msg, sizeof msg) == -1 &&
              contains(msg, "not a regular file"),
          "directory .part: '%s'", msg);
}

/* Standard output and /dev/stdout, with stdout a pipe or a file, in children. */
static void test_stdout(void)
{
    enter("stdout");
    const char *paths[4] = { "-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1" };
    for (int k = 0; k < 4; ++k) {
        int pfd[2];
        if (pipe(pfd)) die("pipe");
        pid_t pid = (fflush(stdout), fork());
        if (pid == 0) {
            close(pfd[0]);
            if (dup2(pfd[1], 1) < 0) _exit(3);
            close(pfd[1]);
            char msg[512];
            gaps_outfile o;
            if (prepare1(&o, "--output", paths[k], GAPS_OUTFILE_ATOMIC, msg, sizeof msg))
                _exit(4);
            if (!gaps_outfile_is_direct(&o)) _exit(5);
            put(&o, "to stdout\n");
            _exit(gaps_outfiles_commit(&o, 1, msg, sizeof msg) ? 6 : 0);
        }
        close(pfd[1]);
        char buf[100] = "";
        ssize_t n = 0, r;
        while ((r = read(pfd[0], buf + n, sizeof buf - 1 - (size_t)n)) > 0) n += r;
        close(pfd[0]);
        int status;
        waitpid(pid, &status, 0);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0 && !strcmp(buf, "to stdout\n"),
              "'%s' on a pipe: status %d, got '%s'", paths[k], status, buf);
    }
    /* stdout redirected to a file ('>>' and '>'): /dev/stdout writes after what the
     * program wrote to stdout before, and never replaces the file. */
    for (int append = 0; append < 2; ++append) {
        put_file("so", "HEAD\n", 0644);
        struct stat before, after;
        stat("so", &before);
        pid_t pid = (fflush(stdout), fork());
        if (pid == 0) {
            int fd = open("so", append ? O_WRONLY | O_APPEND : O_WRONLY | O_TRUNC);
            if (fd < 0 || dup2(fd, 1) < 0) _exit(3);
            if (!append) fputs("HEAD\n", stdout);
            char msg[512];
            gaps_outfile o;
            if (prepare1(&o, "--output", "/dev/stdout", GAPS_OUTFILE_ATOMIC, msg, sizeof msg))
                _exit(4);
            put(&o, "BODY\n");
            _exit(gaps_outfiles_commit(&o, 1, msg, sizeof msg) ? 6 : 0);
        }
        int status;
        waitpid(pid, &status, 0);
        stat("so", &after);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
                  !strcmp(slurp("so"), "HEAD\nBODY\n") && before.st_ino == after.st_ino,
              "/dev/stdout to a file: status %d content '%s'", status, slurp("so"));
        CHECK(!strcmp(listing("."), "so"), "listing '%s'", listing("."));
    }
    /* A descriptor open only for reading is refused. */
    char msg[512];
    gaps_outfile o;
    int rfd = open("so", O_RDONLY), r;
    char path[64];
    snprintf(path, sizeof path, "/dev/fd/%d", rfd);
    r = prepare1(&o, "--output", path, GAPS_OUTFILE_ATOMIC, msg, sizeof msg);
    CHECK(r == -1 && contains(msg, "Bad file descriptor"), "read-only descriptor: '%s'", msg);
    close(rfd);
}

static void on_term(int sig)
{
    gaps_outfiles_cleanup_signal_safe();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Interrupted runs: a handler removes hidden names; SIGKILL leaves none with O_TMPFILE. */
static void test_signals(void)
{
    enter("signals");
    put_file("x", "old\n", 0644);
    for (int kill9 = 0; kill9 < 2; ++kill9) {
        pid_t pid = (fflush(stdout), fork());
        if (pid == 0) {
            signal(SIGTERM, on_term);
            char msg[512];
            gaps_outfile o[2];
            gaps_outfile_init(&o[0], "--output", "x", GAPS_OUTFILE_ATOMIC);
            gaps_outfile_init(&o[1], "--json", "y", GAPS_OUTFILE_ATOMIC);
            if (gaps_outfiles_prepare(o, 2, msg, sizeof msg)) _exit(3);
            put(&o[0], "new\n");
            fflush(gaps_outfile_stream(&o[0]));
            raise(kill9 ? SIGKILL : SIGTERM);
            _exit(4);
        }
        int status;
        waitpid(pid, &status, 0);
        CHECK(WIFSIGNALED(status), "child status %d", status);
        CHECK(!strcmp(slurp("x"), "old\n"), "x changed");
        if (kill9 && FALLBACK) {
            /* Documented limit of the fallback: SIGKILL cannot be caught. */
            CHECK(count_hidden_temps(".") == 2, "fallback after SIGKILL: '%s'", listing("."));
            system("rm -f .gaps-*");
        }
        CHECK(!strcmp(listing("."), "x"), "after signal %s: '%s'", kill9 ? "KILL" : "TERM",
              listing("."));
    }
    /* A forked child's cleanup must not remove its parent's names. */
    char msg[512];
    gaps_outfile o;
    CHECK(prepare1(&o, "--output", "x", GAPS_OUTFILE_ATOMIC, msg, sizeof msg) == 0, "%s", msg);
    pid_t pid = (fflush(stdout), fork());
    if (pid == 0) {
        gaps_outfiles_cleanup_signal_safe();
        _exit(0);
    }
    waitpid(pid, NULL, 0);
    CHECK(count_hidden_temps(".") == FALLBACK, "child removed the parent's temporary");
    gaps_outfiles_cleanup_signal_safe();   /* the parent's own does */
    CHECK(count_hidden_temps(".") == 0, "cleanup left '%s'", listing("."));
    gaps_outfiles_discard(&o, 1);
    CHECK(!strcmp(listing("."), "x") && !strcmp(slurp("x"), "old\n"), "end '%s'", listing("."));
}

/* Repeated prepare/commit of one output (a checkpoint file), and many outputs in one set. */
static void test_repeat_and_many(void)
{
    enter("repeat");
    char msg[512], name[32];
    gaps_outfile o;
    gaps_outfile_init(&o, "--checkpoint", "ckpt", GAPS_OUTFILE_ATOMIC);
    for (int i = 0; i < 50; ++i) {
        CHECK(gaps_outfiles_prepare(&o, 1, msg, sizeof msg) == 0, "round %d: %s", i, msg);
        fprintf(gaps_outfile_stream(&o), "round %d\n", i);
        CHECK(gaps_outfiles_commit(&o, 1, msg, sizeof msg) == 0, "round %d: %s", i, msg);
    }
    CHECK(!strcmp(slurp("ckpt"), "round 49\n") && !strcmp(listing("."), "ckpt"), "'%s'",
          listing("."));
    gaps_outfile many[GAPS_OUTFILE_MAX];
    char names[GAPS_OUTFILE_MAX][16];
    for (int i = 0; i < GAPS_OUTFILE_MAX; ++i) {
        snprintf(names[i], sizeof names[i], "m%02d", i);
        gaps_outfile_init(&many[i], "--m", names[i],
                          i % 3 == 2 ? GAPS_OUTFILE_PARTIAL : GAPS_OUTFILE_ATOMIC);
    }
    CHECK(gaps_outfiles_prepare(many, GAPS_OUTFILE_MAX, msg, sizeof msg) == 0, "%s", msg);
    for (int i = 0; i < GAPS_OUTFILE_MAX; ++i) put(&many[i], names[i]);
    CHECK(gaps_outfiles_commit(many, GAPS_OUTFILE_MAX, msg, sizeof msg) == 0, "%s", msg);
    int good = 1;
    for (int i = 0; i < GAPS_OUTFILE_MAX; ++i) good &= !strcmp(slurp(names[i]), names[i]);
    CHECK(good, "many outputs: wrong content");
    snprintf(name, sizeof name, "%d", count_hidden_temps("."));
    CHECK(!strcmp(name, "0"), "temporaries left: %s", listing("."));
}

/* Remove the tree below directory fd dir (any depth: names only, relative to descriptors). */
static void remove_tree(int dir)
{
    DIR *d = fdopendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        if (unlinkat(dirfd(d), e->d_name, 0) == 0) continue;
        int sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
        if (sub >= 0) remove_tree(sub);
        unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
    }
    closedir(d);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_outfile SCRATCH_DIR\n");
        return 2;
    }
    mkdir(argv[1], 0777);
    char top[PATH_MAX];
    if (!realpath(argv[1], top) || strlen(top) + 12 >= sizeof scratch) die(argv[1]);
    snprintf(scratch, sizeof scratch, "%s/run-XXXXXX", top);
    if (!mkdtemp(scratch)) die(scratch);
    umask(022);
    signal(SIGPIPE, SIG_IGN);
    test_atomic_new();
    test_atomic_replace();
    test_discard();
    test_fifo();
    test_devnull();
    test_symlinks();
    test_same_file();
    test_refused();
    test_long_names();
    test_path_max();
    test_commit_failure();
    test_partial();
    test_ownership();
    test_stdout();
    test_signals();
    test_repeat_and_many();
    printf("test_outfile%s: %d checks, %d failed\n",
           FALLBACK ? " (fallback)" : "", checks, failures);
    if (chdir(top) != 0) die(top);
    if (failures) {
        printf("files kept in %s\n", scratch);
        return 1;
    }
    int fd = open(scratch, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) remove_tree(fd);
    rmdir(scratch);
    return 0;
}
