/* Positions: the key parts of the columns (with a stock) and the link key, moves played and undone, the
 * legal moves in yukon.game's order and the search's order of them. */
#include "core.h"

void build_part(const state_t *s, const uint8_t *origin, int i, part_t *p) {
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
int make_key(const part_t *parts, int n, const state_t *st, int stock_part, uint8_t *out) {
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

void update_parts(const state_t *s, const uint8_t *origin, move_t m, part_t *parts) {
    if (m.src < FOUNDATION) build_part(s, origin, m.src, &parts[m.src]);
    if (m.src == STOCK) return;
    if (m.dst < FOUNDATION) build_part(s, origin, m.dst, &parts[m.dst]);
}

/* The link key of ``s`` from scratch (kept up to date by apply and undo; the tests compare the two). */
u128 link_key_of(const state_t *s) {
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
void masks_of(const state_t *s, uint64_t *tops, uint64_t *natural) {
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
links_t *build_links(const rules_t *r, const state_t *s) {
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
int apply(state_t *s, move_t m) {
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

void undo(state_t *s, move_t m, int turned) {
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
int children(const rules_t *r, const state_t *s, move_t *out) {
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

/* Rule 4 (docs/solver-design.md; yukon.solver.relaxation.never_up, the same closure): does the relaxation
 * that never forgets an event prove that some card never goes up? The events, each "at some time": a card
 * is free, a card leaves what it lies on now (as a lead or up), a card is up, a column is empty; each needs
 * the events the design names before it, and the least set closed under those needs holds every event of
 * every line. One deck, no stock. With foundation return a card on a foundation may come down (its ``free``
 * needs the card above it in its suit, if that is up now, come down first, and a free card it fits on or an
 * empty column it may go into) and is then one more target, in no column now. */
int relaxed_lost(const rules_t *r, const state_t *s) {
    uint64_t in = 0, down = 0, free_ = 0, up = 0, leaves = 0;
    uint8_t support[NCARDS], on[NCARDS]; /* what each card lies on now, and what lies on it (NO_CARD: none) */
    int empty = 0;
    for (int c = 0; c < NCARDS; c++)
        if (RANK(c) <= s->height[SUIT(c)]) up |= 1ULL << c;
    for (int i = 0; i < s->ncols; i++) {
        if (!s->len[i]) empty = 1;
        for (int j = 0; j < s->len[i]; j++) {
            int c = s->cols[i][j];
            in |= 1ULL << c;
            if (j < s->down[i]) down |= 1ULL << c;
            support[c] = j ? s->cols[i][j - 1] : NO_CARD;
            on[c] = j + 1 < s->len[i] ? s->cols[i][j + 1] : NO_CARD;
            if (j + 1 == s->len[i]) free_ |= 1ULL << c;
        }
    }
    const uint64_t all = (1ULL << NCARDS) - 1;
    const uint64_t returnable = r->foundation_return ? up : 0; /* (foundation return: may come down) */
    /* (each column from its free card down: what a pass frees flows down the column in the same pass) */
    for (int changed = 1; changed && (up & all) != all;) {
        changed = 0;
        for (uint64_t rest = returnable & ~free_; rest; rest &= rest - 1) {
            int c = __builtin_ctzll(rest);
            if (!IS_KING(c) && (returnable >> (c + 4) & 1) && !(free_ >> (c + 4) & 1)) continue;
            int go = empty && (!r->kings_only || IS_KING(c));
            for (int k = 0; !go && k < r->ntgt[c]; k++) go = free_ >> r->tgt[c][k] & 1;
            if (go) {
                free_ |= 1ULL << c;
                changed = 1;
            }
        }
        for (int i = 0; i < s->ncols; i++)
            for (int j = s->len[i] - 1; j >= 0; j--) {
                int c = s->cols[i][j];
                uint64_t bit = 1ULL << c;
                if (!(free_ & bit) && on[c] != NO_CARD && (leaves >> on[c] & 1)) {
                    free_ |= bit;
                    changed = 1;
                }
                if (!(up & bit) && (free_ & bit) && (RANK(c) == 1 || (up >> (c - 4) & 1))) {
                    up |= bit;
                    changed = 1;
                }
                if ((leaves & bit) || ((down & bit) && !(free_ & bit))) continue;
                int go = (up & bit) || (empty && (!r->kings_only || IS_KING(c)));
                for (int k = 0; !go && k < r->ntgt[c]; k++) {
                    int t = r->tgt[c][k];
                    if (!(free_ >> t & 1) || t == support[c]) continue; /* (t not in: it came down) */
                    if ((in >> t & 1) && s->loc[t] == i && s->idx[t] > j) { /* t in c's pile now: a card between must leave */
                        for (int z = j + 1; !go && z <= s->idx[t]; z++) go = leaves >> s->cols[i][z] & 1;
                    } else {
                        go = 1;
                    }
                }
                if (go) {
                    leaves |= bit;
                    changed = 1;
                }
            }
        if (!empty)
            for (int i = 0; i < s->ncols; i++)
                if (s->len[i] && (leaves >> s->cols[i][0] & 1)) {
                    empty = 1;
                    changed = 1;
                    break;
                }
    }
    return (up & all) != all;
}
