/* c_locale.h -- the library's text in the C locale, whatever locale its caller chose.
 *
 * A program that links the library may call setlocale(LC_ALL, "") and run under a locale
 * whose decimal point is a comma (de_DE, fr_FR): printf would then write "3,33e-05" into a
 * YODA file, which no reader takes for a number.  Every function of the library that prints
 * numbers (the YODA, HepMC3 and CSV writers, the messages of the configuration check) does
 * its work between gaps_c_locale_enter() and gaps_c_locale_leave(): the calling thread uses
 * the C locale (POSIX uselocale, per thread: other threads and the process's locale are not
 * touched) and gets its own back afterwards.
 *
 *   gaps_c_locale saved = gaps_c_locale_enter();
 *   ... fprintf ...
 *   gaps_c_locale_leave(saved);
 */
#ifndef GAPS_C_LOCALE_H
#define GAPS_C_LOCALE_H

typedef struct gaps_c_locale {
    void *saved;   /* the thread's locale before (locale_t), NULL when nothing was changed */
} gaps_c_locale;

gaps_c_locale gaps_c_locale_enter(void);
void gaps_c_locale_leave(gaps_c_locale saved);

#endif
