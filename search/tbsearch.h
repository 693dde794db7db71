/* The search's use of the Syzygy tablebases (eval/syzygy/tbprobe.h): WDL
 * probes inside the tree, and the ranking of the root moves by DTZ (or WDL)
 * before a search, so that the engine never gives away a win or a draw and
 * wins within the fifty-move rule. Internal to search/. */
#ifndef ROKADE_TBSEARCH_H
#define ROKADE_TBSEARCH_H

#include "thread.h"

/* Before a search of s->root with its root moves rms[0..*count): when the
 * root is in the tables, keeps only the moves that keep its best result
 * (searchmoves are already applied) and sets s->tb_root_score and
 * s->tb_root_hits (the probes made); sets
 * s->tb_pieces, the most pieces probed inside the tree (0: none). */
void tbsearch_rank_root(Search *s, RootMove *rms, int *count);

/* WDL probe of thread t's position at a node `ply` plies from the root and
 * `depth` plies deep: SCORE_NONE when it is not probed or not in the
 * tables; otherwise its score, with *bound the bound it gives (a win is a
 * lower bound, a loss an upper one, a draw exact). */
int tbsearch_probe(SearchThread *t, int ply, int depth, int *bound);

#endif
