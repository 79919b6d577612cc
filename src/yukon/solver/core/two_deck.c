/* The two-deck search (two_deck.h): positions, moves and keys of a two-deck game with a stock dealt in rows,
 * and on them the depth-first search of Searcher.run_python and the best-first search of best_first
 * (solver/search.py), move for move. */
#include "two_deck.h"

#include <limits.h>
#include <time.h>

static double td_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* how often the stop event is polled (seconds; the poll takes the GIL) and the clock read (nodes) */
#define TD_POLL_SECONDS 0.002
#define TD_CLOCK_EVERY 256
/* the moves of one position: at most every face-up card onto every column or up, the stock, returns */
#define TD_MAXMOVES (TD_CARDS * TD_MAXCOLS + 2 * TD_MAXPILES * TD_MAXCOLS + 2)

typedef struct {
    int ncols;
    uint8_t cols[TD_MAXCOLS][TD_MAXLEN];
    uint8_t len[TD_MAXCOLS];
    uint8_t down[TD_MAXCOLS];
    int npiles;
    uint8_t psuit[TD_MAXPILES], ph[TD_MAXPILES]; /* a pile's suit (while it is not empty) and height */
    uint8_t accept[NCARDS]; /* how many piles take each card (Game.foundation_accepts) */
    uint8_t stock[TD_CARDS];
    int nstock;
    int on_found;
    /* the face-down cards of column i at count k (never moving) are named by down_id[i][k]: equal ids for
     * equal cards, so that the key is the engine's (solver/key.py), which compares the cards */
    uint8_t down_id[TD_MAXCOLS][TD_MAXLEN];
} tds_t;

typedef struct {
    move_t m;
    uint8_t turned;
    uint8_t pile; /* the foundation pile used; for the stock, how many columns got a card */
} played_t;

typedef struct {
    const uint8_t *fits;
    const uint8_t *safe;
    int kings_only, foundation_return;
    uint8_t acc[NCARDS][4]; /* the cards that may be placed on each card (at most 4 with any build) */
    uint8_t nacc[NCARDS];
} td_rules_t;

static inline int pile_top(const tds_t *s, int i) { return (s->ph[i] - 1) * 4 + s->psuit[i]; }

/* Game._put_on_pile */
static void put_on_pile(tds_t *s, int i, int c) {
    if (s->ph[i])
        s->accept[c]--;
    else
        for (int a = 0; a < 4; a++) s->accept[a]--;
    if (c < 48) s->accept[c + 4]++;
    s->psuit[i] = (uint8_t)SUIT(c);
    s->ph[i]++;
    s->on_found++;
}

/* Game._undo_foundation */
static int undo_foundation(tds_t *s, int i) {
    int c = pile_top(s, i);
    s->ph[i]--;
    if (c < 48) s->accept[c + 4]--;
    if (s->ph[i])
        s->accept[c]++;
    else
        for (int a = 0; a < 4; a++) s->accept[a]++;
    s->on_found--;
    return c;
}

/* Game._to_foundation: the first pile that takes ``c`` */
static int to_foundation(tds_t *s, int c) {
    int i = 0;
    for (; i < s->npiles; i++) {
        if (s->ph[i]) {
            if (pile_top(s, i) + 4 == c) break;
        } else if (c < 4)
            break;
    }
    put_on_pile(s, i, c);
    return i;
}

/* Game._from_foundation: the last pile whose top is ``c`` */
static int from_foundation(tds_t *s, int c) {
    int i = s->npiles - 1;
    while (i > 0 && !(s->ph[i] && pile_top(s, i) == c)) i--;
    undo_foundation(s, i);
    return i;
}

/* Game.push_unchecked */
static void td_apply(tds_t *s, move_t m, played_t *p) {
    p->m = m;
    p->turned = 0;
    p->pile = 0;
    if (m.src < FOUNDATION) {
        int sc = m.src;
        if (m.dst == FOUNDATION) {
            int c = s->cols[sc][--s->len[sc]];
            p->pile = (uint8_t)to_foundation(s, c);
        } else {
            int k = m.count, d = m.dst;
            memcpy(&s->cols[d][s->len[d]], &s->cols[sc][s->len[sc] - k], k);
            s->len[d] += k;
            s->len[sc] -= k;
        }
        if (s->down[sc] && s->len[sc] == s->down[sc]) {
            s->down[sc]--;
            p->turned = 1;
        }
    } else if (m.src == FOUNDATION) {
        p->pile = (uint8_t)from_foundation(s, m.card);
        s->cols[m.dst][s->len[m.dst]++] = m.card;
    } else { /* the stock: one card onto every column, from the first */
        int n = s->nstock < s->ncols ? s->nstock : s->ncols;
        for (int i = 0; i < n; i++) s->cols[i][s->len[i]++] = s->stock[--s->nstock];
        p->pile = (uint8_t)n;
    }
}

/* Game.pop */
static void td_undo(tds_t *s, const played_t *p) {
    move_t m = p->m;
    if (m.src < FOUNDATION) {
        int sc = m.src;
        if (p->turned) s->down[sc]++;
        if (m.dst == FOUNDATION) {
            s->cols[sc][s->len[sc]++] = (uint8_t)undo_foundation(s, p->pile);
        } else {
            int k = m.count, d = m.dst;
            memcpy(&s->cols[sc][s->len[sc]], &s->cols[d][s->len[d] - k], k);
            s->len[sc] += k;
            s->len[d] -= k;
        }
    } else if (m.src == FOUNDATION) {
        s->len[m.dst]--;
        put_on_pile(s, p->pile, m.card);
    } else {
        for (int i = p->pile - 1; i >= 0; i--) s->stock[s->nstock++] = s->cols[i][--s->len[i]];
    }
}

static inline void add_move(move_t *out, int *n, int src, int dst, int card, int count) {
    out[(*n)++] = (move_t){(uint8_t)src, (uint8_t)dst, (uint8_t)card, (uint8_t)count};
}

/* Game.legal_moves for two decks (its generic generator), in its order. */
static int td_legal_moves(const td_rules_t *r, const tds_t *s, move_t *out) {
    int n = 0, ncols = s->ncols;
    int empties[TD_MAXCOLS], nempty = 0;
    /* want[c]: the columns whose free card takes c (the engine's ``want``, as a bit mask) */
    uint16_t want[NCARDS];
    memset(want, 0, sizeof want);
    for (int d = 0; d < ncols; d++) {
        if (!s->len[d]) {
            empties[nempty++] = d;
            continue;
        }
        int t = s->cols[d][s->len[d] - 1];
        for (int j = 0; j < r->nacc[t]; j++) want[r->acc[t][j]] |= (uint16_t)(1u << d);
    }
    for (int sc = 0; sc < ncols; sc++) {
        int len = s->len[sc];
        if (!len) continue;
        uint32_t others = ~(1u << sc);
        for (int i = s->down[sc]; i < len; i++) {
            int c = s->cols[sc][i];
            for (uint32_t w = want[c] & others; w; w &= w - 1) add_move(out, &n, sc, __builtin_ctz(w), c, len - i);
            if (nempty && i && (!r->kings_only || IS_KING(c)))
                for (int e = 0; e < nempty; e++) add_move(out, &n, sc, empties[e], c, len - i);
        }
        int top = s->cols[sc][len - 1];
        if (s->accept[top]) add_move(out, &n, sc, FOUNDATION, top, 1);
    }
    if (s->nstock) add_move(out, &n, STOCK, STOCK, NO_CARD, 0);
    if (r->foundation_return) {
        uint64_t seen = 0;
        for (int p = 0; p < s->npiles; p++) {
            if (!s->ph[p]) continue;
            int f = pile_top(s, p);
            if (seen >> f & 1) continue;
            seen |= 1ULL << f;
            for (uint32_t w = want[f]; w; w &= w - 1) add_move(out, &n, FOUNDATION, __builtin_ctz(w), f, 1);
            if (nempty && (!r->kings_only || IS_KING(f)))
                for (int e = 0; e < nempty; e++) add_move(out, &n, FOUNDATION, empties[e], f, 1);
        }
    }
    return n;
}

/* Rule 1 with two decks (search.py: is_safe_foundation_card on min_heights, and twin_has_a_slot). */
static int td_safe(const td_rules_t *r, const tds_t *s, int c) {
    int lo[4] = {0, 0, 0, 0}, hi[4] = {0, 0, 0, 0}, count[4] = {0, 0, 0, 0};
    for (int i = 0; i < s->npiles; i++)
        if (s->ph[i]) {
            int u = s->psuit[i], h = s->ph[i];
            lo[u] = count[u] ? (h < lo[u] ? h : lo[u]) : h;
            if (h > hi[u]) hi[u] = h;
            count[u]++;
        }
    for (int u = 0; u < 4; u++) {
        int least = count[u] >= 2 ? lo[u] : 0; /* min_heights: a suit with a pile not started is at 0 */
        if (least < r->safe[c * 4 + u]) return 0;
    }
    int u = SUIT(c), rank = RANK(c);
    int least = count[u] >= 2 ? lo[u] : 0;
    return hi[u] >= rank || least >= rank - 1;
}

/* The place of the highest King in column ``i`` (-1: none): a move of the cards from ``j`` up carries a
 * King above its lead when it is above ``j``. */
static inline int last_king(const tds_t *s, int i) {
    for (int j = s->len[i] - 1; j >= 0; j--)
        if (IS_KING(s->cols[i][j])) return j;
    return -1;
}

#define TD_BUCKETS 6 /* of Searcher.children's move order */

/* Searcher.children: the moves to try, best first, after rules 1 and 2. ``tmp`` has TD_MAXMOVES room. */
static int td_children(const td_rules_t *r, const tds_t *s, move_t *out, move_t *tmp) {
    int n = td_legal_moves(r, s, tmp);
    if (!n) return 0;
    if (!r->foundation_return && !s->nstock)
        for (int i = 0; i < n; i++)
            if (tmp[i].dst == FOUNDATION && tmp[i].src != FOUNDATION && td_safe(r, s, tmp[i].card)) {
                out[0] = tmp[i];
                return 1;
            }
    int first_empty = -2; /* while the stock lasts, the order of columns matters: no rule 2 */
    if (!s->nstock) {
        first_empty = -1;
        for (int i = 0; i < s->ncols; i++)
            if (!s->len[i]) {
                first_empty = i;
                break;
            }
    }
    /* buckets (in this order): turning (deepest first), good, up, rest, burying, last */
    uint8_t bucket[TD_MAXMOVES];
    int8_t depth[TD_MAXMOVES];
    int size[TD_BUCKETS] = {0, 0, 0, 0, 0, 0};
    int kept = 0;
    int king[TD_MAXCOLS]; /* last_king of each column, found when first needed */
    for (int i = 0; i < s->ncols; i++) king[i] = -2;
    for (int i = 0; i < n; i++) {
        move_t m = tmp[i];
        int b;
        if (m.src < FOUNDATION) {
            if (m.dst == FOUNDATION) {
                b = 2;
            } else {
                int d = m.dst;
                if (!s->len[d] && d != first_empty && first_empty != -2) continue;
                const uint8_t *col = s->cols[m.src];
                int rest = s->len[m.src] - m.count, nd = s->down[m.src];
                if (rest == nd && nd) {
                    b = 0;
                    depth[kept] = (int8_t)nd;
                } else if (s->len[d] && m.count > 1 &&
                           (king[m.src] == -2 ? (king[m.src] = last_king(s, m.src)) : king[m.src]) > rest)
                    b = 4;
                else if (rest == nd || s->accept[col[rest - 1]])
                    b = 1;
                else
                    b = 3;
            }
        } else if (m.src == FOUNDATION) {
            if (!s->len[m.dst] && m.dst != first_empty && first_empty != -2) continue;
            b = 5;
        } else {
            b = 5; /* the stock goes first of the last (listed before the returns) */
        }
        tmp[kept] = m;
        bucket[kept] = (uint8_t)b;
        size[b]++;
        kept++;
    }
    int start[TD_BUCKETS], at = 0;
    for (int b = 0; b < TD_BUCKETS; b++) {
        start[b] = at;
        at += size[b];
    }
    int pos[TD_BUCKETS];
    memcpy(pos, start, sizeof pos);
    int8_t tdepth[TD_MAXMOVES];
    for (int i = 0; i < kept; i++) {
        int b = bucket[i];
        if (b == 0) tdepth[pos[0]] = depth[i];
        out[pos[b]++] = tmp[i];
    }
    /* turning moves from the deepest column first, ties in the engine's order (a stable sort) */
    for (int i = 1; i < size[0]; i++) {
        move_t m = out[i];
        int8_t dm = tdepth[i];
        int j = i - 1;
        while (j >= 0 && tdepth[j] < dm) {
            out[j + 1] = out[j];
            tdepth[j + 1] = tdepth[j];
            j--;
        }
        out[j + 1] = m;
        tdepth[j + 1] = dm;
    }
    return kept;
}

/* ------------------------------------------------------------------ keys */

#define TD_SEP 63 /* ends a column's part of the key (cards are below 52) */
#define TD_KEYMAX ((TD_CARDS + 2 * TD_MAXCOLS + 2) * 3 / 4 + 4)

/* The key (solver/key.py): each column as its face-down cards' id, its face-up cards and an end mark,
 * the columns sorted once the stock is empty (while it lasts a deal gives its cards to the columns in
 * order), then the stock's length; every value below 64, four packed in three bytes. Equal exactly for
 * the positions whose engine keys are equal. Returns its length. */
static int td_key(const tds_t *s, uint8_t *out) {
    uint8_t raw[TD_CARDS + 2 * TD_MAXCOLS + 6];
    int n = 0;
    int order[TD_MAXCOLS];
    int ncols = s->ncols;
    for (int i = 0; i < ncols; i++) order[i] = i;
    if (!s->nstock) { /* insertion sort by (id, face-up cards) */
        for (int i = 1; i < ncols; i++) {
            int x = order[i];
            int j = i - 1;
            for (; j >= 0; j--) {
                int y = order[j];
                int ix = s->down_id[x][s->down[x]], iy = s->down_id[y][s->down[y]];
                int less;
                if (ix != iy)
                    less = ix < iy;
                else {
                    int nx = s->len[x] - s->down[x], ny = s->len[y] - s->down[y];
                    int k = nx < ny ? nx : ny;
                    int cmp = memcmp(&s->cols[x][s->down[x]], &s->cols[y][s->down[y]], k);
                    less = cmp ? cmp < 0 : nx < ny;
                }
                if (!less) break;
                order[j + 1] = y;
            }
            order[j + 1] = x;
        }
    }
    for (int i = 0; i < ncols; i++) {
        int c = order[i];
        raw[n++] = s->down_id[c][s->down[c]];
        int k = s->len[c] - s->down[c];
        memcpy(raw + n, &s->cols[c][s->down[c]], k);
        n += k;
        raw[n++] = TD_SEP;
    }
    raw[n++] = (uint8_t)(s->nstock >> 3);
    raw[n++] = (uint8_t)(s->nstock & 7);
    while (n & 3) raw[n++] = 0; /* (the parse above knows where the key ends: no ambiguity) */
    int o = 0;
    for (int i = 0; i < n; i += 4) {
        uint32_t w = raw[i] | (uint32_t)raw[i + 1] << 6 | (uint32_t)raw[i + 2] << 12 | (uint32_t)raw[i + 3] << 18;
        out[o++] = (uint8_t)w;
        out[o++] = (uint8_t)(w >> 8);
        out[o++] = (uint8_t)(w >> 16);
    }
    return o;
}

/* Numbers the face-down cards of the root position: equal cards, equal ids (0: none). */
static void number_down(tds_t *s) {
    int next = 1;
    for (int i = 0; i < s->ncols; i++) {
        s->down_id[i][0] = 0;
        for (int k = 1; k <= s->down[i]; k++) {
            int id = 0;
            for (int j = 0; j < i && !id; j++)
                if (s->down[j] >= k && !memcmp(s->cols[j], s->cols[i], k)) id = s->down_id[j][k];
            s->down_id[i][k] = (uint8_t)(id ? id : next++);
        }
    }
}

/* ------------------------------------------------------------------ setting up, limits */

typedef struct {
    double deadline, last_poll;
    long long node_limit;
    int (*stop)(void *);
    void *stop_arg;
} td_limits_t;

/* Why to stop now ("time limit", "stopped"), or NULL. */
static const char *td_expired(td_limits_t *l) {
    double now = td_now();
    if (l->deadline > 0 && now > l->deadline) return "time limit";
    if (l->stop && now - l->last_poll >= TD_POLL_SECONDS) {
        l->last_poll = now;
        if (l->stop(l->stop_arg)) return "stopped";
    }
    return NULL;
}

static void td_state_of(const td_args_t *a, tds_t *s) {
    memset(s, 0, sizeof *s);
    s->ncols = a->ncols;
    memcpy(s->cols, a->cols, sizeof s->cols);
    memcpy(s->len, a->len, sizeof s->len);
    memcpy(s->down, a->down, sizeof s->down);
    s->npiles = a->npiles;
    for (int i = 0; i < s->npiles; i++) {
        if (!a->pile_len[i]) {
            for (int c = 0; c < 4; c++) s->accept[c]++;
            continue;
        }
        s->ph[i] = a->pile_len[i];
        s->psuit[i] = (uint8_t)SUIT(a->pile[i][0]);
        int top = pile_top(s, i);
        if (RANK(top) < 13) s->accept[top + 4]++;
        s->on_found += s->ph[i];
    }
    memcpy(s->stock, a->stock, sizeof s->stock);
    s->nstock = a->nstock;
    number_down(s);
}

static void td_result(search_result_t *res, int status, const char *reason, long long nodes, uint64_t peak,
                      double started) {
    res->status = status;
    res->reason = reason;
    res->nodes = nodes;
    res->peak = peak;
    res->seconds = td_now() - started;
}

/* ------------------------------------------------------------------ the depth-first search */

typedef struct {
    int start, count, next; /* its children in the move stack */
    played_t how;           /* the move that led here */
    const uint8_t *key;     /* its stored key (in the table's chunks, which never move) */
} td_frame_t;

/* Makes room for ``need`` items; 0 when they cannot be had: out of memory, or more than an int counts (a
 * depth-first path of tens of millions of positions: doubling an int capacity past INT_MAX had wrapped and
 * spun here for ever, past every limit). */
static int grow(void **p, int *cap, int need, size_t size) {
    if (need <= *cap) return 1;
    if (need < 0) return 0; /* (an index that wrapped past INT_MAX) */
    long long ncap = *cap > 0 ? *cap : 1;
    while (ncap < need) ncap *= 2;
    if (ncap > INT_MAX) ncap = INT_MAX;
    void *q = realloc(*p, (size_t)ncap * size);
    if (!q) return 0;
    *p = q;
    *cap = (int)ncap;
    return 1;
}

static inline uint64_t ptr_hash(const uint8_t *p) {
    uint64_t h = (uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15ULL;
    return h ^ (h >> 29);
}

/* A depth-first line wanders: it holds every position of the search path, each one move from the next, and
 * on a two-deck deal the path runs to hundreds of thousands of positions, most of them one move from a
 * position much further on. Going from the root, this takes at each position the child (of the moves the
 * search tries there) that is furthest along the path, or wins: a line of the same moves the search
 * allows, each position on it on the path or won. ``s`` is the root; the path is frames[0..depth], and a
 * move from its last position wins. Writes the line to ``res``: 1, or 0 when it ran out of memory or time (the line
 * then is the search's). */
static int td_shortcut(const td_args_t *a, const td_rules_t *r, tds_t *s, td_limits_t *lim, table_t *table,
                       const td_frame_t *frames, int depth, search_result_t *res, move_t *kids,
                       move_t *tmp) {
    uint64_t cap = 16;
    while (cap < 2 * (uint64_t)(depth + 1)) cap *= 2;
    const uint8_t **slot = calloc(cap, sizeof *slot);
    int *index = malloc(cap * sizeof *index);
    move_t *line = malloc((size_t)(depth + 1) * sizeof *line);
    int ok = 0, n = 0, at = 0;
    if (!slot || !index || !line) goto out;
    for (int i = 0; i <= depth; i++) {
        uint64_t j = ptr_hash(frames[i].key) & (cap - 1);
        while (slot[j]) j = (j + 1) & (cap - 1);
        slot[j] = frames[i].key;
        index[j] = i;
    }
    uint8_t key[TD_KEYMAX], *stored;
    for (;;) {
        if ((n & 255) == 255 && td_expired(lim)) goto out;
        int nk = td_children(r, s, kids, tmp), best = -1;
        move_t pick = {0, 0, 0, 0};
        for (int i = 0; i < nk && best != INT32_MAX; i++) {
            played_t how;
            td_apply(s, kids[i], &how);
            if (s->on_found == a->total) {
                best = INT32_MAX;
                pick = kids[i];
            } else if (table_insert(table, key, td_key(s, key), 1, &stored) == 0) {
                uint64_t j = ptr_hash(stored) & (cap - 1);
                while (slot[j] && slot[j] != stored) j = (j + 1) & (cap - 1);
                if (slot[j] && index[j] > best) {
                    best = index[j];
                    pick = kids[i];
                }
            }
            td_undo(s, &how);
        }
        if (best <= at || n > depth) goto out; /* (cannot be: the path's own move is among them) */
        played_t how;
        td_apply(s, pick, &how);
        line[n++] = pick;
        if (best == INT32_MAX) break;
        at = best;
    }
    free(res->line);
    res->line = line;
    res->nline = n;
    line = NULL;
    ok = 1;
out:
    free(slot);
    free(index);
    free(line);
    return ok;
}

static void td_depth_first(const td_args_t *a, const td_rules_t *r, tds_t *s, td_limits_t *lim, table_t *table,
                           search_result_t *res, double started) {
    int fcap = 1024, mcap = 1 << 16;
    td_frame_t *frames = malloc(fcap * sizeof *frames);
    move_t *moves = malloc(mcap * sizeof *moves);
    move_t *tmp = malloc(TD_MAXMOVES * sizeof *tmp);
    uint8_t key[TD_KEYMAX], *at;
    long long nodes = 0, clock_at = TD_CLOCK_EVERY;
    if (!frames || !moves || !tmp) goto oom;
    int root = table_insert(table, key, td_key(s, key), 0, &at);
    if (root == -2) { /* (a budget below the table's first chunk of keys) */
        td_result(res, ST_UNKNOWN, "memory limit", 0, 0, started);
        goto done;
    }
    if (root < 0) goto oom;
    int depth = 0;
    if (!grow((void **)&moves, &mcap, TD_MAXMOVES, sizeof *moves)) goto oom;
    frames[0].key = at;
    frames[0].start = 0;
    frames[0].count = td_children(r, s, moves, tmp);
    frames[0].next = 0;
    for (;;) {
        td_frame_t *f = &frames[depth];
        if (f->next >= f->count) {
            if (!depth) break;
            td_undo(s, &f->how);
            depth--;
            continue;
        }
        move_t m = moves[f->start + f->next++];
        nodes++;
        if (nodes >= clock_at) {
            clock_at = nodes + TD_CLOCK_EVERY;
            const char *why = td_expired(lim);
            if (why) {
                td_result(res, ST_UNKNOWN, why, nodes, table_count(table), started);
                goto done;
            }
        }
        played_t how;
        td_apply(s, m, &how);
        if (s->on_found == a->total) {
            res->line = malloc((size_t)(depth + 1) * sizeof(move_t));
            if (!res->line) goto oom;
            for (int i = 1; i <= depth; i++) res->line[i - 1] = frames[i].how.m;
            res->line[depth] = m;
            res->nline = depth + 1;
            if (a->shorten && depth > 1) {
                td_undo(s, &how);
                for (int i = depth; i >= 1; i--) td_undo(s, &frames[i].how);
                td_shortcut(a, r, s, lim, table, frames, depth, res, moves, tmp);
            }
            td_result(res, ST_WON, "", nodes, table_count(table), started);
            goto done;
        }
        int got = table_insert(table, key, td_key(s, key), 0, &at);
        if (got <= 0) {
            td_undo(s, &how);
            if (got == 0) continue;
            if (got == -2) {
                td_result(res, ST_UNKNOWN, "memory limit", nodes, table_count(table), started);
                goto done;
            }
            goto oom;
        }
        if (lim->node_limit && nodes >= lim->node_limit) {
            td_undo(s, &how);
            td_result(res, ST_UNKNOWN, "node limit", nodes, table_count(table), started);
            goto done;
        }
        long long start = (long long)f->start + f->count;
        if (start + TD_MAXMOVES > INT_MAX || !grow((void **)&frames, &fcap, depth + 2, sizeof *frames) ||
            !grow((void **)&moves, &mcap, (int)start + TD_MAXMOVES, sizeof *moves)) {
            /* the path's stacks are full: a search that cannot go deeper has run out of memory */
            td_undo(s, &how);
            td_result(res, ST_UNKNOWN, "memory limit", nodes, table_count(table), started);
            goto done;
        }
        depth++;
        f = &frames[depth];
        f->how = how;
        f->key = at;
        f->start = (int)start;
        f->count = td_children(r, s, moves + start, tmp);
        f->next = 0;
    }
    td_result(res, ST_LOST, "", nodes, table_count(table), started);
    goto done;
oom:
    free(res->line);
    res->line = NULL;
    res->nline = 0;
    td_result(res, ST_ERROR, "", nodes, table_count(table), started);
done:
    free(frames);
    free(moves);
    free(tmp);
}

/* ------------------------------------------------------------------ the best-first search */

/* disorder_estimate in search.py */
static int td_estimate(const td_args_t *a, const tds_t *s) {
    int bad = 0, hidden = 0;
    for (int i = 0; i < s->ncols; i++) {
        for (int j = s->down[i] + 1; j < s->len[i]; j++)
            if (!a->fits[s->cols[i][j - 1] * NCARDS + s->cols[i][j]]) bad++;
        hidden += s->down[i] * 4;
    }
    hidden += s->nstock * 4;
    return hidden + bad * 2 + (a->total - s->on_found);
}

/* A stored position: its columns, foundation piles and stock length (the stock is the root's, shortened). */
typedef struct {
    uint32_t at;     /* where its image starts in the arena */
    int32_t parent;  /* the position it was reached from (-1: the root) */
    move_t m;        /* by this move */
} td_node_t;

static int td_image(const tds_t *s, uint8_t *out) {
    int n = 0;
    for (int i = 0; i < s->ncols; i++) {
        out[n++] = s->len[i];
        out[n++] = s->down[i];
        memcpy(out + n, s->cols[i], s->len[i]);
        n += s->len[i];
    }
    for (int i = 0; i < s->npiles; i++) {
        out[n++] = s->ph[i];
        out[n++] = s->psuit[i];
    }
    out[n++] = (uint8_t)s->nstock;
    memcpy(out + n, s->accept, NCARDS);
    n += NCARDS;
    return n;
}

static void td_from_image(tds_t *s, const uint8_t *in) {
    int n = 0, on = 0;
    for (int i = 0; i < s->ncols; i++) {
        s->len[i] = in[n++];
        s->down[i] = in[n++];
        memcpy(s->cols[i], in + n, s->len[i]);
        n += s->len[i];
    }
    for (int i = 0; i < s->npiles; i++) {
        s->ph[i] = in[n++];
        s->psuit[i] = in[n++];
        on += s->ph[i];
    }
    s->nstock = in[n++];
    memcpy(s->accept, in + n, NCARDS);
    s->on_found = on;
}

typedef struct {
    int est, id;
} td_heap_t;

static inline int heap_less(td_heap_t x, td_heap_t y) { return x.est != y.est ? x.est < y.est : x.id < y.id; }

static void heap_push(td_heap_t *h, int *n, td_heap_t v) {
    int i = (*n)++;
    while (i) {
        int p = (i - 1) / 2;
        if (!heap_less(v, h[p])) break;
        h[i] = h[p];
        i = p;
    }
    h[i] = v;
}

static td_heap_t heap_pop(td_heap_t *h, int *n) {
    td_heap_t top = h[0], v = h[--*n];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= *n) break;
        if (c + 1 < *n && heap_less(h[c + 1], h[c])) c++;
        if (!heap_less(h[c], v)) break;
        h[i] = h[c];
        i = c;
    }
    if (*n) h[i] = v;
    return top;
}

#define TD_IMAGE_MAX (TD_MAXCOLS * 2 + TD_CARDS + TD_MAXPILES * 2 + 1 + NCARDS)

static void td_best_first(const td_args_t *a, const td_rules_t *r, tds_t *s, td_limits_t *lim, table_t *table,
                          search_result_t *res, double started) {
    int ncap = 1024, hcap = 1024, acap = 1 << 18;
    td_node_t *nodes_of = malloc(ncap * sizeof *nodes_of);
    td_heap_t *heap = malloc(hcap * sizeof *heap);
    uint8_t *arena = malloc(acap);
    move_t *kids = malloc(TD_MAXMOVES * sizeof *kids), *tmp = malloc(TD_MAXMOVES * sizeof *tmp);
    uint8_t key[TD_KEYMAX], *at;
    int npos = 0, nheap = 0, used = 0;
    long long nodes = 0;
    if (!nodes_of || !heap || !arena || !kids || !tmp) goto oom;
    int root = table_insert(table, key, td_key(s, key), 0, &at);
    if (root == -2) { /* (a budget below the table's first chunk of keys) */
        td_result(res, ST_UNKNOWN, "memory limit", 0, 0, started);
        goto done;
    }
    if (root < 0) goto oom;
    nodes_of[0] = (td_node_t){0, -1, {0, 0, 0, 0}};
    used = td_image(s, arena);
    npos = 1;
    heap_push(heap, &nheap, (td_heap_t){td_estimate(a, s), 0});
    while (nheap) {
        const char *why = td_expired(lim);
        if (why) {
            td_result(res, ST_UNKNOWN, why, nodes, table_count(table), started);
            goto done;
        }
        td_heap_t top = heap_pop(heap, &nheap);
        td_from_image(s, arena + nodes_of[top.id].at);
        int nk = td_children(r, s, kids, tmp);
        for (int i = 0; i < nk; i++) {
            if ((nodes & 15) == 0 && (why = td_expired(lim))) {
                td_result(res, ST_UNKNOWN, why, nodes, table_count(table), started);
                goto done;
            }
            played_t how;
            td_apply(s, kids[i], &how);
            nodes++;
            if (s->on_found == a->total) {
                int len = 1;
                for (int p = top.id; nodes_of[p].parent >= 0; p = nodes_of[p].parent) len++;
                res->line = malloc((size_t)len * sizeof(move_t));
                if (!res->line) goto oom;
                res->nline = len;
                res->line[len - 1] = kids[i];
                int j = len - 2;
                for (int p = top.id; nodes_of[p].parent >= 0; p = nodes_of[p].parent) res->line[j--] = nodes_of[p].m;
                td_result(res, ST_WON, "", nodes, table_count(table), started);
                goto done;
            }
            int got = table_insert(table, key, td_key(s, key), 0, &at);
            if (got < 0) {
                if (got == -2) {
                    td_result(res, ST_UNKNOWN, "memory limit", nodes, table_count(table), started);
                    goto done;
                }
                goto oom;
            }
            if (got) {
                if (!grow((void **)&nodes_of, &ncap, npos + 1, sizeof *nodes_of) ||
                    !grow((void **)&heap, &hcap, nheap + 1, sizeof *heap) ||
                    !grow((void **)&arena, &acap, used + TD_IMAGE_MAX, 1))
                    goto oom;
                nodes_of[npos] = (td_node_t){(uint32_t)used, top.id, kids[i]};
                used += td_image(s, arena + used);
                heap_push(heap, &nheap, (td_heap_t){td_estimate(a, s), npos});
                npos++;
            }
            td_undo(s, &how);
        }
        if (npos - 1 >= a->best_first) {
            td_result(res, ST_UNKNOWN, "best-first budget", nodes, table_count(table), started);
            goto done;
        }
        if (lim->node_limit && nodes >= lim->node_limit) {
            td_result(res, ST_UNKNOWN, "node limit", nodes, table_count(table), started);
            goto done;
        }
    }
    td_result(res, ST_LOST, "", nodes, table_count(table), started);
    goto done;
oom:
    free(res->line);
    res->line = NULL;
    res->nline = 0;
    td_result(res, ST_ERROR, "", nodes, table_count(table), started);
done:
    free(nodes_of);
    free(heap);
    free(arena);
    free(kids);
    free(tmp);
}

void td_search_run(const td_args_t *a, search_result_t *res) {
    double started = td_now();
    memset(res, 0, sizeof *res);
    res->reason = "";
    tds_t *s = malloc(sizeof *s);
    table_t *table = malloc(sizeof *table);
    if (!s || !table || !table_init(table, a->memory_limit, 0)) {
        if (table && s) table_free(table);
        free(s);
        free(table);
        td_result(res, ST_ERROR, "", 0, 0, started);
        return;
    }
    td_state_of(a, s);
    td_rules_t r = {a->fits, a->safe, a->kings_only, a->foundation_return, {{0}}, {0}};
    for (int t = 0; t < NCARDS; t++)
        for (int c = 0; c < NCARDS; c++)
            if (a->fits[t * NCARDS + c] && r.nacc[t] < 4) r.acc[t][r.nacc[t]++] = (uint8_t)c;
    td_limits_t lim = {a->time_limit > 0 ? started + a->time_limit : 0, started, a->node_limit, a->stop, a->stop_arg};
    if (s->on_found == a->total)
        td_result(res, ST_WON, "", 0, 0, started);
    else if (a->best_first)
        td_best_first(a, &r, s, &lim, table, res, started);
    else
        td_depth_first(a, &r, s, &lim, table, res, started);
    table_free(table);
    free(table);
    free(s);
}
