/* input_file.h -- opening a file the program reads (a PDF set's files, a run card, a state or
 * checkpoint, a streamed output to continue) only if it is a regular file.
 *
 * Why: opening a FIFO for reading blocks until a writer comes, so a FIFO placed where an input
 * belongs would hang the program with no message; a device (/dev/zero, a terminal) never ends
 * or waits for a person.  None of them is a file the program can read whole, so all are
 * refused with one line naming the kind of file.  The file is opened with O_NONBLOCK (a FIFO
 * then opens at once) and its type is taken from the open descriptor (fstat), so there is no
 * window between the check and the open in which the name can be swapped for a FIFO; the
 * flag is cleared again before reading. */
#ifndef GAPS_INPUT_FILE_H
#define GAPS_INPUT_FILE_H

#include <stdio.h>

/* Open path for reading ("rb").  Returns the stream; or NULL with errno set when the open
 * failed (*not_regular is then NULL); or NULL with *not_regular naming what the path is
 * instead of a regular file ("a FIFO", "a directory", "a character device", ...; errno is
 * then EINVAL). */
FILE *gaps_open_input(const char *path, const char **not_regular);

#endif
