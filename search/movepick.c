/* Move picker stages and scoring. */
#include "movepick.h"

#include "../movegen/movegen.h"
#include "see.h"
#include "tunables.h"

enum {
    ST_TT,
    ST_GEN_NOISY,
    ST_GOOD_NOISY,
    ST_KILLER1,
    ST_KILLER2,
    ST_COUNTER,
    ST_GEN_QUIET,
    ST_QUIET,
    ST_BAD_NOISY,
    ST_DONE,
};

static bool is_noisy(const Position *pos, move_t m)
{
    return pos_is_capture(pos, m) || move_kind(m) == MOVE_PROMOTION;
}

void mp_init(MovePicker *mp, const Position *pos, const History *hist, ContHist *const cont[2],
             move_t tt_move, const move_t killers[2], move_t counter, bool qsearch)
{
    mp->pos = pos;
    mp->hist = hist;
    mp->cont[0] = cont ? cont[0] : NULL;
    mp->cont[1] = cont ? cont[1] : NULL;
    mp->threats = 0;
    mp->threats_known = false;
    mp->qsearch = qsearch;
    mp->skip_quiets = false;
    /* Quiescence has no killer or counter-move stage (in check, its quiet
     * evasions come with the other quiets), and MP_KILLERS 0 leaves the
     * stage out everywhere (ablation). */
    const bool stage = MP_KILLERS && !qsearch;
    mp->killers[0] = killers && stage ? killers[0] : MOVE_NONE;
    mp->killers[1] = killers && stage ? killers[1] : MOVE_NONE;
    mp->counter = stage ? counter : MOVE_NONE;
    mp->cur = mp->end = mp->bad_end = 0;
    mp->stage = ST_TT;
    /* In quiescence (not in check) the TT move is used only when noisy. */
    if (tt_move
        && (!pos_is_pseudo_legal(pos, tt_move) || !pos_is_legal(pos, tt_move)
            || (qsearch && !pos_in_check(pos) && !is_noisy(pos, tt_move))))
        tt_move = MOVE_NONE;
    mp->tt_move = tt_move;
}

static void score_noisy(MovePicker *mp)
{
    const Position *pos = mp->pos;
    for (int i = mp->cur; i < mp->end; i++) {
        move_t m = mp->moves[i];
        /* Most valuable victim first (its value weighs MVV_WEIGHT times
         * the capture history's share), queen promotions with them as if
         * they took a queen's worth, other promotions last; then the
         * capture history. */
        enum { MVV_WEIGHT = 16, QUEEN_PROMO_GAIN = 900, UNDERPROMO_SCORE = -30000 };
        int s = MVV_WEIGHT * PieceValue[capture_victim(pos, m)];
        if (move_kind(m) == MOVE_PROMOTION)
            s += move_promo(m) == QUEEN ? MVV_WEIGHT * QUEEN_PROMO_GAIN : UNDERPROMO_SCORE;
        s += hist_capture(mp->hist, pos, m) / MP_CAPHIST_DIV;
        mp->scores[i] = s;
    }
}

static void score_quiet(MovePicker *mp)
{
    const bitboard_t threats = mp_threats(mp);
    for (int i = mp->cur; i < mp->end; i++)
        mp->scores[i] = hist_quiet(mp->hist, mp->cont, mp->pos, threats, mp->moves[i])
                        + MP_PAWN_HIST * hist_pawn(mp->hist, mp->pos, mp->moves[i]);
}

/* Moves the best remaining move to position cur and returns it. */
static move_t pick_best(MovePicker *mp)
{
    int best = mp->cur;
    for (int i = mp->cur + 1; i < mp->end; i++)
        if (mp->scores[i] > mp->scores[best])
            best = i;
    move_t m = mp->moves[best];
    int s = mp->scores[best];
    mp->moves[best] = mp->moves[mp->cur];
    mp->scores[best] = mp->scores[mp->cur];
    mp->moves[mp->cur] = m;
    mp->scores[mp->cur] = s;
    return mp->moves[mp->cur++];
}

static bool is_special(const MovePicker *mp, move_t m)
{
    return m == mp->tt_move || m == mp->killers[0] || m == mp->killers[1] || m == mp->counter;
}

static bool usable_quiet(const MovePicker *mp, move_t m)
{
    return m && m != mp->tt_move && !is_noisy(mp->pos, m) && pos_is_pseudo_legal(mp->pos, m)
           && pos_is_legal(mp->pos, m);
}

move_t mp_next(MovePicker *mp)
{
    const Position *pos = mp->pos;
    for (;;) {
        switch (mp->stage) {
        case ST_TT:
            mp->stage = ST_GEN_NOISY;
            if (mp->tt_move)
                return mp->tt_move;
            break;
        case ST_GEN_NOISY: {
            MoveList list;
            list.count = 0;
            gen_moves(pos, &list, GEN_NOISY);
            mp->cur = 0;
            mp->end = 0;
            for (int i = 0; i < list.count; i++) {
                move_t m = list.moves[i];
                /* Quiescence skips under-promotions. */
                if (mp->qsearch && !pos_in_check(pos) && move_kind(m) == MOVE_PROMOTION
                    && move_promo(m) != QUEEN)
                    continue;
                mp->moves[mp->end++] = m;
            }
            score_noisy(mp);
            mp->stage = ST_GOOD_NOISY;
            break;
        }
        case ST_GOOD_NOISY:
            while (mp->cur < mp->end) {
                move_t m = pick_best(mp);
                if (m == mp->tt_move)
                    continue;
                if (!mp->qsearch && !see_ge(pos, m, -mp->scores[mp->cur - 1] / MP_GOOD_SEE_DIV)) {
                    mp->bad[mp->bad_end++] = m;
                    continue;
                }
                return m;
            }
            if (mp->qsearch && !pos_in_check(pos)) {
                mp->stage = ST_DONE;
                break;
            }
            mp->cur = 0;
            mp->stage = mp->skip_quiets ? ST_BAD_NOISY : mp->qsearch ? ST_GEN_QUIET : ST_KILLER1;
            break;
        case ST_KILLER1:
            mp->stage = ST_KILLER2;
            if (usable_quiet(mp, mp->killers[0]))
                return mp->killers[0];
            break;
        case ST_KILLER2:
            mp->stage = ST_COUNTER;
            if (mp->killers[1] != mp->killers[0] && usable_quiet(mp, mp->killers[1]))
                return mp->killers[1];
            break;
        case ST_COUNTER:
            mp->stage = ST_GEN_QUIET;
            if (mp->counter != mp->killers[0] && mp->counter != mp->killers[1]
                && usable_quiet(mp, mp->counter))
                return mp->counter;
            break;
        case ST_GEN_QUIET: {
            mp->stage = ST_QUIET;
            mp->cur = mp->end = 0;
            MoveList list;
            list.count = 0;
            gen_moves(pos, &list, GEN_QUIET);
            for (int i = 0; i < list.count; i++)
                if (!is_special(mp, list.moves[i]))
                    mp->moves[mp->end++] = list.moves[i];
            score_quiet(mp);
            break;
        }
        case ST_QUIET:
            if (mp->cur < mp->end)
                return pick_best(mp);
            mp->stage = ST_BAD_NOISY;
            mp->cur = 0;
            break;
        case ST_BAD_NOISY:
            if (mp->cur < mp->bad_end)
                return mp->bad[mp->cur++];
            mp->stage = ST_DONE;
            break;
        default: return MOVE_NONE;
        }
    }
}

void mp_skip_quiets(MovePicker *mp)
{
    /* In the quiet stages the rest is the bad captures at once; before
     * them the good captures come first and then the bad ones, and a
     * quiet TT move not yet returned is passed over. */
    mp->skip_quiets = true;
    if (mp->stage == ST_TT && mp->tt_move && !is_noisy(mp->pos, mp->tt_move))
        mp->stage = ST_GEN_NOISY;
    else if (mp->stage >= ST_KILLER1 && mp->stage <= ST_QUIET) {
        mp->stage = ST_BAD_NOISY;
        mp->cur = 0;
    }
}
