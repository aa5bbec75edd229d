/* one_line.h -- a message that holds a user's text (a file name, an argument) kept on one
 * line: control characters (a newline in a file name) become '?', so that every error is one
 * line of standard error whatever bytes the names hold.  The commands apply it to the
 * messages of the library (state.c's name the file as given), outfile.c to its own; options.c
 * escapes such text instead (\x0a), as a run card's keys are shown. */
#ifndef GAPS_ONE_LINE_H
#define GAPS_ONE_LINE_H

/* s, made one line in place. */
static inline char *gaps_one_line(char *s)
{
    for (char *c = s; *c; ++c)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
    return s;
}

#endif
