/* Move-ordering statistics kept per search thread: butterfly history (by
 * side, from and to, and whether the opponent attacks either square),
 * capture history (by piece, target and victim),
 * continuation history (by the piece and target of the move 1 and 2 plies
 * back, then of this move), pawn history (by the pawn structure, piece and
 * target) and counter moves; and the correction histories of the static
 * evaluation. The search updates them at cutoffs; the search and the move
 * picker read them through the score functions here. All updates use
 * gravity, so values stay within +-HISTORY_MAX. Model: Ethereal's
 * history.c. */
#ifndef ROKADE_HISTORY_H
#define ROKADE_HISTORY_H

#include "../movegen/position.h"
#include "../movegen/score.h"
#include "tunables.h"

enum { HISTORY_MAX = 16384 };

/* The pawn history: quiet moves by the pawn structure (the pawn key's low
 * bits), the piece and its target; the move picker's order only. */
enum { PAWN_HIST_SIZE = 512 };
_Static_assert((PAWN_HIST_SIZE & (PAWN_HIST_SIZE - 1)) == 0, "the key's low bits index it");

/* The correction histories: how far searches found the static evaluation
 * off, by side to move and by the pawn structure (the pawn key's low bits),
 * by each side's other pieces (its non-pawn key's) and by both sides'
 * knights, bishops and kings (minor_key), in 1/CORR_GRAIN centipawns, at
 * most CORR_LIMIT cp either way. */
enum { CORR_SIZE = 16384, CORR_GRAIN = 256, CORR_LIMIT = 64 };
_Static_assert((CORR_SIZE & (CORR_SIZE - 1)) == 0, "the key's low bits index the table");
_Static_assert(CORR_LIMIT *CORR_GRAIN <= 32767, "an entry fits int16");

typedef int16_t ContHist[PIECE_NB][SQ_NB];

/* The butterfly tables: four, by the threats (threat_slot), where
 * THREAT_HIST may be on (a TUNE build, or its default 1); one otherwise,
 * so that the setting left off costs nothing. */
#ifdef TUNE
enum { THREAT_SLOTS = 4 };
#else
enum { THREAT_SLOTS = THREAT_HIST ? 4 : 1 };
#endif

typedef struct {
    int16_t butterfly[COLOR_NB][THREAT_SLOTS][SQ_NB * SQ_NB]; /* [side][threat_slot][from-to] */
    int16_t capture[PIECE_NB][SQ_NB][PIECE_TYPE_NB];
    ContHist continuation[PIECE_NB][SQ_NB];
    move_t counter[PIECE_NB][SQ_NB];
    int16_t pawn_corr[COLOR_NB][CORR_SIZE];
    int16_t non_pawn_corr[COLOR_NB][COLOR_NB][CORR_SIZE]; /* [side to move][whose pieces] */
    int16_t minor_corr[COLOR_NB][CORR_SIZE];              /* by both sides' minors and kings */
    int16_t pawn_hist[PAWN_HIST_SIZE][PIECE_NB][SQ_NB];
} History;

/* ---- Scores --------------------------------------------------------------- */

static inline int butterfly_index(move_t m) { return m & 0xFFF; }

/* Which of the four butterfly tables a quiet move uses: whether its from
 * and its to square are among `threats`, the squares the opponent attacks
 * (0 when THREAT_HIST leaves them out: one table). */
static inline int threat_slot(bitboard_t threats, move_t m)
{
    if (THREAT_SLOTS == 1)
        return 0;
    return (int)((threats >> move_from(m)) & 1) * 2 + (int)((threats >> move_to(m)) & 1);
}

static inline int16_t *hist_butterfly(History *h, int side, bitboard_t threats, move_t m)
{
    return &h->butterfly[side][threat_slot(threats, m)][butterfly_index(m)];
}

/* The threats a node's butterfly history is read and written with: the
 * squares attacked by the side not to move, or none (THREAT_HIST 0). */
static inline bitboard_t hist_threats(const Position *pos)
{
    return THREAT_HIST ? pos_attacked_by(pos, !pos->side) : 0;
}

/* The piece type a capture takes (NO_PIECE_TYPE for a quiet promotion): the
 * capture history's third index. */
static inline int capture_victim(const Position *pos, move_t m)
{
    return move_kind(m) == MOVE_EN_PASSANT ? PAWN : piece_type(pos->board[move_to(m)]);
}

/* A quiet move's score: its butterfly history (by the node's threats,
 * hist_threats) plus its continuation histories after the moves 1 and 2
 * plies back (cont[k] NULL: none). */
static inline int hist_quiet(const History *h, ContHist *const cont[2], const Position *pos,
                             bitboard_t threats, move_t m)
{
    int pc = pos->board[move_from(m)], to = move_to(m);
    int s = h->butterfly[pos->side][threat_slot(threats, m)][butterfly_index(m)];
    if (cont[0])
        s += (*cont[0])[pc][to];
    if (cont[1])
        s += (*cont[1])[pc][to];
    return s;
}

/* The pawn-history row of a position (its pawn key's low bits). */
static inline int pawn_hist_row(const Position *pos)
{
    return (int)(pos_st(pos)->pawn_key & (PAWN_HIST_SIZE - 1));
}

/* The pawn-history entry of a quiet move about to be made from pos. */
static inline int16_t *hist_pawn_entry(History *h, const Position *pos, move_t m)
{
    return &h->pawn_hist[pawn_hist_row(pos)][pos->board[move_from(m)]][move_to(m)];
}

static inline int hist_pawn(const History *h, const Position *pos, move_t m)
{
    return h->pawn_hist[pawn_hist_row(pos)][pos->board[move_from(m)]][move_to(m)];
}

/* The capture-history entry of a capture or promotion. */
static inline int16_t *hist_capture_entry(History *h, const Position *pos, move_t m)
{
    return &h->capture[pos->board[move_from(m)]][move_to(m)][capture_victim(pos, m)];
}

static inline int hist_capture(const History *h, const Position *pos, move_t m)
{
    return h->capture[pos->board[move_from(m)]][move_to(m)][capture_victim(pos, m)];
}

/* The counter move to the previous move `prev` (MOVE_NONE when none). */
static inline move_t hist_counter(const History *h, const Position *pos, move_t prev)
{
    if (!prev || prev == MOVE_NULL)
        return MOVE_NONE;
    int pto = move_to(prev);
    return h->counter[pos->board[pto]][pto];
}

/* ---- Updates ------------------------------------------------------------ */

/* Moves *h toward +-HISTORY_MAX by bonus, less the further it already is. */
static inline void history_update(int16_t *h, int bonus)
{
    if (bonus > HISTORY_MAX)
        bonus = HISTORY_MAX;
    if (bonus < -HISTORY_MAX)
        bonus = -HISTORY_MAX;
    *h = (int16_t)(*h + bonus - *h * (bonus < 0 ? -bonus : bonus) / HISTORY_MAX);
}

/* The reward of a cutoff at `depth`. */
static inline int history_bonus(int depth)
{
    int b = HIST_BONUS_MUL * depth - HIST_BONUS_SUB;
    return b > HIST_BONUS_MAX ? HIST_BONUS_MAX : b;
}

/* The butterfly and continuation histories of the quiet move m of piece pc
 * by side, made against `threats` (cont as in hist_quiet). */
static inline void hist_update_quiet_by(History *h, ContHist *const cont[2], int side,
                                        bitboard_t threats, int pc, move_t m, int bonus)
{
    const int to = move_to(m);
    history_update(hist_butterfly(h, side, threats, m), bonus);
    for (int k = 0; k < 2; k++)
        if (cont[k])
            history_update(&(*cont[k])[pc][to], bonus);
}

/* The same for a quiet move about to be made from pos, and its pawn
 * history. */
static inline void hist_update_quiet(History *h, ContHist *const cont[2], const Position *pos,
                                     bitboard_t threats, move_t m, int bonus)
{
    hist_update_quiet_by(h, cont, pos->side, threats, pos->board[move_from(m)], m, bonus);
    history_update(hist_pawn_entry(h, pos, m), bonus);
}

static inline void hist_update_capture(History *h, const Position *pos, move_t m, int bonus)
{
    history_update(hist_capture_entry(h, pos, m), bonus);
}

/* A quiet move `best` cut off at `depth` after the previous move `prev`:
 * it becomes the counter move (unless MP_KILLERS leaves counter moves out)
 * and gains history; the other quiets tried before it (quiets[0..n), which
 * holds best too) lose. */
void hist_update_quiets(History *h, ContHist *const cont[2], const Position *pos,
                        bitboard_t threats, move_t prev, move_t best, const move_t *quiets, int n,
                        int depth);
/* A capture or promotion `best` (MOVE_NONE: a quiet one) cut off at `depth`:
 * it gains capture history and the captures tried before it lose. */
void hist_update_captures(History *h, const Position *pos, move_t best, const move_t *captures,
                          int n, int depth);

/* ---- Correction history ------------------------------------------------- */

enum { CORR_TABLES = 4 };

/* A hash of where both sides' knights, bishops and kings stand, made from
 * the bitboards when asked (no key is kept for it): each set multiplied by
 * its own odd constant, then mixed so that the low bits depend on all. */
static inline uint64_t minor_key(const Position *pos)
{
    const bitboard_t w = pos->by_color[WHITE], b = pos->by_color[BLACK];
    const bitboard_t n = pos->by_type[KNIGHT], bi = pos->by_type[BISHOP], k = pos->by_type[KING];
    uint64_t h = (w & n) * 0x9E3779B97F4A7C15ULL ^ (w & bi) * 0xC2B2AE3D27D4EB4FULL
                 ^ (b & n) * 0x165667B19E3779F9ULL ^ (b & bi) * 0xD6E8FEB86659FD93ULL
                 ^ (w & k) * 0xFF51AFD7ED558CCDULL ^ (b & k) * 0xC4CEB9FE1A85EC53ULL;
    h ^= h >> 31;
    h *= 0x94D049BB133111EBULL;
    return h ^ (h >> 29);
}

/* The entries of a position: pawns, White's pieces, Black's pieces, both
 * sides' minor pieces and kings. */
static inline void hist_corr_entries(History *h, const Position *pos, int16_t *e[CORR_TABLES])
{
    const StateInfo *st = pos_st(pos);
    e[0] = &h->pawn_corr[pos->side][st->pawn_key & (CORR_SIZE - 1)];
    for (int c = WHITE; c <= BLACK; c++)
        e[1 + c] = &h->non_pawn_corr[pos->side][c][st->non_pawn_key[c] & (CORR_SIZE - 1)];
    e[3] = &h->minor_corr[pos->side][minor_key(pos) & (CORR_SIZE - 1)];
}

/* The static evaluation raw, corrected by what searches of positions with
 * the same pawns and the same pieces of either side found, the tables
 * weighed by CORR_PAWN_WEIGHT and CORR_NON_PAWN_WEIGHT (a known win or loss
 * is left as it is). */
static inline int hist_corrected_eval(History *h, const Position *pos, int raw)
{
    if (raw >= SCORE_KNOWN_WIN || raw <= -SCORE_KNOWN_WIN)
        return raw;
    int16_t *e[CORR_TABLES];
    hist_corr_entries(h, pos, e);
    const int sum = CORR_PAWN_WEIGHT * *e[0] + CORR_NON_PAWN_WEIGHT * (*e[1] + *e[2])
                    + CORR_MINOR_WEIGHT * *e[3];
    int v = raw + sum / (100 * CORR_GRAIN);
    const int limit = SCORE_KNOWN_WIN - 1;
    return v > limit ? limit : v < -limit ? -limit : v;
}

/* A search of `depth` found the position worth `diff` more than its
 * corrected static evaluation: the entry moves toward that, the more the
 * deeper the search (weight depth + 1 of CORR_WEIGHT_DIV, at most
 * CORR_WEIGHT_MAX). */
static inline void hist_update_corr(History *h, const Position *pos, int depth, int diff)
{
    int16_t *e[CORR_TABLES];
    hist_corr_entries(h, pos, e);
    const int w = depth + 1 < CORR_WEIGHT_MAX ? depth + 1 : CORR_WEIGHT_MAX;
    const int limit = CORR_LIMIT * CORR_GRAIN;
    diff = diff > CORR_LIMIT ? CORR_LIMIT : diff < -CORR_LIMIT ? -CORR_LIMIT : diff;
    for (int k = 0; k < CORR_TABLES; k++) {
        int v = (*e[k] * (CORR_WEIGHT_DIV - w) + diff * CORR_GRAIN * w) / CORR_WEIGHT_DIV;
        *e[k] = (int16_t)(v > limit ? limit : v < -limit ? -limit : v);
    }
}

void hist_clear(History *h);

#endif
