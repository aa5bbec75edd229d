/* c_locale.c -- the library's text in the C locale (c_locale.h). */
#define _POSIX_C_SOURCE 200809L
#include "io/c_locale.h"

#include <locale.h>
#include <stdatomic.h>

/* The C locale object, made once (newlocale may allocate) and never freed. */
static locale_t c_locale(void)
{
    static _Atomic(locale_t) cached;
    locale_t c = atomic_load_explicit(&cached, memory_order_acquire);
    if (c) return c;
    locale_t made = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (!made) return (locale_t)0;
    locale_t none = (locale_t)0;
    if (!atomic_compare_exchange_strong(&cached, &none, made)) {
        freelocale(made);   /* another thread made it first */
        return none;
    }
    return made;
}

gaps_c_locale gaps_c_locale_enter(void)
{
    gaps_c_locale s = { NULL };
    const locale_t c = c_locale();
    if (c) s.saved = (void *)uselocale(c);   /* LC_GLOBAL_LOCALE, or the thread's own */
    return s;
}

void gaps_c_locale_leave(gaps_c_locale s)
{
    if (s.saved) uselocale((locale_t)s.saved);
}
