/* The keys of a position's children, computed before any is tried (pending_t). */
#include "core.h"

static inline uint64_t key_hash(const rules_t *r, const uint8_t *k, int n) {
    if (!r->linked) return hash_bytes(k, n);
    uint64_t lo, hi;
    get_link_key(k, &lo, &hi);
    return link_hash(lo, hi);
}

static void refresh_parts(const state_t *st, const uint8_t *origin, part_t *parts, uint32_t *dirty) {
    for (uint32_t d = *dirty; d; d &= d - 1) build_part(st, origin, __builtin_ctz(d), &parts[__builtin_ctz(d)]);
    *dirty = 0;
}

/* The cards of each suit, one bit per card (card numbers are rank * 4 + suit). */
#define SUIT_CARDS 0x1111111111111ULL

/* Return blocks (docs/solver-design.md, "Return blocks"). After the return ``m`` (just played), the cards
 * of the block not used yet: a return uses the card it lands on and the card it uncovers on its
 * foundation (the one returned from there before it), and is itself not used yet. */
uint64_t block_pending(const state_t *s, move_t m, uint64_t pending) {
    int k = m.dst, len = s->len[k];
    if (len >= 2) pending &= ~(1ULL << s->cols[k][len - 2]);
    pending &= ~(SUIT_CARDS << SUIT(m.card));
    return pending | 1ULL << m.card;
}

/* Can a block with the cards ``pending`` not used yet still end, the foundations at ``height``? Where cards
 * build down by one rank (alternating colours, or in suit), a return of rank q uses cards of rank q + 1
 * only (the card it lands on, the card returned from its foundation before it), at most two of them, and
 * the move that ends the block uses one card: the unused cards of rank q + 1 and the returns still to come
 * there need returns of rank q, at least half as many, each a card of its suit still up; nothing uses an
 * Ace. (docs/solver-design.md, "Return blocks": what a block can still end with.) */
static int block_closable(const rules_t *r, const uint8_t *height, uint64_t pending) {
    if (r->build == 2 || !pending) return 1;
    int count[14] = {0}, low = 14;
    for (uint64_t p = pending; p; p &= p - 1) {
        int rank = RANK(__builtin_ctzll(p));
        count[rank]++;
        if (rank < low) low = rank;
    }
    if (count[1]) return 0;
    int strands = count[13]; /* at rank q: the unused cards of rank q, and the returns of rank q to come */
    for (int q = 13; q >= 2; q--) {
        if (!strands) {
            strands = count[q - 1];
            continue;
        }
        if (strands == 1 && q <= low) return 1; /* the move that ends the block lands on it */
        if (q == 2) return 0;                     /* Aces would have to join them */
        int need = (strands + 1) / 2, up = 0;
        for (int u = 0; u < 4; u++) up += height[u] >= q - 1;
        if (need > up) return 0;
        strands = need + count[q - 1];
    }
    return 1;
}

/* The moves of a position with foundation returns that may follow (docs/solver-design.md, "Return
 * blocks"), in their order; returns how many are left. Outside a block (``pending`` empty): every move,
 * but a return only if a block could end after it. Inside one (``last`` the return just played): a
 * return that uses ``last``'s card, or another return of a higher-numbered card (two returns in a row that
 * do not use each other's cards are tried in one order only), again only if the block could still end;
 * and a move from the tableau or the waste onto the one card still pending. */
int block_moves(const rules_t *r, const state_t *s, uint64_t pending, move_t last, move_t *moves, int n) {
    int k = 0;
    for (int i = 0; i < n; i++) {
        move_t m = moves[i];
        int onto = m.dst < FOUNDATION && s->len[m.dst] ? s->cols[m.dst][s->len[m.dst] - 1] : -1;
        int keep;
        if (m.src == FOUNDATION) {
            keep = !pending || m.card > last.card || SUIT(m.card) == SUIT(last.card) || onto == last.card;
            if (keep) {
                uint64_t after = pending;
                if (onto >= 0) after &= ~(1ULL << onto);
                after = (after & ~(SUIT_CARDS << SUIT(m.card))) | 1ULL << m.card;
                uint8_t height[4];
                memcpy(height, s->height, 4);
                height[SUIT(m.card)]--;
                keep = block_closable(r, height, after);
            }
        } else {
            keep = !pending || (onto >= 0 && !(pending & ~(1ULL << onto)));
        }
        if (keep) moves[k++] = m;
    }
    return k;
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

void prepare_children(state_t *st, const uint8_t *origin, part_t *parts, uint32_t *dirty, const rules_t *r,
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
        if (r->blocks && m.src == FOUNDATION) {
            pk->local[i] = CHILD_RETURN;
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
