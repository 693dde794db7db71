/* Hand-crafted evaluation: material, piece-square shapes, mobility, pawn
 * structure, bishop pair, rooks on open files, king shelter and attacks,
 * passed pawns, tapered by game phase and scaled for drawish endings. Every
 * weight is an entry of EvalW (weights.h); the trace (trace.h) records each
 * weight's coefficient for the tuner. */
#include "eval.h"

#include <stdio.h>
#include <stdlib.h>

#include "trace.h"

const int PieceValue[PIECE_TYPE_NB] = {0, 100, 320, 330, 500, 950, 0};

static const int PhaseW[PIECE_TYPE_NB] = {0, 0, 1, 1, 2, 4, 0};

enum { T_MATERIAL, T_PSQ, T_MOBILITY, T_PAWNS, T_PASSED, T_PIECES, T_KING, T_NB };
static const char *const TermNames[T_NB] = {"Material", "Placement", "Mobility", "Pawns",
                                            "Passed pawns", "Pieces", "King safety"};

static int distance(int a, int b)
{
    int df = abs(file_of(a) - file_of(b)), dr = abs(rank_of(a) - rank_of(b));
    return df > dr ? df : dr;
}

/* Adds weight idx times n to the term accumulator and, when tracing, n to
 * the side's coefficient of idx. coef is NULL in the normal evaluation, where
 * eval_side is inlined with the constant NULL and the branch disappears. */
static FORCE_INLINE void term(score_t *acc, int *coef, int idx, int n)
{
    *acc += EvalW[idx] * n;
    if (coef)
        coef[idx] += n;
}

static FORCE_INLINE void eval_side(const Position *pos, int us, score_t *t, int *coef)
{
    const int them = !us;
    const bitboard_t occ = pos_occupied(pos);
    const bitboard_t ours = pos->by_color[us];
    const bitboard_t our_pawns = pos_pieces(pos, us, PAWN);
    const bitboard_t their_pawns = pos_pieces(pos, them, PAWN);
    const bitboard_t their_pawn_att = pawn_attacks_bb(them, their_pawns);
    const bitboard_t mob_area = ~(ours & (pos->by_type[PAWN] | pos->by_type[KING])) & ~their_pawn_att;
    const int their_king = pos_king_sq(pos, them), our_king = pos_king_sq(pos, us);
    const bitboard_t king_zone = king_attacks(their_king) | sq_bb(their_king);
    int king_attackers = 0;

    for (int pt = PAWN; pt <= KING; pt++) {
        bitboard_t b = pos_pieces(pos, us, pt);
        while (b) {
            int sq = pop_lsb(&b);
            int rsq = relative_square(us, sq);
            term(&t[T_MATERIAL], coef, W_MATERIAL + pt - PAWN, 1);
            term(&t[T_PSQ], coef, W_PSQT + 64 * (pt - PAWN) + rsq, 1);
            if (pt == PAWN || pt == KING)
                continue;
            bitboard_t att = piece_attacks(pt, sq, occ);
            int mob = popcount(att & mob_area);
            if (att & king_zone)
                king_attackers += pt == QUEEN ? 4 : pt == ROOK ? 3 : 2;
            switch (pt) {
            case KNIGHT: term(&t[T_MOBILITY], coef, W_MOB_KNIGHT + mob, 1); break;
            case BISHOP: term(&t[T_MOBILITY], coef, W_MOB_BISHOP + mob, 1); break;
            case ROOK: {
                term(&t[T_MOBILITY], coef, W_MOB_ROOK + mob, 1);
                bitboard_t fbb = file_bb(file_of(sq));
                if (!(fbb & pos->by_type[PAWN]))
                    term(&t[T_PIECES], coef, W_ROOK_OPEN, 1);
                else if (!(fbb & our_pawns))
                    term(&t[T_PIECES], coef, W_ROOK_HALF_OPEN, 1);
                break;
            }
            case QUEEN: term(&t[T_MOBILITY], coef, W_MOB_QUEEN + mob, 1); break;
            default: break;
            }
        }
    }
    if (more_than_one(pos_pieces(pos, us, BISHOP)))
        term(&t[T_PIECES], coef, W_BISHOP_PAIR, 1);

    /* Pawn structure. */
    bitboard_t b = our_pawns;
    while (b) {
        int sq = pop_lsb(&b), f = file_of(sq);
        bitboard_t adj = (f > 0 ? file_bb(f - 1) : 0) | (f < 7 ? file_bb(f + 1) : 0);
        if (!(adj & our_pawns))
            term(&t[T_PAWNS], coef, W_ISOLATED, 1);
        bitboard_t front = file_bb(f);
        front &= us == WHITE ? ~((sq_bb(sq) << 1) - 1) : (sq_bb(sq) - 1);
        if (front & our_pawns)
            term(&t[T_PAWNS], coef, W_DOUBLED, 1);
        bitboard_t span = front | (adj & (us == WHITE ? ~((sq_bb(sq) << 1) - 1) & ~rank_bb(rank_of(sq))
                                           : (sq_bb(sq) - 1) & ~rank_bb(rank_of(sq))));
        if (!(span & their_pawns) && !(front & our_pawns)) {
            int r = relative_rank(us, sq);
            term(&t[T_PASSED], coef, W_PASSED + r - 1, 1);
            int stop = sq + pawn_push(us);
            term(&t[T_PASSED], coef, W_PASSED_KING_DIST,
                 r * (distance(stop, their_king) - distance(stop, our_king)) / 2);
        }
    }

    /* King: pawn shelter in front of the king, and attackers on the enemy king zone. */
    bitboard_t shelter = pawn_forward(us, king_attacks(our_king) | sq_bb(our_king));
    shelter |= pawn_forward(us, shelter);
    term(&t[T_KING], coef, W_SHELTER, popcount(shelter & our_pawns));
    term(&t[T_KING], coef, W_KING_ATTACK, king_attackers * king_attackers / 4);
}

static int game_phase(const Position *pos)
{
    int ph = 0;
    for (int pt = KNIGHT; pt <= QUEEN; pt++)
        ph += PhaseW[pt] * popcount(pos->by_type[pt]);
    return ph > 24 ? 24 : ph;
}

/* Endgame scale out of 64: material that cannot win, opposite bishops. */
static FORCE_INLINE int scale_factor(const Position *pos, int strong)
{
    int weak = !strong;
    bitboard_t sp = pos_pieces(pos, strong, PAWN);
    bitboard_t strong_np = pos->by_color[strong] & ~pos->by_type[PAWN] & ~pos->by_type[KING];
    if (!sp) {
        /* No pawns: a lone minor, or a material edge of less than a rook. */
        if (!more_than_one(strong_np) && !(strong_np & (pos->by_type[ROOK] | pos->by_type[QUEEN])))
            return 0;
        int diff = 0;
        for (int pt = KNIGHT; pt <= QUEEN; pt++)
            diff += PieceValue[pt] * (popcount(pos_pieces(pos, strong, pt)) - popcount(pos_pieces(pos, weak, pt)));
        if (diff < 400)
            return 16;
    }
    bitboard_t bishops = pos->by_type[BISHOP];
    if (popcount(pos_pieces(pos, WHITE, BISHOP)) == 1 && popcount(pos_pieces(pos, BLACK, BISHOP)) == 1
        && !(pos_occupied(pos) & (pos->by_type[KNIGHT] | pos->by_type[ROOK] | pos->by_type[QUEEN]))
        && popcount(bishops & DARK_SQUARES_BB) == 1)
        return 24;
    return 64;
}

/* The tapered, scaled score from White's view, then the side to move's view
 * plus tempo. eval_from_trace repeats these steps on a trace. */
static int finish(int mg, int eg, int ph, int scale, int side, int tempo)
{
    eg = eg * scale / 64;
    int v = (mg * ph + eg * (24 - ph)) / 24;
    v = side == WHITE ? v : -v;
    return v + tempo;
}

/* Inlined into each caller, so that eval_position's copy is compiled with
 * tr == NULL and has no trace code left. */
static FORCE_INLINE int evaluate(const Position *pos, score_t *terms_w, score_t *terms_b,
                                 EvalTrace *tr)
{
    score_t tw[T_NB] = {0}, tb[T_NB] = {0};
    if (tr) {
        int cw[N_WEIGHTS] = {0}, cb[N_WEIGHTS] = {0};
        eval_side(pos, WHITE, tw, cw);
        eval_side(pos, BLACK, tb, cb);
        for (int i = 0; i < N_WEIGHTS; i++)
            tr->coef[i] = cw[i] - cb[i];
        tr->coef[W_TEMPO] = pos->side == WHITE ? 1 : -1;
        tr->phase = game_phase(pos);
        tr->scale[WHITE] = scale_factor(pos, WHITE);
        tr->scale[BLACK] = scale_factor(pos, BLACK);
        tr->side = pos->side;
        tr->dead = pos_is_dead(pos);
    } else {
        eval_side(pos, WHITE, tw, NULL);
        eval_side(pos, BLACK, tb, NULL);
    }
    score_t total = 0;
    for (int i = 0; i < T_NB; i++)
        total += tw[i] - tb[i];
    if (terms_w)
        for (int i = 0; i < T_NB; i++)
            terms_w[i] = tw[i], terms_b[i] = tb[i];
    if (pos_is_dead(pos))
        return 0;
    int mg = mg_value(total), eg = eg_value(total);
    int strong = eg > 0 ? WHITE : BLACK;
    return finish(mg, eg, game_phase(pos), scale_factor(pos, strong), pos->side,
                  mg_value(EvalW[W_TEMPO]));
}

int eval_position(const Position *pos) { return evaluate(pos, NULL, NULL, NULL); }

int eval_position_traced(const Position *pos, EvalTrace *tr)
{
    return evaluate(pos, NULL, NULL, tr);
}

int eval_from_trace(const EvalTrace *tr, const score_t w[N_WEIGHTS])
{
    if (tr->dead)
        return 0;
    int mg = 0, eg = 0;
    for (int i = 0; i < N_WEIGHTS; i++)
        if (i != W_TEMPO) {
            mg += mg_value(w[i]) * tr->coef[i];
            eg += eg_value(w[i]) * tr->coef[i];
        }
    int strong = eg > 0 ? WHITE : BLACK;
    return finish(mg, eg, tr->phase, tr->scale[strong], tr->side, mg_value(w[W_TEMPO]));
}

void eval_trace(const Position *pos, void (*print)(const char *line))
{
    score_t tw[T_NB], tb[T_NB];
    char line[160];
    int v = evaluate(pos, tw, tb, NULL);
    print("      Term      |    White    |    Black    |    Total");
    print("                |   MG    EG  |   MG    EG  |   MG    EG");
    print("----------------+-------------+-------------+------------");
    for (int i = 0; i < T_NB; i++) {
        score_t d = tw[i] - tb[i];
        snprintf(line, sizeof line, "%15s | %5d %5d | %5d %5d | %5d %5d", TermNames[i],
                 mg_value(tw[i]), eg_value(tw[i]), mg_value(tb[i]), eg_value(tb[i]), mg_value(d),
                 eg_value(d));
        print(line);
    }
    snprintf(line, sizeof line, "Phase: %d/24 (24 = middlegame)", game_phase(pos));
    print(line);
    snprintf(line, sizeof line, "Evaluation: %d cp (side to move, tempo %d included)", v,
             mg_value(EvalW[W_TEMPO]));
    print(line);
    snprintf(line, sizeof line, "Evaluation: %+.2f (white side)",
             (pos->side == WHITE ? v : -v) / 100.0);
    print(line);
}
