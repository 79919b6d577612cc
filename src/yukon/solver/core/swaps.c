/* Swap classes
 *
 * A "swap" moves a card x, with everything on it, from the card A it fits on to the other card B it
 * fits on (its twin parent: 6S and 6C for a red 5), B being free. The swap back is legal at once (A is
 * then free), so a swap never changes whether the deal can be won. Positions joined by swaps through
 * positions where rule 1 does not force a move (there all moves are searched, swaps included) form a
 * class; the table keeps one entry per class (the key of a member reached by swapping every card onto
 * its lower-numbered parent where it can), and the search visits every member of a class it enters
 * (docs/solver-design.md, "Swap classes"). */
#include "core.h"

/* The move rule 1 forces here, the one children() tries alone (the first safe card that can go up,
 * from the columns in order, then the waste); 0 when there is none. */
int forced_move(const rules_t *r, const state_t *s, move_t *out) {
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
int normalize(const rules_t *r, state_t *s, const uint8_t *origin, part_t *parts, move_t *log,
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

/* The key the table stores for this position: with swap classes, that of its class's normal form. */
int table_key(const rules_t *r, state_t *st, const uint8_t *origin, part_t *parts, uint8_t *out, int forced) {
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

/* ---- undone swaps (see undone_t) */

/* The swaps here, into ``swaps`` by the free card's column (alternating colours), and how many of them
 * stand undone (the free card b lower than its twin, x's parent); ``u``, the first two of those. */
int scan_swaps(const rules_t *r, const state_t *s, undone_t *u, move_t *swaps, int *nswaps) {
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
int member_swaps(const rules_t *r, const state_t *s, move_t m, undone_t *u, move_t *swaps, int *nswaps) {
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
int pair_swaps(const state_t *s, move_t first, move_t g, undone_t *u) {
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
int same_member_swaps(const rules_t *r, const state_t *s, const undone_t *u, const move_t *swaps, int n) {
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
int undone_children(const rules_t *r, const state_t *s, const undone_t *u, int undone, move_t *out, int n) {
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
int independent_swaps(const rules_t *r, const state_t *s, const move_t *swaps, int n) {
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

void denormalize(state_t *s, part_t *parts, const move_t *log, int n, const part_t *saved, uint32_t kept) {
    if (!n) return;
    for (int i = n - 1; i >= 0; i--) undo(s, log[i], 0);
    for (; kept; kept &= kept - 1) parts[__builtin_ctz(kept)] = saved[__builtin_ctz(kept)];
}

/* ---- the members of the classes being searched (localset_t) */


int local_init(localset_t *L) {
    memset(L, 0, sizeof *L);
    L->ecap = 1 << 12;
    L->lcap = 1024;
    L->e = malloc(L->ecap * sizeof(lentry_t));
    L->bucket = calloc(1u << LOCAL_BITS, sizeof(uint32_t));
    L->levels = malloc(L->lcap * sizeof(uint32_t));
    return L->e && L->bucket && L->levels;
}

void local_free(localset_t *L) {
    free(L->e);
    free(L->bucket);
    free(L->levels);
}

int local_push_level(localset_t *L) {
    if (L->nlev == L->lcap) {
        uint32_t *nl = realloc(L->levels, L->lcap * 2 * sizeof(uint32_t));
        if (!nl) return 0;
        L->levels = nl;
        L->lcap *= 2;
    }
    L->levels[L->nlev++] = L->n;
    return 1;
}

void local_pop_level(localset_t *L) {
    uint32_t start = L->levels[--L->nlev];
    for (uint32_t i = L->n; i-- > start;) L->bucket[local_slot(L->e[i].mask)] = L->e[i].prev;
    L->n = start;
}

