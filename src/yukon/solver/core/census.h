/* The census of a search (a build with -DYUKON_CENSUS only; bench/census.py makes one): where a lost proof
 * spends its nodes, and how many of them a perfect test of a kind of dead end would save, measured before
 * any such test is written (docs/solver-design.md, "Where lost proofs spend their nodes"). In the normal
 * build the hooks (CENSUS(...)) and the frames' census field are not compiled: the search is unchanged. */
#ifndef YUKON_CENSUS_H
#define YUKON_CENSUS_H

#include "core.h"

/* Kept in each frame of the search path: what the subtree searched below it (so far) can do. */
typedef struct {
    uint32_t turns;     /* columns whose top face-down card some move in the subtree turns */
    int ups;            /* suits of which some move in the subtree plays a card up */
    int min_down;       /* the fewest face-down cards of a position in the subtree */
    long long nodes;    /* nodes counted in the subtree */
    long long dead[4];  /* per kind of dead end (census.c): nodes in the subtrees of dead classes below, not
                         * yet known to lie under a live one */
} census_frame_t;

#ifdef YUKON_CENSUS
void census_enter(census_frame_t *f, const state_t *st);
void census_child(census_frame_t *f, const state_t *st, move_t m, int skipped);
void census_known(census_frame_t *f, const uint8_t *stored);
void census_new_class(const state_t *st, const state_t *root);
void census_finish(census_frame_t *f, census_frame_t *parent, const state_t *st, const uint8_t *key, int is_class);
void census_kind(int kind, int inserted, int entered);
void census_report(long long nodes);
/* a hook's call, compiled in a census build only */
#define CENSUS(call) call
#else
#define CENSUS(call) ((void)0)
#endif

#endif
