/* testhook.h -- stop the program at a chosen moment, in the test build only.
 *
 * The tests of file ownership and of the commit (tests/test_ownership.sh) need a run that is
 * paused at a known point while something else happens: a second run started on the same
 * files, a .part file removed or replaced, a destination made impossible to rename onto.
 * Sleeping and hoping is not deterministic, so the test build (compiled with
 * GAPS_TEST_HOOKS, the program `gaps-hooks` of tests/CMakeLists.txt) runs the shell command
 * in the environment variable GAPS_TEST_HOOK_<POINT> at each of these points and waits for it:
 *
 *   PREPARED     every output is prepared (locks taken, .part files open), before the run
 *   CHECKPOINT   after each checkpoint written (it is in place and locked)
 *   COMMIT       the run is done and its outputs written, before anything is checked for
 *                the commit (the checkpoint first, then every output)
 *   RENAME_<K>   in the commit, just before the K-th file output (0, 1, ...) is renamed into
 *                place, after every check has passed
 *
 * The command runs under /bin/sh with every signal unblocked; its parent ($PPID) is this
 * program.  Its exit status is ignored.  A normal build has none of this: the calls compile
 * to nothing and no environment variable is read.
 */
#ifndef GAPS_TESTHOOK_H
#define GAPS_TESTHOOK_H

#ifdef GAPS_TEST_HOOKS
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static inline void gaps_test_hook(const char *point, int k)
{
    char name[64];
    if (k >= 0) snprintf(name, sizeof name, "GAPS_TEST_HOOK_%s_%d", point, k);
    else snprintf(name, sizeof name, "GAPS_TEST_HOOK_%s", point);
    const char *cmd = getenv(name);
    if (!cmd || !*cmd) return;
    fflush(stdout);
    fflush(stderr);
    const pid_t child = fork();
    if (child == 0) {
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    if (child > 0)
        while (waitpid(child, NULL, 0) < 0 && errno == EINTR) {
        }
}
#else
#define gaps_test_hook(point, k) ((void)(point), (void)(k))
#endif

#endif
