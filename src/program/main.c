/* main.c -- the program `gaps`: picks the command by the first argument and runs it
 * (commands.h: the commands, and the exit statuses they return).
 *
 *   gaps merge ...   merge.c        gaps pdf ...   pdf_command.c
 *   gaps lhe-check ...   lhe_check.c
 *   gaps [options]   run.c (a run; any first argument other than these three is the run's)
 */
#define _POSIX_C_SOURCE 200809L
#include "program/commands.h"
#include "program/pdf_command.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* Descriptors 0-2 that the caller closed (`gaps ... >&-`) would be taken by the first files
 * the program opens, and text meant for standard output or error would go into them.  Each
 * closed one is occupied by /dev/null opened read-only: writes to it still fail (EBADF), as
 * they would on the closed descriptor, but no output file can land there. */
static void occupy_standard_descriptors(void)
{
    for (int fd = 0; fd <= 2; ++fd) {
        if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF) continue;
        const int n = open("/dev/null", O_RDONLY | O_NOCTTY);
        if (n >= 0 && n != fd) {
            dup2(n, fd);
            close(n);
        }
    }
}

int main(int argc, char **argv)
{
    occupy_standard_descriptors();
    if (argc > 1 && strcmp(argv[1], "merge") == 0) return gaps_merge_command(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "pdf") == 0) return gaps_pdf_command(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "lhe-check") == 0)
        return gaps_lhe_check_command(argc - 1, argv + 1);
    return gaps_run_command(argc, argv);
}
