/* parameters.c -- the table of physics parameters and what every user of it shares
 * (gaps/parameters.h). */
#define _POSIX_C_SOURCE 200809L
#include "gaps/parameters.h"
#include "gaps/compat.h"
#include "gaps/constants.h"
#include "gaps/generator.h"
#include "gaps/process.h"
#include "gaps/state.h"

#include <float.h>
#include <stdio.h>
#include <string.h>

const char *const gaps_compat_names[GAPS_N_COMPAT + 1] = {
    [GAPS_COMPAT_NONE] = "none", [GAPS_COMPAT_GAPS21] = "gaps21", [GAPS_N_COMPAT] = NULL
};

const char *const gaps_ablate_names[GAPS_N_ABLATE + 1] = {
    "alphas-herwig", "alphas-thresholds", "fi-kernels", "fi-gg-asym", "if-kernels",
    "gqq-virtuality", "isr-no-b", NULL
};

int gaps_ablate_parse(const char *text, int *bits, const char **bad, size_t *bad_len)
{
    *bits = 0;
    *bad = text;
    *bad_len = 0;
    if (!strcmp(text, "none")) return 0;
    const char *s = text;
    for (;;) {
        const size_t n = strcspn(s, ",");
        int bit = -1;
        for (int i = 0; i < GAPS_N_ABLATE; ++i)
            if (n == strlen(gaps_ablate_names[i]) && !strncmp(s, gaps_ablate_names[i], n)) bit = i;
        if (bit < 0 || (*bits & (1 << bit))) {   /* not a name, empty, or given twice */
            *bad = s;
            *bad_len = n;
            return -1;
        }
        *bits |= 1 << bit;
        if (!s[n]) return 0;
        s += n + 1;
    }
}

int gaps_param_choice_lookup(const gaps_param *p, const char *text, size_t n)
{
    const char *s = p->metavar;
    for (int i = 0;; ++i) {
        const size_t k = strcspn(s, "|");
        if (k == n && !strncmp(s, text, n)) return i;
        if (!s[k]) return -1;
        s += k + 1;
    }
}

int gaps_param_choice_count(const gaps_param *p)
{
    int n = 1;
    for (const char *s = p->metavar; *s; ++s) n += *s == '|';
    return n;
}

void gaps_param_choice_name(const gaps_param *p, int i, char *buf, size_t len)
{
    const char *s = p->metavar;
    for (int k = 0; k < i && s; ++k) {
        s = strchr(s, '|');
        if (s) ++s;
    }
    if (i < 0 || !s) snprintf(buf, len, "?");
    else snprintf(buf, len, "%.*s", (int)strcspn(s, "|"), s);
}

/* Where a parameter lies in gaps_state: only those the state records have a field there. */
#define GAPS_STATE_OFFSET_STATE(key) offsetof(gaps_state, key)
#define GAPS_STATE_OFFSET_NOSTATE(key) 0
#define GAPS_IN_STATE_STATE 1
#define GAPS_IN_STATE_NOSTATE 0

/* The configuration's field and the state's have one type: the sizes agree. */
#define GAPS_SAME_SIZE_STATE(key)                                                               \
    _Static_assert(sizeof(((gaps_config *)0)->key) == sizeof(((gaps_state *)0)->key),          \
                   "gaps_config." #key " and gaps_state." #key " differ");
#define GAPS_SAME_SIZE_NOSTATE(key)
#define GAPS_PT_SIZE_REAL sizeof(double)
#define GAPS_PT_SIZE_UNIT sizeof(double)
#define GAPS_PT_SIZE_INT sizeof(int)
#define GAPS_PT_SIZE_U32 sizeof(uint32_t)
#define GAPS_PT_SIZE_PROCESS sizeof(int)
#define GAPS_PT_SIZE_COMPAT sizeof(int)
#define GAPS_PT_SIZE_ABLATE sizeof(int)
#define GAPS_PT_SIZE_ANALYSIS sizeof(int)
#define GAPS_PT_SIZE_CHOICE sizeof(int)
#define GAPS_PT_SIZE_PDF (size_t)GAPS_PDF_SPEC_MAX
#define GAPS_PT_SIZE_PATH (size_t)4096
#define GAPS_CHECK_(key, option, short_name, TYPE, STATE, ...)                                 \
    _Static_assert(sizeof(((gaps_config *)0)->key) == GAPS_PT_SIZE_##TYPE,                     \
                   "gaps_config." #key " does not have the C type of its parameter");         \
    GAPS_SAME_SIZE_##STATE(key)
GAPS_PARAMETERS(GAPS_CHECK_)
#undef GAPS_CHECK_

const gaps_param gaps_params[GAPS_N_PARAMS] = {
#define GAPS_ROW_(key, option, short_name, TYPE, STATE, flags, lo, hi, dflt, unit, metavar,     \
                  help, json, yoda, hepmc, summary)                                             \
    [GAPS_P_##key] = { #key, option, short_name, GAPS_PT_##TYPE, GAPS_IN_STATE_##STATE, flags, \
                       lo, hi, unit, metavar, help, json, yoda, hepmc, summary,                      \
                       offsetof(gaps_config, key), GAPS_STATE_OFFSET_##STATE(key),             \
                       sizeof(((gaps_config *)0)->key) },
    GAPS_PARAMETERS(GAPS_ROW_)
#undef GAPS_ROW_
};

/* Setting a field to its default, by type. */
static void set_text(char *field, size_t size, const char *text)
{
    memset(field, 0, size);
    if (text) snprintf(field, size, "%s", text);
}
#define GAPS_SET_REAL(f, v) (f) = (v)
#define GAPS_SET_UNIT(f, v) (f) = (v)
#define GAPS_SET_INT(f, v) (f) = (v)
#define GAPS_SET_U32(f, v) (f) = (v)
#define GAPS_SET_PROCESS(f, v) (f) = (v)
#define GAPS_SET_COMPAT(f, v) (f) = (v)
#define GAPS_SET_ABLATE(f, v) (f) = (v)
#define GAPS_SET_ANALYSIS(f, v) (f) = (v)
#define GAPS_SET_CHOICE(f, v) (f) = (v)
#define GAPS_SET_PDF(f, v) set_text((f), sizeof(f), (v))
#define GAPS_SET_PATH(f, v) set_text((f), sizeof(f), (v))

void gaps_param_set_default(int id, struct gaps_config *c)
{
    switch (id) {
#define GAPS_DEFAULT_(key, option, short_name, TYPE, STATE, flags, lo, hi, dflt, ...)          \
    case GAPS_P_##key: GAPS_SET_##TYPE(c->key, dflt); break;
        GAPS_PARAMETERS(GAPS_DEFAULT_)
#undef GAPS_DEFAULT_
    default: break;
    }
}

void gaps_config_set_process(gaps_config *cfg, int process)
{
    cfg->process = process;
    if (process < 0 || process >= GAPS_N_PROCESSES) return;   /* gaps_config_check says so */
    for (int id = 0; id < GAPS_N_PARAMS; ++id)
        if (gaps_params[id].flags & GAPS_PF_PROCESS_DEFAULT) gaps_param_set_default(id, cfg);
}

static int pdf_name_char(char c, int first)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'
        || c == '+')
        return 1;
    return !first && (c == '.' || c == '-');
}

int gaps_pdf_spec_parse(const char *spec, char *name, int *member)
{
    size_t n = 0;
    while (spec[n] && spec[n] != '/') {
        if (!pdf_name_char(spec[n], n == 0) || n + 1 >= GAPS_PDF_NAME_MAX) return -1;
        ++n;
    }
    if (n == 0) return -1;
    int m = 0;
    if (spec[n] == '/') {
        const char *d = spec + n + 1;
        if (!*d || strlen(d) > 4) return -1;   /* at most 4 digits: the spec fits */
        for (; *d; ++d) {
            if (*d < '0' || *d > '9') return -1;
            m = 10 * m + (*d - '0');
            if (m > GAPS_PDF_MAX_MEMBER) return -1;
        }
    }
    memcpy(name, spec, n);
    name[n] = '\0';
    *member = m;
    return 0;
}

void gaps_config_pdf_spec(const struct gaps_config *cfg, char out[GAPS_PDF_SPEC_MAX])
{
    memset(out, 0, GAPS_PDF_SPEC_MAX);
    if (cfg->process < 0 || cfg->process >= GAPS_N_PROCESSES
        || !gaps_process_table[cfg->process].hadronic)
        return;
    const char *spec = cfg->pdf[0] ? cfg->pdf : gaps_process_table[cfg->process].default_pdf;
    char name[GAPS_PDF_NAME_MAX];
    int member;
    if (!spec || gaps_pdf_spec_parse(spec, name, &member) != 0) {
        /* not a set name: kept as it is, for gaps_config_check to refuse */
        snprintf(out, GAPS_PDF_SPEC_MAX, "%s", spec ? spec : "");
        return;
    }
    snprintf(out, GAPS_PDF_SPEC_MAX, "%s/%d", name, member);
}

void gaps_param_format(const gaps_param *p, const void *field, enum gaps_param_style style,
                       char *buf, size_t len)
{
    const char *text = NULL;
    switch (p->type) {
    case GAPS_PT_REAL:
    case GAPS_PT_UNIT: {
        double v;
        memcpy(&v, field, sizeof v);
        snprintf(buf, len, style == GAPS_STYLE_SHORT ? "%g" : "%.17g", v);
        return;
    }
    case GAPS_PT_INT: {
        int v;
        memcpy(&v, field, sizeof v);
        snprintf(buf, len, "%d", v);
        return;
    }
    case GAPS_PT_U32: {
        uint32_t v;
        memcpy(&v, field, sizeof v);
        snprintf(buf, len, "%u", (unsigned)v);
        return;
    }
    case GAPS_PT_PROCESS:
    case GAPS_PT_COMPAT:
    case GAPS_PT_ANALYSIS: {
        int v;
        memcpy(&v, field, sizeof v);
        const int n = p->type == GAPS_PT_PROCESS ? GAPS_N_PROCESSES
                      : p->type == GAPS_PT_COMPAT ? GAPS_N_COMPAT : GAPS_N_ANALYSES;
        if (v >= 0 && v < n)
            text = p->type == GAPS_PT_PROCESS ? gaps_process_table[v].name
                   : p->type == GAPS_PT_COMPAT ? gaps_compat_names[v]
                                               : gaps_analysis_table[v].name;
        else
            text = "?";
        break;
    }
    case GAPS_PT_ABLATE: {
        /* "none", or the names of the bits in bit order, separated by commas */
        int v;
        memcpy(&v, field, sizeof v);
        size_t o = 0;
        char names[200];
        names[0] = '\0';
        for (int i = 0; i < GAPS_N_ABLATE; ++i)
            if (v & (1 << i))
                o += (size_t)snprintf(names + o, sizeof names - o, "%s%s", o ? "," : "",
                                      gaps_ablate_names[i]);
        if (v & ~GAPS_ABLATE_ALL) snprintf(names, sizeof names, "?");
        else if (!v) snprintf(names, sizeof names, "none");
        if (style == GAPS_STYLE_JSON) snprintf(buf, len, "\"%s\"", names);
        else snprintf(buf, len, "%s", names);
        return;
    }
    case GAPS_PT_CHOICE: {
        int v;
        memcpy(&v, field, sizeof v);
        char name[64];
        gaps_param_choice_name(p, v, name, sizeof name);
        if (style == GAPS_STYLE_JSON) snprintf(buf, len, "\"%s\"", name);
        else snprintf(buf, len, "%s", name);
        return;
    }
    case GAPS_PT_PDF:
    case GAPS_PT_PATH:
        text = (const char *)field;
        if (!text[0]) {
            snprintf(buf, len, "%s", style == GAPS_STYLE_JSON ? "null" : "none");
            return;
        }
        break;
    }
    if (style == GAPS_STYLE_JSON) {
        /* names and set names hold no quote, backslash or control character (their syntax);
         * a path might: those are escaped */
        size_t o = 0;
        if (o + 1 < len) buf[o++] = '"';
        for (const unsigned char *s = (const unsigned char *)text; *s && o + 7 < len; ++s) {
            if (*s == '"' || *s == '\\') o += (size_t)snprintf(buf + o, len - o, "\\%c", *s);
            else if (*s < 0x20) o += (size_t)snprintf(buf + o, len - o, "\\u%04x", *s);
            else buf[o++] = (char)*s;
        }
        if (o + 1 < len) buf[o++] = '"';
        if (len) buf[o < len ? o : len - 1] = '\0';
        return;
    }
    snprintf(buf, len, "%s", text);
}

int gaps_param_is_process_default(const gaps_param *p, const void *st)
{
    /* the defaults of the state's process and compat (those that depend on them are set in
     * list order, after both) */
    gaps_config def;
    gaps_config_defaults(&def);
    memcpy(&def.compat, gaps_param_in_state(&gaps_params[GAPS_P_compat], st), sizeof def.compat);
    int process;
    memcpy(&process, gaps_param_in_state(&gaps_params[GAPS_P_process], st), sizeof process);
    gaps_config_set_process(&def, process);
    return memcmp(gaps_param_in_config(p, &def), gaps_param_in_state(p, st), p->size) == 0;
}

int gaps_state_params_differ(const void *a, const void *b)
{
    for (int id = 0; id < GAPS_N_PARAMS; ++id) {
        const gaps_param *p = &gaps_params[id];
        if (!p->in_state) continue;
        const void *x = gaps_param_in_state(p, a), *y = gaps_param_in_state(p, b);
        const int differ = p->type == GAPS_PT_PDF || p->type == GAPS_PT_PATH
                               ? strncmp(x, y, p->size) != 0
                               : memcmp(x, y, p->size) != 0;   /* doubles bit for bit */
        if (differ) return id;
    }
    return -1;
}
