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
 *
 * The files, each on one seam, share this header:
 *   table.c     the transposition table and its memory (link slots, key chunks, the spare mapping)
 *   position.c  positions: moves played and undone, keys, legal moves and their order
 *   swaps.c     swap classes: normal forms, undone swaps, the members of the classes being searched
 *   children.c  the keys of a position's children, computed together (prefetching their slots)
 *   search.c    the search itself, on one thread or two
 *   module.c    the Python binding (yukon.solver._core)
 */
#ifndef YUKON_CORE_H
#define YUKON_CORE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Nothing here is seen outside the extension module (only its PyInit__core, declared by Python.h). */
#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
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
    uint8_t safe[NCARDS][4]; /* safe[c][u]: how high suit u's foundation must be for c to be safe (rule 1) */
    int merge; /* one table entry per set of positions joined by swaps between twin parents */
    int freeze; /* ...and most other moves only from members where no swap stands undone */
    int build; /* 0 alternate, 1 suit, 2 suit-updown */
    int kings_only;
    int foundation_return;
    int has_stock; /* a stock dealt one card at a time to a waste */
    int acyclic; /* no move sequence returns to a class it left (docs/solver-design.md, "Two threads") */
    int sleepy;  /* sleep sets: acyclic, no stock */
    int linked;  /* link keys (no stock) */
    int blocks;  /* foundation returns only in return blocks (docs/solver-design.md, "Return blocks") */
    int relax;   /* rule 4 at every class entered (relaxed_lost): no stock */
} rules_t;

#define RANK(c) ((c) / 4 + 1)
#define SUIT(c) ((c) % 4)
#define IS_KING(c) ((c) >= 48)

/* ------------------------------------------------------------------ the search's call */

enum { ST_WON, ST_LOST, ST_UNKNOWN, ST_ERROR };

/* What a search is given: the root position, the rules, the limits and the options (the arguments of
 * yukon.solver._core.search; docs/solver.md, docs/solver-design.md). */
typedef struct {
    int ncols;
    uint8_t cols[MAXCOLS][MAXLEN]; /* bottom first */
    uint8_t len[MAXCOLS];
    uint8_t down[MAXCOLS]; /* face-down cards at the bottom of each column */
    uint8_t height[4];     /* of the foundations, by suit */
    int has_stock;         /* a stock dealt one card at a time to a waste: then ``stock`` and ``waste`` */
    uint8_t stock[NCARDS]; /* bottom first */
    uint8_t waste[NCARDS];
    int nstock, nwaste;
    uint8_t fits[NCARDS * NCARDS]; /* fits[t*52+c]: c may be placed on t (yukon.rules.build_table) */
    uint8_t safe[NCARDS * 4];      /* safe[c*4+u]: see rules_t (yukon.rules.safe_table) */
    int build;                     /* 0 alternate, 1 suit, 2 suit-updown */
    int kings_only, foundation_return;
    long long node_limit;  /* positions (0: none; then one thread only, for the same answer every run) */
    double time_limit;     /* seconds (0: none) */
    uint64_t memory_limit; /* bytes for the table (0: none) */
    /* polled by the first thread every 32768 positions and while it waits for the second (NULL: never):
     * nonzero, the search stops */
    int (*stop)(void *stop_arg);
    void *stop_arg;
    int threads;          /* 2: a second thread joins after ``switch_at`` positions */
    long long switch_at;
    int merge;        /* swap classes */
    int sleep;        /* sleep sets */
    int links;        /* link keys where they fit */
    int verify_links; /* (tests) check the incremental keys and swap scans at every position */
    int interleave;   /* with ``threads`` 1: the second search joins after ``switch_at`` positions on the same
                       * core, the two taking turns (also with a node limit: the same answer every run) */
    int blocks;       /* foundation returns only in return blocks (with ``foundation_return``) */
    int relax;        /* rule 4 at every class entered (with ``merge``) */
} search_args_t;

typedef struct {
    int status;         /* ST_... */
    const char *reason; /* why ST_UNKNOWN ("time limit", ...); for ST_ERROR a message, or "" out of memory */
    move_t *line;       /* ST_WON: the winning moves (malloc'd: free it), else NULL */
    int nline;
    long long nodes;
    uint64_t peak; /* the most table entries at a time */
    double seconds;
} search_result_t;

/* The search (search.c): fills ``res``; the caller frees ``res->line``. */
void search_run(const search_args_t *args, search_result_t *res);
/* Rule 4 (relaxed_lost) on the position of ``args`` alone, no search: 1 lost, 0 not proved, -1 no memory. */
int relaxed_lost_at(const search_args_t *args);

/* ------------------------------------------------------------------ the table (table.c) */

/* Keys live in chunks that never move (no copying as the table grows): 256 KiB first, each next one twice
 * as big up to 64 MiB. A slot holds a used bit, a hash tag, the chunk and the offset in it. ``budget``
 * bounds the bytes the table may take (0: no bound). */
#define MAX_CHUNK_BITS 26
#define MAX_CHUNKS 4096
#define SLOT_USED (1ULL << 63)
#define SLOT_TAG(h) (((h) >> 39) << 38)
#define SLOT_TAG_MASK (((1ULL << 25) - 1) << 38)

/* With link keys the table holds the keys themselves, 16 bytes a slot: a lookup reads one cache line.
 * The key's top bits (it is below 2^125) hold the flags: LK_DONE (see KEY_DONE), LK_USED, LK_BUSY. */
typedef struct {
    _Atomic uint64_t lo, hi;
} lslot_t;
#define LK_DONE (1ULL << 63)
#define LK_USED (1ULL << 62)
#define LK_BUSY (1ULL << 61) /* a thread is writing this slot (two threads) */
#define LK_HI_MASK (LK_BUSY - 1)

typedef struct {
    _Atomic uint64_t *slots;
    lslot_t *lslots; /* instead of ``slots`` and the chunks, with link keys */
    uint64_t lslots_room; /* slots mapped for ``lslots`` (address space: pages are used as the table grows) */
    int linked;
    uint64_t cap; /* power of two */
    uint8_t *chunks[MAX_CHUNKS];
    uint64_t chunk_size[MAX_CHUNKS];
    uint64_t chunk_bytes; /* total of chunk_size */
    int nchunks; /* (under the search's lock once two threads share the table) */
    uint64_t used; /* bytes used in the last chunk */
    uint64_t budget;
    /* a mapping kept from an earlier search (see spare_take): bytes of ``lslots`` below ``stale_to`` may
     * hold its keys, and are zeroed as the table grows over them (up to ``zeroed_to`` already done) */
    uint64_t stale_to, zeroed_to;
    /* on a cache line of its own: the threads add to it (in batches) while reading the fields above */
    _Alignas(64) _Atomic uint64_t count;
    char pad[56];
} table_t;

/* The keys in the table (read by both threads: it changes by batches of COUNT_BATCH once they share it). */
static inline uint64_t table_count(const table_t *t) { return atomic_load_explicit(&t->count, memory_order_relaxed); }

#define COUNT_BATCH 256 /* keys a thread inserts before it adds them to the table's count */

/* A stored key is its length byte, then the key. The length is below 128; the length byte's top bit
 * (KEY_DONE) is set once a search has finished the position (or class) to the end. A link key's slot
 * has LK_DONE instead. Either way the search holds a stored key as a ``uint8_t *``: the length byte,
 * or the slot (lslot_ref). */
#define KEY_DONE 0x80
#define KEY_LEN(k) ((k)[0] & 0x7F)

static inline uint64_t hash_bytes(const uint8_t *p, int n) {
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

static inline uint64_t link_hash(uint64_t lo, uint64_t hi) {
    uint64_t h = lo ^ (hi * 0x9E3779B97F4A7C15ULL);
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDULL;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ULL;
    h ^= h >> 33;
    return h;
}

/* The home slot of a hash: its low 32 bits scaled to the slot count (any count, not only powers of
 * two, so that the slots can take just their share of the budget); the tag uses the high bits. */
static inline uint64_t slot_of(uint64_t h, uint64_t cap) { return ((h & 0xFFFFFFFFULL) * cap) >> 32; }

static inline uint64_t next_slot(uint64_t j, uint64_t cap) { return j + 1 == cap ? 0 : j + 1; }

static inline uint8_t *lslot_ref(lslot_t *e) { return (uint8_t *)e; }
static inline lslot_t *lslot_of_ref(uint8_t *ref) { return (lslot_t *)(void *)ref; }

static inline const uint8_t *key_at(const table_t *t, uint64_t v) {
    return t->chunks[(v >> MAX_CHUNK_BITS) & (MAX_CHUNKS - 1)] + (v & ((1ULL << MAX_CHUNK_BITS) - 1));
}

/* A stored key (see KEY_DONE) searched to the end: with two threads the other skips it from now on. The
 * length byte, written once before its slot is published, is marked through an atomic view of it. */
static inline void key_mark_done(int linked, uint8_t *key) {
    if (linked)
        atomic_fetch_or_explicit(&lslot_of_ref(key)->hi, LK_DONE, memory_order_release);
    else
        atomic_fetch_or_explicit((_Atomic uint8_t *)key, KEY_DONE, memory_order_release);
}

static inline int key_is_done(int linked, uint8_t *key) {
    if (linked) return (atomic_load_explicit(&lslot_of_ref(key)->hi, memory_order_acquire) & LK_DONE) != 0;
    return (atomic_load_explicit((_Atomic uint8_t *)key, memory_order_acquire) & KEY_DONE) != 0;
}

/* Where one thread writes its keys once two threads share the table. */
typedef struct {
    int chunk; /* -1: none yet */
    uint64_t used, size;
    uint64_t uncounted; /* keys inserted and not yet added to the table's count */
} arena_t;

/* One thread alone uses the table: plain loads and stores (relaxed), no read-modify-write. */
static inline uint64_t relaxed_load(_Atomic uint64_t *p) { return atomic_load_explicit(p, memory_order_relaxed); }
static inline void relaxed_store(_Atomic uint64_t *p, uint64_t v) { atomic_store_explicit(p, v, memory_order_relaxed); }

/* The link table's insert, made at every node (here, to be inlined there): 1 inserted, 0 already there,
 * -2 the table is full (90%: it grows between inserts, see link_grow). */
static inline int ltable_insert(table_t *t, uint64_t lo, uint64_t hi, uint64_t h, uint8_t **at) {
    uint64_t j = slot_of(h, t->cap);
    lslot_t *e;
    for (;;) {
        e = &t->lslots[j];
        uint64_t v = relaxed_load(&e->hi);
        if (!v) break;
        if ((v & LK_HI_MASK) == hi && relaxed_load(&e->lo) == lo) {
            *at = lslot_ref(e);
            return 0;
        }
        j = next_slot(j, t->cap);
    }
    uint64_t count = relaxed_load(&t->count);
    if ((count + 1) * 10 > t->cap * 9) return -2;
    relaxed_store(&e->lo, lo);
    relaxed_store(&e->hi, hi | LK_USED);
    relaxed_store(&t->count, count + 1);
    *at = lslot_ref(e);
    return 1;
}

/* The same for two threads: a free slot is claimed by a compare-and-swap that marks it busy, its low word
 * written, then the high word published; a thread that meets a busy slot waits the few instructions it
 * takes to finish it, then compares. */
static inline int ltable_insert_shared(table_t *t, uint64_t *uncounted, uint64_t lo, uint64_t hi, uint64_t h,
                                       uint8_t **at) {
    uint64_t j = slot_of(h, t->cap);
    for (;;) {
        lslot_t *e = &t->lslots[j];
        uint64_t v = atomic_load_explicit(&e->hi, memory_order_acquire);
        if (!v) {
            if (table_count(t) * 10 >= t->cap * 9) return -2;
            if (atomic_compare_exchange_strong_explicit(&e->hi, &v, LK_BUSY, memory_order_acq_rel,
                                                        memory_order_acquire)) {
                atomic_store_explicit(&e->lo, lo, memory_order_relaxed);
                atomic_store_explicit(&e->hi, hi | LK_USED, memory_order_release);
                *at = lslot_ref(e);
                if (++*uncounted == COUNT_BATCH) {
                    atomic_fetch_add_explicit(&t->count, *uncounted, memory_order_relaxed);
                    *uncounted = 0;
                }
                return 1;
            }
        }
        while (v & LK_BUSY) v = atomic_load_explicit(&e->hi, memory_order_acquire);
        if ((v & LK_HI_MASK) == hi && atomic_load_explicit(&e->lo, memory_order_relaxed) == lo) {
            *at = lslot_ref(e);
            return 0;
        }
        j = next_slot(j, t->cap);
    }
}

int table_init(table_t *t, uint64_t budget, int linked);
void table_free(table_t *t);
void spare_release(void);
/* 1 inserted, 0 already there, -1 out of memory, -2 over budget or full; ``*at`` the stored key */
uint8_t *ltable_find(table_t *t, uint64_t lo, uint64_t hi);
uint64_t ltable_grow_target(const table_t *t);
int ltable_resize(table_t *t, uint64_t ncap);
int table_insert_hashed(table_t *t, const uint8_t *key, int n, uint64_t h, int force, uint8_t **at);
int table_insert(table_t *t, const uint8_t *key, int n, int force, uint8_t **at);
int table_insert_shared(table_t *t, arena_t *a, pthread_mutex_t *lock, const uint8_t *key, int n, uint64_t h,
                        uint8_t **at);
void arena_count(table_t *t, arena_t *a);
int table_presize(table_t *t);

/* ------------------------------------------------------------------ positions (position.c) */

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

/* What ``c`` lies on if it lies at ``j`` in column ``k`` (FLOOR_BASE at the bottom). */
static inline int base_at(const state_t *s, int k, int j) { return j ? s->cols[k][j - 1] : FLOOR_BASE; }

static inline int can_go_up(const state_t *s, int c) { return s->height[SUIT(c)] == RANK(c) - 1; }

/* Rule 1 of docs/solver-design.md: nothing that could ever go on ``c`` is still off the foundations (the
 * rules' table says how high each foundation must be for that). */
static inline int safe_foundation_card(const rules_t *r, const state_t *s, int c) {
    const uint8_t *need = r->safe[c];
    return s->height[0] >= need[0] && s->height[1] >= need[1] && s->height[2] >= need[2] &&
           s->height[3] >= need[3];
}

/* Marks the parts of the columns ``m`` changed as out of date (they are rebuilt when a key is needed:
 * members of a class that only try swaps never need one). */
static inline uint32_t touched(move_t m) {
    uint32_t d = 0;
    if (m.src < FOUNDATION) d |= 1u << m.src;
    if (m.dst < FOUNDATION) d |= 1u << m.dst;
    return d;
}

void build_part(const state_t *s, const uint8_t *origin, int i, part_t *p);
int make_key(const part_t *parts, int n, const state_t *st, int stock_part, uint8_t *out);
void update_parts(const state_t *s, const uint8_t *origin, move_t m, part_t *parts);
u128 link_key_of(const state_t *s);
void masks_of(const state_t *s, uint64_t *tops, uint64_t *natural);
links_t *build_links(const rules_t *r, const state_t *s);
int apply(state_t *s, move_t m); /* 1 when a card was turned */
void undo(state_t *s, move_t m, int turned);
int children(const rules_t *r, const state_t *s, move_t *out);
int relaxed_lost(const rules_t *r, const state_t *s);

/* ------------------------------------------------------------------ swap classes (swaps.c) */

#define MAX_SWAPS 64

/* A swap standing undone (docs/solver-design.md, "Undone swaps"): x on A, A's twin B free (alternating
 * colours: B = A ^ 3), B < A, B not on x's pile. Then the member with x on B has a counterpart for
 * every move of this one except a few, which this one must search itself: the pile of y (the other card
 * that fits on A and B) onto B, B up, and piles from B's column onto the top of x's pile. */
typedef struct {
    int b, y, cb, ca; /* B, y, B's column, A's column (x's) */
    int b2, x2;       /* with two undone swaps or more: the second one's B and x */
} undone_t;

/* The key the table stores for this position: with swap classes, that of its class's normal form. */
int table_key(const rules_t *r, state_t *st, const uint8_t *origin, part_t *parts, uint8_t *out, int forced);
int forced_move(const rules_t *r, const state_t *s, move_t *out);

/* (is_forced, is_swap: asked at every child, here to be inlined there) */
/* Rule 1 forces a move here: a free card (or the waste's top) is a safe card that can go up. */
static inline int is_forced(const rules_t *r, const state_t *s) {
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
static inline int is_swap(const rules_t *r, const state_t *s, move_t m) {
    if (m.src >= FOUNDATION || m.dst >= FOUNDATION || !s->len[m.dst]) return 0;
    int j = s->len[m.src] - m.count;
    return j - 1 >= s->down[m.src] && r->fits[s->cols[m.src][j - 1] * NCARDS + m.card];
}

int normalize(const rules_t *r, state_t *s, const uint8_t *origin, part_t *parts, move_t *log, part_t *saved,
              uint32_t *kept, int forced);
void denormalize(state_t *s, part_t *parts, const move_t *log, int n, const part_t *saved, uint32_t kept);
int scan_swaps(const rules_t *r, const state_t *s, undone_t *u, move_t *swaps, int *nswaps);
int member_swaps(const rules_t *r, const state_t *s, move_t m, undone_t *u, move_t *swaps, int *nswaps);
int pair_swaps(const state_t *s, move_t first, move_t g, undone_t *u);
int same_member_swaps(const rules_t *r, const state_t *s, const undone_t *u, const move_t *swaps, int n);
int undone_children(const rules_t *r, const state_t *s, const undone_t *u, int undone, move_t *out, int n);
int independent_swaps(const rules_t *r, const state_t *s, const move_t *swaps, int n);

/* The members of the classes being searched, one level per class on the search path (a class entered
 * deeper is searched, and its level dropped, before the search goes on in the one above). Within a
 * class a member is named exactly by which cards have been swapped an odd number of times since the
 * class was entered: a swap changes only its card's parent, between the card's two parents, so the
 * bit mask of cards on their other parent fixes every card's place. Chained by hash; a level's entries
 * are the newest, so dropping a level unlinks them in turn. */
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

int local_init(localset_t *L);
void local_free(localset_t *L);
int local_push_level(localset_t *L);
void local_pop_level(localset_t *L);

#define LOCAL_BITS 16

static inline uint32_t local_slot(uint64_t mask) {
    mask *= 0x9E3779B97F4A7C15ULL;
    return (uint32_t)(mask >> (64 - LOCAL_BITS));
}

/* In the current level: 1 added, 0 already there, -1 out of memory. */
static inline int local_insert(localset_t *L, uint64_t mask) {
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

/* ------------------------------------------------------------------ the children's keys (children.c) */

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
    CHILD_RETURN, /* a return from a foundation inside a return block: entered without a table entry */
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

/* Return blocks (docs/solver-design.md, "Return blocks"): ``pending`` is the set of cards returned in
 * the block so far that no later move of it has used yet (one bit per card). */
uint64_t block_pending(const state_t *s, move_t m, uint64_t pending);
int block_moves(const rules_t *r, const state_t *s, uint64_t pending, move_t last, move_t *moves, int n);

void prepare_children(state_t *st, const uint8_t *origin, part_t *parts, uint32_t *dirty, const rules_t *r,
                      const move_t *moves, int start, int n, pending_t *pk, const table_t *table, int nswaps,
                      int canonical, const move_t *sleep, int nsleep);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
