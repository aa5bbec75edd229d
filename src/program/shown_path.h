/* shown_path.h -- how a long file name is shortened for a one-line message (used by the
 * option parser and the output files, so that every message cuts a path the same way).
 *
 * A name of at most GAPS_SHOWN_PATH_MAX bytes is shown whole.  A longer one keeps its first
 * GAPS_SHOWN_PATH_HEAD bytes and its end, where the names that tell files apart are, around
 * "...", GAPS_SHOWN_PATH_MAX bytes in all; both cuts fall on UTF-8 character boundaries. */
#ifndef GAPS_SHOWN_PATH_H
#define GAPS_SHOWN_PATH_H

#include <stddef.h>

#define GAPS_SHOWN_PATH_MAX 160
#define GAPS_SHOWN_PATH_HEAD 70

/* 0 if the n bytes of p are shown whole; otherwise 1, with p[0, *head) and p[*tail, n) the
 * parts to show around "...". */
static inline int gaps_shown_path_cut(const char *p, size_t n, size_t *head, size_t *tail)
{
    if (n <= GAPS_SHOWN_PATH_MAX) return 0;
    size_t h = GAPS_SHOWN_PATH_HEAD, t = n - (GAPS_SHOWN_PATH_MAX - GAPS_SHOWN_PATH_HEAD - 3);
    while (h > 0 && ((unsigned char)p[h] & 0xc0) == 0x80) --h;
    while (t < n && ((unsigned char)p[t] & 0xc0) == 0x80) ++t;
    *head = h;
    *tail = t;
    return 1;
}

#endif
