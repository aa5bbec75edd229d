/* test_pieces.c -- gaps_hooks.next_range, without MPI: a run whose event numbers come in
 * pieces, in any order and to any number of partitions, accumulates exactly what the plain
 * run accumulates; a stop finishes the pieces already given and nothing more; a failing giver
 * ends the run with an error; checkpoints are refused. */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime (check.h) */
#include "gaps/generator.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define MAX_PIECES 4096

/* Hands out the pieces of [begin, end) in a scrambled order. */
typedef struct giver {
    pthread_mutex_t lock;
    int64_t begin, end, piece;
    int npieces, given;
    int order[MAX_PIECES];
    int stop_after;                  /* set *stop once this many pieces are given (0: never) */
    volatile sig_atomic_t *stop;
    int fail_at;                     /* return -1 at this call (0: never) */
    int calls;
} giver;

static void giver_init(giver *g, int64_t begin, int64_t end, int64_t piece)
{
    memset(g, 0, sizeof *g);
    pthread_mutex_init(&g->lock, NULL);
    g->begin = begin;
    g->end = end;
    g->piece = piece;
    g->npieces = (int)((end - begin + piece - 1) / piece);
    /* a fixed permutation: steps of a number prime to npieces */
    int step = 7;
    while (g->npieces % step == 0) step += 2;
    for (int i = 0; i < g->npieces; ++i) g->order[i] = (int)((long)i * step % g->npieces);
}

static int give(void *ctx, int64_t *begin, int64_t *end)
{
    giver *g = ctx;
    int rc = 0;
    pthread_mutex_lock(&g->lock);
    g->calls++;
    if (g->fail_at && g->calls == g->fail_at) {
        rc = -1;
    } else if (g->given == g->npieces) {
        *begin = *end;
    } else {
        *begin = g->begin + g->order[g->given] * g->piece;
        *end = *begin + g->piece < g->end ? *begin + g->piece : g->end;
        if (++g->given == g->stop_after) *g->stop = 1;
    }
    pthread_mutex_unlock(&g->lock);
    return rc;
}

static void defaults(gaps_config *cfg, int threads)
{
    gaps_config_defaults(cfg);
    cfg->events = 20000;
    cfg->first_event = 1000;
    cfg->seed = 3;
    cfg->threads = threads;
    cfg->slots = 96;
}

static int same_sums(const gaps_state *a, const gaps_state *b)
{
    return a->events == b->events && a->capacity_hits == b->capacity_hits
           && a->invalid_events == b->invalid_events
           && memcmp(a->words, b->words, sizeof a->words) == 0;
}

int main(void)
{
    char msg[512];
    static giver g;
    gaps_config cfg;
    gaps_run plain, run;

    defaults(&cfg, 1);
    CHECK(gaps_generate(&cfg, &plain, msg, sizeof msg) == 0, "plain run: %s", msg);

    /* pieces of 37 events in a scrambled order, to 1 and to 3 partitions */
    for (int threads = 1; threads <= 3; threads += 2) {
        defaults(&cfg, threads);
        giver_init(&g, cfg.first_event, cfg.first_event + cfg.events, 37);
        gaps_hooks h = { &g, NULL, NULL, NULL, NULL, give, NULL, NULL, NULL };
        CHECK(gaps_generate_with(&cfg, &h, NULL, NULL, &run, msg, sizeof msg) == 0,
              "pieces run: %s", msg);
        if (run.state) {
            CHECK(same_sums(plain.state, run.state), "%d thread(s): pieces differ from the "
                  "plain run", threads);
            CHECK(run.state->n_ranges == 0, "the ranges are the giver's");
            CHECK(run.next_event == cfg.first_event + cfg.events && !run.interrupted,
                  "next_event %lld", (long long)run.next_event);
            printf("ok: %d piece(s) of 37 events, scrambled, %d thread(s): the plain run's "
                   "sums\n", g.npieces, run.threads);
        }
        gaps_run_free(&run);
    }

    /* a stop after 20 pieces: exactly the pieces given are done */
    defaults(&cfg, 3);
    volatile sig_atomic_t stop = 0;
    giver_init(&g, cfg.first_event, cfg.first_event + cfg.events, 37);
    g.stop_after = 20;
    g.stop = &stop;
    gaps_hooks hs = { &g, NULL, NULL, NULL, &stop, give, NULL, NULL, NULL };
    CHECK(gaps_generate_with(&cfg, &hs, NULL, NULL, &run, msg, sizeof msg) == 0, "stop: %s",
          msg);
    if (run.state) {
        gaps_state *want = malloc(sizeof *want);
        gaps_state_init(want, &cfg);
        for (int i = 0; i < g.given; ++i) {
            gaps_config one = cfg;
            gaps_run part;
            one.first_event = g.begin + g.order[i] * g.piece;
            one.events = g.piece < g.end - one.first_event ? g.piece : g.end - one.first_event;
            CHECK(gaps_generate(&one, &part, msg, sizeof msg) == 0, "piece run: %s", msg);
            if (part.state) gaps_state_merge(want, part.state, msg, sizeof msg);
            gaps_run_free(&part);
        }
        CHECK(run.interrupted, "the stop ends the run");
        CHECK(same_sums(want, run.state), "after a stop: not exactly the %d pieces given",
              g.given);
        printf("ok: stopped after %d pieces given (%d asked for): exactly those are done\n",
               g.given, g.stop_after);
        free(want);
    }
    gaps_run_free(&run);

    /* a giver that fails, and checkpoints */
    defaults(&cfg, 3);
    giver_init(&g, cfg.first_event, cfg.first_event + cfg.events, 37);
    g.fail_at = 30;
    gaps_hooks hf = { &g, NULL, NULL, NULL, NULL, give, NULL, NULL, NULL };
    CHECK(gaps_generate_with(&cfg, &hf, NULL, NULL, &run, msg, sizeof msg) != 0
          && strstr(msg, "piece"), "a failing giver: %s", msg);
    printf("ok: a failing giver: '%s'\n", msg);
    cfg.checkpoint_every = 1000;
    CHECK(gaps_generate_with(&cfg, &hf, NULL, NULL, &run, msg, sizeof msg) != 0
          && strstr(msg, "checkpoint"), "checkpoints with pieces: %s", msg);
    printf("ok: checkpoints refused: '%s'\n", msg);

    gaps_run_free(&plain);
    if (failures == 0) printf("all piece tests passed\n");
    return failures != 0;
}
