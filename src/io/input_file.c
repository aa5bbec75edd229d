/* input_file.c -- inputs opened only when they are regular files (input_file.h). */
#define _POSIX_C_SOURCE 200809L
#include "io/input_file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

static const char *type_name(mode_t m)
{
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISDIR(m)) return "a directory";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

FILE *gaps_open_input(const char *path, const char **not_regular)
{
    *not_regular = NULL;
    /* O_NONBLOCK: a FIFO opens at once instead of waiting for a writer; O_NOCTTY: a terminal
     * named here never becomes the controlling one */
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        const int e = errno;
        close(fd);
        errno = e;
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        *not_regular = type_name(st.st_mode);
        close(fd);
        errno = EINVAL;
        return NULL;
    }
    /* a regular file never blocks, but reads should not see EAGAIN semantics either */
    const int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) (void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        const int e = errno;
        close(fd);
        errno = e;
    }
    return f;
}
