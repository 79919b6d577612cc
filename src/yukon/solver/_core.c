/*
 * The depth-first search of yukon.solver.search, compiled, for one-deck variants
 * (Yukon, Russian Solitaire, Alaska, Australian Patience, under every option).
 *
 * It is the same search as Searcher.run in search.py: the same legal moves as
 * yukon.game, the same safe pruning rules (docs/solver-design.md: rule 1 safe
 * foundation moves, rule 2 one empty column of several), the same move order,
 * and an exact transposition key. Without a stock it is the link key (what
 * each card lies on, as one 16-byte number kept up to date move by move; see
 * links_t), stored in the table's slots. With a stock it is each column as
 * (where its face-down cards came from, how many, its face-up cards), the
 * columns sorted: face-down cards never move, so the root column they lie in
 * and their count name them; the foundations follow from the cards that are
 * nowhere else; then the stock's length (cards leave it from the top only) and
 * the waste. Both name exactly the positions equal up to column order, and the
 * table stores whole keys, not hashes.
 *
 * The Python side (solver/search.py) checks that a position is supported,
 * passes it in, and replays every winning line through the engine before
 * reporting it. The GIL is released while searching; a stop callable is
 * polled with the GIL held every 32768 positions.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#define MAXCOLS 16
#define MAXLEN 64
#define FOUNDATION 16
#define WASTE 17
#define STOCK 18
#define NO_CARD 255
#define NCARDS 52

typedef struct {
    uint8_t src, dst, card, count;
} move_t;

/* Link keys (docs/solver-design.md, "Link keys"): a position up to column order is fixed by what each card lies
 * on, since face-down cards never move. Each card lies on the card beneath it in the root position, on one
 * of the cards it fits on, on the floor of a column, or on its foundation: a code per card (0 for the root
 * base and the foundation), the foundation heights and the face-down counts, read as one number in mixed
 * radix (below 2^125). Every move changes one card's code and maybe a height or a count: the number is
 * kept up to date as moves are played, and two positions share it exactly when they are equal up to the
 * order of the columns. */
#define FLOOR_BASE NCARDS
#define UP_BASE (NCARDS + 1)
typedef unsigned __int128 u128;

typedef struct {
    u128 wcard[NCARDS];
    u128 wheight[4];
    u128 wdown[MAXCOLS];
    uint8_t code[NCARDS][NCARDS + 2]; /* code[c][b]: c lying on card b, FLOOR_BASE or UP_BASE */
    const uint8_t *fits;              /* the rules' (for the masks below) */
    u128 val[NCARDS][NCARDS + 2];     /* code[c][b] * wcard[c] */
} links_t;

typedef struct {
    int ncols;
    const links_t *links; /* NULL: no link key kept */
    u128 lkey;
    /* kept with the link key: the free cards (column tops), and the face-up cards with a card on them
     * that fits them (where a swap may start: scan_swaps) */
    uint64_t tops, natural;
    uint8_t cols[MAXCOLS][MAXLEN];
    uint8_t len[MAXCOLS];
    uint8_t down[MAXCOLS];
    uint8_t height[4];
    int on_found;
    uint8_t stock[NCARDS]; /* bottom first: cards leave from the end */
    uint8_t waste[NCARDS];
    int nstock, nwaste;
    int8_t loc[NCARDS]; /* the column of each card in a column, else -1 */
    uint8_t idx[NCARDS]; /* its place there, from the bottom */
} state_t;

typedef struct {
    uint8_t fits[NCARDS * NCARDS]; /* fits[t*52+c]: c may be placed on t */
    uint8_t acc[NCARDS][4];        /* the cards that may be placed on t */
    uint8_t nacc[NCARDS];
    uint8_t tgt[NCARDS][4]; /* the cards that ``c`` may be placed on */
    uint8_t ntgt[NCARDS];
    int merge; /* one table entry per set of positions joined by swaps between twin parents */
    int freeze; /* ...and most other moves only from members where no swap stands undone */
    int build; /* 0 alternate, 1 suit, 2 suit-updown */
    int kings_only;
    int foundation_return;
    int has_stock; /* a stock dealt one card at a time to a waste */
    int acyclic; /* no move sequence returns to a class it left (docs/solver-design.md, "Two threads") */
    int sleepy;  /* sleep sets: acyclic, no stock */
    int linked;  /* link keys (no stock) */
} rules_t;

#define RANK(c) ((c) / 4 + 1)
#define SUIT(c) ((c) % 4)
#define IS_RED_SUIT(s) ((s) == 1 || (s) == 2)
#define IS_KING(c) ((c) >= 48)

/* ------------------------------------------------------------------ the table */

/* Keys live in chunks that never move (no copying as the table grows): 256 KiB first, each next one twice
 * as big up to 64 MiB. A slot holds a used bit, a hash tag, the chunk and the offset in it. ``budget``
 * bounds the bytes the table may take (0: no bound). */
#define MAX_CHUNK_BITS 26
#define MAX_CHUNKS 4096
#define SLOT_USED (1ULL << 63)
#define SLOT_TAG(h) (((h) >> 39) << 38)
#define SLOT_TAG_MASK (((1ULL << 25) - 1) << 38)

/* With link keys the table holds the keys themselves, 16 bytes a slot: a lookup reads one cache line.
 * The key's top bits (it is below 2^125) hold the flags; the top byte is the one KEY_DONE marks. */
typedef struct {
    uint64_t lo, hi;
} lslot_t;
#define LK_USED (1ULL << 62)
#define LK_BUSY (1ULL << 61) /* a thread is writing this slot (two threads) */
#define LK_HI_MASK (LK_BUSY - 1)

typedef struct {
    uint64_t *slots;
    lslot_t *lslots; /* instead of ``slots`` and the chunks, with link keys */
    uint64_t lslots_room; /* slots mapped for ``lslots`` (address space: pages are used as the table grows) */
    int linked;
    uint64_t cap; /* power of two */
    uint8_t *chunks[MAX_CHUNKS];
    uint64_t chunk_size[MAX_CHUNKS];
    uint64_t chunk_bytes; /* total of chunk_size */
    int nchunks;
    uint64_t used; /* bytes used in the last chunk */
    uint64_t budget;
    /* a mapping kept from an earlier search (see spare_take): bytes of ``lslots`` below ``stale_to`` may
     * hold its keys, and are zeroed as the table grows over them (up to ``zeroed_to`` already done) */
    uint64_t stale_to, zeroed_to;
    /* on a cache line of its own: the threads add to it (in batches) while reading the fields above */
    _Alignas(64) uint64_t count;
    char pad[56];
} table_t;

static uint64_t hash_bytes(const uint8_t *p, int n) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)n;
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 31;
    }
    for (; i < n; i++) {
        h = (h ^ p[i]) * 0x94D049BB133111EBULL;
        h ^= h >> 29;
    }
    h ^= h >> 32;
    h *= 0xD6E8FEB86659FD93ULL;
    h ^= h >> 32;
    return h;
}

/* The table's big arrays (slots, key chunks) are mapped with transparent huge pages where Linux
 * allows it: one page-table entry then covers 2 MB instead of 4 kB. With two threads that matters: a
 * kernel that samples or reclaims memory (here DAMON) clears page-table bits, and every such change
 * interrupts the other core to flush its TLB; with 4 kB pages a third of the time went there. */
#define BIG_ALLOC_MIN (1ULL << 21)

static void *big_alloc(uint64_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= BIG_ALLOC_MIN) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return NULL;
        madvise(p, bytes, MADV_HUGEPAGE);
        return p;
    }
#endif
    return calloc(1, bytes);
}

static void big_free(void *p, uint64_t bytes) {
    if (!p) return;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= BIG_ALLOC_MIN) {
        munmap(p, bytes);
        return;
    }
#endif
    free(p);
}

#define INITIAL_CAP (1ULL << 12)

/* The home slot of a hash: its low 32 bits scaled to the slot count (any count, not only powers of
 * two, so that the slots can take just their share of the budget); the tag uses the high bits. */
static inline uint64_t slot_of(uint64_t h, uint64_t cap) { return ((h & 0xFFFFFFFFULL) * cap) >> 32; }

static inline uint64_t next_slot(uint64_t j, uint64_t cap) { return j + 1 == cap ? 0 : j + 1; }

/* The link table's mapping outlives its search: the next search with the same budget takes it over.
 * Fresh pages are dear here (the kernel hands out a 2 MB page in about 4 ms on this virtual machine, 70%
 * of a growth; docs/solver-design.md "Memory"), and a process that searches again (the web game's hints, the
 * benchmark, the studies' workers) finds them mapped, at the cost of zeroing what it reuses. Only the
 * last one is kept; release_memory() gives it back. (Marking its pages MADV_FREE instead cost more than
 * it saved: deal 78 took longer after it than in a fresh process.) */
static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;
static lslot_t *spare_slots;
static uint64_t spare_room, spare_stale;

static lslot_t *spare_take(uint64_t room, uint64_t *stale) {
    lslot_t *p = NULL;
    pthread_mutex_lock(&spare_lock);
    if (spare_slots && spare_room == room) {
        p = spare_slots;
        *stale = spare_stale;
        spare_slots = NULL;
    }
    pthread_mutex_unlock(&spare_lock);
    return p;
}

/* Puts ``p`` (NULL: nothing) in the spare's place and unmaps the one it replaces. */
static void spare_put(lslot_t *p, uint64_t room, uint64_t stale) {
    pthread_mutex_lock(&spare_lock);
    lslot_t *old = spare_slots;
    uint64_t old_room = spare_room;
    spare_slots = p;
    spare_room = room;
    spare_stale = stale;
    pthread_mutex_unlock(&spare_lock);
    big_free(old, old_room * sizeof(lslot_t));
}

static void spare_release(void) { spare_put(NULL, 0, 0); }

static void spare_give(lslot_t *p, uint64_t room, uint64_t stale) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (room * sizeof(lslot_t) >= BIG_ALLOC_MIN) { /* (mapped, not allocated: see big_alloc) */
        spare_put(p, room, stale);
        return;
    }
#endif
    (void)stale;
    big_free(p, room * sizeof(lslot_t));
}

/* (the link table grows only between two checks of the clock, a few thousand inserts apart: it starts big
 * enough to take them) */
#define LINKED_INITIAL_CAP (1ULL << 16)

static int table_init(table_t *t, uint64_t budget, int linked) {
    memset(t, 0, sizeof *t);
    t->budget = budget;
    t->linked = linked;
    if (linked) {
        t->cap = LINKED_INITIAL_CAP;
        if (budget && budget / sizeof(lslot_t) < t->cap) t->cap = budget / sizeof(lslot_t) > 16 ? budget / sizeof(lslot_t) : 16;
        /* with a budget, its whole size is mapped at once (untouched pages cost nothing) and the table
         * grows in place: no copy, and no fresh pages but the new part's */
        t->lslots_room = budget / sizeof(lslot_t) > t->cap ? budget / sizeof(lslot_t) : t->cap;
        if (t->lslots_room * sizeof(lslot_t) < BIG_ALLOC_MIN) t->lslots_room = t->cap;
        t->lslots = spare_take(t->lslots_room, &t->stale_to);
        if (t->lslots) {
            uint64_t used = t->cap * sizeof(lslot_t);
            memset(t->lslots, 0, t->stale_to < used ? t->stale_to : used);
            return 1;
        }
        t->lslots = big_alloc(t->lslots_room * sizeof(lslot_t));
        /* (a budget past what the system will map, say 100 GB here: map less; the table then grows
         * into new mappings beyond it) */
        while (!t->lslots && t->lslots_room > t->cap) {
            t->lslots_room = t->lslots_room / 2 > t->cap ? t->lslots_room / 2 : t->cap;
            if (t->lslots_room * sizeof(lslot_t) < BIG_ALLOC_MIN) t->lslots_room = t->cap;
            t->lslots = big_alloc(t->lslots_room * sizeof(lslot_t));
        }
        return t->lslots != NULL;
    }
    t->cap = INITIAL_CAP;
    t->slots = big_alloc(t->cap * sizeof(uint64_t));
    return t->slots != NULL;
}

static void table_free(table_t *t) {
    big_free(t->slots, t->cap * sizeof(uint64_t));
    if (t->lslots) {
        uint64_t used = t->cap * sizeof(lslot_t);
        spare_give(t->lslots, t->lslots_room, t->stale_to > used ? t->stale_to : used);
    }
    for (int i = 0; i < t->nchunks; i++) big_free(t->chunks[i], t->chunk_size[i]);
    t->slots = NULL;
    t->lslots = NULL;
    t->nchunks = 0;
}

static uint64_t table_bytes(const table_t *t) {
    return t->linked ? t->cap * sizeof(lslot_t) : t->cap * 8 + t->chunk_bytes;
}

#define COUNT_BATCH 256 /* keys a thread inserts before it adds them to the table's count */

/* ---- the link table */

static inline uint64_t link_hash(uint64_t lo, uint64_t hi) {
    uint64_t h = lo ^ (hi * 0x9E3779B97F4A7C15ULL);
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDULL;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ULL;
    h ^= h >> 33;
    return h;
}

/* The byte of a slot that carries KEY_DONE (the top byte of ``hi``; little-endian only, see search()). */
static inline uint8_t *lslot_flags(lslot_t *e) { return (uint8_t *)&e->hi + 7; }
static inline lslot_t *lslot_of_flags(uint8_t *flags) { return (lslot_t *)(flags - 15); }

/* 1 inserted, 0 already there, -2 the table is full (90%: it grows between inserts, see link_grow). */
static int ltable_insert(table_t *t, uint64_t lo, uint64_t hi, uint64_t h, uint8_t **at) {
    uint64_t j = slot_of(h, t->cap);
    lslot_t *e;
    for (;;) {
        e = &t->lslots[j];
        if (!e->hi) break;
        if ((e->hi & LK_HI_MASK) == hi && e->lo == lo) {
            *at = lslot_flags(e);
            return 0;
        }
        j = next_slot(j, t->cap);
    }
    if ((t->count + 1) * 10 > t->cap * 9) return -2;
    e->lo = lo;
    e->hi = hi | LK_USED;
    t->count++;
    *at = lslot_flags(e);
    return 1;
}

/* The same for two threads: a free slot is claimed by a compare-and-swap that marks it busy, its low word
 * written, then the high word published; a thread that meets a busy slot waits the few instructions it
 * takes to finish it, then compares. */
static int ltable_insert_shared(table_t *t, uint64_t *uncounted, uint64_t lo, uint64_t hi, uint64_t h,
                                uint8_t **at) {
    uint64_t j = slot_of(h, t->cap);
    for (;;) {
        lslot_t *e = &t->lslots[j];
        uint64_t v = __atomic_load_n(&e->hi, __ATOMIC_ACQUIRE);
        if (!v) {
            if (__atomic_load_n(&t->count, __ATOMIC_RELAXED) * 10 >= t->cap * 9) return -2;
            if (__atomic_compare_exchange_n(&e->hi, &v, LK_BUSY, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
                __atomic_store_n(&e->lo, lo, __ATOMIC_RELAXED);
                __atomic_store_n(&e->hi, hi | LK_USED, __ATOMIC_RELEASE);
                *at = lslot_flags(e);
                if (++*uncounted == COUNT_BATCH) {
                    __atomic_fetch_add(&t->count, *uncounted, __ATOMIC_RELAXED);
                    *uncounted = 0;
                }
                return 1;
            }
        }
        while (v & LK_BUSY) v = __atomic_load_n(&e->hi, __ATOMIC_ACQUIRE);
        if ((v & LK_HI_MASK) == hi && __atomic_load_n(&e->lo, __ATOMIC_RELAXED) == lo) {
            *at = lslot_flags(e);
            return 0;
        }
        j = next_slot(j, t->cap);
    }
}

static uint8_t *ltable_find(table_t *t, uint64_t lo, uint64_t hi) {
    for (uint64_t j = slot_of(link_hash(lo, hi), t->cap);; j = next_slot(j, t->cap)) {
        lslot_t *e = &t->lslots[j];
        if (!e->hi) return NULL;
        if ((e->hi & LK_HI_MASK) == hi && e->lo == lo) return lslot_flags(e);
    }
}

/* The slot count to grow to now (0: stay): twice as many past 70% full, or once as many as the room
 * (the budget) allows. */
static uint64_t ltable_grow_target(const table_t *t) {
    uint64_t count = __atomic_load_n(&t->count, __ATOMIC_RELAXED);
    if (count * 10 <= t->cap * 7) return 0;
    /* half as many again once large: growing in place costs the fresh pages it adds, so a table that
     * ends nearer its need costs less (deal 78's 31 million classes: 50 million slots, not 67) */
    uint64_t ncap = t->cap >= (1ULL << 22) ? t->cap + t->cap / 2 : t->cap * 2;
    if (t->budget && ncap > t->lslots_room) {
        if (t->lslots_room <= t->cap + t->cap / 8) return 0;
        ncap = t->lslots_room;
    }
    return ncap;
}

static void ltable_place(lslot_t *slots, uint64_t cap, lslot_t e) {
    uint64_t j = slot_of(link_hash(e.lo, e.hi & LK_HI_MASK), cap);
    while (slots[j].hi) j = next_slot(j, cap);
    slots[j] = e;
}

/* Grows the table to ``ncap`` slots. In place where the room allows: a key's home slot only moves up
 * as the table grows (slot_of scales the hash), so going down from the last slot, each key is taken out
 * and put back at or above its new home, which lies at or above where it was, above every slot not yet
 * gone through (linear probing needs no more: the slots between a key's home and its place stay full).
 * The few keys that would land lower, or wrap round past the end, wait aside and go in last. */
static int ltable_resize(table_t *t, uint64_t ncap) {
    if (ncap <= t->lslots_room) {
        lslot_t *s = t->lslots;
        uint64_t from = t->cap * sizeof(lslot_t), to = ncap * sizeof(lslot_t);
        if (t->zeroed_to > from) from = t->zeroed_to;
        if (t->stale_to < to) to = t->stale_to;
        if (to > from) memset((uint8_t *)s + from, 0, to - from); /* (what an earlier search left there) */
        lslot_t *aside = NULL;
        size_t naside = 0, aside_cap = 0;
        for (uint64_t i = t->cap; i-- > 0;) {
            lslot_t e = s[i];
            if (!e.hi) continue;
            s[i] = (lslot_t){0, 0};
            uint64_t j = slot_of(link_hash(e.lo, e.hi & LK_HI_MASK), ncap);
            if (j >= i) {
                while (j < ncap && s[j].hi) j++;
                if (j < ncap) {
                    s[j] = e;
                    continue;
                }
            }
            if (naside == aside_cap) {
                aside_cap = aside_cap ? aside_cap * 2 : 256;
                lslot_t *na = realloc(aside, aside_cap * sizeof(lslot_t));
                if (!na) { /* (cannot happen in practice: a few hundred keys) */
                    free(aside);
                    return 0;
                }
                aside = na;
            }
            aside[naside++] = e;
        }
        t->cap = ncap;
        for (size_t q = 0; q < naside; q++) ltable_place(s, ncap, aside[q]);
        free(aside);
        return 1;
    }
    uint64_t room = ncap;
    lslot_t *ns = big_alloc(room * sizeof(lslot_t));
    if (!ns) return 0;
    for (uint64_t i = 0; i < t->cap; i++)
        if (t->lslots[i].hi) ltable_place(ns, ncap, t->lslots[i]);
    big_free(t->lslots, t->lslots_room * sizeof(lslot_t));
    t->lslots = ns;
    t->lslots_room = room;
    t->stale_to = t->zeroed_to = 0;
    t->cap = ncap;
    return 1;
}

/* A stored key is its length byte, then the key. The length is below 128; the length byte's top bit
 * (KEY_DONE) is set once a search has finished the position (or class) to the end. */
#define KEY_DONE 0x80
#define KEY_LEN(k) ((k)[0] & 0x7F)

static const uint8_t *key_at(const table_t *t, uint64_t v) {
    return t->chunks[(v >> MAX_CHUNK_BITS) & (MAX_CHUNKS - 1)] + (v & ((1ULL << MAX_CHUNK_BITS) - 1));
}

static int table_resize(table_t *t, uint64_t ncap) {
    uint64_t *ns = big_alloc(ncap * sizeof(uint64_t));
    if (!ns) return 0;
    for (uint64_t i = 0; i < t->cap; i++) {
        uint64_t v = t->slots[i];
        if (!v) continue;
        const uint8_t *k = key_at(t, v);
        uint64_t j = slot_of(hash_bytes(k + 1, KEY_LEN(k)), ncap);
        while (ns[j]) j = next_slot(j, ncap);
        ns[j] = v;
    }
    big_free(t->slots, t->cap * sizeof(uint64_t));
    t->slots = ns;
    t->cap = ncap;
    return 1;
}

/* The slot count that uses the whole budget when 90% full, at the keys' mean length so far. */
static uint64_t slots_share(const table_t *t) {
    double mean = t->count ? (double)(t->chunk_bytes - (t->nchunks ? t->chunk_size[t->nchunks - 1] - t->used : 0)) /
                                 (double)t->count
                           : 48.0;
    return (uint64_t)((double)t->budget / (8.0 + 0.9 * mean));
}

/* 1 inserted, 0 already there, -1 out of memory, -2 over budget (nothing changed; ``force`` ignores it).
 * ``h`` is hash_bytes(key, n). On 1 or 0, ``*at`` is the stored key (its length byte). */
/* memcmp(a, b, n) == 0 without a library call (keys are short) */
static inline int same_bytes(const uint8_t *a, const uint8_t *b, int n) {
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x, y;
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        if (x != y) return 0;
    }
    for (; i < n; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

static int table_insert_hashed(table_t *t, const uint8_t *key, int n, uint64_t h, int force, uint8_t **at) {
    uint64_t tag = SLOT_TAG(h);
    uint64_t j = slot_of(h, t->cap);
    for (;;) {
        uint64_t v = t->slots[j];
        if (!v) break;
        if ((v & SLOT_TAG_MASK) == tag) {
            const uint8_t *k = key_at(t, v);
            if (KEY_LEN(k) == n && same_bytes(k + 1, key, n)) {
                *at = (uint8_t *)k;
                return 0;
            }
        }
        j = next_slot(j, t->cap);
    }
    int need_chunk = t->nchunks == 0 || t->used + n + 1 > t->chunk_size[t->nchunks - 1];
    uint64_t next_size = 0;
    if (need_chunk) {
        next_size = t->nchunks ? t->chunk_size[t->nchunks - 1] * 2 : (1ULL << 18);
        if (next_size > (1ULL << MAX_CHUNK_BITS)) next_size = 1ULL << MAX_CHUNK_BITS;
    }
    int need_grow = (t->count + 1) * 10 > t->cap * 7;
    uint64_t ncap = t->cap * 2;
    if (t->budget && !force) {
        if (need_grow && table_bytes(t) + next_size + t->cap * 16 > t->budget) {
            /* no room to double the slots: take the slots' share of the budget once, then fill them up
             * to 90% (slower probes, more keys) */
            uint64_t share = slots_share(t);
            if (share > t->cap + t->cap / 8 && table_bytes(t) + next_size + share * 8 <= t->budget) {
                ncap = share;
            } else {
                if ((t->count + 1) * 10 > t->cap * 9) return -2;
                need_grow = 0;
            }
        }
        if (table_bytes(t) + next_size > t->budget) return -2;
    }
    if (need_chunk) {
        if (t->nchunks >= MAX_CHUNKS) return -1;
        uint8_t *c = big_alloc(next_size);
        if (!c) return -1;
        t->chunks[t->nchunks] = c;
        t->chunk_size[t->nchunks] = next_size;
        t->chunk_bytes += next_size;
        t->nchunks++;
        t->used = 0;
    }
    uint64_t v = SLOT_USED | tag | ((uint64_t)(t->nchunks - 1) << MAX_CHUNK_BITS) | t->used;
    uint8_t *dst = t->chunks[t->nchunks - 1] + t->used;
    dst[0] = (uint8_t)n;
    memcpy(dst + 1, key, n);
    t->used += n + 1;
    t->slots[j] = v;
    t->count++;
    *at = dst;
    if (need_grow && !table_resize(t, ncap)) return -1;
    return 1;
}

static int table_insert(table_t *t, const uint8_t *key, int n, int force, uint8_t **at) {
    return table_insert_hashed(t, key, n, hash_bytes(key, n), force, at);
}

/* Where one thread writes its keys once two threads share the table. */
typedef struct {
    int chunk; /* -1: none yet */
    uint64_t used, size;
    uint64_t uncounted; /* keys inserted and not yet added to the table's count */
} arena_t;


/* Adds the arena's keys to the table's count (in batches: the count is read by both threads). */
static void arena_count(table_t *t, arena_t *a) {
    __atomic_fetch_add(&t->count, a->uncounted, __ATOMIC_RELAXED);
    a->uncounted = 0;
}

/* The insert for two threads: the slots are sized once before the second thread starts (no growth);
 * a key is written into the thread's own chunk, then published by setting its slot with a
 * compare-and-swap, so a slot seen set always points at a whole key. Chunks are added under ``lock``.
 * Same results as table_insert_hashed. */
static int table_insert_shared(table_t *t, arena_t *a, pthread_mutex_t *lock, const uint8_t *key, int n,
                               uint64_t h, uint8_t **at) {
    uint64_t tag = SLOT_TAG(h);
    uint64_t j = slot_of(h, t->cap);
    uint64_t mine = 0;
    for (;;) {
        uint64_t v = __atomic_load_n(&t->slots[j], __ATOMIC_ACQUIRE);
        if (!v) {
            if (!mine) {
                /* (the count lags by less than COUNT_BATCH keys per thread: the slots are millions) */
                if (__atomic_load_n(&t->count, __ATOMIC_RELAXED) * 10 >= t->cap * 9) return -2;
                if (a->chunk < 0 || a->used + n + 1 > a->size) {
                    uint64_t size = 1ULL << MAX_CHUNK_BITS;
                    pthread_mutex_lock(lock);
                    if ((t->budget && table_bytes(t) + size > t->budget) || t->nchunks >= MAX_CHUNKS) {
                        pthread_mutex_unlock(lock);
                        return -2;
                    }
                    uint8_t *c = big_alloc(size);
                    if (!c) {
                        pthread_mutex_unlock(lock);
                        return -1;
                    }
                    int idx = t->nchunks;
                    t->chunks[idx] = c;
                    t->chunk_size[idx] = size;
                    t->chunk_bytes += size;
                    __atomic_store_n(&t->nchunks, idx + 1, __ATOMIC_RELEASE);
                    pthread_mutex_unlock(lock);
                    a->chunk = idx;
                    a->used = 0;
                    a->size = size;
                }
                uint8_t *dst = t->chunks[a->chunk] + a->used;
                dst[0] = (uint8_t)n;
                memcpy(dst + 1, key, n);
                mine = SLOT_USED | tag | ((uint64_t)a->chunk << MAX_CHUNK_BITS) | a->used;
            }
            if (__atomic_compare_exchange_n(&t->slots[j], &v, mine, 0, __ATOMIC_RELEASE, __ATOMIC_ACQUIRE)) {
                *at = t->chunks[a->chunk] + a->used;
                a->used += n + 1;
                if (++a->uncounted == COUNT_BATCH) arena_count(t, a);
                return 1;
            }
            /* another thread set this slot first: v is now its value, compare as usual */
        }
        if ((v & SLOT_TAG_MASK) == tag) {
            const uint8_t *k = key_at(t, v);
            if (KEY_LEN(k) == n && same_bytes(k + 1, key, n)) {
                *at = (uint8_t *)k;
                return 0;
            }
        }
        j = next_slot(j, t->cap);
    }
}

/* Before the second thread starts: the slots at their final size (they cannot grow while shared). */
static int table_presize(table_t *t) {
    uint64_t want = 1ULL << 20;
    if (t->budget) {
        uint64_t share = slots_share(t);
        if (share > want) want = share;
    } else {
        want = 1ULL << 26;
    }
    return want <= t->cap || table_resize(t, want);
}

/* ------------------------------------------------------------------ positions */

/* One column's part of the key, kept up to date as moves are played: a number for its face-down cards
 * (0 when there are none, else ``origin[i] + count``: ``origin`` numbers the face-down cards of the
 * root position column by column, and face-down cards never move, so this names them), the number
 * of face-up cards, the face-up cards. Every byte is below 64 (at most 51 face-down cards).
 * ``pre`` is the first eight bytes as a number, for a quick comparison. */
typedef struct {
    uint8_t b[MAXLEN + 2];
    int len;
    uint64_t pre;
} part_t;

static void build_part(const state_t *s, const uint8_t *origin, int i, part_t *p) {
    int d = s->down[i];
    int fu = s->len[i] - d;
    p->b[0] = d ? (uint8_t)(origin[i] + d) : 0;
    p->b[1] = (uint8_t)fu;
    if (fu <= 32) /* a fixed-size copy (no library call); what lies past the part is never read */
        memcpy(p->b + 2, s->cols[i] + d, 32);
    else
        memcpy(p->b + 2, s->cols[i] + d, fu);
    p->len = 2 + fu;
    uint64_t w;
    memcpy(&w, p->b, 8);
    w = __builtin_bswap64(w); /* the first eight bytes as a big-endian number */
    if (p->len < 8) w &= ~0ULL << (8 * (8 - p->len));
    p->pre = w;
}

static int part_less(const part_t *x, const part_t *y) {
    if (x->pre != y->pre) return x->pre < y->pre;
    int m = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->b, y->b, m);
    return c < 0 || (c == 0 && x->len < y->len);
}

/* The key: the column parts in sorted order (positions that differ only in column order share it). */
static int make_key(const part_t *parts, int n, const state_t *st, int stock_part, uint8_t *out) {
    int s_nstock = st->nstock, s_nwaste = st->nwaste;
    const uint8_t *s_waste = st->waste;
    int order[MAXCOLS];
    for (int i = 0; i < n; i++) {
        int j = i - 1;
        while (j >= 0 && part_less(&parts[i], &parts[order[j]])) {
            order[j + 1] = order[j];
            j--;
        }
        order[j + 1] = i;
    }
    /* every byte of a part is below 64: four of them fit in three bytes of the key. (Parts are
     * self-delimiting, so the packed key still tells different positions apart.) */
    uint8_t sym[MAXCOLS * (MAXLEN + 2) + NCARDS + 40];
    int len = 0;
    for (int i = 0; i < n; i++) {
        const part_t *p = &parts[order[i]];
        if (p->len <= 32)
            memcpy(sym + len, p->b, 32);
        else
            memcpy(sym + len, p->b, p->len);
        len += p->len;
    }
    if (stock_part) {
        sym[len++] = (uint8_t)s_nstock;
        sym[len++] = (uint8_t)s_nwaste;
        memcpy(sym + len, s_waste, s_nwaste);
        len += s_nwaste;
    }
    sym[len] = sym[len + 1] = sym[len + 2] = 0;
    int k = 0;
    for (int i = 0; i < len; i += 4) {
        uint32_t w = (uint32_t)sym[i] << 18 | (uint32_t)sym[i + 1] << 12 | (uint32_t)sym[i + 2] << 6 | sym[i + 3];
        out[k++] = (uint8_t)(w >> 16);
        out[k++] = (uint8_t)(w >> 8);
        out[k++] = (uint8_t)w;
    }
    return k;
}

static void update_parts(const state_t *s, const uint8_t *origin, move_t m, part_t *parts) {
    if (m.src < FOUNDATION) build_part(s, origin, m.src, &parts[m.src]);
    if (m.src == STOCK) return;
    if (m.dst < FOUNDATION) build_part(s, origin, m.dst, &parts[m.dst]);
}

/* What ``c`` lies on if it lies at ``j`` in column ``k`` (FLOOR_BASE at the bottom). */
static inline int base_at(const state_t *s, int k, int j) { return j ? s->cols[k][j - 1] : FLOOR_BASE; }

/* The link key of ``s`` from scratch (kept up to date by apply and undo; the tests compare the two). */
static u128 link_key_of(const state_t *s) {
    const links_t *L = s->links;
    u128 k = 0;
    for (int i = 0; i < s->ncols; i++) {
        k += L->wdown[i] * s->down[i];
        for (int j = 0; j < s->len[i]; j++) {
            int c = s->cols[i][j];
            k += L->wcard[c] * L->code[c][base_at(s, i, j)];
        }
    }
    for (int u = 0; u < 4; u++) k += L->wheight[u] * s->height[u];
    return k;
}

/* The free cards and the face-up cards with a fitting card on them, from scratch (see state_t). */
static void masks_of(const state_t *s, uint64_t *tops, uint64_t *natural) {
    *tops = *natural = 0;
    for (int i = 0; i < s->ncols; i++) {
        if (!s->len[i]) continue;
        *tops |= 1ULL << s->cols[i][s->len[i] - 1];
        for (int j = s->down[i]; j + 1 < s->len[i]; j++)
            if (s->links->fits[s->cols[i][j] * NCARDS + s->cols[i][j + 1]]) *natural |= 1ULL << s->cols[i][j];
    }
}

/* The codes and weights of the link key for the root ``s`` (no stock), or NULL where the number could
 * reach 2^125 (then the table keeps column keys). */
static links_t *build_links(const rules_t *r, const state_t *s) {
    links_t *L = calloc(1, sizeof *L);
    if (!L) return NULL;
    L->fits = r->fits;
    const u128 limit = (u128)1 << 125;
    u128 w = 1;
    for (int c = 0; c < NCARDS; c++) {
        int root = s->loc[c] >= 0 ? base_at(s, s->loc[c], s->idx[c]) : UP_BASE;
        int next = 1; /* code 0: the root base, and the foundation */
        for (int t = 0; t < NCARDS; t++)
            if (r->fits[t * NCARDS + c] && t != root) L->code[c][t] = (uint8_t)next++;
        if ((r->kings_only ? IS_KING(c) : 1) && root != FLOOR_BASE) L->code[c][FLOOR_BASE] = (uint8_t)next++;
        L->wcard[c] = w;
        if (w > limit / (unsigned)next) goto too_big;
        w *= (unsigned)next;
    }
    for (int u = 0; u < 4; u++) {
        L->wheight[u] = w;
        if (w > limit / 14) goto too_big;
        w *= 14;
    }
    for (int c = 0; c < NCARDS; c++)
        for (int b = 0; b < NCARDS + 2; b++) L->val[c][b] = L->wcard[c] * L->code[c][b];
    for (int i = 0; i < s->ncols; i++) {
        L->wdown[i] = w;
        if (w > limit / (unsigned)(s->down[i] + 1)) goto too_big;
        w *= (unsigned)(s->down[i] + 1);
    }
    return L;
too_big:
    free(L);
    return NULL;
}

static int can_go_up(const state_t *s, int c) { return s->height[SUIT(c)] == RANK(c) - 1; }

/* Copies ``k`` cards to a column with ``room`` places left: 16 bytes at once where they fit (the bytes
 * past the column's length are never read; the source may run past its column, inside the state). */
static inline void copy_cards(uint8_t *to, const uint8_t *from, int k, int room) {
    if (k <= 16 && room >= 16)
        memcpy(to, from, 16);
    else
        memcpy(to, from, k);
}


/* The link key after card ``c`` went from lying on ``from`` to lying on ``to``. */
static inline void link_change(state_t *s, int c, int from, int to) {
    const links_t *L = s->links;
    s->lkey += L->val[c][to] - L->val[c][from];
}

/* play a legal move; returns 1 when a card was turned */
static int apply(state_t *s, move_t m) {
    int turned = 0;
    if (m.src < FOUNDATION) {
        int a = m.src;
        if (s->links) {
            link_change(s, m.card, base_at(s, a, s->len[a] - m.count),
                        m.dst == FOUNDATION ? UP_BASE : base_at(s, m.dst, s->len[m.dst]));
            if (m.dst == FOUNDATION) s->lkey += s->links->wheight[SUIT(m.card)];
            if (s->down[a] && s->len[a] - m.count == s->down[a]) s->lkey -= s->links->wdown[a];
            int j = s->len[a] - m.count;
            if (j) { /* the card under the lead: free now, and nothing on it */
                int p = s->cols[a][j - 1];
                s->natural &= ~(1ULL << p);
                s->tops |= 1ULL << p;
            }
            if (m.dst == FOUNDATION) {
                s->tops &= ~(1ULL << m.card);
            } else if (s->len[m.dst]) {
                int t = s->cols[m.dst][s->len[m.dst] - 1];
                s->tops &= ~(1ULL << t);
                s->natural |= (uint64_t)s->links->fits[t * NCARDS + m.card] << t;
            }
        }
        if (m.dst == FOUNDATION) {
            s->len[a]--;
            s->height[SUIT(m.card)]++;
            s->on_found++;
            s->loc[m.card] = -1;
        } else {
            int k = m.count;
            uint8_t *to = s->cols[m.dst] + s->len[m.dst];
            copy_cards(to, s->cols[a] + s->len[a] - k, k, MAXLEN - s->len[m.dst]);
            for (int q = 0; q < k; q++) {
                s->loc[to[q]] = (int8_t)m.dst;
                s->idx[to[q]] = (uint8_t)(s->len[m.dst] + q);
            }
            s->len[m.dst] += k;
            s->len[a] -= k;
        }
        if (s->down[a] && s->len[a] == s->down[a]) {
            s->down[a]--;
            turned = 1;
        }
    } else if (m.src == FOUNDATION) {
        if (s->links) {
            link_change(s, m.card, UP_BASE, base_at(s, m.dst, s->len[m.dst]));
            s->lkey -= s->links->wheight[SUIT(m.card)];
            if (s->len[m.dst]) {
                int t = s->cols[m.dst][s->len[m.dst] - 1];
                s->tops &= ~(1ULL << t);
                s->natural |= (uint64_t)s->links->fits[t * NCARDS + m.card] << t;
            }
            s->tops |= 1ULL << m.card;
        }
        s->height[SUIT(m.card)]--;
        s->on_found--;
        s->loc[m.card] = (int8_t)m.dst;
        s->idx[m.card] = s->len[m.dst];
        s->cols[m.dst][s->len[m.dst]++] = m.card;
    } else if (m.src == WASTE) {
        s->nwaste--;
        if (m.dst == FOUNDATION) {
            s->height[SUIT(m.card)]++;
            s->on_found++;
        } else {
            s->loc[m.card] = (int8_t)m.dst;
            s->idx[m.card] = s->len[m.dst];
            s->cols[m.dst][s->len[m.dst]++] = m.card;
        }
    } else { /* the stock: its top card to the waste */
        s->waste[s->nwaste++] = s->stock[--s->nstock];
    }
    return turned;
}

static void undo(state_t *s, move_t m, int turned) {
    if (m.src < FOUNDATION) {
        int a = m.src;
        if (s->links) {
            link_change(s, m.card, m.dst == FOUNDATION ? UP_BASE : base_at(s, m.dst, s->len[m.dst] - m.count),
                        base_at(s, a, s->len[a]));
            if (m.dst == FOUNDATION) s->lkey -= s->links->wheight[SUIT(m.card)];
            if (turned) s->lkey += s->links->wdown[a];
            if (s->len[a]) { /* the card the lead goes back onto (face down again if it was turned) */
                int p = s->cols[a][s->len[a] - 1];
                s->tops &= ~(1ULL << p);
                if (!turned) s->natural |= (uint64_t)s->links->fits[p * NCARDS + m.card] << p;
            }
            if (m.dst == FOUNDATION) {
                s->tops |= 1ULL << m.card;
            } else if (s->len[m.dst] > m.count) {
                int t = s->cols[m.dst][s->len[m.dst] - m.count - 1];
                s->tops |= 1ULL << t;
                s->natural &= ~(1ULL << t);
            }
        }
        if (turned) s->down[a]++;
        if (m.dst == FOUNDATION) {
            s->loc[m.card] = (int8_t)a;
            s->idx[m.card] = s->len[a];
            s->cols[a][s->len[a]++] = m.card;
            s->height[SUIT(m.card)]--;
            s->on_found--;
        } else {
            int k = m.count;
            uint8_t *to = s->cols[a] + s->len[a];
            copy_cards(to, s->cols[m.dst] + s->len[m.dst] - k, k, MAXLEN - s->len[a]);
            for (int q = 0; q < k; q++) {
                s->loc[to[q]] = (int8_t)a;
                s->idx[to[q]] = (uint8_t)(s->len[a] + q);
            }
            s->len[a] += k;
            s->len[m.dst] -= k;
        }
    } else if (m.src == FOUNDATION) {
        if (s->links) {
            link_change(s, m.card, base_at(s, m.dst, s->len[m.dst] - 1), UP_BASE);
            s->lkey += s->links->wheight[SUIT(m.card)];
            s->tops &= ~(1ULL << m.card);
            if (s->len[m.dst] > 1) {
                int t = s->cols[m.dst][s->len[m.dst] - 2];
                s->tops |= 1ULL << t;
                s->natural &= ~(1ULL << t);
            }
        }
        s->len[m.dst]--;
        s->loc[m.card] = -1;
        s->height[SUIT(m.card)]++;
        s->on_found++;
    } else if (m.src == WASTE) {
        if (m.dst == FOUNDATION) {
            s->height[SUIT(m.card)]--;
            s->on_found--;
        } else {
            s->len[m.dst]--;
            s->loc[m.card] = -1;
        }
        s->waste[s->nwaste++] = m.card;
    } else {
        s->stock[s->nstock++] = s->waste[--s->nwaste];
    }
}

/* Rule 1 of docs/solver-design.md: nothing that could ever go on ``c`` is still off the foundations. */
static int safe_foundation_card(const rules_t *r, const state_t *s, int c) {
    int rank = RANK(c);
    if (r->build == 0) {
        int red = IS_RED_SUIT(SUIT(c));
        for (int u = 0; u < 4; u++)
            if (IS_RED_SUIT(u) != red && s->height[u] < rank - 1) return 0;
        return 1;
    }
    if (r->build == 1) return s->height[SUIT(c)] >= rank - 1;
    return rank == 13 && s->height[SUIT(c)] >= 12;
}

/* The legal moves in yukon.game's order (Game._legal_moves_indexed). */
static int legal_moves(const rules_t *r, const state_t *s, move_t *out) {
    const int8_t *loc = s->loc; /* (face-down cards too: a lead must be face up) */
    const uint8_t *idx = s->idx;
    int n = 0;
    int empties[MAXCOLS], nempty = 0;
    for (int d = 0; d < s->ncols; d++) {
        if (!s->len[d]) {
            empties[nempty++] = d;
            continue;
        }
        int top = s->cols[d][s->len[d] - 1];
        for (int a = 0; a < r->nacc[top]; a++) {
            int c = r->acc[top][a];
            int src = loc[c];
            if (src >= 0 && src != d && idx[c] >= s->down[src])
                out[n++] = (move_t){(uint8_t)src, (uint8_t)d, (uint8_t)c, (uint8_t)(s->len[src] - idx[c])};
        }
    }
    if (nempty) {
        if (r->kings_only) {
            for (int c = 48; c < 52; c++) {
                int src = loc[c];
                if (src >= 0 && idx[c] > 0 && idx[c] >= s->down[src])
                    for (int e = 0; e < nempty; e++)
                        out[n++] = (move_t){(uint8_t)src, (uint8_t)empties[e], (uint8_t)c,
                                            (uint8_t)(s->len[src] - idx[c])};
            }
        } else {
            for (int src = 0; src < s->ncols; src++) {
                int start = s->down[src] ? s->down[src] : 1;
                for (int j = start; j < s->len[src]; j++)
                    for (int e = 0; e < nempty; e++)
                        out[n++] = (move_t){(uint8_t)src, (uint8_t)empties[e], s->cols[src][j],
                                            (uint8_t)(s->len[src] - j)};
            }
        }
    }
    for (int src = 0; src < s->ncols; src++)
        if (s->len[src]) {
            int top = s->cols[src][s->len[src] - 1];
            if (can_go_up(s, top)) out[n++] = (move_t){(uint8_t)src, FOUNDATION, (uint8_t)top, 1};
        }
    if (s->nwaste) {
        int c = s->waste[s->nwaste - 1];
        for (int d = 0; d < s->ncols; d++)
            if (s->len[d] && r->fits[s->cols[d][s->len[d] - 1] * NCARDS + c])
                out[n++] = (move_t){WASTE, (uint8_t)d, (uint8_t)c, 1};
        if (nempty && (!r->kings_only || IS_KING(c)))
            for (int e = 0; e < nempty; e++) out[n++] = (move_t){WASTE, (uint8_t)empties[e], (uint8_t)c, 1};
        if (can_go_up(s, c)) out[n++] = (move_t){WASTE, FOUNDATION, (uint8_t)c, 1};
    }
    if (r->foundation_return) {
        int tops[4], nt = 0;
        for (int u = 0; u < 4; u++)
            if (s->height[u]) tops[nt++] = (s->height[u] - 1) * 4 + u;
        /* tops are already in card order: the same rank order cannot hold across suits, so sort */
        for (int i = 1; i < nt; i++)
            for (int j = i; j > 0 && tops[j] < tops[j - 1]; j--) {
                int x = tops[j];
                tops[j] = tops[j - 1];
                tops[j - 1] = x;
            }
        for (int t = 0; t < nt; t++) {
            int c = tops[t];
            for (int d = 0; d < s->ncols; d++)
                if (s->len[d] && r->fits[s->cols[d][s->len[d] - 1] * NCARDS + c])
                    out[n++] = (move_t){FOUNDATION, (uint8_t)d, (uint8_t)c, 1};
            if (nempty && (!r->kings_only || IS_KING(c)))
                for (int e = 0; e < nempty; e++) out[n++] = (move_t){FOUNDATION, (uint8_t)empties[e], (uint8_t)c, 1};
        }
    }
    if (s->nstock) out[n++] = (move_t){STOCK, STOCK, NO_CARD, 0};
    return n;
}

/* The moves to try, best first, after the safe pruning rules (Searcher.children). */
static int children(const rules_t *r, const state_t *s, move_t *out) {
    move_t moves[1024];
    int n = legal_moves(r, s, moves);
    if (!n) return 0;
    if (!r->foundation_return) {
        for (int i = 0; i < n; i++)
            if (moves[i].dst == FOUNDATION && moves[i].src != FOUNDATION &&
                safe_foundation_card(r, s, moves[i].card)) {
                out[0] = moves[i];
                return 1;
            }
    }
    int first_empty = -1;
    for (int i = 0; i < s->ncols; i++)
        if (!s->len[i]) {
            first_empty = i;
            break;
        }
    move_t turning[1024], good[1024], up[64], rest[1024], burying[1024], last[256];
    int turn_depth[1024];
    int nt = 0, ng = 0, nu = 0, nr = 0, nb = 0, nl = 0;
    for (int i = 0; i < n; i++) {
        move_t m = moves[i];
        if (m.src < FOUNDATION) {
            if (m.dst == FOUNDATION) {
                up[nu++] = m;
                continue;
            }
            int tlen = s->len[m.dst];
            if (!tlen && m.dst != first_empty) continue;
            const uint8_t *col = s->cols[m.src];
            int restn = s->len[m.src] - m.count;
            int nd = s->down[m.src];
            if (restn == nd && nd) {
                /* stable insertion by depth, deepest first */
                int j = nt;
                while (j > 0 && turn_depth[j - 1] < nd) {
                    turning[j] = turning[j - 1];
                    turn_depth[j] = turn_depth[j - 1];
                    j--;
                }
                turning[j] = m;
                turn_depth[j] = nd;
                nt++;
                continue;
            }
            int carries_king = 0;
            if (tlen && m.count > 1)
                for (int j = restn + 1; j < s->len[m.src]; j++)
                    if (IS_KING(col[j])) {
                        carries_king = 1;
                        break;
                    }
            if (carries_king)
                burying[nb++] = m;
            else if (restn == nd || can_go_up(s, col[restn - 1]))
                good[ng++] = m;
            else
                rest[nr++] = m;
        } else if (m.src == WASTE) {
            if (m.dst < FOUNDATION && !s->len[m.dst] && m.dst != first_empty) continue;
            if (m.dst == FOUNDATION)
                up[nu++] = m;
            else
                good[ng++] = m;
        } else if (m.src == STOCK) {
            for (int j = nl; j > 0; j--) last[j] = last[j - 1];
            last[0] = m;
            nl++;
        } else {
            if (!s->len[m.dst] && m.dst != first_empty) continue;
            last[nl++] = m;
        }
    }
    int k = 0;
    for (int i = 0; i < nt; i++) out[k++] = turning[i];
    for (int i = 0; i < ng; i++) out[k++] = good[i];
    for (int i = 0; i < nu; i++) out[k++] = up[i];
    for (int i = 0; i < nr; i++) out[k++] = rest[i];
    for (int i = 0; i < nb; i++) out[k++] = burying[i];
    for (int i = 0; i < nl; i++) out[k++] = last[i];
    return k;
}

/* ------------------------------------------------------------------ swap classes
 *
 * A "swap" moves a card x, with everything on it, from the card A it fits on to the other card B it
 * fits on (its twin parent: 6S and 6C for a red 5), B being free. The swap back is legal at once (A is
 * then free), so a swap never changes whether the deal can be won. Positions joined by swaps through
 * positions where rule 1 does not force a move (there all moves are searched, swaps included) form a
 * class; the table keeps one entry per class (the key of a member reached by swapping every card onto
 * its lower-numbered parent where it can), and the search visits every member of a class it enters
 * (docs/solver-design.md, "Swap classes"). */

/* The move rule 1 forces here, the one children() tries alone (the first safe card that can go up,
 * from the columns in order, then the waste); 0 when there is none. */
static int forced_move(const rules_t *r, const state_t *s, move_t *out) {
    if (r->foundation_return) return 0;
    for (int i = 0; i < s->ncols; i++)
        if (s->len[i]) {
            int c = s->cols[i][s->len[i] - 1];
            if (can_go_up(s, c) && safe_foundation_card(r, s, c)) {
                *out = (move_t){(uint8_t)i, FOUNDATION, (uint8_t)c, 1};
                return 1;
            }
        }
    if (s->nwaste) {
        int c = s->waste[s->nwaste - 1];
        if (can_go_up(s, c) && safe_foundation_card(r, s, c)) {
            *out = (move_t){WASTE, FOUNDATION, (uint8_t)c, 1};
            return 1;
        }
    }
    return 0;
}

/* Rule 1 forces a move here: a free card (or the waste's top) is a safe card that can go up. */
static int is_forced(const rules_t *r, const state_t *s) {
    if (r->foundation_return) return 0;
    if (s->links) { /* (no waste) the free cards that are next on their foundation */
        uint64_t next = 0;
        for (int u = 0; u < 4; u++)
            if (s->height[u] < 13) next |= 1ULL << (s->height[u] * 4 + u);
        for (uint64_t c = s->tops & next; c; c &= c - 1)
            if (safe_foundation_card(r, s, __builtin_ctzll(c))) return 1;
        return 0;
    }
    for (int i = 0; i < s->ncols; i++)
        if (s->len[i]) {
            int c = s->cols[i][s->len[i] - 1];
            if (can_go_up(s, c) && safe_foundation_card(r, s, c)) return 1;
        }
    if (s->nwaste) {
        int c = s->waste[s->nwaste - 1];
        if (can_go_up(s, c) && safe_foundation_card(r, s, c)) return 1;
    }
    return 0;
}

/* Is ``m`` (legal here) a swap? Its lead lies on a face-up card it fits on, and it goes onto a card. */
static int is_swap(const rules_t *r, const state_t *s, move_t m) {
    if (m.src >= FOUNDATION || m.dst >= FOUNDATION || !s->len[m.dst]) return 0;
    int j = s->len[m.src] - m.count;
    return j - 1 >= s->down[m.src] && r->fits[s->cols[m.src][j - 1] * NCARDS + m.card];
}

#define MAX_SWAPS 64

/* With alternating colours: the swap onto the free card b of column ``k`` (a card that fits on b lies
 * on a card it fits only if that card is b's twin b ^ 3, so look there). Returns the twin b ^ 3 and
 * sets ``*m``, or -1 when there is none. */
static int twin_swap(const rules_t *r, const state_t *s, int k, move_t *m) {
    if (!s->len[k]) return -1;
    int a = s->cols[k][s->len[k] - 1] ^ 3;
    int i = s->loc[a];
    if (i < 0 || i == k) return -1;
    int j = s->idx[a] + 1;
    if (j - 1 < s->down[i] || j >= s->len[i]) return -1;
    int x = s->cols[i][j];
    if (!r->fits[a * NCARDS + x]) return -1;
    *m = (move_t){(uint8_t)i, (uint8_t)k, (uint8_t)x, (uint8_t)(s->len[i] - j)};
    return a;
}

/* Marks the parts of the columns ``m`` changed as out of date (they are rebuilt when a key is needed:
 * members of a class that only try swaps never need one). */
static uint32_t touched(move_t m) {
    uint32_t d = 0;
    if (m.src < FOUNDATION) d |= 1u << m.src;
    if (m.dst < FOUNDATION) d |= 1u << m.dst;
    return d;
}

/* The twins of the cards of a mask (b ^ 3: the suits 0 and 3, 1 and 2 change places) */
static inline uint64_t twins_of(uint64_t t) {
    return ((t & 0x1111111111111ULL) << 3) | ((t & 0x8888888888888ULL) >> 3) | ((t & 0x2222222222222ULL) << 1) |
           ((t & 0x4444444444444ULL) >> 1);
}

/* One swap of normalize: plays ``m`` (x from A onto its lower twin) unless A, left free, would make
 * rule 1 force a move; keeps the column parts it changes (none with link keys). 1 when played. */
static int normal_swap(const rules_t *r, state_t *s, const uint8_t *origin, part_t *parts, part_t *saved,
                       uint32_t *kept, move_t m, int a) {
    apply(s, m); /* never turns a card: A stays face up */
    if (can_go_up(s, a) && safe_foundation_card(r, s, a)) {
        undo(s, m, 0);
        return 0;
    }
    if (parts) {
        for (uint32_t d = touched(m) & ~*kept; d; d &= d - 1) saved[__builtin_ctz(d)] = parts[__builtin_ctz(d)];
        *kept |= touched(m);
        update_parts(s, origin, m, parts);
    }
    return 1;
}

/* Swaps every card it can onto its lower-numbered parent, never into a position where rule 1 forces
 * a move; logs the swaps (to undo them) and returns how many. The result is in the class of ``s``.
 * ``saved`` keeps the column parts as they were before the first swap (for denormalize). */
static int normalize(const rules_t *r, state_t *s, const uint8_t *origin, part_t *parts, move_t *log,
                     part_t *saved, uint32_t *kept, int forced) {
    int n = 0;
    *kept = 0;
    if (forced) return 0;
    /* With alternating colours one pass over the columns suffices: a swap from column i onto the top b of
     * column k changes only what could swap onto the tops of i (now A, onto which only x, lying on b, and
     * its twin y, whose parents are A and the covered b, fit) and of k (now the top of x's pile), so
     * column k is looked at again, and the columns before it still have no swap: the same swaps, in the
     * same order, as starting over. (In Alaska the other card that fits on A has another parent, and may
     * swap onto A now: there the scan starts over.) */
    /* (with alternating colours and the masks kept: no card lies on the higher twin of a free card, in
     * another column or not, so there is nothing to swap) */
    if (s->links && r->build == 0 && !(s->natural & twins_of(s->tops) & 0xCCCCCCCCCCCCCULL)) return 0;
    for (int k = 0; k < s->ncols && n < MAX_SWAPS; k++) {
        int swapped;
        do {
            swapped = 0;
            if (!s->len[k]) break;
            int b = s->cols[k][s->len[k] - 1]; /* a free card, and what could be swapped onto it */
            if (r->build == 0) {
                /* alternating colours: only a card lying on b's twin can swap onto b (twin_swap) */
                move_t m;
                int a = twin_swap(r, s, k, &m);
                if (a <= b || !normal_swap(r, s, origin, parts, saved, kept, m, a)) break;
                log[n++] = m;
                swapped = 1;
                continue;
            }
            for (int q = 0; q < r->nacc[b]; q++) {
                int x = r->acc[b][q];
                int i = s->loc[x];
                if (i < 0 || i == k) continue;
                int j = s->idx[x];
                if (j <= s->down[i]) continue; /* x must lie on a face-up card */
                int a = s->cols[i][j - 1];
                if (a <= b || !r->fits[a * NCARDS + x]) continue;
                move_t m = {(uint8_t)i, (uint8_t)k, (uint8_t)x, (uint8_t)(s->len[i] - j)};
                if (!normal_swap(r, s, origin, parts, saved, kept, m, a)) continue;
                log[n++] = m;
                swapped = 1;
                break;
            }
        } while (swapped && n < MAX_SWAPS && r->build == 0);
        if (swapped && r->build != 0) k = -1;
    }
    return n;
}

/* A swap standing undone (docs/solver-design.md, "Undone swaps"): x on A, A's twin B free (alternating
 * colours: B = A ^ 3), B < A, B not on x's pile. Then the member with x on B has a counterpart for
 * every move of this one except a few, which this one must search itself: the pile of y (the other card
 * that fits on A and B) onto B, B up, and piles from B's column onto the top of x's pile. */
typedef struct {
    int b, y, cb, ca; /* B, y, B's column, A's column (x's) */
    int b2, x2;       /* with two undone swaps or more: the second one's B and x */
} undone_t;

/* The swaps here, into ``swaps`` by the free card's column (alternating colours), and how many of them
 * stand undone (the free card b lower than its twin, x's parent); ``u``, the first two of those. */
static int scan_swaps(const rules_t *r, const state_t *s, undone_t *u, move_t *swaps, int *nswaps) {
    int cols[MAXCOLS], twins[MAXCOLS], n = 0; /* each swap's free card's column, and its twin (x's parent) */
    if (s->links) {
        /* a swap onto the free card b of column k takes the card on b's twin a: a has a fitting card on it
         * and lies in another column. The same swaps as twin_swap column by column, put in that order. */
        move_t by_col[MAXCOLS];
        int twin_at[MAXCOLS];
        uint32_t present = 0;
        for (uint64_t c = s->natural & twins_of(s->tops); c; c &= c - 1) {
            int a = __builtin_ctzll(c), k = s->loc[a ^ 3], i = s->loc[a];
            if (i == k) continue;
            int j = s->idx[a] + 1;
            by_col[k] = (move_t){(uint8_t)i, (uint8_t)k, s->cols[i][j], (uint8_t)(s->len[i] - j)};
            twin_at[k] = a;
            present |= 1u << k;
        }
        for (; present; present &= present - 1) {
            int k = __builtin_ctz(present);
            swaps[n] = by_col[k];
            cols[n] = k;
            twins[n++] = twin_at[k];
        }
    } else {
        for (int k = 0; k < s->ncols; k++) {
            int a = twin_swap(r, s, k, &swaps[n]);
            if (a < 0) continue;
            cols[n] = k;
            twins[n++] = a;
        }
    }
    int count = 0;
    for (int q = 0; q < n; q++) {
        int a = twins[q], b = a ^ 3;
        if (a < b) continue;
        if (!count)
            *u = (undone_t){b, swaps[q].card ^ 3, cols[q], swaps[q].src, -1, -1};
        else if (count == 1) {
            u->b2 = b;
            u->x2 = swaps[q].card;
        }
        count++;
    }
    *nswaps = n;
    return count;
}

/* At a member one swap ``m`` away from a canonical member (MODE_CANON), what scan_swaps finds there, read
 * off the swap: its one undone swap is ``m``'s (x now on A, B free), and of its swaps only those in x's
 * pile matter (the caller keeps only those): the same swaps, in the same order (by the free card's column).
 * The class's swaps are independent, so no other swap is undone (docs/solver-design.md, "Independent swaps"). */
static int member_swaps(const rules_t *r, const state_t *s, move_t m, undone_t *u, move_t *swaps, int *nswaps) {
    int ca = m.dst, x = m.card, n = 0;
    *u = (undone_t){s->cols[m.src][s->len[m.src] - 1], x ^ 3, m.src, ca, -1, -1};
    for (int j = s->idx[x] + 1; j < s->len[ca]; j++) {
        int z = s->cols[ca][j], p = s->cols[ca][j - 1];
        if (!r->fits[p * NCARDS + z]) continue;
        int q = p ^ 3, k = s->loc[q];
        if (k < 0 || k == ca || s->idx[q] != s->len[k] - 1) continue;
        move_t g = {(uint8_t)ca, (uint8_t)k, (uint8_t)z, (uint8_t)(s->len[ca] - j)};
        int e = n++;
        for (; e > 0 && swaps[e - 1].dst > k; e--) swaps[e] = swaps[e - 1];
        swaps[e] = g;
    }
    *nswaps = n;
    return 1;
}

/* At a member two swaps away (MODE_PAIR: ``g`` nested in the pile of ``first``, the swap from the canonical
 * member), its two undone swaps as scan_swaps gives them: in ``u`` the one whose free card B lies in the
 * lower column, with the other's B and x. Returns 2. */
static int pair_swaps(const state_t *s, move_t first, move_t g, undone_t *u) {
    undone_t one = {s->cols[first.src][s->len[first.src] - 1], first.card ^ 3, first.src, first.dst, -1, -1};
    undone_t two = {s->cols[g.src][s->len[g.src] - 1], g.card ^ 3, g.src, g.dst, -1, -1};
    if (two.cb < one.cb) {
        undone_t t = one;
        one = two;
        two = t;
    }
    *u = one;
    u->b2 = two.b;
    u->x2 = two.y ^ 3;
    return 2;
}

/* (checks) Does scan_swaps find the same as member_swaps: one undone swap, ``u``, and ``swaps`` the swaps in
 * x's pile, in its order? */
static int same_member_swaps(const rules_t *r, const state_t *s, const undone_t *u, const move_t *swaps, int n) {
    undone_t v;
    move_t all[MAX_SWAPS];
    int nall, k = 0, x = u->y ^ 3;
    if (scan_swaps(r, s, &v, all, &nall) != 1 || v.b != u->b || v.y != u->y || v.cb != u->cb || v.ca != u->ca)
        return 0;
    for (int q = 0; q < nall; q++) {
        if (s->loc[all[q].card] != s->loc[x] || s->idx[all[q].card] <= s->idx[x]) continue;
        if (k >= n || memcmp(&all[q], &swaps[k], sizeof(move_t))) return 0;
        k++;
    }
    return k == n;
}

/* The moves a member with the undone swap ``u`` searches (it is not forced): its swaps (``out`` holds
 * them already, ``n`` of them), then the moves the member with x on B has no counterpart for: y's pile
 * onto B, B up, piles from B's column onto the top of x's pile. */
static int undone_children(const rules_t *r, const state_t *s, const undone_t *u, int undone, move_t *out, int n) {
    /* With two undone swaps or more, the member with another one done has a counterpart for these moves
     * but in two cases (docs/solver-design.md, "Several undone swaps"), both with exactly two: (a) when B is the
     * top of the other's pile and the other's B is the top of y's column; (c) when the top of x's pile
     * is the other's B. With three or more, another one always has counterparts. */
    if (undone >= 3) return n;
    int tx = s->cols[u->ca][s->len[u->ca] - 1];
    int cy = s->loc[u->y];
    int a_ok = 1, c_ok = 1;
    if (undone == 2) {
        int c2 = s->loc[u->x2];
        a_ok = cy >= 0 && u->b == s->cols[c2][s->len[c2] - 1] && u->b2 == s->cols[cy][s->len[cy] - 1];
        c_ok = tx == u->b2;
    }
    if (a_ok && cy >= 0 && cy != u->cb && s->idx[u->y] >= s->down[cy])
        out[n++] = (move_t){(uint8_t)cy, (uint8_t)u->cb, (uint8_t)u->y, (uint8_t)(s->len[cy] - s->idx[u->y])};
    if (undone == 1 && can_go_up(s, u->b)) out[n++] = (move_t){(uint8_t)u->cb, FOUNDATION, (uint8_t)u->b, 1};
    if (!c_ok) return n;
    for (int j = s->down[u->cb]; j < s->len[u->cb]; j++)
        if (r->fits[tx * NCARDS + s->cols[u->cb][j]]) {
            move_t m = {(uint8_t)u->cb, (uint8_t)u->ca, s->cols[u->cb][j], (uint8_t)(s->len[u->cb] - j)};
            if (!is_swap(r, s, m)) out[n++] = m; /* (swaps are in already) */
        }
    return n;
}

/* In the canonical member of a class (no swap undone), with its ``n`` swaps: may the class be searched
 * from it and the members one swap away (MODE_CANON)? Yes unless a card lies on one of its parents, in a
 * column with piles, while the other is that column's top and not in its top pile (moving that pile
 * would make a new swap). Piles may lie in piles, land on columns with piles, in chains or in cycles (a
 * cycle only disables swaps: some of the 2^n placements do not exist). docs/solver-design.md, "Independent
 * swaps". */
static int independent_swaps(const rules_t *r, const state_t *s, const move_t *swaps, int n) {
    uint32_t srcs = 0;
    int base[MAXCOLS]; /* where each column's top pile starts */
    for (int g = 0; g < n; g++) {
        int i = swaps[g].src, j = s->idx[swaps[g].card];
        if (!(srcs >> i & 1) || j > base[i]) base[i] = j;
        srcs |= 1u << i;
    }
    uint64_t xs = 0; /* (a card that lies on a parent while the other is free elsewhere is a swap itself) */
    for (int g = 0; g < n; g++) xs |= 1ULL << swaps[g].card;
    for (int i = 0; i < s->ncols; i++) {
        if (!(srcs >> i & 1)) continue;
        int top = s->cols[i][s->len[i] - 1];
        for (int q = 0; q < r->nacc[top]; q++) {
            int z = r->acc[top][q], c = s->loc[z];
            if (c < 0 || (c == i && s->idx[z] >= base[i]) || (xs >> z & 1)) continue;
            int j = s->idx[z];
            if (j >= 1 && j - 1 >= s->down[c] && s->cols[c][j - 1] == (top ^ 3)) return 0;
        }
    }
    return 1;
}

static void denormalize(state_t *s, part_t *parts, const move_t *log, int n, const part_t *saved, uint32_t kept) {
    if (!n) return;
    for (int i = n - 1; i >= 0; i--) undo(s, log[i], 0);
    for (; kept; kept &= kept - 1) parts[__builtin_ctz(kept)] = saved[__builtin_ctz(kept)];
}

/* The members of the classes being searched, one level per class on the search path (a class entered
 * deeper is searched, and its level dropped, before the search goes on in the one above). Within a
 * class a member is named exactly by which cards have been swapped an odd number of times since the
 * class was entered: a swap changes only its card's parent, between the card's two parents, so the
 * bit mask of cards on their other parent fixes every card's place. Chained by hash; a level's entries
 * are the newest, so dropping a level unlinks them in turn. */
#define LOCAL_BITS 16

typedef struct {
    uint64_t mask;
    uint32_t prev;
} lentry_t;

typedef struct {
    lentry_t *e;
    uint32_t ecap, n;
    uint32_t *bucket; /* entry index + 1 of the newest in the chain, 0 none */
    uint32_t *levels;
    int lcap, nlev;
} localset_t;

static int local_init(localset_t *L) {
    memset(L, 0, sizeof *L);
    L->ecap = 1 << 12;
    L->lcap = 1024;
    L->e = malloc(L->ecap * sizeof(lentry_t));
    L->bucket = calloc(1u << LOCAL_BITS, sizeof(uint32_t));
    L->levels = malloc(L->lcap * sizeof(uint32_t));
    return L->e && L->bucket && L->levels;
}

static void local_free(localset_t *L) {
    free(L->e);
    free(L->bucket);
    free(L->levels);
}

static uint32_t local_slot(uint64_t mask) {
    mask *= 0x9E3779B97F4A7C15ULL;
    return (uint32_t)(mask >> (64 - LOCAL_BITS));
}

static int local_push_level(localset_t *L) {
    if (L->nlev == L->lcap) {
        uint32_t *nl = realloc(L->levels, L->lcap * 2 * sizeof(uint32_t));
        if (!nl) return 0;
        L->levels = nl;
        L->lcap *= 2;
    }
    L->levels[L->nlev++] = L->n;
    return 1;
}

static void local_pop_level(localset_t *L) {
    uint32_t start = L->levels[--L->nlev];
    for (uint32_t i = L->n; i-- > start;) L->bucket[local_slot(L->e[i].mask)] = L->e[i].prev;
    L->n = start;
}

/* In the current level: 1 added, 0 already there, -1 out of memory. */
static int local_insert(localset_t *L, uint64_t mask) {
    uint32_t start = L->levels[L->nlev - 1];
    uint32_t *head = &L->bucket[local_slot(mask)];
    for (uint32_t v = *head; v && v - 1 >= start; v = L->e[v - 1].prev)
        if (L->e[v - 1].mask == mask) return 0;
    if (L->n == L->ecap) {
        lentry_t *ne = realloc(L->e, (size_t)L->ecap * 2 * sizeof(lentry_t));
        if (!ne) return -1;
        L->e = ne;
        L->ecap *= 2;
    }
    L->e[L->n] = (lentry_t){mask, *head};
    *head = ++L->n;
    return 1;
}

/* ------------------------------------------------------------------ the search */

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define SLEEP_MAX 32

typedef struct {
    int start, count, next;
    int entry;     /* the search entered a class here: drop its level on the way back */
    uint64_t mask; /* which member of its class this position is (see localset_t) */
    uint8_t *key;  /* the stored key of the class entered here (NULL for a member reached by a swap) */
    int mode;      /* MODE_... */
    int nsleep;    /* moves not to try here: each leads where a finished class leads (docs/solver-design.md, "Sleep sets") */
    move_t sleep[SLEEP_MAX];
} frame_t;

typedef struct {
    move_t m;
    int turned;
} step_t;

enum { ST_WON, ST_LOST, ST_UNKNOWN, ST_ERROR };

#define KSLOT 112 /* bytes kept per pending child key (a packed key is at most 3/4 of 16*3 + 2*52 + 8) */
/* (link keys take 16 bytes: packed closer, the keys of a position's children share cache lines) */
#define kslot(r) ((r)->linked ? 16 : KSLOT)

/* The keys of the children about to be tried, computed together so that their table slots can be
 * fetched from memory while the others are computed; the order of the search does not change. */
typedef struct {
    uint8_t *buf;
    uint64_t *hash;
    uint8_t *len;
    uint8_t *local; /* CHILD_TABLE, CHILD_SWAP or CHILD_FORCED */
} pending_t;

enum {
    CHILD_TABLE,  /* looked up in the table by its class's key */
    CHILD_SWAP,   /* a swap, to a member of the same class (no key: the class's own set names it) */
    CHILD_FORCED, /* rule 1 forces a move there: entered without a table entry */
    CHILD_PASS,   /* a swap on the way from where the search entered a class to its canonical member */
    CHILD_SLEEP,  /* in the position's sleep set: not tried */
    CHILD_TWIN,   /* the same lead onto the lower twin of its target is tried instead (the same class) */
};

/* How a position is searched (docs/solver-design.md: the glossary, and "Independent swaps") */
enum {
    MODE_FULL,   /* all the moves its member searches */
    MODE_PASS,   /* only the swap towards its class's canonical member */
    MODE_CANON,  /* the canonical member of a class whose swaps are independent: its swaps and other moves */
    MODE_MEMBER, /* a member of such a class with one swap undone: its moves (a), (b), (c), and the swaps
                    undone in a pile on its own */
    MODE_PAIR,   /* a member of such a class with two swaps undone, one pile on the other's: its exceptions */
};

#define LINK_KEY_LEN 16

static inline int put_link_key(u128 key, uint8_t *out) {
    uint64_t w[2] = {(uint64_t)key, (uint64_t)(key >> 64)};
    memcpy(out, w, LINK_KEY_LEN);
    return LINK_KEY_LEN;
}

static inline void get_link_key(const uint8_t *k, uint64_t *lo, uint64_t *hi) {
    memcpy(lo, k, 8);
    memcpy(hi, k + 8, 8);
}

static inline uint64_t key_hash(const rules_t *r, const uint8_t *k, int n) {
    if (!r->linked) return hash_bytes(k, n);
    uint64_t lo, hi;
    get_link_key(k, &lo, &hi);
    return link_hash(lo, hi);
}

/* The key the table stores for this position: with swap classes, that of its class's normal form. */
static int table_key(const rules_t *r, state_t *st, const uint8_t *origin, part_t *parts, uint8_t *out, int forced) {
    if (r->linked) {
        if (!r->merge) return put_link_key(st->lkey, out);
        move_t log[MAX_SWAPS];
        uint32_t kept;
        int nlog = normalize(r, st, origin, NULL, log, NULL, &kept, forced);
        put_link_key(st->lkey, out);
        denormalize(st, NULL, log, nlog, NULL, 0);
        return LINK_KEY_LEN;
    }
    if (!r->merge) return make_key(parts, st->ncols, st, r->has_stock, out);
    move_t log[MAX_SWAPS];
    part_t saved[MAXCOLS];
    uint32_t kept;
    int nlog = normalize(r, st, origin, parts, log, saved, &kept, forced);
    int klen = make_key(parts, st->ncols, st, r->has_stock, out);
    denormalize(st, parts, log, nlog, saved, kept);
    return klen;
}


static void refresh_parts(const state_t *st, const uint8_t *origin, part_t *parts, uint32_t *dirty) {
    for (uint32_t d = *dirty; d; d &= d - 1) build_part(st, origin, __builtin_ctz(d), &parts[__builtin_ctz(d)]);
    *dirty = 0;
}

/* After move ``m`` from a member with no undone swap (alternating colours): can one stand undone now?
 * Only where a free card changed: the new tops of m's columns (a card on the twin of one of them may now
 * swap onto it), and the twin of the card m's lead now lies on (the lead may swap back onto it). */
static int may_be_undone(const rules_t *r, const state_t *s, move_t m) {
    int cols[2] = {m.src, m.dst};
    for (int q = 0; q < 2; q++) {
        int k = cols[q];
        if (k >= FOUNDATION || !s->len[k]) continue;
        int b = s->cols[k][s->len[k] - 1], a = b ^ 3;
        int i = s->loc[a];
        if (a <= b || i < 0 || i == k) continue;
        int j = s->idx[a] + 1;
        if (j - 1 >= s->down[i] && j < s->len[i] && r->fits[a * NCARDS + s->cols[i][j]]) return 1;
    }
    if (m.dst < FOUNDATION && m.src < FOUNDATION) {
        int j = s->idx[m.card];
        if (j >= 1) {
            int a = s->cols[m.dst][j - 1], b = a ^ 3;
            int k = s->loc[b];
            if (b < a && k >= 0 && k != m.dst && s->idx[b] == s->len[k] - 1) return 1;
        }
    }
    return 0;
}

/* A move between columns, not played: the position after it read through these (the pile from ``j`` up
 * in column ``src`` would lie on column ``dst``), for the children of a canonical member whose key needs
 * no swap (no play, no undo). */
typedef struct {
    int src, dst, j, k, turned;
} vmove_t;

static inline int v_moved(const state_t *s, const vmove_t *v, int c) { return s->loc[c] == v->src && s->idx[c] >= v->j; }
static inline int v_loc(const state_t *s, const vmove_t *v, int c) { return v_moved(s, v, c) ? v->dst : s->loc[c]; }
static inline int v_idx(const state_t *s, const vmove_t *v, int c) {
    return v_moved(s, v, c) ? s->len[v->dst] + s->idx[c] - v->j : s->idx[c];
}
static inline int v_len(const state_t *s, const vmove_t *v, int i) {
    return i == v->src ? v->j : i == v->dst ? s->len[i] + v->k : s->len[i];
}
static inline int v_down(const state_t *s, const vmove_t *v, int i) { return s->down[i] - (i == v->src ? v->turned : 0); }
static inline int v_card(const state_t *s, const vmove_t *v, int i, int at) {
    return i == v->dst && at >= s->len[i] ? s->cols[v->src][v->j + at - s->len[i]] : s->cols[i][at];
}

/* may_be_undone(r, position after m, m), read through ``v`` */
static int may_be_undone_v(const rules_t *r, const state_t *s, move_t m, const vmove_t *v) {
    int cols[2] = {m.src, m.dst};
    for (int q = 0; q < 2; q++) {
        int k = cols[q], len = v_len(s, v, k);
        if (!len) continue;
        int b = v_card(s, v, k, len - 1), a = b ^ 3;
        int i = v_loc(s, v, a);
        if (a <= b || i < 0 || i == k) continue;
        int j = v_idx(s, v, a) + 1;
        if (j - 1 >= v_down(s, v, i) && j < v_len(s, v, i) && r->fits[a * NCARDS + v_card(s, v, i, j)]) return 1;
    }
    if (s->len[m.dst]) {
        int a = s->cols[m.dst][s->len[m.dst] - 1], b = a ^ 3; /* the card the lead comes to lie on */
        int k = v_loc(s, v, b);
        if (b < a && k >= 0 && k != m.dst && v_idx(s, v, b) == v_len(s, v, k) - 1) return 1;
    }
    return 0;
}

static void prepare_children(state_t *st, const uint8_t *origin, part_t *parts, uint32_t *dirty, const rules_t *r,
                             const move_t *moves, int start, int n, pending_t *pk, const table_t *table, int nswaps,
                             int canonical, const move_t *sleep, int nsleep) {
    /* where this position is not forced, a move between columns can make a position forced only through
     * the card it leaves free (the pile's top stays free, the foundations stay as they were) */
    int calm = r->merge && r->linked && !r->foundation_return && !is_forced(r, st);
    uint64_t sleeping = 0; /* the cards that lead a move of the sleep set */
    for (int q = 0; q < nsleep; q++) sleeping |= 1ULL << sleep[q].card;
    for (int i = start; i < start + n; i++) {
        move_t m = moves[i];
        int asleep = 0;
        if (m.card < NCARDS && (sleeping >> m.card & 1))
            for (int q = 0; q < nsleep; q++)
                if (sleep[q].card == m.card && sleep[q].dst == m.dst) {
                    asleep = 1;
                    break;
                }
        if (asleep) {
            pk->local[i] = CHILD_SLEEP;
            continue;
        }
        /* ``nswaps`` >= 0: the first ``nswaps`` moves are the swaps, no other is one; -1: not known */
        if (r->merge && (nswaps < 0 ? is_swap(r, st, m) : i - start < nswaps)) {
            /* a swap from a position rule 1 does not force leads to one it does not force (the card
             * it frees has a card that fits on it, x, off the foundations): a member of this class */
            pk->local[i] = CHILD_SWAP;
            continue;
        }
        if (canonical && m.src < FOUNDATION && m.dst < FOUNDATION && st->len[m.dst]) {
            /* the lead could go onto the target's twin as well (free, elsewhere): the two positions are
             * one swap apart, in one class; the move onto the lower twin is in this list too */
            int t = st->cols[m.dst][st->len[m.dst] - 1], t2 = t ^ 3, c2 = st->loc[t2];
            if (t2 < t && c2 >= 0 && c2 != m.src && st->idx[t2] == st->len[c2] - 1) {
                pk->local[i] = CHILD_TWIN;
                continue;
            }
        }
        pk->local[i] = CHILD_TABLE;
        if (r->linked && calm && canonical && m.src < FOUNDATION && m.dst < FOUNDATION) {
            /* the same as below, without playing the move where its key needs no swap */
            vmove_t v = {m.src, m.dst, st->len[m.src] - m.count, m.count, 0};
            v.turned = st->down[m.src] && v.j == st->down[m.src];
            int p = v.j ? st->cols[m.src][v.j - 1] : -1; /* the card the move leaves free */
            if (p >= 0 && can_go_up(st, p) && safe_foundation_card(r, st, p)) {
                pk->local[i] = CHILD_FORCED;
                continue;
            }
            if (!may_be_undone_v(r, st, m, &v)) {
                const links_t *L = st->links;
                int c = m.card, from = v.j ? p : FLOOR_BASE;
                int to = st->len[m.dst] ? st->cols[m.dst][st->len[m.dst] - 1] : FLOOR_BASE;
                u128 key = st->lkey + L->val[c][to] - L->val[c][from] - (v.turned ? L->wdown[m.src] : 0);
                uint8_t *k = pk->buf + (size_t)i * kslot(r);
                pk->len[i] = (uint8_t)put_link_key(key, k);
                uint64_t h = link_hash((uint64_t)key, (uint64_t)(key >> 64));
                pk->hash[i] = h;
                __builtin_prefetch(&table->lslots[slot_of(h, table->cap)]);
                continue;
            }
        }
        if (r->linked) {
            int turned = apply(st, m);
            int forced;
            if (calm && m.src < FOUNDATION && m.dst < FOUNDATION) {
                int k = m.src, c = st->len[k] ? st->cols[k][st->len[k] - 1] : -1;
                forced = c >= 0 && can_go_up(st, c) && safe_foundation_card(r, st, c);
            } else {
                forced = r->merge && is_forced(r, st);
            }
            if (forced) {
                pk->local[i] = CHILD_FORCED;
            } else {
                uint8_t *k = pk->buf + (size_t)i * kslot(r);
                if (canonical && !may_be_undone(r, st, m))
                    put_link_key(st->lkey, k);
                else
                    table_key(r, st, origin, NULL, k, 0);
                pk->len[i] = LINK_KEY_LEN;
                uint64_t h = key_hash(r, k, LINK_KEY_LEN);
                pk->hash[i] = h;
                __builtin_prefetch(&table->lslots[slot_of(h, table->cap)]);
            }
            undo(st, m, turned);
            continue;
        }
        if (*dirty) refresh_parts(st, origin, parts, dirty);
        part_t keep_src, keep_dst;
        if (m.src < FOUNDATION) keep_src = parts[m.src];
        if (m.dst < FOUNDATION) keep_dst = parts[m.dst];
        int turned = apply(st, m);
        update_parts(st, origin, m, parts);
        int forced = r->merge && is_forced(r, st);
        if (forced) {
            /* rule 1 forces a move there: the search goes through without a table entry (the class
             * its forced moves lead to gets one; docs/solver-design.md, "Forced positions") */
            pk->local[i] = CHILD_FORCED;
        } else {
            uint8_t *k = pk->buf + (size_t)i * kslot(r);
            int klen = canonical && !may_be_undone(r, st, m) ? make_key(parts, st->ncols, st, r->has_stock, k)
                                                             : table_key(r, st, origin, parts, k, 0);
            pk->len[i] = (uint8_t)klen;
            uint64_t h = hash_bytes(k, klen);
            pk->hash[i] = h;
            __builtin_prefetch(&table->slots[slot_of(h, table->cap)]);
        }
        undo(st, m, turned);
        if (m.src < FOUNDATION) parts[m.src] = keep_src;
        if (m.dst < FOUNDATION && m.src != STOCK) parts[m.dst] = keep_dst;
    }
}

typedef struct {
    table_t table;
    const rules_t *r;
    uint8_t origin[MAXCOLS];
    state_t root;
    pthread_mutex_t lock; /* adds key chunks once two threads share the table */
    int concurrent;       /* set (for good) just before the second thread starts */
    int abort;            /* atomic: a thread won, hit a limit or failed: all stop */
    int stopped;          /* the stop event was seen */
    double deadline;
    long long node_limit;
    PyObject *stop;
    PyThreadState *tstate;
    long long switch_at; /* the first thread starts the second after this many nodes (0: never) */
    pthread_t second;
    int second_started;
    uint64_t peak;
    uint8_t *root_key; /* the root's stored key */
    int help;          /* acyclic: each thread enters the classes the other has not finished */
    int finished;      /* atomic: with ``help``, a thread searched the root to the end: lost */
    /* the link table grows while both threads wait at a check (under ``lock``) */
    pthread_cond_t grow_cond;
    int want_grow; /* atomic */
    int waiting, active, grow_gen, grow_ok;
    int growing; /* the last to come is growing it: the other only helps fault in its fresh pages */
    /* the fresh part of a growth in place, faulted in by both threads (TOUCH_CHUNK bytes a claim) */
    uint8_t *touch_base;
    uint64_t touch_bytes, touch_chunks;
    uint64_t touch_stale; /* its first bytes that an earlier search used (zeroed, not just touched) */
    uint64_t touch_next, touch_done; /* atomic */
    int touch_gen;
    struct worker *workers;
    int verify_links; /* (tests) recompute the link key at every position searched */
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
    int done; /* atomic, second thread only */
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

/* Takes the GIL for a moment: has the stop event been set? (first thread only) */
static int poll_stop(shared_t *sh) {
    if (sh->stop == Py_None) return 0;
    PyEval_RestoreThread(sh->tstate);
    PyObject *res = PyObject_CallNoArgs(sh->stop);
    int stopped = res ? PyObject_IsTrue(res) : 1;
    Py_XDECREF(res);
    if (!res) PyErr_Clear();
    sh->tstate = PyEval_SaveThread();
    if (stopped) sh->stopped = 1;
    return stopped;
}

static const char *poll_reason(shared_t *sh) { return sh->stopped ? "stopped" : "time limit"; }

static void *worker_run(void *arg);

/* where the classes have no cycle, the second thread starts again from the root after luby(i) times
 * this many nodes (docs/solver-design.md, "Two threads") */
#define RESTART_NODES 100000

static void link_leave(shared_t *sh);

static void *second_thread(void *arg) {
    worker_run(arg);
    link_leave(((worker_t *)arg)->sh);
    __atomic_store_n(&((worker_t *)arg)->done, 1, __ATOMIC_RELEASE);
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
            lslot_t *e = lslot_of_flags(*refs[q]);
            keys[q][0] = e->lo;
            keys[q][1] = e->hi & LK_HI_MASK;
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
        uint64_t c = __atomic_fetch_add(&sh->touch_next, 1, __ATOMIC_RELAXED);
        if (c >= sh->touch_chunks) return;
        uint64_t at = c * TOUCH_CHUNK;
        uint64_t end = sh->touch_bytes - at < TOUCH_CHUNK ? sh->touch_bytes - at : TOUCH_CHUNK;
        uint64_t stale = sh->touch_stale > at ? sh->touch_stale - at : 0;
        if (stale > end) stale = end;
        memset(sh->touch_base + at, 0, stale);
        volatile uint8_t *p = sh->touch_base + at;
        for (uint64_t o = stale; o < end; o += 4096) p[o] = 0; /* (zero already: never used) */
        __atomic_fetch_add(&sh->touch_done, 1, __ATOMIC_RELEASE);
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
                __atomic_store_n(&sh->touch_next, 0, __ATOMIC_RELAXED);
                __atomic_store_n(&sh->touch_done, 0, __ATOMIC_RELAXED);
                sh->touch_gen++;
                pthread_cond_broadcast(&sh->grow_cond);
                pthread_mutex_unlock(&sh->lock);
                touch_fresh(sh);
                while (__atomic_load_n(&sh->touch_done, __ATOMIC_ACQUIRE) < sh->touch_chunks) sched_yield();
                pthread_mutex_lock(&sh->lock);
                t->zeroed_to = ncap * sizeof(lslot_t);
            }
            sh->grow_ok = link_grow(sh, 2);
            __atomic_store_n(&sh->want_grow, 0, __ATOMIC_RELAXED);
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
        __atomic_store_n(&sh->abort, 1, __ATOMIC_RELEASE);
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
        __atomic_store_n(&sh->abort, 1, __ATOMIC_RELEASE);
        return NULL;
    }
    w->rng = 0x9E3779B97F4A7C15ULL;
    long long restart_at = -1;
    int n;
restart:
    n = children(r, st, buf);
    if (w->id == 1) second_order(sh, buf, n, -1, &w->rng);
    memcpy(w->mstack, buf, n * sizeof(move_t));
    prepare_children(st, origin, parts, &w->dirty, r, w->mstack, 0, n, &w->pk, table, -1, 0, NULL, 0);
    w->frames[0] = (frame_t){0, n, 0, 1, 0, sh->root_key, MODE_FULL, 0};
    if (w->id == 1 && sh->help) restart_at = w->nodes + luby(w->restarts + 1) * RESTART_NODES;
    long long check_at = w->nodes + 4096;
    long long checks = 0;
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
            if (f->entry) local_pop_level(&w->local);
            /* searched to the end: with two threads the other skips it from now on */
            if (f->key) __atomic_fetch_or(f->key, KEY_DONE, __ATOMIC_RELEASE);
            w->depth--;
            if (w->depth >= 0) {
                undo(st, w->path[w->depth].m, w->path[w->depth].turned);
                w->dirty |= touched(w->path[w->depth].m);
            }
            continue;
        }
        int idx = f->start + f->next++;
        move_t m = w->mstack[idx];
        if (w->pk.local[idx] == CHILD_SLEEP || w->pk.local[idx] == CHILD_TWIN) continue;
        w->nodes++;
        if (!r->linked && f->next < f->count && w->pk.local[idx + 1] == CHILD_TABLE) { /* fetch its stored key meanwhile */
            uint64_t v = __atomic_load_n(&table->slots[slot_of(w->pk.hash[idx + 1], table->cap)], __ATOMIC_ACQUIRE);
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
        } else if (kind == CHILD_FORCED || kind == CHILD_PASS) {
            ins = 1;
        } else if (r->linked) {
            uint64_t lo, hi;
            get_link_key(ck, &lo, &hi);
            ins = shared ? ltable_insert_shared(table, &w->arena.uncounted, lo, hi, w->pk.hash[idx], &stored)
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
        if (ins == 0 && (local || !shared || !sh->help || (__atomic_load_n(stored, __ATOMIC_ACQUIRE) & KEY_DONE) ||
                         on_path(w, stored)))
            continue;
        int turned = apply(st, m);
        w->dirty |= touched(m);
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
        if (kind == CHILD_FORCED) {
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
                             r->freeze && !undone && kind != CHILD_FORCED, zs, nz);
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
        if (w->nodes >= check_at) {
            check_at = w->nodes + 4096;
            if (r->linked) {
                int grown = 1;
                if (!shared) {
                    grown = link_grow(sh, 1);
                } else {
                    if (ltable_grow_target(table)) __atomic_store_n(&sh->want_grow, 1, __ATOMIC_RELAXED);
                    if (__atomic_load_n(&sh->want_grow, __ATOMIC_RELAXED)) grown = link_rendezvous(sh);
                }
                if (!grown) {
                    w->status = ST_ERROR;
                    break;
                }
            }
            if (__atomic_load_n(&sh->abort, __ATOMIC_ACQUIRE)) {
                w->status = ST_UNKNOWN;
                w->reason = "";
                break;
            }
            if (w->id == 0 && !shared && table->count > sh->peak) sh->peak = table->count;
            if (sh->deadline > 0 && now_seconds() > sh->deadline) {
                w->status = ST_UNKNOWN;
                w->reason = "time limit";
                break;
            }
            if (sh->node_limit > 0 && w->nodes >= sh->node_limit) {
                w->status = ST_UNKNOWN;
                w->reason = "node limit";
                break;
            }
            if (w->id == 0 && ++checks % 8 == 0 && poll_stop(sh)) {
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
                __atomic_store_n(&sh->concurrent, 1, __ATOMIC_RELEASE);
                shared = 1;
                pthread_mutex_lock(&sh->lock);
                sh->active = 2;
                pthread_mutex_unlock(&sh->lock);
                if (pthread_create(&sh->second, NULL, second_thread, &w[1]) == 0) {
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
    if (w->status == ST_LOST && sh->help && w->depth < 0) __atomic_store_n(&sh->finished, 1, __ATOMIC_RELEASE);
    if (w->status != ST_LOST || sh->help) __atomic_store_n(&sh->abort, 1, __ATOMIC_RELEASE);
    return NULL;
}

/* Reads a sequence of at most ``max`` cards into ``dst``; their number, or -1 with a Python error set. */
static Py_ssize_t read_cards(PyObject *seq, uint8_t *dst, Py_ssize_t max, const char *what) {
    Py_ssize_t n = PySequence_Length(seq);
    if (n < 0 || n > max) {
        if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "bad %s", what);
        return -1;
    }
    for (Py_ssize_t j = 0; j < n; j++) {
        PyObject *c = PySequence_GetItem(seq, j);
        long v = c ? PyLong_AsLong(c) : -1;
        Py_XDECREF(c);
        if (v < 0 || v >= NCARDS) {
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "bad card in the %s", what);
            return -1;
        }
        dst[j] = (uint8_t)v;
    }
    return n;
}

static PyObject *search(PyObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"columns", "down", "heights", "fits", "build", "kings_only", "foundation_return",
                             "node_limit", "time_limit", "memory_limit", "stop", "stock", "waste", "threads",
                             "switch_at", "merge", "sleep", "links", "verify_links", NULL};
    PyObject *columns, *down_obj, *heights_obj, *stop = Py_None, *stock_obj = Py_None, *waste_obj = Py_None;
    Py_buffer fits;
    int build, kings_only, foundation_return;
    long long node_limit;
    double time_limit;
    long long memory_limit;
    int threads = 1;
    long long switch_at = 2000000;
    int merge = 1, sleep = 1, use_links = 1, verify_links = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOy*iiiLdL|OOOiLpppp", kwlist, &columns, &down_obj, &heights_obj,
                                     &fits, &build, &kings_only, &foundation_return, &node_limit, &time_limit,
                                     &memory_limit, &stop, &stock_obj, &waste_obj, &threads, &switch_at, &merge, &sleep,
                                     &use_links, &verify_links))
        return NULL;
    rules_t *r = calloc(1, sizeof(rules_t));
    state_t st;
    memset(&st, 0, sizeof st);
    uint8_t origin[MAXCOLS];
    if (!r) {
        PyBuffer_Release(&fits);
        return PyErr_NoMemory();
    }
    if (fits.len != NCARDS * NCARDS) {
        PyBuffer_Release(&fits);
        free(r);
        PyErr_SetString(PyExc_ValueError, "fits must hold 52*52 bytes");
        return NULL;
    }
    memcpy(r->fits, fits.buf, NCARDS * NCARDS);
    PyBuffer_Release(&fits);
    for (int t = 0; t < NCARDS; t++)
        for (int c = 0; c < NCARDS; c++)
            if (r->fits[t * NCARDS + c] && r->nacc[t] < 4) r->acc[t][r->nacc[t]++] = (uint8_t)c;
    for (int c = 0; c < NCARDS; c++)
        for (int t = 0; t < NCARDS; t++)
            if (r->fits[t * NCARDS + c] && r->ntgt[c] < 4) r->tgt[c][r->ntgt[c]++] = (uint8_t)t;
    /* swaps need two cards to fit on (same-suit building has one) */
    r->merge = merge && build != 1;
    r->build = build;
    r->kings_only = kings_only;
    r->foundation_return = foundation_return;

    Py_ssize_t ncols = PySequence_Length(columns);
    if (ncols < 1 || ncols > MAXCOLS) {
        free(r);
        PyErr_SetString(PyExc_ValueError, "between 1 and 16 columns");
        return NULL;
    }
    st.ncols = (int)ncols;
    int total = 0;
    int face_down_before = 0;
    for (Py_ssize_t i = 0; i < ncols; i++) {
        PyObject *col = PySequence_GetItem(columns, i);
        PyObject *d = PySequence_GetItem(down_obj, i);
        if (!col || !d) {
            Py_XDECREF(col);
            Py_XDECREF(d);
            free(r);
            return NULL;
        }
        Py_ssize_t n = read_cards(col, st.cols[i], MAXLEN, "column");
        Py_DECREF(col);
        long dn = PyLong_AsLong(d);
        Py_DECREF(d);
        if (n < 0 || dn < 0 || dn > n || (n && dn == n)) {
            free(r);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad column");
            return NULL;
        }
        st.len[i] = (uint8_t)n;
        st.down[i] = (uint8_t)dn;
        origin[i] = (uint8_t)face_down_before;
        face_down_before += (int)dn;
        total += (int)n;
    }
    for (int u = 0; u < 4; u++) {
        PyObject *h = PySequence_GetItem(heights_obj, u);
        long v = h ? PyLong_AsLong(h) : -1;
        Py_XDECREF(h);
        if (v < 0 || v > 13) {
            free(r);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad foundation height");
            return NULL;
        }
        st.height[u] = (uint8_t)v;
        st.on_found += (int)v;
    }
    total += st.on_found;
    r->has_stock = stock_obj != Py_None;
    r->freeze = r->merge && build == 0 && !foundation_return && !r->has_stock;
    /* every move but a swap is one way when only Kings go to empty columns, a King fits on no card (in
     * Alaska it fits on its Queen, and could go back and forth between her and an empty column) and
     * nothing comes down from the foundations; swaps stay inside a class (or there are none) */
    r->acyclic = kings_only && !foundation_return;
    for (int c = 0; c < NCARDS; c++)
        if ((IS_KING(c) && r->ntgt[c]) || (r->ntgt[c] > 1 && !r->merge)) r->acyclic = 0;
    r->sleepy = sleep && merge && r->acyclic && !r->has_stock;
    for (int w = 0; w < 2 && r->has_stock; w++) {
        PyObject *seq = w ? waste_obj : stock_obj;
        uint8_t *dst = w ? st.waste : st.stock;
        Py_ssize_t n = seq == Py_None ? 0 : read_cards(seq, dst, NCARDS, w ? "waste" : "stock");
        if (n < 0) {
            free(r);
            return NULL;
        }
        if (w)
            st.nwaste = (int)n;
        else
            st.nstock = (int)n;
        total += (int)n;
    }
    if (total != NCARDS) {
        free(r);
        PyErr_SetString(PyExc_ValueError, "the position must hold 52 cards");
        return NULL;
    }
    memset(st.loc, -1, sizeof st.loc);
    for (int i = 0; i < st.ncols; i++)
        for (int j = 0; j < st.len[i]; j++) {
            st.loc[st.cols[i][j]] = (int8_t)i;
            st.idx[st.cols[i][j]] = (uint8_t)j;
        }

    links_t *links = NULL;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (use_links && !r->has_stock) links = build_links(r, &st);
#endif
    if (links) {
        st.links = links;
        st.lkey = link_key_of(&st);
        masks_of(&st, &st.tops, &st.natural);
        r->linked = 1;
    }
    shared_t *sh = line_calloc(1, sizeof(shared_t));
    worker_t *w = line_calloc(2, sizeof(worker_t));
    if (!sh || !w || !table_init(&sh->table, memory_limit > 0 ? (uint64_t)memory_limit : 0, r->linked)) {
        free(sh);
        free(w);
        free(r);
        free(links);
        return PyErr_NoMemory();
    }
    sh->workers = w;
    sh->active = 1;
    sh->verify_links = verify_links;
    pthread_cond_init(&sh->grow_cond, NULL);
    sh->r = r;
    memcpy(sh->origin, origin, sizeof origin);
    sh->root = st;
    pthread_mutex_init(&sh->lock, NULL);
    double started = now_seconds();
    sh->deadline = time_limit > 0 ? started + time_limit : 0;
    sh->node_limit = node_limit;
    sh->stop = stop;
    /* a second thread only without a node limit (node limits must give the same answer every run) */
    sh->switch_at = (threads >= 2 && node_limit <= 0) ? switch_at : 0;
    for (int i = 0; i < 2; i++) {
        w[i].sh = sh;
        w[i].id = i;
        w[i].arena.chunk = -1;
    }
    sh->tstate = PyEval_SaveThread();
    worker_run(&w[0]);
    link_leave(sh);
    if (sh->second_started) {
        /* wait for the second thread, still polling the stop event and the clock */
        while (!__atomic_load_n(&w[1].done, __ATOMIC_ACQUIRE)) {
            struct timespec ts = {0, 5000000};
            nanosleep(&ts, NULL);
            if (poll_stop(sh) || (sh->deadline > 0 && now_seconds() > sh->deadline))
                __atomic_store_n(&sh->abort, 1, __ATOMIC_RELEASE);
        }
        pthread_join(sh->second, NULL);
    }
    PyEval_RestoreThread(sh->tstate);

    /* the verdict: a win by either; else a limit hit by either; else both searches ran out: lost */
    worker_t *by = &w[0];
    int status;
    const char *reason = "";
    int two = sh->second_started;
    if (w[0].status == ST_WON || (two && w[1].status == ST_WON)) {
        by = w[0].status == ST_WON ? &w[0] : &w[1];
        status = ST_WON;
    } else if (__atomic_load_n(&sh->finished, __ATOMIC_ACQUIRE)) {
        status = ST_LOST; /* one thread searched the root to the end (it skipped only finished classes) */
    } else if (w[0].status == ST_ERROR || (two && w[1].status == ST_ERROR)) {
        status = ST_ERROR;
    } else if (w[0].status == ST_UNKNOWN || (two && w[1].status == ST_UNKNOWN)) {
        status = ST_UNKNOWN;
        reason = w[0].reason[0] ? w[0].reason : (two && w[1].reason[0] ? w[1].reason : poll_reason(sh));
    } else {
        status = ST_LOST;
    }
    long long nodes = w[0].nodes + w[1].nodes;
    uint64_t peak = sh->table.count > sh->peak ? sh->table.count : sh->peak;
    double seconds = now_seconds() - started;
    PyObject *line = NULL;
    const char *error = w[0].status == ST_ERROR ? w[0].reason : (two && w[1].status == ST_ERROR ? w[1].reason : "");
    if (status == ST_ERROR) {
        if (error && error[0])
            PyErr_SetString(PyExc_RuntimeError, error);
        else
            PyErr_NoMemory();
    } else {
        line = PyList_New(0);
        if (line && status == ST_WON) {
            for (int i = 0; i < by->depth; i++) {
                move_t m = by->path[i].m;
                PyObject *t = Py_BuildValue("(iiii)", m.src, m.dst, m.card == NO_CARD ? -1 : m.card, m.count);
                if (!t || PyList_Append(line, t) < 0) {
                    Py_XDECREF(t);
                    Py_CLEAR(line);
                    break;
                }
                Py_DECREF(t);
            }
        }
    }
    for (int i = 0; i < 2; i++) worker_free(&w[i]);
    pthread_mutex_destroy(&sh->lock);
    pthread_cond_destroy(&sh->grow_cond);
    table_free(&sh->table);
    free(sh);
    free(w);
    free(r);
    free(links);
    if (!line) return NULL;
    static const char *names[] = {"won", "lost", "unknown"};
    return Py_BuildValue("(sNLKds)", names[status], line, nodes, (unsigned long long)peak, seconds, reason);
}

static PyObject *release_memory(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    spare_release();
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"search", (PyCFunction)(void (*)(void))search, METH_VARARGS | METH_KEYWORDS,
     "search(columns, down, heights, fits, build, kings_only, foundation_return, node_limit, time_limit, "
     "memory_limit, stop=None, stock=None, waste=None, threads=1, switch_at=2000000, merge=True) -> "
     "(status, line, nodes, peak_table, seconds, reason)"},
    {"release_memory", release_memory, METH_NOARGS,
     "release_memory() -> None: unmap the table memory kept from the last search for the next one"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core",
                                    "Compiled depth-first search for one-deck variants without a stock.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__core(void) { return PyModule_Create(&module); }
