/* The search's use of the Syzygy tablebases (tbsearch.h). */
#include "tbsearch.h"

#include <string.h>

#include "../eval/syzygy/tbprobe.h"
#include "../movegen/movegen.h"
#include "../movegen/score.h"

/* Root move ranks: a win that the fifty-move counter on the board lets
 * through ranks RANK_SURE; a win the counter may spoil ranks lower the
 * closer it comes to it (below RANK_SURE / 2); losses the other way round. */
enum { RANK_SURE = 1000 };

/* WDL ranks when there is no DTZ table. */
static int rank_of_wdl(int wdl)
{
    static const int Rank[5] = {-RANK_SURE, -RANK_SURE + 101, 0, RANK_SURE - 101, RANK_SURE};
    return Rank[wdl + 2];
}

/* The rank of a root move whose DTZ (from the mover's side, counted from the
 * root) is dtz, with the root's counter at rule50. */
static int rank_of_dtz(int dtz, int rule50, bool repeated)
{
    if (dtz > 0)
        return dtz + rule50 <= 99 && !repeated ? RANK_SURE : RANK_SURE / 2 - (dtz + rule50);
    if (dtz < 0)
        return -dtz * 2 + rule50 < 100 ? -RANK_SURE : -RANK_SURE / 2 + (-dtz + rule50);
    return 0;
}

/* The root score of a rank: a sure win or loss as a tablebase result, a
 * win or loss the fifty-move rule may spoil as a few centipawns (growing as
 * it nears a real result). */
static int score_of_rank(int rank, bool rule50)
{
    const int bound = rule50 ? RANK_SURE / 2 - 100 : 1;
    if (rank >= bound)
        return tb_win_in(1);
    if (rank > 0)
        return rank - (RANK_SURE / 2 - 200) > 3 ? (rank - (RANK_SURE / 2 - 200)) / 2 : 1;
    if (rank == 0)
        return SCORE_DRAW;
    if (rank > -bound)
        return rank + (RANK_SURE / 2 - 200) < -3 ? (rank + (RANK_SURE / 2 - 200)) / 2 : -1;
    return tb_loss_in(1);
}

/* The DTZ of root move m from the mover's side, counted from the root;
 * false when a table is missing. */
static bool root_move_dtz(Position *pos, move_t m, int *dtz)
{
    bool ok = true;
    pos_make_move(pos, m);
    if (pos_rule50(pos) == 0) {
        /* A zeroing move: its distance is the move itself. */
        int wdl;
        ok = tb_probe_wdl(pos, &wdl);
        static const int Dtz[5] = {-1, -101, 0, 101, 1};
        *dtz = ok ? Dtz[-wdl + 2] : 0;
    } else if (pos_repetitions(pos) >= 2 || pos_rule50(pos) >= 100) {
        *dtz = 0;
    } else {
        int d;
        ok = tb_probe_dtz(pos, &d);
        d = -d;
        *dtz = d > 0 ? d + 1 : d < 0 ? d - 1 : 0;
    }
    /* A mate is the shortest win. */
    if (ok && *dtz == 2 && pos_in_check(pos) && !pos_has_legal_move(pos))
        *dtz = 1;
    pos_unmake_move(pos, m);
    return ok;
}

void tbsearch_rank_root(Search *s, RootMove *rms, int *count)
{
    Position *pos = &s->threads[0]->pos; /* a scratch copy of the root */
    const SearchOptions *o = &s->options;
    int limit = o->tb_probe_limit < tb_max_pieces() ? o->tb_probe_limit : tb_max_pieces();
    s->tb_pieces = limit;
    s->tb_root = false;
    s->tb_root_hits = 0;
    const int pieces = popcount(pos_occupied(&s->root));
    if (limit == 0 || *count == 0 || pieces > limit || pos_st(&s->root)->castling)
        return;
    memcpy(pos, &s->root, sizeof *pos);
    int rank[MAX_MOVES] = {0};
    const int rule50 = pos_rule50(pos);
    const bool repeated = pos_repetitions(pos) > 0;
    /* By DTZ where the tables have it, else by WDL. */
    bool by_dtz = true;
    for (int i = 0; i < *count && by_dtz; i++) {
        int dtz;
        by_dtz = root_move_dtz(pos, rms[i].move, &dtz);
        rank[i] = rank_of_dtz(dtz, rule50, repeated);
    }
    for (int i = 0; i < *count && !by_dtz; i++) {
        int wdl;
        pos_make_move(pos, rms[i].move);
        bool ok = tb_probe_wdl(pos, &wdl);
        pos_unmake_move(pos, rms[i].move);
        if (!ok)
            return;
        rank[i] = rank_of_wdl(-wdl);
    }
    s->tb_root_hits = (uint64_t)*count;
    int best = rank[0];
    for (int i = 1; i < *count; i++)
        best = rank[i] > best ? rank[i] : best;
    int kept = 0;
    for (int i = 0; i < *count; i++)
        if (rank[i] == best)
            rms[kept++] = rms[i];
    *count = kept;
    s->tb_root = true;
    s->tb_root_score = score_of_rank(best, o->tb_50_move_rule);
    /* With DTZ the root moves already make progress: WDL scores in the tree
     * would only make all winning moves look alike. Without DTZ the tree
     * probes on while winning, to find the way. */
    if (by_dtz || best <= 0)
        s->tb_pieces = 0;
}

int tbsearch_probe(SearchThread *t, int ply, int depth, int *bound)
{
    const Search *s = t->s;
    Position *pos = &t->pos;
    if (s->tb_pieces == 0 || pos_rule50(pos) != 0 || depth < s->options.tb_probe_depth
        || pos_st(pos)->castling || popcount(pos_occupied(pos)) > s->tb_pieces)
        return SCORE_NONE;
    int wdl;
    if (!tb_probe_wdl(pos, &wdl))
        return SCORE_NONE;
    atomic_fetch_add_explicit(&t->tbhits, 1, memory_order_relaxed);
    /* With the fifty-move rule a cursed win or blessed loss is a draw, but
     * a draw worth a little more or less than the others. */
    const int draw = s->options.tb_50_move_rule ? 1 : 0;
    if (wdl > draw) {
        *bound = BOUND_LOWER;
        return tb_win_in(ply);
    }
    if (wdl < -draw) {
        *bound = BOUND_UPPER;
        return tb_loss_in(ply);
    }
    *bound = BOUND_EXACT;
    return SCORE_DRAW + 2 * wdl * draw;
}
