/* The census of a search (docs/solver-design.md, "Where lost proofs spend their nodes"): built only with
 * -DYUKON_CENSUS (bench/census.py), written to the file named by the YUKON_CENSUS environment variable when
 * the search ends. Not thread-safe: run it on one thread (a node limit), where the two searches that take
 * turns never run at once.
 *
 * What it counts, for the classes the search finished: which of them a perfect test would have proved lost
 * at entry, for four kinds of dead end, and the nodes that test would have saved (the nodes of the subtrees
 * of the dead classes met first, each entered from a class that is not dead):
 *   - stalled: no move in the class's subtree turns a card or plays one up (the "no progress possible" cut);
 *   - column: some column with face-down cards is never turned in the subtree (a loss: every card must be
 *     turned);
 *   - suit: some suit's foundation never rises in the subtree (a loss: every card must go up);
 *   - locked: either of the last two.
 * A subtree's moves are those searched below the class and, for the classes met there that were already
 * known, what their own subtrees could do (kept in a map by key). A move the sleep set skips leads where
 * a finished class leads, whose subtree is not known here: it counts as able to do everything (the
 * savings are then a lower bound). Also: the new classes by face-down cards and by cards up, the distinct
 * "signatures" (which face-up cards still lie where they were dealt, the foundation heights, the face-down
 * counts: the classes differ only in where the moved cards lie), and the nodes by kind of child. */
#ifdef YUKON_CENSUS
#include "census.h"

#include <stdio.h>

#define MAP_BITS 26

typedef struct {
    uint64_t lo, hi; /* hi's top bit: used */
    uint32_t value;
} mentry_t;

static mentry_t *map;
static uint64_t map_used;
static long long new_by_down[NCARDS + 1], new_by_found[NCARDS + 1];
#define DEAD_KINDS 4
static const char *dead_names[DEAD_KINDS] = {"stalled", "column", "suit", "locked"};
static long long finished, dead[DEAD_KINDS], saved[DEAD_KINDS], signatures, signatures_tops;
static long long kinds[8][3]; /* [kind][0 new, 1 known and skipped, 2 known and entered] */
static long long ahead[NCARDS + 1];
static long long root_turns = -1, root_ups = -1; /* what the first search's root's subtree did, when it ended */ /* finished classes by the face-down cards their subtree can turn at most */

/* The entry for (lo, hi, tag), made if ``make``; NULL when absent or when the map is full. */
static mentry_t *map_at(uint64_t lo, uint64_t hi, int tag, int make) {
    if (!map) map = calloc(1ULL << MAP_BITS, sizeof(mentry_t));
    if (!map) return NULL;
    hi = (hi & ((1ULL << 60) - 1)) | (uint64_t)tag << 60 | 1ULL << 63;
    uint64_t mask = (1ULL << MAP_BITS) - 1;
    for (uint64_t j = link_hash(lo, hi) & mask;; j = (j + 1) & mask) {
        mentry_t *e = &map[j];
        if (!e->hi) {
            if (!make || map_used * 10 > mask * 9) return NULL;
            map_used++;
            e->lo = lo;
            e->hi = hi;
            return e;
        }
        if (e->lo == lo && e->hi == hi) return e;
    }
}

#define ALL_TURNS 0xFFFFu
#define ALL_UPS 0xFu

static int face_down(const state_t *st) {
    int down = 0;
    for (int q = 0; q < st->ncols; q++) down += st->down[q];
    return down;
}

void census_enter(census_frame_t *f, const state_t *st) {
    memset(f, 0, sizeof *f);
    f->min_down = face_down(st);
}

/* ``m``, a child of the position ``st`` searched in ``f`` (``skipped``: by its sleep set) */
void census_child(census_frame_t *f, const state_t *st, move_t m, int skipped) {
    if (skipped) {
        f->turns = ALL_TURNS;
        f->ups = ALL_UPS;
        f->min_down = 0;
        return;
    }
    f->nodes++;
    if (m.src < FOUNDATION && st->down[m.src] && st->len[m.src] - m.count == st->down[m.src]) {
        f->turns |= 1u << m.src;
        int down = face_down(st) - 1;
        if (down < f->min_down) f->min_down = down;
    }
    if (m.dst == FOUNDATION) f->ups |= 1 << SUIT(m.card);
}

/* a child whose class was finished before: its subtree is what the map says (everything if not known) */
void census_known(census_frame_t *f, const uint8_t *stored) {
    const lslot_t *e = (const lslot_t *)(const void *)stored;
    mentry_t *m = map_at(e->lo, e->hi & LK_HI_MASK, 1, 0);
    f->turns |= m ? (m->value & ALL_TURNS) : ALL_TURNS;
    f->ups |= m ? (int)(m->value >> 16 & ALL_UPS) : (int)ALL_UPS;
    int down = m ? (int)(m->value >> 20 & 63) : 0;
    if (down < f->min_down) f->min_down = down;
}

void census_new_class(const state_t *st, const state_t *root) {
    new_by_down[face_down(st)]++;
    new_by_found[st->on_found]++;
    uint64_t lo = 0, hi = 0;
    for (int q = 0; q < st->ncols; q++)
        for (int j = st->down[q]; j < st->len[q]; j++) {
            int c = st->cols[q][j];
            int base = j ? st->cols[q][j - 1] : -1;
            int dealt = root->idx[c] ? root->cols[root->loc[c]][root->idx[c] - 1] : -1;
            if (root->loc[c] >= 0 && base == dealt) lo |= 1ULL << c;
        }
    for (int u = 0; u < 4; u++) hi = hi << 4 | st->height[u];
    for (int q = 0; q < st->ncols && q < 8; q++) hi = hi << 5 | st->down[q];
    mentry_t *e = map_at(lo, hi, 2, 1);
    if (e && !e->value) {
        e->value = 1;
        signatures++;
    }
    e = map_at(lo ^ st->tops * 0x9E3779B97F4A7C15ULL, hi, 3, 1);
    if (e && !e->value) {
        e->value = 1;
        signatures_tops++;
    }
}

/* ``f`` searched to the end (``st`` its position, ``key`` its class's stored key when it entered one);
 * what it found goes to ``parent`` (NULL at the root) */
void census_finish(census_frame_t *f, census_frame_t *parent, const state_t *st, const uint8_t *key, int is_class) {
    long long up_dead[DEAD_KINDS];
    memcpy(up_dead, f->dead, sizeof up_dead);
    if (is_class) {
        finished++;
        ahead[face_down(st) - f->min_down]++;
        int kinds_dead[DEAD_KINDS] = {!f->turns && !f->ups, 0, 0, 0};
        for (int q = 0; q < st->ncols; q++)
            if (st->down[q] && !(f->turns >> q & 1)) kinds_dead[1] = 1;
        for (int u = 0; u < 4; u++)
            if (st->height[u] < 13 && !(f->ups >> u & 1)) kinds_dead[2] = 1;
        kinds_dead[3] = kinds_dead[1] || kinds_dead[2];
        for (int k = 0; k < DEAD_KINDS; k++) {
            dead[k] += kinds_dead[k];
            if (kinds_dead[k]) {
                up_dead[k] = f->nodes; /* dead: its whole subtree, unless a dead class above takes it */
            } else {
                saved[k] += f->dead[k]; /* live: the dead classes met first below it are cut there */
                up_dead[k] = 0;
            }
        }
        if (key) {
            const lslot_t *e = (const lslot_t *)(const void *)key;
            mentry_t *m = map_at(e->lo, e->hi & LK_HI_MASK, 1, 1);
            if (m) m->value = (f->turns & ALL_TURNS) | (uint32_t)(f->ups & ALL_UPS) << 16 | (uint32_t)f->min_down << 20;
        }
    }
    if (!parent) { /* (the root: dead, a test there would have saved everything) */
        if (root_turns < 0) {
            root_turns = f->turns;
            root_ups = f->ups;
        }
        for (int k = 0; k < DEAD_KINDS; k++) saved[k] += up_dead[k];
        return;
    }
    parent->turns |= f->turns;
    parent->ups |= f->ups;
    if (f->min_down < parent->min_down) parent->min_down = f->min_down;
    parent->nodes += f->nodes;
    for (int k = 0; k < DEAD_KINDS; k++) parent->dead[k] += up_dead[k];
}

void census_kind(int kind, int inserted, int entered) { kinds[kind & 7][inserted ? 0 : entered ? 2 : 1]++; }

void census_report(long long nodes) {
    const char *path = getenv("YUKON_CENSUS");
    FILE *out = path ? fopen(path, "w") : NULL;
    if (out) {
        fprintf(out, "nodes %lld\nfinished %lld\nroot_turns %lld\nroot_ups %lld\n", nodes, finished, root_turns,
                root_ups);
        for (int k = 0; k < DEAD_KINDS; k++)
            fprintf(out, "%s %lld\nsaved_%s %lld\n", dead_names[k], dead[k], dead_names[k], saved[k]);
        fprintf(out, "signatures %lld\nsignatures_tops %lld\nmap_full %d\n", signatures, signatures_tops,
                map_used * 10 > ((1ULL << MAP_BITS) - 1) * 9);
        static const char *names[] = {"table", "swap", "forced", "pass", "sleep", "twin", "?", "?"};
        for (int k = 0; k < 6; k++)
            fprintf(out, "kind %s %lld %lld %lld\n", names[k], kinds[k][0], kinds[k][1], kinds[k][2]);
        for (int d = 0; d <= NCARDS; d++)
            if (new_by_down[d]) fprintf(out, "down %d %lld\n", d, new_by_down[d]);
        for (int d = 0; d <= NCARDS; d++)
            if (new_by_found[d]) fprintf(out, "found %d %lld\n", d, new_by_found[d]);
        for (int d = 0; d <= NCARDS; d++)
            if (ahead[d]) fprintf(out, "ahead %d %lld\n", d, ahead[d]);
        fclose(out);
    }
    free(map);
    map = NULL;
    map_used = 0;
    memset(new_by_down, 0, sizeof new_by_down);
    memset(new_by_found, 0, sizeof new_by_found);
    finished = signatures = signatures_tops = 0;
    root_turns = root_ups = -1;
    memset(dead, 0, sizeof dead);
    memset(saved, 0, sizeof saved);
    memset(kinds, 0, sizeof kinds);
    memset(ahead, 0, sizeof ahead);
}
#else
typedef int census_unused; /* (an empty translation unit is not ISO C) */
#endif
