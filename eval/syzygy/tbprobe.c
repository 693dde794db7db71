/* Syzygy tablebase probes (tbprobe.h).
 *
 * The tables hold no castling, no e.p. right and, for DTZ, only one side to
 * move; and they store a "don't care" value where the best move captures or
 * moves a pawn. So a probe first tries the captures (for DTZ, the pawn moves
 * too) and reads the table only when they do not already give the result. */
#include "tbprobe.h"

#include "../../movegen/movegen.h"
#include "tbfile.h"

typedef enum {
    PROBE_FAIL,         /* a table is missing */
    PROBE_OK,           /* the value comes from the table */
    PROBE_ZEROING_BEST, /* a capture or pawn move is best (or all moves are) */
} ProbeState;

/* A DTZ table may store the other side to move: probing it runs a one-ply
 * search, which never needs more than one more level on valid tables. */
enum { DTZ_MAX_DEPTH = 4 };

int tb_init(const char *path) { return tbfile_init(path); }
void tb_free(void) { tbfile_free(); }
int tb_max_pieces(void) { return tbfile_max_pieces(); }
int tb_wdl_count(void) { return tbfile_count(TB_WDL); }
int tb_dtz_count(void) { return tbfile_count(TB_DTZ); }
void tb_set_report(void (*report)(const char *line)) { tbfile_set_report(report); }

static inline int sign_of(int v) { return (v > 0) - (v < 0); }

static inline bool is_zeroing(const Position *pos, move_t m)
{
    return pos_is_capture(pos, m) || piece_type(pos->board[move_from(m)]) == PAWN;
}

/* The DTZ of a position whose best move zeroes the counter. */
static inline int dtz_of_zeroing(int wdl)
{
    static const int Dtz[5] = {-1, -101, 0, 101, 1};
    return Dtz[wdl + 2];
}

/* WDL with the captures (and with `pawn_moves`, the pawn moves) tried first:
 * the value of the best of them when no table value can beat it. */
static int wdl_search(Position *pos, bool pawn_moves, ProbeState *state)
{
    MoveList list;
    gen_legal(pos, &list);
    int best = TB_LOSS, tried = 0;
    for (int i = 0; i < list.count; i++) {
        move_t m = list.moves[i];
        if (!pos_is_capture(pos, m)
            && (!pawn_moves || piece_type(pos->board[move_from(m)]) != PAWN))
            continue;
        tried++;
        pos_make_move(pos, m);
        int v = -wdl_search(pos, false, state);
        pos_unmake_move(pos, m);
        if (*state == PROBE_FAIL)
            return TB_DRAW;
        if (v > best) {
            best = v;
            if (v >= TB_WIN) {
                *state = PROBE_ZEROING_BEST;
                return v;
            }
        }
    }
    /* With every legal move tried the table is not needed (and would be
     * wrong where e.p. is the only move). */
    bool all_tried = tried > 0 && tried == list.count;
    int v = best;
    if (!all_tried) {
        if (popcount(pos_occupied(pos)) == 2)
            v = TB_DRAW;
        else if (tbfile_probe(pos, TB_WDL, 0, &v) != TBF_OK) {
            *state = PROBE_FAIL;
            return TB_DRAW;
        }
    }
    if (best >= v) {
        *state = best > TB_DRAW || all_tried ? PROBE_ZEROING_BEST : PROBE_OK;
        return best;
    }
    *state = PROBE_OK;
    return v;
}

static inline bool probe_allowed(const Position *pos)
{
    int n = popcount(pos_occupied(pos));
    return pos_st(pos)->castling == 0 && n <= tbfile_max_pieces() && n <= TB_PIECES_MAX;
}

bool tb_probe_wdl(Position *pos, int *wdl)
{
    if (!probe_allowed(pos))
        return false;
    ProbeState state = PROBE_OK;
    int v = wdl_search(pos, false, &state);
    if (state == PROBE_FAIL)
        return false;
    *wdl = v;
    return true;
}

static bool dtz_probe(Position *pos, int depth, int *dtz)
{
    ProbeState state = PROBE_OK;
    int wdl = wdl_search(pos, true, &state);
    if (state == PROBE_FAIL)
        return false;
    if (wdl == TB_DRAW) {
        *dtz = 0;
        return true;
    }
    if (state == PROBE_ZEROING_BEST) {
        *dtz = dtz_of_zeroing(wdl);
        return true;
    }
    int v;
    TbFileStatus st = tbfile_probe(pos, TB_DTZ, wdl, &v);
    if (st == TBF_MISSING)
        return false;
    if (st == TBF_OK) {
        *dtz = (v + (wdl == TB_CURSED_WIN || wdl == TB_BLESSED_LOSS ? 100 : 0)) * sign_of(wdl);
        return true;
    }
    if (depth >= DTZ_MAX_DEPTH)
        return false;
    /* The table stores the other side to move: the best move's DTZ, one ply
     * more (a zeroing move counts from the position before it). */
    MoveList list;
    gen_legal(pos, &list);
    int best = 0xFFFF;
    for (int i = 0; i < list.count; i++) {
        move_t m = list.moves[i];
        bool zeroing = is_zeroing(pos, m);
        int d = 0;
        bool ok = true;
        pos_make_move(pos, m);
        if (zeroing) {
            ProbeState s = PROBE_OK;
            int w = wdl_search(pos, false, &s);
            ok = s != PROBE_FAIL;
            d = -dtz_of_zeroing(w);
        } else {
            ok = dtz_probe(pos, depth + 1, &d);
            d = -d;
        }
        if (ok && d == 1 && pos_in_check(pos) && !pos_has_legal_move(pos))
            best = 1;
        pos_unmake_move(pos, m);
        if (!ok)
            return false;
        if (!zeroing)
            d += sign_of(d);
        if (d < best && sign_of(d) == sign_of(wdl))
            best = d;
    }
    *dtz = best == 0xFFFF ? -1 : best;
    return true;
}

bool tb_probe_dtz(Position *pos, int *dtz) { return probe_allowed(pos) && dtz_probe(pos, 0, dtz); }
