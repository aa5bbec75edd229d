/* search_path.c -- where PDF sets are looked for (gaps_pdf_search_path, gaps/pdf.h).  In the
 * library, not the program, so that a run of a hadronic process (src/generator/generator.c)
 * finds the same sets as `gaps pdf`. */
#define _POSIX_C_SOURCE 200809L
#include "gaps/pdf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int append_dirs(char *buf, size_t len, size_t *n, const char *dirs)
{
    if (!dirs || !*dirs) return 0;
    const int w = snprintf(buf + *n, len - *n, "%s%s", *n ? ":" : "", dirs);
    if (w < 0 || (size_t)w >= len - *n) return -1;
    *n += (size_t)w;
    return 0;
}

#if defined(GAPS_PDF_DATADIR) || defined(GAPS_PDF_SOURCE_DATADIR)
/* A directory relative to the one that holds this executable (/proc/self/exe), so that an
 * installed tree can be moved; "" if that directory cannot be known. */
static void beside_executable(const char *relative, char *out, size_t len)
{
    char exe[4096];
    out[0] = '\0';
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) return;
    *slash = '\0';
    const int w = snprintf(out, len, "%s/%s", exe, relative);
    if (w < 0 || (size_t)w >= len) out[0] = '\0';
}

/* A compile-time data directory: absolute, or relative to the executable's directory. */
static int append_data_dir(char *buf, size_t len, size_t *n, const char *dir)
{
    if (dir[0] == '/') return append_dirs(buf, len, n, dir);
    char resolved[4200];
    beside_executable(dir, resolved, sizeof resolved);
    return append_dirs(buf, len, n, resolved);
}
#endif

int gaps_pdf_search_path(const char *user_dir, char *buf, size_t len)
{
    if (len == 0) return -1;
    size_t n = 0;
    buf[0] = '\0';
    int rc = append_dirs(buf, len, &n, user_dir);
    rc |= append_dirs(buf, len, &n, getenv("LHAPDF_DATA_PATH"));
#if defined(GAPS_PDF_DATADIR)
    rc |= append_data_dir(buf, len, &n, GAPS_PDF_DATADIR);
#endif
#if defined(GAPS_PDF_SOURCE_DATADIR)
    rc |= append_data_dir(buf, len, &n, GAPS_PDF_SOURCE_DATADIR);
#endif
    return rc ? -1 : 0;
}

int gaps_pdf_check_user_dirs(const char *user_dir, char *err, size_t errlen)
{
    const char *p = user_dir ? user_dir : "";
    while (*p) {
        const char *colon = strchr(p, ':');
        const size_t n = colon ? (size_t)(colon - p) : strlen(p);
        if (n > 0) {
            char dir[GAPS_PDF_DIR_MAX];
            struct stat st;
            const int fits = n < sizeof dir;
            if (fits) {
                memcpy(dir, p, n);
                dir[n] = '\0';
            }
            const int e = !fits ? ENAMETOOLONG : stat(dir, &st) != 0 ? errno
                          : !S_ISDIR(st.st_mode) ? ENOTDIR : 0;
            if (e) {
                /* one line whatever the name holds */
                char shown[200];
                snprintf(shown, sizeof shown, "%.*s", (int)(n < 160 ? n : 160), p);
                for (char *c = shown; *c; ++c)
                    if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
                snprintf(err, errlen, "--pdf-path: '%s%s': %s (a directory given with "
                         "--pdf-path must exist)", shown, n > 160 ? "..." : "", strerror(e));
                return -1;
            }
        }
        p += n;
        if (*p == ':') ++p;
    }
    return 0;
}
