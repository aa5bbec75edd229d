/* lhe_check_main.c -- `gaps lhe-check` alone, as a program of its own: the reader and the
 * command compiled with AddressSanitizer and UndefinedBehaviorSanitizer for the fuzz test
 * (tests/test_lhe_fuzz.py) without instrumenting the whole program.  `lhe_check_sanitized
 * ARGS` is `gaps lhe-check ARGS`. */
#include "program/commands.h"

int main(int argc, char **argv)
{
    return gaps_lhe_check_command(argc, argv);
}
