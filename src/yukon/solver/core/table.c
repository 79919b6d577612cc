/* The transposition table and its memory: one table for both threads, its slots and key chunks mapped
 * in big pages, and the link table's mapping kept from one search for the next. */
#include "core.h"

#ifdef __linux__
#include <sys/mman.h>
#endif

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

void spare_release(void) { spare_put(NULL, 0, 0); }

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

int table_init(table_t *t, uint64_t budget, int linked) {
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

void table_free(table_t *t) {
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


/* ---- the link table */

uint8_t *ltable_find(table_t *t, uint64_t lo, uint64_t hi) {
    for (uint64_t j = slot_of(link_hash(lo, hi), t->cap);; j = next_slot(j, t->cap)) {
        lslot_t *e = &t->lslots[j];
        uint64_t v = relaxed_load(&e->hi);
        if (!v) return NULL;
        if ((v & LK_HI_MASK) == hi && relaxed_load(&e->lo) == lo) return lslot_ref(e);
    }
}

/* The slot count to grow to now (0: stay): twice as many past 70% full, or once as many as the room
 * (the budget) allows. */
uint64_t ltable_grow_target(const table_t *t) {
    uint64_t count = table_count(t);
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

/* A key as it lies in a slot (its flags with it), while the table is rebuilt */
typedef struct {
    uint64_t lo, hi;
} lkey_t;

static void ltable_place(lslot_t *slots, uint64_t cap, lkey_t e) {
    uint64_t j = slot_of(link_hash(e.lo, e.hi & LK_HI_MASK), cap);
    while (relaxed_load(&slots[j].hi)) j = next_slot(j, cap);
    relaxed_store(&slots[j].lo, e.lo);
    relaxed_store(&slots[j].hi, e.hi);
}

/* Grows the table to ``ncap`` slots. In place where the room allows: a key's home slot only moves up
 * as the table grows (slot_of scales the hash), so going down from the last slot, each key is taken out
 * and put back at or above its new home, which lies at or above where it was, above every slot not yet
 * gone through (linear probing needs no more: the slots between a key's home and its place stay full).
 * The few keys that would land lower, or wrap round past the end, wait aside and go in last. */
int ltable_resize(table_t *t, uint64_t ncap) {
    if (ncap <= t->lslots_room) {
        lslot_t *s = t->lslots;
        uint64_t from = t->cap * sizeof(lslot_t), to = ncap * sizeof(lslot_t);
        if (t->zeroed_to > from) from = t->zeroed_to;
        if (t->stale_to < to) to = t->stale_to;
        if (to > from) memset((uint8_t *)s + from, 0, to - from); /* (what an earlier search left there) */
        lkey_t *aside = NULL;
        size_t naside = 0, aside_cap = 0;
        for (uint64_t i = t->cap; i-- > 0;) {
            lkey_t e = {relaxed_load(&s[i].lo), relaxed_load(&s[i].hi)};
            if (!e.hi) continue;
            relaxed_store(&s[i].lo, 0);
            relaxed_store(&s[i].hi, 0);
            uint64_t j = slot_of(link_hash(e.lo, e.hi & LK_HI_MASK), ncap);
            if (j >= i) {
                while (j < ncap && relaxed_load(&s[j].hi)) j++;
                if (j < ncap) {
                    relaxed_store(&s[j].lo, e.lo);
                    relaxed_store(&s[j].hi, e.hi);
                    continue;
                }
            }
            if (naside == aside_cap) {
                aside_cap = aside_cap ? aside_cap * 2 : 256;
                lkey_t *na = realloc(aside, aside_cap * sizeof(lkey_t));
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
    for (uint64_t i = 0; i < t->cap; i++) {
        lkey_t e = {relaxed_load(&t->lslots[i].lo), relaxed_load(&t->lslots[i].hi)};
        if (e.hi) ltable_place(ns, ncap, e);
    }
    big_free(t->lslots, t->lslots_room * sizeof(lslot_t));
    t->lslots = ns;
    t->lslots_room = room;
    t->stale_to = t->zeroed_to = 0;
    t->cap = ncap;
    return 1;
}

/* ---- the table of packed keys (with a stock) */

static int table_resize(table_t *t, uint64_t ncap) {
    _Atomic uint64_t *ns = big_alloc(ncap * sizeof(uint64_t));
    if (!ns) return 0;
    for (uint64_t i = 0; i < t->cap; i++) {
        uint64_t v = relaxed_load(&t->slots[i]);
        if (!v) continue;
        const uint8_t *k = key_at(t, v);
        uint64_t j = slot_of(hash_bytes(k + 1, KEY_LEN(k)), ncap);
        while (relaxed_load(&ns[j])) j = next_slot(j, ncap);
        relaxed_store(&ns[j], v);
    }
    big_free(t->slots, t->cap * sizeof(uint64_t));
    t->slots = ns;
    t->cap = ncap;
    return 1;
}

/* The slot count that uses the whole budget when 90% full, at the keys' mean length so far. */
static uint64_t slots_share(const table_t *t) {
    uint64_t count = table_count(t);
    double mean = count ? (double)(t->chunk_bytes - (t->nchunks ? t->chunk_size[t->nchunks - 1] - t->used : 0)) /
                              (double)count
                        : 48.0;
    return (uint64_t)((double)t->budget / (8.0 + 0.9 * mean));
}

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

/* 1 inserted, 0 already there, -1 out of memory, -2 over budget (nothing changed; ``force`` ignores it).
 * ``h`` is hash_bytes(key, n). On 1 or 0, ``*at`` is the stored key (its length byte). */
int table_insert_hashed(table_t *t, const uint8_t *key, int n, uint64_t h, int force, uint8_t **at) {
    uint64_t tag = SLOT_TAG(h);
    uint64_t j = slot_of(h, t->cap);
    for (;;) {
        uint64_t v = relaxed_load(&t->slots[j]);
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
    uint64_t count = relaxed_load(&t->count);
    int need_grow = (count + 1) * 10 > t->cap * 7;
    uint64_t ncap = t->cap * 2;
    if (t->budget && !force) {
        if (need_grow && table_bytes(t) + next_size + t->cap * 16 > t->budget) {
            /* no room to double the slots: take the slots' share of the budget once, then fill them up
             * to 90% (slower probes, more keys) */
            uint64_t share = slots_share(t);
            if (share > t->cap + t->cap / 8 && table_bytes(t) + next_size + share * 8 <= t->budget) {
                ncap = share;
            } else {
                if ((count + 1) * 10 > t->cap * 9) return -2;
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
    relaxed_store(&t->slots[j], v);
    relaxed_store(&t->count, count + 1);
    *at = dst;
    if (need_grow && !table_resize(t, ncap)) return -1;
    return 1;
}

int table_insert(table_t *t, const uint8_t *key, int n, int force, uint8_t **at) {
    return table_insert_hashed(t, key, n, hash_bytes(key, n), force, at);
}

/* Adds the arena's keys to the table's count (in batches: the count is read by both threads). */
void arena_count(table_t *t, arena_t *a) {
    atomic_fetch_add_explicit(&t->count, a->uncounted, memory_order_relaxed);
    a->uncounted = 0;
}

/* The insert for two threads: the slots are sized once before the second thread starts (no growth);
 * a key is written into the thread's own chunk, then published by setting its slot with a
 * compare-and-swap, so a slot seen set always points at a whole key. Chunks are added under ``lock``.
 * Same results as table_insert_hashed. */
int table_insert_shared(table_t *t, arena_t *a, pthread_mutex_t *lock, const uint8_t *key, int n, uint64_t h,
                        uint8_t **at) {
    uint64_t tag = SLOT_TAG(h);
    uint64_t j = slot_of(h, t->cap);
    uint64_t mine = 0;
    for (;;) {
        uint64_t v = atomic_load_explicit(&t->slots[j], memory_order_acquire);
        if (!v) {
            if (!mine) {
                /* (the count lags by less than COUNT_BATCH keys per thread: the slots are millions) */
                if (table_count(t) * 10 >= t->cap * 9) return -2;
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
                    t->nchunks = idx + 1; /* (a key in it is reached through its slot, published below) */
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
            if (atomic_compare_exchange_strong_explicit(&t->slots[j], &v, mine, memory_order_release,
                                                        memory_order_acquire)) {
                *at = t->chunks[a->chunk] + a->used;
                a->used += n + 1;
                if (++a->uncounted == COUNT_BATCH) arena_count(t, a);
                return 1;
            }
            /* another thread set this slot first: v is now its value, compare as usual */
        }
        if ((v & SLOT_TAG_MASK) == tag) {
            const uint8_t *k = key_at(t, v);
            /* (the other thread may be marking this length byte KEY_DONE) */
            int len = atomic_load_explicit((_Atomic uint8_t *)k, memory_order_relaxed) & 0x7F;
            if (len == n && same_bytes(k + 1, key, n)) {
                *at = (uint8_t *)k;
                return 0;
            }
        }
        j = next_slot(j, t->cap);
    }
}

/* Before the second thread starts: the slots at their final size (they cannot grow while shared). */
int table_presize(table_t *t) {
    uint64_t want = 1ULL << 20;
    if (t->budget) {
        uint64_t share = slots_share(t);
        if (share > want) want = share;
    } else {
        want = 1ULL << 26;
    }
    return want <= t->cap || table_resize(t, want);
}
