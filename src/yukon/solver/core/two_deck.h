/*
 * The two-deck search (Milligan Yukon), compiled: two_deck.c. The same search as Searcher.run_python and
 * best_first in solver/search.py for a two-deck position with a stock dealt in rows (one card onto every
 * column): the engine's legal moves in its order (yukon.game's generic generator), the same pruning
 * (rule 1 with its two-pile condition, and rule 2, both only once the stock is empty), the same move
 * order and the same transposition key (the columns, sorted once the stock is empty, and the stock's
 * length), so that the compiled and the Python search visit the same positions, node for node.
 * docs/solver-design.md, "Two decks", says which of the one-deck core's reductions carry over.
 *
 * It shares the result type and the table of whole keys (table.c) with the one-deck core, and nothing
 * else: cards are the engine's ints 0-51, each present twice, so the one-deck core's 52-bit masks and
 * link keys (one code per card) do not apply.
 */
#ifndef YUKON_TWO_DECK_H
#define YUKON_TWO_DECK_H

#include "core.h"

#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
#endif

#define TD_MAXCOLS 16
#define TD_CARDS 104
#define TD_MAXLEN 112 /* a column holds at most every card */
#define TD_MAXPILES 8

/* What a two-deck search is given (the arguments of yukon.solver._core.search_two_deck). */
typedef struct {
    int ncols;
    uint8_t cols[TD_MAXCOLS][TD_MAXLEN]; /* bottom first */
    uint8_t len[TD_MAXCOLS];
    uint8_t down[TD_MAXCOLS];
    int npiles;                    /* foundation piles (8) */
    uint8_t pile[TD_MAXPILES][13]; /* each from its Ace */
    uint8_t pile_len[TD_MAXPILES];
    uint8_t stock[TD_CARDS]; /* bottom first: a deal takes the last card first */
    int nstock;
    int total; /* cards of the deck (104): won when all are on the foundations */
    uint8_t fits[NCARDS * NCARDS];
    uint8_t safe[NCARDS * 4]; /* see rules_t.safe */
    int kings_only, foundation_return;
    long long node_limit;  /* 0: none */
    double time_limit;     /* seconds, 0: none */
    uint64_t memory_limit; /* bytes for the table, 0: none */
    int (*stop)(void *stop_arg);
    void *stop_arg;
    int best_first; /* 0: the depth-first search; else the best-first search storing at most this many */
    int shorten;    /* the depth-first search's line: take the shortcuts along its path (td_shortcut) */
} td_args_t;

/* Fills ``res`` (its line malloc'd: the caller frees it). */
void td_search_run(const td_args_t *a, search_result_t *res);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
