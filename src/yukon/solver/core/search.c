/* The search, on one thread or two: the depth-first search of Searcher.run (one thread, or two that share
 * the table; docs/solver-design.md, "Two threads"), and search_run, which sets it up from its arguments. */
#include "census.h"
#include "core.h"
#include "interleave.h"

#include <sched.h>
#include <time.h>
#ifndef YUKON_NO_UCONTEXT
#include <sys/mman.h>
#include <ucontext.h>
#endif

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define SLEEP_MAX 32
/* how often the first thread polls the stop event (seconds) */
#define STOP_POLL_SECONDS 0.002

typedef struct {
    int start, count, next;
    int entry;     /* the search entered a class here: drop its level on the way back */
    uint64_t mask; /* which member of its class this position is (see localset_t) */
    uint8_t *key;  /* the stored key of the class entered here (NULL for a member reached by a swap) */
    int mode;      /* MODE_... */
    int nsleep;    /* moves not to try here: each leads where a finished class leads (docs/solver-design.md, "Sleep sets") */
    move_t sleep[SLEEP_MAX];
    uint64_t pending; /* inside a return block: its cards not used yet (block_pending); 0 outside */
#ifdef YUKON_CENSUS
    census_frame_t census; /* (bench/census.py) */
#endif
} frame_t;

typedef struct {
    move_t m;
    int turned;
} step_t;

typedef struct {
    table_t table;
    const rules_t *r;
    uint8_t origin[MAXCOLS];
    state_t root;
    pthread_mutex_t lock; /* adds key chunks once two threads share the table */
    atomic_int abort;     /* a thread won, hit a limit or failed: all stop */
    int stopped;          /* the stop event was seen */
    double deadline;
    long long node_limit;
    int (*stop)(void *stop_arg); /* (see search_args_t) */
    void *stop_arg;
    long long switch_at; /* the first thread starts the second after this many nodes (0: never) */
    pthread_t second;
    int second_started;
    uint64_t peak;
    uint8_t *root_key; /* the root's stored key */
    int help;          /* acyclic: each thread enters the classes the other has not finished */
    atomic_int finished; /* with ``help``, a thread searched the root to the end: lost */
    /* the link table grows while both threads wait at a check (under ``lock``) */
    pthread_cond_t grow_cond;
    atomic_int want_grow;
    int waiting, active, grow_gen, grow_ok;
    int growing; /* the last to come is growing it: the other only helps fault in its fresh pages */
    /* the fresh part of a growth in place, faulted in by both threads (TOUCH_CHUNK bytes a claim) */
    uint8_t *touch_base;
    uint64_t touch_bytes, touch_chunks;
    uint64_t touch_stale; /* its first bytes that an earlier search used (zeroed, not just touched) */
    _Atomic uint64_t touch_next, touch_done;
    int touch_gen;
    struct worker *workers;
    int verify_links; /* (tests) recompute the link key at every position searched */
    /* interleaved (one thread): the two searches take turns on the calling thread, each for ``slice``
     * nodes at a time, the second on a stack of its own (docs/solver-design.md, "Two searches on one core") */
    int interleave;
    long long slice;
    int gone[2]; /* that search has ended: the other runs alone */
#ifndef YUKON_NO_UCONTEXT
    ucontext_t ctx[2];
    void *stack;
#else
    pthread_t turn_thread; /* the second search's (it runs only while it holds the turn) */
    pthread_mutex_t turn_lock;
    pthread_cond_t turn_changed;
    int turn; /* which search runs */
#endif
} shared_t;

typedef struct worker {
    _Alignas(64) shared_t *sh; /* (the two workers lie side by side: no cache line in common) */
    int id;
    state_t st;
    part_t parts[MAXCOLS];
    frame_t *frames;
    step_t *path;
    move_t *mstack;
    pending_t pk;
    localset_t local;
    arena_t arena;
    int frames_cap, moves_cap, depth;
    long long nodes;
    uint32_t dirty; /* columns whose parts are out of date */
    int status;
    const char *reason;
    atomic_int done; /* (second thread only) */
    uint64_t rng;        /* the second thread's move order, where it restarts */
    long long restarts;
    char pad[64];
} worker_t;

/* Zeroed memory aligned to a cache line (the structures the two threads share have fields aligned
 * so that what one thread writes all the time is not on a line the other reads). */
static void *line_calloc(size_t n, size_t size) {
    size_t bytes = (n * size + 63) / 64 * 64;
    void *p = aligned_alloc(64, bytes);
    if (p) memset(p, 0, bytes);
    return p;
}

static void worker_free(worker_t *w) {
    free(w->frames);
    free(w->path);
    free(w->mstack);
    free(w->pk.buf);
    free(w->pk.hash);
    free(w->pk.len);
    free(w->pk.local);
    local_free(&w->local);
}

/* Has the stop event been set? (first thread only: the binding's poll takes the GIL for a moment) */
static int poll_stop(shared_t *sh) {
    if (!sh->stop) return 0;
    int stopped = sh->stop(sh->stop_arg);
    if (stopped) sh->stopped = 1;
    return stopped;
}

static const char *poll_reason(shared_t *sh) { return sh->stopped ? "stopped" : "time limit"; }

static void *worker_run(void *arg);

/* where the classes have no cycle, the second thread starts again from the root after luby(i) times
 * this many nodes (docs/solver-design.md, "Two threads") */
#define RESTART_NODES 100000

static void link_leave(shared_t *sh);

/* interleaved searches switch after this many nodes each (a few milliseconds: the first polls the stop
 * event, the second does not), or after ``switch_at`` nodes when that is fewer (the tests switch often) */
#define SLICE_NODES 65536

#define SECOND_STACK (8u << 20)

#ifndef YUKON_NO_UCONTEXT
/* Interleaved: the second search, entered on its own stack (makecontext passes ints: the worker's address
 * in two halves); when it returns, the first resumes (uc_link). */
static void second_entry(unsigned lo, unsigned hi) {
    worker_t *w2 = (worker_t *)(((uintptr_t)hi << 32) | lo);
    worker_run(w2);
    w2->sh->gone[1] = 1;
    atomic_store_explicit(&w2->done, 1, memory_order_release);
}

/* Interleaved: starts the second search, on a stack of its own; 0 if it could not. */
static int second_start_here(shared_t *sh, worker_t *w2) {
    void *stack = mmap(NULL, SECOND_STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (stack == MAP_FAILED) return 0;
    if (getcontext(&sh->ctx[1]) < 0) {
        munmap(stack, SECOND_STACK);
        return 0;
    }
    sh->stack = stack;
    sh->ctx[1].uc_stack.ss_sp = stack;
    sh->ctx[1].uc_stack.ss_size = SECOND_STACK;
    sh->ctx[1].uc_link = &sh->ctx[0];
    uintptr_t p = (uintptr_t)w2;
    makecontext(&sh->ctx[1], (void (*)(void))second_entry, 2, (unsigned)(p & 0xFFFFFFFFu), (unsigned)(p >> 32));
    return 1;
}

/* Interleaved: search ``me`` gives the other its turn and goes on when it gets its own back. */
static void take_turn(shared_t *sh, int me) { swapcontext(&sh->ctx[me], &sh->ctx[!me]); }

/* Interleaved, the first search has ended: the second runs to its next check (or on, alone) and ends. */
static void second_finish_here(shared_t *sh, worker_t *w2) {
    while (!atomic_load_explicit(&w2->done, memory_order_acquire)) take_turn(sh, 0);
    munmap(sh->stack, SECOND_STACK);
}
#else
/* Interleaved without ucontext (interleave.h): the second search on a thread of its own that runs only
 * while it holds the turn; the lock's hand-over orders each search's writes before the other's reads. */
static void wait_for_turn(shared_t *sh, int me) {
    pthread_mutex_lock(&sh->turn_lock);
    while (sh->turn != me) pthread_cond_wait(&sh->turn_changed, &sh->turn_lock);
    pthread_mutex_unlock(&sh->turn_lock);
}

static void give_turn(shared_t *sh, int to) {
    pthread_mutex_lock(&sh->turn_lock);
    sh->turn = to;
    pthread_cond_broadcast(&sh->turn_changed);
    pthread_mutex_unlock(&sh->turn_lock);
}

static void take_turn(shared_t *sh, int me) {
    give_turn(sh, !me);
    wait_for_turn(sh, me);
}

static void *second_entry(void *arg) {
    worker_t *w2 = arg;
    shared_t *sh = w2->sh;
    wait_for_turn(sh, 1);
    worker_run(w2);
    sh->gone[1] = 1;
    atomic_store_explicit(&w2->done, 1, memory_order_release);
    give_turn(sh, 0); /* (as uc_link: the first resumes) */
    return NULL;
}

static int second_start_here(shared_t *sh, worker_t *w2) {
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) return 0;
    pthread_attr_setstacksize(&attr, SECOND_STACK); /* (a platform's default may be far smaller) */
    pthread_mutex_init(&sh->turn_lock, NULL);
    pthread_cond_init(&sh->turn_changed, NULL);
    sh->turn = 0;
    int started = pthread_create(&sh->turn_thread, &attr, second_entry, w2) == 0;
    pthread_attr_destroy(&attr);
    if (!started) {
        pthread_cond_destroy(&sh->turn_changed);
        pthread_mutex_destroy(&sh->turn_lock);
    }
    return started;
}

static void second_finish_here(shared_t *sh, worker_t *w2) {
    while (!atomic_load_explicit(&w2->done, memory_order_acquire)) take_turn(sh, 0);
    pthread_join(sh->turn_thread, NULL);
    pthread_cond_destroy(&sh->turn_changed);
    pthread_mutex_destroy(&sh->turn_lock);
}
#endif

static void *second_thread(void *arg) {
    worker_run(arg);
    link_leave(((worker_t *)arg)->sh);
    atomic_store_explicit(&((worker_t *)arg)->done, 1, memory_order_release);
    return NULL;
}

static void reverse_moves(move_t *m, int n) {
    for (int i = 0; i < n / 2; i++) {
        move_t x = m[i];
        m[i] = m[n - 1 - i];
        m[n - 1 - i] = x;
    }
}

/* xorshift64 */
static uint64_t next_random(uint64_t *x) {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static void shuffle_moves(move_t *m, int n, uint64_t *rng) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(((unsigned __int128)next_random(rng) * (uint64_t)(i + 1)) >> 64);
        move_t x = m[i];
        m[i] = m[j];
        m[j] = x;
    }
}

/* The second thread's order: with ``help`` (no cycles), random, since it starts again from the root now
 * and then (the first ``nswaps`` moves, the swaps when > 0, stay first); otherwise the first thread's
 * order reversed. Returns the swaps' count to pass on (-1: not known). */
static int second_order(const shared_t *sh, move_t *m, int n, int nswaps, uint64_t *rng) {
    if (!sh->help) {
        reverse_moves(m, n);
        return -1;
    }
    if (nswaps > 0) {
        shuffle_moves(m, nswaps, rng);
        shuffle_moves(m + nswaps, n - nswaps, rng);
        return nswaps;
    }
    shuffle_moves(m, n, rng);
    return -1;
}

/* The i-th term (from 1) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ...: run lengths for
 * restarts that are within a log factor of the best fixed length, whatever the distribution. */
static long long luby(long long i) {
    for (;;) {
        long long p = 1;
        while (2 * p - 1 < i) p *= 2;
        if (2 * p - 1 == i) return p;
        i -= p - 1;
    }
}

/* Is the class whose stored key is ``key`` on this thread's own path? (Never, where ``help`` is on and the
 * graph between classes has no cycle; checked all the same, so that a cycle could only cost time.) */
static int on_path(const worker_t *w, const uint8_t *key) {
    for (int i = 0; i <= w->depth; i++)
        if (w->frames[i].key == key) return 1;
    return 0;
}

/* Grows the link table, if it should, and points the threads' frames (and the root) at their classes'
 * slots in the new one. Only while no thread searches: the first thread alone, or both at a rendezvous. */
static int link_grow(shared_t *sh, int nworkers) {
    table_t *t = &sh->table;
    uint64_t ncap = ltable_grow_target(t);
    if (!ncap) return 1;
    size_t n = 1;
    for (int i = 0; i < nworkers; i++)
        if (sh->workers[i].frames) n += sh->workers[i].depth + 1;
    uint64_t(*keys)[2] = malloc(n * sizeof *keys);
    if (!keys) return 0;
    uint8_t **refs[n];
    size_t k = 0;
    refs[k++] = &sh->root_key;
    for (int i = 0; i < nworkers; i++) {
        worker_t *w = &sh->workers[i];
        if (!w->frames) continue;
        for (int d = 0; d <= w->depth; d++) refs[k++] = &w->frames[d].key;
    }
    for (size_t q = 0; q < k; q++)
        if (*refs[q]) {
            lslot_t *e = lslot_of_ref(*refs[q]);
            keys[q][0] = atomic_load_explicit(&e->lo, memory_order_relaxed);
            keys[q][1] = atomic_load_explicit(&e->hi, memory_order_relaxed) & LK_HI_MASK;
        }
    int ok = ltable_resize(t, ncap);
    if (ok)
        for (size_t q = 0; q < k; q++)
            if (*refs[q]) *refs[q] = ltable_find(t, keys[q][0], keys[q][1]);
    free(keys);
    return ok;
}

#define TOUCH_CHUNK (2u << 20)

/* Faults in chunks of the fresh part of the table, claimed one at a time, until none is left. */
static void touch_fresh(shared_t *sh) {
    for (;;) {
        uint64_t c = atomic_fetch_add_explicit(&sh->touch_next, 1, memory_order_relaxed);
        if (c >= sh->touch_chunks) return;
        uint64_t at = c * TOUCH_CHUNK;
        uint64_t end = sh->touch_bytes - at < TOUCH_CHUNK ? sh->touch_bytes - at : TOUCH_CHUNK;
        uint64_t stale = sh->touch_stale > at ? sh->touch_stale - at : 0;
        if (stale > end) stale = end;
        memset(sh->touch_base + at, 0, stale);
        volatile uint8_t *p = sh->touch_base + at;
        for (uint64_t o = stale; o < end; o += 4096) p[o] = 0; /* (zero already: never used) */
        atomic_fetch_add_explicit(&sh->touch_done, 1, memory_order_release);
    }
}

/* Both threads meet here when the link table must grow: the last to come grows it. Most of a growth in
 * place is the kernel handing out the fresh pages (huge pages: it may have to compact memory first, see
 * docs/solver-design.md "Memory"), so both threads fault them in first, each its share, then the last to come
 * moves the keys. */
static int link_rendezvous(shared_t *sh) {
    pthread_mutex_lock(&sh->lock);
    int gen = sh->grow_gen;
    sh->waiting++;
    while (sh->grow_gen == gen) {
        if (sh->waiting >= sh->active && !sh->growing) {
            sh->growing = 1;
            table_t *t = &sh->table;
            uint64_t ncap = ltable_grow_target(t);
            if (ncap > t->cap && ncap <= t->lslots_room && sh->active > 1) {
                sh->touch_base = (uint8_t *)(t->lslots + t->cap);
                sh->touch_bytes = (ncap - t->cap) * sizeof(lslot_t);
                sh->touch_chunks = (sh->touch_bytes + TOUCH_CHUNK - 1) / TOUCH_CHUNK;
                uint64_t from = t->cap * sizeof(lslot_t);
                sh->touch_stale = t->stale_to > from ? t->stale_to - from : 0;
                atomic_store_explicit(&sh->touch_next, 0, memory_order_relaxed);
                atomic_store_explicit(&sh->touch_done, 0, memory_order_relaxed);
                sh->touch_gen++;
                pthread_cond_broadcast(&sh->grow_cond);
                pthread_mutex_unlock(&sh->lock);
                touch_fresh(sh);
                while (atomic_load_explicit(&sh->touch_done, memory_order_acquire) < sh->touch_chunks) sched_yield();
                pthread_mutex_lock(&sh->lock);
                t->zeroed_to = ncap * sizeof(lslot_t);
            }
            sh->grow_ok = link_grow(sh, 2);
            atomic_store_explicit(&sh->want_grow, 0, memory_order_relaxed);
            sh->waiting = 0;
            sh->growing = 0;
            sh->grow_gen++;
            pthread_cond_broadcast(&sh->grow_cond);
            break;
        }
        int touch_gen = sh->touch_gen;
        pthread_cond_wait(&sh->grow_cond, &sh->lock);
        if (sh->touch_gen != touch_gen && sh->growing) {
            pthread_mutex_unlock(&sh->lock);
            touch_fresh(sh);
            pthread_mutex_lock(&sh->lock);
        }
    }
    int ok = sh->grow_ok;
    pthread_mutex_unlock(&sh->lock);
    return ok;
}

/* A thread has stopped searching: the other no longer waits for it. */
static void link_leave(shared_t *sh) {
    pthread_mutex_lock(&sh->lock);
    sh->active--;
    pthread_cond_broadcast(&sh->grow_cond);
    pthread_mutex_unlock(&sh->lock);
}

/* One depth-first search from the root. The first thread stores the root; the second (if any) tries
 * children in the opposite order. Each skips every position already stored, by either: the thread
 * that stored a position searches it. So every reachable position is searched once, by one of them,
 * and the position is lost when both run out. */
static void *worker_run(void *arg) {
    worker_t *w = arg;
    shared_t *sh = w->sh;
    const rules_t *r = sh->r;
    const uint8_t *origin = sh->origin;
    w->frames_cap = 1024;
    w->moves_cap = 65536;
    w->frames = calloc(w->frames_cap, sizeof(frame_t)); /* (zeroed: link_grow reads frame 0 even if setup fails) */
    w->path = malloc(w->frames_cap * sizeof(step_t));
    w->mstack = malloc(w->moves_cap * sizeof(move_t));
    w->pk = (pending_t){malloc((size_t)w->moves_cap * KSLOT), malloc(w->moves_cap * sizeof(uint64_t)),
                        malloc(w->moves_cap), malloc(w->moves_cap)};
    w->status = ST_LOST;
    w->reason = "";
    w->depth = 0;
    int local_ok = local_init(&w->local);
    if (!w->frames || !w->path || !w->mstack || !w->pk.buf || !w->pk.hash || !w->pk.len || !w->pk.local ||
        !local_ok) {
        w->status = ST_ERROR;
        atomic_store_explicit(&sh->abort, 1, memory_order_release);
        return NULL;
    }
    state_t *st = &w->st;
    *st = sh->root;
    part_t *parts = w->parts;
    table_t *table = &sh->table;
    move_t buf[1024];
    uint8_t key[MAXCOLS * 3 + 2 * NCARDS + 8];
    if (st->on_found == NCARDS) {
        w->status = ST_WON;
        return NULL;
    }
    for (int i = 0; i < st->ncols; i++) build_part(st, origin, i, &parts[i]);
    local_push_level(&w->local); /* the root's class (the second thread searches it too) */
    local_insert(&w->local, 0);
    int root_len = table_key(r, st, origin, parts, key, is_forced(r, st));
    uint64_t root_lo, root_hi;
    get_link_key(key, &root_lo, &root_hi);
    if (w->id == 0 && (r->linked ? ltable_insert(table, root_lo, root_hi, link_hash(root_lo, root_hi), &sh->root_key)
                                 : table_insert(table, key, root_len, 1, &sh->root_key)) < 0) {
        w->status = ST_ERROR;
        atomic_store_explicit(&sh->abort, 1, memory_order_release);
        return NULL;
    }
    w->rng = 0x9E3779B97F4A7C15ULL;
    long long restart_at = -1;
    long long slice_end = w->nodes + sh->slice; /* (interleaved) when to give the other search its turn */
    int n;
restart:
    n = children(r, st, buf);
    if (r->blocks) n = block_moves(r, st, 0, (move_t){0, 0, 0, 0}, buf, n);
    if (w->id == 1) second_order(sh, buf, n, -1, &w->rng);
    memcpy(w->mstack, buf, n * sizeof(move_t));
    prepare_children(st, origin, parts, &w->dirty, r, w->mstack, 0, n, &w->pk, table, -1, 0, NULL, 0);
    w->frames[0] = (frame_t){0, n, 0, 1, 0, sh->root_key, MODE_FULL, 0};
    CENSUS(census_enter(&w->frames[0].census, st));
    if (w->id == 1 && sh->help) restart_at = w->nodes + luby(w->restarts + 1) * RESTART_NODES;
    /* (checks every 4096 nodes; interleaved with turns shorter than that, as the tests ask, every turn) */
    long long check_every = sh->interleave && sh->slice < 4096 ? sh->slice : 4096;
    long long check_at = w->nodes + check_every;
    double last_poll = now_seconds(); /* when the stop event was last polled */
    int shared = w->id == 1;
    while (w->depth >= 0) {
        frame_t *f = &w->frames[w->depth];
        if (restart_at >= 0 && w->nodes >= restart_at) {
            /* the second thread leaves its path (nothing on it is marked finished: the first thread
             * enters those classes when it meets them) and starts again from the root in a new order */
            while (w->depth > 0) {
                if (w->frames[w->depth].entry) local_pop_level(&w->local);
                w->depth--;
                undo(st, w->path[w->depth].m, w->path[w->depth].turned);
                w->dirty |= touched(w->path[w->depth].m);
            }
            local_pop_level(&w->local);
            local_push_level(&w->local);
            local_insert(&w->local, 0);
            w->restarts++;
            goto restart;
        }
        if (f->next >= f->count) {
            CENSUS(census_finish(&f->census, w->depth ? &w->frames[w->depth - 1].census : NULL, st, f->key,
                                 f->entry || !w->depth));
            if (f->entry) local_pop_level(&w->local);
            /* searched to the end: with two threads the other skips it from now on */
            if (f->key) key_mark_done(r->linked, f->key);
            w->depth--;
            if (w->depth >= 0) {
                undo(st, w->path[w->depth].m, w->path[w->depth].turned);
                w->dirty |= touched(w->path[w->depth].m);
            }
            continue;
        }
        int idx = f->start + f->next++;
        move_t m = w->mstack[idx];
        if (w->pk.local[idx] != CHILD_TWIN) CENSUS(census_child(&f->census, st, m, w->pk.local[idx] == CHILD_SLEEP));
        if (w->pk.local[idx] == CHILD_SLEEP || w->pk.local[idx] == CHILD_TWIN) continue;
        w->nodes++;
        if (!r->linked && f->next < f->count && w->pk.local[idx + 1] == CHILD_TABLE) { /* fetch its stored key meanwhile */
            uint64_t v = atomic_load_explicit(&table->slots[slot_of(w->pk.hash[idx + 1], table->cap)],
                                              memory_order_acquire);
            if (v) __builtin_prefetch(key_at(table, v));
        }
        const uint8_t *ck = w->pk.buf + (size_t)idx * kslot(r);
        int kind = w->pk.local[idx];
        int local = kind == CHILD_SWAP;
        uint64_t mask = local || kind == CHILD_PASS ? f->mask ^ (1ULL << m.card) : 0;
        uint8_t *stored = NULL;
        int ins;
        if (local) {
            ins = local_insert(&w->local, mask);
        } else if (kind == CHILD_FORCED || kind == CHILD_PASS || kind == CHILD_RETURN) {
            ins = 1;
        } else if (r->linked) {
            uint64_t lo, hi;
            get_link_key(ck, &lo, &hi);
            /* (interleaved searches never run at once: the plain insert) */
            ins = shared && !sh->interleave
                      ? ltable_insert_shared(table, &w->arena.uncounted, lo, hi, w->pk.hash[idx], &stored)
                      : ltable_insert(table, lo, hi, w->pk.hash[idx], &stored);
        } else {
            ins = shared ? table_insert_shared(table, &w->arena, &sh->lock, ck, w->pk.len[idx], w->pk.hash[idx],
                                               &stored)
                         : table_insert_hashed(table, ck, w->pk.len[idx], w->pk.hash[idx], 0, &stored);
        }
        if (ins == -2) {
            w->status = ST_UNKNOWN;
            w->reason = "memory limit";
            break;
        }
        if (ins < 0) {
            w->status = ST_ERROR;
            break;
        }
        /* a class already there is skipped; with ``help``, only once some thread has finished it (the
         * other may be in the middle of it: then both search it, each skipping what the other finished) */
        int skip = ins == 0 && (local || !shared || !sh->help || key_is_done(r->linked, stored) || on_path(w, stored));
        CENSUS(census_kind(kind, ins == 1, !skip));
        if (skip) {
            if (!local && r->linked) CENSUS(census_known(&f->census, stored));
            continue;
        }
        int turned = apply(st, m);
        w->dirty |= touched(m);
        if (kind == CHILD_TABLE && ins == 1) CENSUS(census_new_class(st, &sh->root));
        if (sh->verify_links && r->linked) {
            uint64_t tops, natural;
            masks_of(st, &tops, &natural);
            if (st->lkey != link_key_of(st) || tops != st->tops || natural != st->natural) {
                w->status = ST_ERROR;
                w->reason = "link key out of step";
                break;
            }
        }
        if (st->on_found == NCARDS) {
            w->path[w->depth] = (step_t){m, turned};
            w->depth++;
            w->status = ST_WON;
            break;
        }
        if (w->depth + 2 >= w->frames_cap) {
            int ncap = w->frames_cap * 2;
            frame_t *nf = realloc(w->frames, ncap * sizeof(frame_t));
            if (nf) w->frames = nf;
            step_t *np = realloc(w->path, ncap * sizeof(step_t));
            if (np) w->path = np;
            if (!nf || !np) {
                w->status = ST_ERROR;
                break;
            }
            w->frames_cap = ncap;
            f = &w->frames[w->depth];
        }
        w->path[w->depth] = (step_t){m, turned};
        int entry = kind == CHILD_TABLE && r->merge;
        if (entry && !local_push_level(&w->local)) { /* a new class: its members go in a level of their own */
            w->status = ST_ERROR;
            break;
        }
        int nstart = f->start + f->count;
        undone_t u = {0};
        /* (with classes, only a CHILD_FORCED position is forced: a swap from one that is not forced
         * leads to one that is not) */
        int nswaps = 0;
        int undone;
        if (kind == CHILD_SWAP && f->mode == MODE_CANON) {
            undone = member_swaps(r, st, m, &u, buf, &nswaps);
            if (sh->verify_links && !same_member_swaps(r, st, &u, buf, nswaps)) {
                w->status = ST_ERROR;
                w->reason = "member swaps out of step";
                break;
            }
        } else if (kind == CHILD_SWAP && f->mode == MODE_MEMBER) {
            undone = pair_swaps(st, w->path[w->depth - 1].m, m, &u);
            undone_t v;
            if (sh->verify_links && (scan_swaps(r, st, &v, buf, &nswaps) != 2 || memcmp(&u, &v, sizeof u))) {
                w->status = ST_ERROR;
                w->reason = "pair swaps out of step";
                break;
            }
        } else {
            undone = kind != CHILD_FORCED && r->freeze ? scan_swaps(r, st, &u, buf, &nswaps) : 0;
        }
        int mode = MODE_FULL, hint = -1; /* (children() does not put the swaps first) */
        int arriving = entry || kind == CHILD_PASS;
        if (entry && r->relax && relaxed_lost(r, st)) {
            n = 0; /* rule 4: some card never goes up from here, the class is lost: finished at once */
        } else if (kind == CHILD_FORCED) {
            n = forced_move(r, st, buf);
        } else if (arriving && undone) {
            /* a class is searched from its canonical member: go there first, one undone swap at a time */
            int x = u.y ^ 3;
            buf[0] = (move_t){(uint8_t)u.ca, (uint8_t)u.cb, (uint8_t)x, (uint8_t)(st->len[u.ca] - st->idx[x])};
            n = 1;
            mode = MODE_PASS;
        } else if (kind == CHILD_SWAP && f->mode == MODE_CANON && undone == 1) {
            /* the swaps undone within its own pile lead to the members that may have exceptions */
            int x = u.y ^ 3, k = 0;
            for (int q = 0; q < nswaps; q++)
                if (st->loc[buf[q].card] == st->loc[x] && st->idx[buf[q].card] > st->idx[x]) buf[k++] = buf[q];
            n = undone_children(r, st, &u, 1, buf, k);
            hint = k;
            mode = MODE_MEMBER;
        } else if (kind == CHILD_SWAP && f->mode == MODE_MEMBER && undone == 2) {
            n = undone_children(r, st, &u, 2, buf, 0);
            mode = MODE_PAIR;
        } else {
            if (arriving && local_insert(&w->local, mask) < 0) {
                w->status = ST_ERROR;
                break;
            }
            if (arriving && r->freeze && independent_swaps(r, st, buf, nswaps)) {
                /* its members but this one only matter for the moves (a), (b), (c) of the one swap
                 * each has undone: visit only those, one swap away */
                n = children(r, st, buf); /* (its swaps among them, in the order of the move scores) */
                mode = MODE_CANON;
            } else if (undone) {
                n = undone_children(r, st, &u, undone, buf, nswaps);
                hint = nswaps;
            } else {
                n = children(r, st, buf);
            }
        }
        uint64_t pending = kind == CHILD_RETURN ? block_pending(st, m, f->pending) : 0;
        if (r->blocks) n = block_moves(r, st, pending, m, buf, n); /* (the swaps stay first) */
        if (pending) hint = 0; /* inside a return block: no table entry, so no class (its swaps go to new ones) */
        if (w->id == 1 && mode != MODE_PASS) hint = second_order(sh, buf, n, hint, &w->rng);
        if (nstart + n > w->moves_cap) {
            int ncap = w->moves_cap * 2;
            move_t *nm = realloc(w->mstack, ncap * sizeof(move_t));
            if (nm) w->mstack = nm;
            uint8_t *nb = realloc(w->pk.buf, (size_t)ncap * KSLOT);
            if (nb) w->pk.buf = nb;
            uint64_t *nh = realloc(w->pk.hash, ncap * sizeof(uint64_t));
            if (nh) w->pk.hash = nh;
            uint8_t *nl = realloc(w->pk.len, ncap);
            if (nl) w->pk.len = nl;
            uint8_t *nloc = realloc(w->pk.local, ncap);
            if (nloc) w->pk.local = nloc;
            if (!nm || !nb || !nh || !nl || !nloc) {
                w->status = ST_ERROR;
                break;
            }
            w->moves_cap = ncap;
        }
        memcpy(w->mstack + nstart, buf, n * sizeof(move_t));
        /* the sleep set: earlier moves here that ``m`` commutes with, which led to finished classes */
        move_t zs[SLEEP_MAX];
        int nz = 0;
        if (r->sleepy && (kind == CHILD_TABLE || kind == CHILD_FORCED) && !undone &&
            (mode == MODE_FULL || mode == MODE_CANON)) {
            uint32_t mm = touched(m);
            for (int q = 0; q < f->nsleep; q++)
                if (!(touched(f->sleep[q]) & mm)) zs[nz++] = f->sleep[q];
            for (int j = f->start; j < idx && nz < SLEEP_MAX; j++) {
                move_t z = w->mstack[j];
                if ((w->pk.local[j] != CHILD_TABLE && w->pk.local[j] != CHILD_FORCED) || (touched(z) & mm) ||
                    (z.dst < FOUNDATION && !st->len[z.dst]))
                    continue;
                zs[nz++] = z;
            }
        }
        if (mode == MODE_PASS)
            w->pk.local[nstart] = CHILD_PASS;
        else
            prepare_children(st, origin, parts, &w->dirty, r, w->mstack, nstart, n, &w->pk, table, hint,
                             r->freeze && !undone && kind != CHILD_FORCED && !pending, zs, nz);
        w->depth++;
        frame_t *nf = &w->frames[w->depth];
        nf->start = nstart;
        nf->count = n;
        nf->next = 0;
        nf->entry = entry;
        nf->mask = mask;
        nf->key = stored;
        nf->mode = mode;
        nf->nsleep = nz;
        memcpy(nf->sleep, zs, nz * sizeof(move_t));
        nf->pending = pending;
        CENSUS(census_enter(&nf->census, st));
        if (w->nodes >= check_at) {
            check_at = w->nodes + check_every;
            if (sh->interleave && sh->second_started && w->nodes >= slice_end && !sh->gone[!w->id]) {
                /* the other search's turn (its frames lie at a check like this one, or it has not begun) */
                take_turn(sh, w->id);
                slice_end = w->nodes + sh->slice;
            }
            if (r->linked) {
                int grown = 1;
                if (!shared) {
                    grown = link_grow(sh, 1);
                } else if (sh->interleave) {
                    grown = link_grow(sh, 2); /* (the other search waits at a check like this one) */
                } else {
                    if (ltable_grow_target(table)) atomic_store_explicit(&sh->want_grow, 1, memory_order_relaxed);
                    if (atomic_load_explicit(&sh->want_grow, memory_order_relaxed)) grown = link_rendezvous(sh);
                }
                if (!grown) {
                    w->status = ST_ERROR;
                    break;
                }
            }
            if (atomic_load_explicit(&sh->abort, memory_order_acquire)) {
                w->status = ST_UNKNOWN;
                w->reason = "";
                break;
            }
            if (w->id == 0 && !shared && table_count(table) > sh->peak) sh->peak = table_count(table);
            double now = now_seconds();
            if (sh->deadline > 0 && now > sh->deadline) {
                w->status = ST_UNKNOWN;
                w->reason = "time limit";
                break;
            }
            if (sh->node_limit > 0 &&
                (sh->interleave ? sh->workers[0].nodes + sh->workers[1].nodes : w->nodes) >= sh->node_limit) {
                w->status = ST_UNKNOWN;
                w->reason = "node limit";
                break;
            }
            /* by the clock, not by nodes: the poll takes the GIL, which another thread may hold for a
             * moment, so it runs at most every STOP_POLL_SECONDS, and at least that often */
            if (w->id == 0 && now - last_poll >= STOP_POLL_SECONDS && (last_poll = now, poll_stop(sh))) {
                w->status = ST_UNKNOWN;
                w->reason = "stopped";
                break;
            }
            if (w->id == 0 && sh->switch_at && !sh->second_started && w->nodes >= sh->switch_at) {
                if (!r->linked && !table_presize(table)) {
                    w->status = ST_ERROR;
                    break;
                }
                sh->help = r->acyclic;
                shared = 1;
                pthread_mutex_lock(&sh->lock);
                sh->active = 2;
                pthread_mutex_unlock(&sh->lock);
                if (sh->interleave ? second_start_here(sh, &w[1])
                                   : pthread_create(&sh->second, NULL, second_thread, &w[1]) == 0) {
                    sh->second_started = 1;
                } else {
                    pthread_mutex_lock(&sh->lock);
                    sh->active = 1;
                    pthread_mutex_unlock(&sh->lock);
                }
            }
        }
    }
    arena_count(table, &w->arena);
    if (w->status == ST_LOST && sh->help && w->depth < 0) atomic_store_explicit(&sh->finished, 1, memory_order_release);
    if (w->status != ST_LOST || sh->help) atomic_store_explicit(&sh->abort, 1, memory_order_release);
    return NULL;
}

/* The rules' tables and flags for a search (see rules_t). */
static void rules_init(rules_t *r, const search_args_t *a) {
    memcpy(r->fits, a->fits, NCARDS * NCARDS);
    memcpy(r->safe, a->safe, NCARDS * 4);
    for (int t = 0; t < NCARDS; t++)
        for (int c = 0; c < NCARDS; c++)
            if (r->fits[t * NCARDS + c] && r->nacc[t] < 4) r->acc[t][r->nacc[t]++] = (uint8_t)c;
    for (int c = 0; c < NCARDS; c++)
        for (int t = 0; t < NCARDS; t++)
            if (r->fits[t * NCARDS + c] && r->ntgt[c] < 4) r->tgt[c][r->ntgt[c]++] = (uint8_t)t;
    /* swaps need two cards to fit on (same-suit building has one) */
    r->merge = a->merge && a->build != 1;
    r->build = a->build;
    r->kings_only = a->kings_only;
    r->foundation_return = a->foundation_return;
    r->has_stock = a->has_stock;
    r->freeze = r->merge && a->build == 0 && !a->foundation_return && !r->has_stock;
    /* every move but a swap is one way when only Kings go to empty columns, a King fits on no card (in
     * Alaska it fits on its Queen, and could go back and forth between her and an empty column) and
     * nothing comes down from the foundations; swaps stay inside a class (or there are none) */
    r->acyclic = a->kings_only && !a->foundation_return;
    for (int c = 0; c < NCARDS; c++)
        if ((IS_KING(c) && r->ntgt[c]) || (r->ntgt[c] > 1 && !r->merge)) r->acyclic = 0;
    r->sleepy = a->sleep && a->merge && r->acyclic && !r->has_stock;
    r->blocks = a->blocks && a->foundation_return;
    r->relax = a->relax && r->merge && !r->has_stock;
}

/* The root position (``origin``: see part_t). */
static void root_init(state_t *st, uint8_t *origin, const search_args_t *a) {
    memset(st, 0, sizeof *st);
    st->ncols = a->ncols;
    int face_down_before = 0;
    for (int i = 0; i < a->ncols; i++) {
        memcpy(st->cols[i], a->cols[i], a->len[i]);
        st->len[i] = a->len[i];
        st->down[i] = a->down[i];
        origin[i] = (uint8_t)face_down_before;
        face_down_before += a->down[i];
    }
    for (int u = 0; u < 4; u++) {
        st->height[u] = a->height[u];
        st->on_found += a->height[u];
    }
    if (a->has_stock) {
        memcpy(st->stock, a->stock, a->nstock);
        memcpy(st->waste, a->waste, a->nwaste);
        st->nstock = a->nstock;
        st->nwaste = a->nwaste;
    }
    memset(st->loc, -1, sizeof st->loc);
    for (int i = 0; i < st->ncols; i++)
        for (int j = 0; j < st->len[i]; j++) {
            st->loc[st->cols[i][j]] = (int8_t)i;
            st->idx[st->cols[i][j]] = (uint8_t)j;
        }
}

int relaxed_lost_at(const search_args_t *a) {
    rules_t *r = calloc(1, sizeof(rules_t));
    if (!r) return -1;
    rules_init(r, a);
    state_t st;
    uint8_t origin[MAXCOLS];
    root_init(&st, origin, a);
    int lost = relaxed_lost(r, &st);
    free(r);
    return lost;
}

void search_run(const search_args_t *a, search_result_t *res) {
    memset(res, 0, sizeof *res);
    res->status = ST_ERROR;
    res->reason = "";
    rules_t *r = calloc(1, sizeof(rules_t));
    if (!r) return;
    rules_init(r, a);
    state_t st;
    uint8_t origin[MAXCOLS];
    root_init(&st, origin, a);

    links_t *links = NULL;
    if (a->links && !r->has_stock) links = build_links(r, &st);
    if (links) {
        st.links = links;
        st.lkey = link_key_of(&st);
        masks_of(&st, &st.tops, &st.natural);
        r->linked = 1;
    }
    shared_t *sh = line_calloc(1, sizeof(shared_t));
    worker_t *w = line_calloc(2, sizeof(worker_t));
    if (!sh || !w || !table_init(&sh->table, a->memory_limit, r->linked)) {
        free(sh);
        free(w);
        free(r);
        free(links);
        return;
    }
    sh->workers = w;
    sh->active = 1;
    sh->verify_links = a->verify_links;
    pthread_cond_init(&sh->grow_cond, NULL);
    sh->r = r;
    memcpy(sh->origin, origin, sizeof origin);
    sh->root = st;
    pthread_mutex_init(&sh->lock, NULL);
    double started = now_seconds();
    sh->deadline = a->time_limit > 0 ? started + a->time_limit : 0;
    sh->node_limit = a->node_limit;
    sh->stop = a->stop;
    sh->stop_arg = a->stop_arg;
    /* a second thread only without a node limit (node limits must give the same answer every run) */
    /* interleaved (``threads`` 1): where the classes have no cycle (the second search's restarts and the
     * finished bits that let each use the other's work need that), and with a node limit too: taking
     * turns by nodes gives the same answer every run */
    sh->interleave = a->interleave && a->threads < 2 && r->acyclic;
    sh->switch_at = ((a->threads >= 2 && a->node_limit <= 0) || sh->interleave) ? a->switch_at : 0;
    sh->slice = a->switch_at > 0 && a->switch_at < SLICE_NODES ? a->switch_at : SLICE_NODES;

    for (int i = 0; i < 2; i++) {
        w[i].sh = sh;
        w[i].id = i;
        w[i].arena.chunk = -1;
    }
    worker_run(&w[0]);
    link_leave(sh);
    if (sh->second_started && sh->interleave) {
        /* the second search ends at its next check (the first set ``abort``) or runs on alone */
        sh->gone[0] = 1;
        second_finish_here(sh, &w[1]);
    } else if (sh->second_started) {
        /* wait for the second thread, still polling the stop event and the clock */
        while (!atomic_load_explicit(&w[1].done, memory_order_acquire)) {
            struct timespec ts = {0, 5000000};
            nanosleep(&ts, NULL);
            if (poll_stop(sh) || (sh->deadline > 0 && now_seconds() > sh->deadline))
                atomic_store_explicit(&sh->abort, 1, memory_order_release);
        }
        pthread_join(sh->second, NULL);
    }

    /* the verdict: a win by either; else a limit hit by either; else both searches ran out: lost */
    worker_t *by = &w[0];
    int status;
    const char *reason = "";
    int two = sh->second_started;
    if (w[0].status == ST_WON || (two && w[1].status == ST_WON)) {
        by = w[0].status == ST_WON ? &w[0] : &w[1];
        status = ST_WON;
    } else if (atomic_load_explicit(&sh->finished, memory_order_acquire)) {
        status = ST_LOST; /* one thread searched the root to the end (it skipped only finished classes) */
    } else if (w[0].status == ST_ERROR || (two && w[1].status == ST_ERROR)) {
        status = ST_ERROR;
        reason = w[0].status == ST_ERROR ? w[0].reason : w[1].reason;
    } else if (w[0].status == ST_UNKNOWN || (two && w[1].status == ST_UNKNOWN)) {
        status = ST_UNKNOWN;
        reason = w[0].reason[0] ? w[0].reason : (two && w[1].reason[0] ? w[1].reason : poll_reason(sh));
    } else {
        status = ST_LOST;
    }
    res->status = status;
    res->reason = reason ? reason : "";
    res->nodes = w[0].nodes + w[1].nodes;
    res->peak = table_count(&sh->table) > sh->peak ? table_count(&sh->table) : sh->peak;
    res->seconds = now_seconds() - started;
    if (status == ST_WON && by->depth > 0) {
        res->line = malloc(by->depth * sizeof(move_t));
        if (res->line) {
            for (int i = 0; i < by->depth; i++) res->line[i] = by->path[i].m;
            res->nline = by->depth;
        } else {
            res->status = ST_ERROR;
            res->reason = "";
        }
    }
    CENSUS(census_report(res->nodes));
    for (int i = 0; i < 2; i++) worker_free(&w[i]);
    pthread_mutex_destroy(&sh->lock);
    pthread_cond_destroy(&sh->grow_cond);

    table_free(&sh->table);
    free(sh);
    free(w);
    free(r);
    free(links);
}
