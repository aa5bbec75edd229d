/* commands.c -- what the run and `gaps merge` share (commands.h): reading a state file,
 * keeping the inputs from being overwritten by the outputs, and --help on standard output. */
#define _POSIX_C_SOURCE 200809L
#include "program/commands.h"
#include "program/one_line.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int gaps_read_state(const char *path, gaps_state *st, gaps_resume_point *rp, char *msg,
                    size_t len)
{
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
        return snprintf(msg, len, "cannot read '%s': %s", path, strerror(EISDIR)), EXIT_USAGE;
    errno = 0;
    if (gaps_state_read(path, st, rp, msg, len) == 0) return 0;
    const int e = errno;
    return e == EMFILE || e == ENFILE || e == ENOMEM ? EXIT_RUN_FAILED : EXIT_USAGE;
}

int gaps_clobbers_input(const gaps_outfile *outs, int n, const char *input, const char *what,
                        char *msg, size_t len)
{
    struct stat in, out;
    if (!input || stat(input, &in) != 0 || !S_ISREG(in.st_mode)) return 0;
    for (int k = 0; k < n; ++k) {
        if (!outs[k].path || !strcmp(outs[k].path, "-") || stat(outs[k].path, &out) != 0
            || out.st_dev != in.st_dev || out.st_ino != in.st_ino)
            continue;
        snprintf(msg, len, "cannot write '%s' to '%s': it is %s '%s', which would be lost",
                 outs[k].label, outs[k].path, what, input);
        gaps_one_line(msg);   /* one line, whatever the names hold */
        return -1;
    }
    return 0;
}

int gaps_finish_stdout(void)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "gaps: writing to standard output failed: %s\n", strerror(errno));
        return EXIT_RUN_FAILED;
    }
    return 0;
}
