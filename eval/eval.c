/* The hand-crafted evaluation. Not the default since the network (eval/nnue/)
 * came: it is the evaluation of a build without a net and of `EvalFile
 * <hand-crafted>`, and the baseline nets are judged against; what it shares
 * with the net, the known endings, is known.c. Its terms: material, piece-square tables, mobility,
 * pawn structure (with a per-thread pawn hash), passed pawns, bishop pair, rooks on open files and
 * the 7th, outposts, threats, king shelter, storm and attacks, space, tapered by game phase and
 * scaled for drawish endings. Every weight is an entry of EvalW (weights.h); the trace (trace.h)
 * records each weight's coefficient for the tuner. */
#include "eval.h"

#include <stdio.h>
#include <stdlib.h>

#include "../movegen/score.h"
#include "trace.h"

enum {
    T_MATERIAL,
    T_PSQ,
    T_MOBILITY,
    T_PAWNS,
    T_PASSED,
    T_PIECES,
    T_THREATS,
    T_KING,
    T_SPACE,
    T_NB
};
static const char *const TermNames[T_NB] = {"Material", "Placement",    "Mobility",
                                            "Pawns",    "Passed pawns", "Pieces",
                                            "Threats",  "King safety",  "Space"};

/* b and every square in front of it, from c's side. */
static inline bitboard_t fill_forward(int c, bitboard_t b)
{
    if (c == WHITE) {
        b |= b << 8;
        b |= b << 16;
        b |= b << 32;
    } else {
        b |= b >> 8;
        b |= b >> 16;
        b |= b >> 32;
    }
    return b;
}

#define CENTRE_BB (sq_bb(SQ_D4) | sq_bb(SQ_E4) | sq_bb(SQ_D5) | sq_bb(SQ_E5))

/* The flank of a king on file f: files a-c, a-d, a-d, c-f, c-f, e-h, e-h, f-h. */
static const bitboard_t Flank[8] = {
    0x0707070707070707ULL, 0x0F0F0F0F0F0F0F0FULL, 0x0F0F0F0F0F0F0F0FULL, 0x3C3C3C3C3C3C3C3CULL,
    0x3C3C3C3C3C3C3C3CULL, 0xF0F0F0F0F0F0F0F0ULL, 0xF0F0F0F0F0F0F0F0ULL, 0xE0E0E0E0E0E0E0E0ULL,
};

/* Adds weight idx times n to the term accumulator and, when tracing, n to
 * the side's coefficient of idx. coef is NULL in the normal evaluation, where
 * the term functions are inlined with the constant NULL and the branch
 * disappears. */
static FORCE_INLINE void term(score_t *acc, int *coef, int idx, int n)
{
    *acc += EvalW[idx] * n;
    if (coef)
        coef[idx] += n;
}

/* What the term functions share: attack maps, king zones, passed pawns. */
typedef struct {
    bitboard_t att[COLOR_NB][PIECE_TYPE_NB]; /* [c][0]: every square c attacks; [c][pt]: by type */
    bitboard_t att2[COLOR_NB];               /* squares c attacks at least twice */
    bitboard_t zone[COLOR_NB];               /* c's king and its neighbour squares */
    bitboard_t passed;                       /* passed pawns of both colours */
    int kd[COLOR_NB][KD_NB];                 /* king-danger features of c's attack */
} EvalInfo;

/* Pawn structure of one side: what depends on the pawns of both sides only
 * (material and squares of the pawns, isolated, doubled, backward, supported
 * and phalanx pawns, the passed pawns' rank). Returns the passed pawns. */
static FORCE_INLINE bitboard_t eval_pawns(const Position *pos, int us, score_t *t, int *coef)
{
    const int them = !us;
    const bitboard_t our_pawns = pos_pieces(pos, us, PAWN);
    const bitboard_t their_pawns = pos_pieces(pos, them, PAWN);
    const bitboard_t their_pawn_att = pawn_attacks_bb(them, their_pawns);
    bitboard_t passed = 0;
    bitboard_t b = our_pawns;
    while (b) {
        int sq = pop_lsb(&b), f = file_of(sq), r = relative_rank(us, sq);
        term(&t[T_MATERIAL], coef, W_MATERIAL, 1);
        term(&t[T_PSQ], coef, W_PSQT + relative_square(us, sq), 1);
        bitboard_t adj = (f > 0 ? file_bb(f - 1) : 0) | (f < 7 ? file_bb(f + 1) : 0);
        bitboard_t ahead = us == WHITE ? ~((sq_bb(sq) << 1) - 1) : (sq_bb(sq) - 1);
        bitboard_t front = file_bb(f) & ahead;
        bitboard_t beyond = ahead & ~rank_bb(rank_of(sq)); /* the ranks in front */
        if (!(adj & our_pawns))
            term(&t[T_PAWNS], coef, W_ISOLATED, 1);
        else if (!(adj & ~beyond & our_pawns) && (sq_bb(sq + pawn_push(us)) & their_pawn_att))
            term(&t[T_PAWNS], coef, W_BACKWARD, 1);
        if (front & our_pawns)
            term(&t[T_PAWNS], coef, W_DOUBLED, 1);
        if (pawn_attacks(them, sq) & our_pawns)
            term(&t[T_PAWNS], coef, W_SUPPORTED + r - 1, 1);
        if ((shift_east(sq_bb(sq)) | shift_west(sq_bb(sq))) & our_pawns)
            term(&t[T_PAWNS], coef, W_PHALANX + r - 1, 1);
        bitboard_t span = front | (adj & beyond);
        if (!(span & their_pawns) && !(front & our_pawns)) {
            term(&t[T_PASSED], coef, W_PASSED + r - 1, 1);
            passed |= sq_bb(sq);
        } else if (!(front & (our_pawns | their_pawns))) {
            /* A candidate: the enemy pawns that guard its path (sentries) can
             * be met by as many own pawns beside or behind it. */
            int sentries = popcount(adj & beyond & their_pawns);
            int helpers = popcount(adj & ~beyond & our_pawns);
            if (helpers >= sentries)
                term(&t[T_PASSED], coef, W_CANDIDATE + r - 1, 1);
        }
    }
    return passed;
}

/* The pieces of one side (knights to king): material, squares, mobility,
 * rooks' files, outposts, attacks on the enemy king zone. Fills ei->att[us]. */
static FORCE_INLINE void eval_pieces(const Position *pos, int us, EvalInfo *ei, score_t *t,
                                     int *coef)
{
    const int them = !us;
    const bitboard_t occ = pos_occupied(pos);
    const bitboard_t ours = pos->by_color[us];
    const bitboard_t our_pawns = pos_pieces(pos, us, PAWN);
    const bitboard_t their_pawns = pos_pieces(pos, them, PAWN);
    const bitboard_t mob_area = ~(ours & (pos->by_type[PAWN] | pos->by_type[KING]))
                                & ~ei->att[them][PAWN];
    const bitboard_t their_zone = ei->zone[them];
    const bitboard_t rank7 = us == WHITE ? RANK_7_BB : RANK_2_BB;
    const bitboard_t rank8 = us == WHITE ? RANK_8_BB : RANK_1_BB;
    /* The enemy half (relative ranks 5..8); the squares no enemy pawn can
     * ever attack; outposts: those of ranks 5..7 an own pawn defends. */
    const bitboard_t enemy_half = us == WHITE ? RANK_5_BB | RANK_6_BB | RANK_7_BB | RANK_8_BB
                                              : RANK_4_BB | RANK_3_BB | RANK_2_BB | RANK_1_BB;
    const bitboard_t pawn_safe = ~pawn_attacks_bb(them, fill_forward(them, their_pawns));
    const bitboard_t outposts = enemy_half & ~rank8 & pawn_safe & ei->att[us][PAWN];
    const bool seventh = (their_pawns & rank7) || (pos_pieces(pos, them, KING) & rank8);
    const int our_king = pos_king_sq(pos, us);
    int king_attackers = 0;

    for (int pt = KNIGHT; pt <= KING; pt++) {
        bitboard_t b = pos_pieces(pos, us, pt);
        while (b) {
            int sq = pop_lsb(&b);
            term(&t[T_MATERIAL], coef, W_MATERIAL + pt - PAWN, 1);
            term(&t[T_PSQ], coef, W_PSQT + 64 * (pt - PAWN) + relative_square(us, sq), 1);
            if (pt == KING)
                continue;
            bitboard_t att = piece_attacks(pt, sq, occ);
            ei->att2[us] |= ei->att[us][0] & att;
            ei->att[us][0] |= att;
            ei->att[us][pt] |= att;
            int mob = popcount(att & mob_area);
            if (att & their_zone) {
                const int n = popcount(att & their_zone);
                king_attackers += pt == QUEEN ? 4 : pt == ROOK ? 3 : 2;
                term(&t[T_KING], coef, W_KING_ZONE_ATT + pt - KNIGHT, n);
                ei->kd[us][KD_ATTACKERS + pt - KNIGHT]++;
                ei->kd[us][KD_ZONE] += n;
            }
            if (pt <= BISHOP) {
                if (pawn_forward(us, sq_bb(sq)) & pos->by_type[PAWN])
                    term(&t[T_PIECES], coef, W_MINOR_BEHIND_PAWN, 1);
                term(&t[T_PIECES], coef, W_KING_PROTECTOR + pt - KNIGHT,
                     square_distance(sq, our_king));
            }
            switch (pt) {
            case KNIGHT:
                term(&t[T_MOBILITY], coef, W_MOB_KNIGHT + mob, 1);
                if (sq_bb(sq) & outposts)
                    term(&t[T_PIECES], coef, W_OUTPOST_KNIGHT, 1);
                break;
            case BISHOP:
                term(&t[T_MOBILITY], coef, W_MOB_BISHOP + mob, 1);
                term(&t[T_PIECES], coef, W_BISHOP_PAWNS,
                     popcount(our_pawns
                              & ((sq_bb(sq) & DARK_SQUARES_BB) ? DARK_SQUARES_BB
                                                               : ~DARK_SQUARES_BB)));
                if (sq_bb(sq) & outposts)
                    term(&t[T_PIECES], coef, W_OUTPOST_BISHOP, 1);
                if (more_than_one(bishop_attacks(sq, pos->by_type[PAWN]) & CENTRE_BB))
                    term(&t[T_PIECES], coef, W_LONG_DIAGONAL, 1);
                break;
            case ROOK: {
                term(&t[T_MOBILITY], coef, W_MOB_ROOK + mob, 1);
                bitboard_t fbb = file_bb(file_of(sq));
                if (fbb & pos->by_type[QUEEN])
                    term(&t[T_PIECES], coef, W_ROOK_QUEEN_FILE, 1);
                if (mob <= 3) {
                    const int kf = file_of(our_king);
                    if ((kf < 4) == (file_of(sq) < kf))
                        term(&t[T_PIECES], coef, W_TRAPPED_ROOK,
                             1 + !(pos_st(pos)->castling & castling_rights_of(us)));
                }
                if (!(fbb & pos->by_type[PAWN]))
                    term(&t[T_PIECES], coef, W_ROOK_OPEN, 1);
                else if (!(fbb & our_pawns))
                    term(&t[T_PIECES], coef, W_ROOK_HALF_OPEN, 1);
                if ((sq_bb(sq) & rank7) && seventh)
                    term(&t[T_PIECES], coef, W_ROOK_SEVENTH, 1);
                break;
            }
            case QUEEN:
                term(&t[T_MOBILITY], coef, W_MOB_QUEEN + mob, 1);
                if (sq_bb(sq) & enemy_half & pawn_safe)
                    term(&t[T_PIECES], coef, W_QUEEN_INFILTRATION, 1);
                break;
            default: break;
            }
        }
    }
    if (more_than_one(pos_pieces(pos, us, BISHOP)))
        term(&t[T_PIECES], coef, W_BISHOP_PAIR, 1);
    term(&t[T_KING], coef, W_KING_ATTACK, king_attackers * king_attackers / 4);
}

/* What needs both sides' attack maps: passed pawns' paths and king
 * distances, threats, king safety, space. */
static FORCE_INLINE void eval_attacks(const Position *pos, int us, EvalInfo *ei, score_t *t,
                                      int *coef)
{
    const int them = !us;
    const bitboard_t occ = pos_occupied(pos);
    const bitboard_t ours = pos->by_color[us], theirs = pos->by_color[them];
    const bitboard_t our_pawns = pos_pieces(pos, us, PAWN);
    const int their_king = pos_king_sq(pos, them), our_king = pos_king_sq(pos, us);

    /* Passed pawns: distance of the kings to the stop square, blocked, free path. */
    bitboard_t b = ei->passed & our_pawns;
    while (b) {
        int sq = pop_lsb(&b), r = relative_rank(us, sq);
        int stop = sq + pawn_push(us);
        term(&t[T_PASSED], coef, W_PASSED_KING_DIST,
             r * (square_distance(stop, their_king) - square_distance(stop, our_king)) / 2);
        bitboard_t path = fill_forward(us, sq_bb(stop));
        if (sq_bb(stop) & occ)
            term(&t[T_PASSED], coef, W_PASSED_BLOCKED + r - 1, 1);
        else if (!(path & (occ | ei->att[them][0])))
            term(&t[T_PASSED], coef, W_PASSED_FREE + r - 1, 1);
    }

    /* Threats on enemy pieces. */
    const bitboard_t minors = ei->att[us][KNIGHT] | ei->att[us][BISHOP];
    const bitboard_t their_rooks = pos_pieces(pos, them, ROOK);
    const bitboard_t their_queens = pos_pieces(pos, them, QUEEN);
    const bitboard_t by_pawn = ei->att[us][PAWN] & theirs;
    if (by_pawn)
        for (int pt = KNIGHT; pt <= QUEEN; pt++)
            term(&t[T_THREATS], coef, W_THREAT_BY_PAWN + pt - KNIGHT,
                 popcount(by_pawn & pos->by_type[pt]));
    term(&t[T_THREATS], coef, W_THREAT_BY_MINOR, popcount(minors & their_rooks));
    term(&t[T_THREATS], coef, W_THREAT_BY_MINOR + 1, popcount(minors & their_queens));
    term(&t[T_THREATS], coef, W_THREAT_BY_ROOK, popcount(ei->att[us][ROOK] & their_queens));
    const bitboard_t their_pieces = theirs & ~pos->by_type[PAWN] & ~pos->by_type[KING];
    term(&t[T_THREATS], coef, W_HANGING,
         popcount(their_pieces & ei->att[us][0] & ~ei->att[them][0]));
    /* Safe pawn pushes that would attack a piece. */
    const bitboard_t third = us == WHITE ? RANK_3_BB : RANK_6_BB;
    bitboard_t push = pawn_forward(us, our_pawns) & ~occ;
    push |= pawn_forward(us, push & third) & ~occ;
    push &= ~ei->att[them][PAWN] & (ei->att[us][0] | ~ei->att[them][0]);
    term(&t[T_THREATS], coef, W_THREAT_PUSH, popcount(pawn_attacks_bb(us, push) & their_pieces));
    /* Weak enemies attacked by minors, rooks, the king. */
    const bitboard_t strong = ei->att[them][PAWN] | (ei->att2[them] & ~ei->att2[us]);
    const bitboard_t weak_enemies = theirs & ~pos->by_type[KING] & ei->att[us][0] & ~strong;
    if (weak_enemies) {
        for (int pt = PAWN; pt <= BISHOP; pt++) {
            const bitboard_t v = weak_enemies & pos->by_type[pt];
            term(&t[T_THREATS], coef, W_THREAT_MINOR_WEAK + pt - PAWN, popcount(v & minors));
            term(&t[T_THREATS], coef, W_THREAT_ROOK_WEAK + pt - PAWN,
                 popcount(v & ei->att[us][ROOK]));
        }
        term(&t[T_THREATS], coef, W_THREAT_BY_KING, popcount(weak_enemies & ei->att[us][KING]));
        term(&t[T_THREATS], coef, W_WEAK_QUEEN_PROT, popcount(weak_enemies & ei->att[them][QUEEN]));
    }
    term(&t[T_THREATS], coef, W_RESTRICTED, popcount(ei->att[them][0] & ei->att[us][0] & ~strong));
    /* Squares from which we could attack a lone enemy queen. */
    if (their_queens && !more_than_one(their_queens)) {
        const int qsq = lsb(their_queens);
        const bitboard_t safe = ~(ours & (pos->by_type[PAWN] | pos->by_type[KING])) & ~strong;
        term(&t[T_THREATS], coef, W_KNIGHT_ON_QUEEN,
             popcount(knight_attacks(qsq) & ei->att[us][KNIGHT] & safe));
        const bitboard_t slide = (bishop_attacks(qsq, occ) & ei->att[us][BISHOP])
                                 | (rook_attacks(qsq, occ) & ei->att[us][ROOK]);
        term(&t[T_THREATS], coef, W_SLIDER_ON_QUEEN, popcount(slide & safe & ei->att2[us]));
    }

    /* King safety: safe checks, weak squares of the zone, pawn storm, and our own shelter. */
    const bitboard_t safe = ~ours & ~ei->att[them][0];
    const bitboard_t bchk = bishop_attacks(their_king, occ), rchk = rook_attacks(their_king, occ);
    int *const kd = ei->kd[us];
    kd[KD_CHECKS + 0] = popcount(knight_attacks(their_king) & ei->att[us][KNIGHT] & safe);
    kd[KD_CHECKS + 1] = popcount(bchk & ei->att[us][BISHOP] & safe);
    kd[KD_CHECKS + 2] = popcount(rchk & ei->att[us][ROOK] & safe);
    kd[KD_CHECKS + 3] = popcount((bchk | rchk) & ei->att[us][QUEEN] & safe);
    for (int k = 0; k < 4; k++)
        term(&t[T_KING], coef, W_SAFE_CHECK + k, kd[KD_CHECKS + k]);
    const bitboard_t weak = ei->att[us][0] & ~ei->att2[them]
                            & (~ei->att[them][0] | ei->att[them][KING] | ei->att[them][QUEEN]);
    kd[KD_WEAK] = popcount(weak & ei->zone[them]);
    term(&t[T_KING], coef, W_KING_ZONE_WEAK, kd[KD_WEAK]);
    const int kf = file_of(their_king), kr = relative_rank(us, their_king);
    const bitboard_t king_files = file_bb(kf) | (kf > 0 ? file_bb(kf - 1) : 0)
                                  | (kf < 7 ? file_bb(kf + 1) : 0);
    const bitboard_t storm = our_pawns & king_files;
    const bitboard_t their_pawns = pos_pieces(pos, them, PAWN);
    kd[KD_BIAS] = 1;
    kd[KD_NO_QUEEN] = !pos_pieces(pos, us, QUEEN);
    kd[KD_OPEN_FILES] = 0;
    for (int f = kf > 0 ? kf - 1 : 0; f <= (kf < 7 ? kf + 1 : 7); f++)
        kd[KD_OPEN_FILES] += !(file_bb(f) & their_pawns);
    const bitboard_t flank = Flank[kf];
    const bitboard_t camp = us == WHITE ? ~(RANK_1_BB | RANK_2_BB | RANK_3_BB)
                                        : ~(RANK_8_BB | RANK_7_BB | RANK_6_BB);
    const bitboard_t flank_att = ei->att[us][0] & flank & camp;
    kd[KD_FLANK] = popcount(flank_att) + popcount(flank_att & ei->att2[us]);
    term(&t[T_KING], coef, W_FLANK_ATTACK, kd[KD_FLANK]);
    t[T_KING] += king_danger(kd, EvalW);
    if (!(Flank[file_of(our_king)] & pos->by_type[PAWN]))
        term(&t[T_KING], coef, W_PAWNLESS_FLANK, 1);
    for (int d = 1; d <= 4 && d <= kr; d++) {
        int r = us == WHITE ? kr - d : 7 - (kr - d);
        term(&t[T_KING], coef, W_STORM + d - 1, popcount(storm & rank_bb(r)));
    }
    bitboard_t shelter = pawn_forward(us, ei->zone[us]);
    shelter |= pawn_forward(us, shelter);
    term(&t[T_KING], coef, W_SHELTER, popcount(shelter & our_pawns));
    /* Shelter by file: the nearest own pawn in front of our king on each file. */
    const int okf = file_of(our_king), okr = relative_rank(us, our_king);
    const bitboard_t in_front = fill_forward(us, pawn_forward(us, rank_bb(rank_of(our_king))));
    for (int f = okf > 0 ? okf - 1 : 0; f <= (okf < 7 ? okf + 1 : 7); f++) {
        bitboard_t p = our_pawns & file_bb(f) & in_front;
        int d = p ? relative_rank(us, us == WHITE ? lsb(p) : msb(p)) - okr : 7;
        term(&t[T_KING], coef, W_SHELTER_FILE + (f == okf ? 7 : 0) + d - 1, 1);
    }

    /* Space: safe central squares on our side, doubly behind our pawns. */
    const bitboard_t centre = (file_bb(2) | file_bb(3) | file_bb(4) | file_bb(5))
                              & (us == WHITE ? RANK_2_BB | RANK_3_BB | RANK_4_BB
                                             : RANK_7_BB | RANK_6_BB | RANK_5_BB);
    const bitboard_t space = centre & ~our_pawns & ~ei->att[them][PAWN];
    const bitboard_t behind = space & fill_forward(them, our_pawns);
    const int pieces = popcount(ours & ~pos->by_type[PAWN] & ~pos->by_type[KING]);
    term(&t[T_SPACE], coef, W_SPACE, (popcount(space) + popcount(behind)) * pieces / 4);
}

/* Attack maps of the pawns and kings, and the king zones. */
static FORCE_INLINE void init_info(const Position *pos, EvalInfo *ei)
{
    for (int c = WHITE; c <= BLACK; c++) {
        bitboard_t pawns = pos_pieces(pos, c, PAWN);
        int ksq = pos_king_sq(pos, c);
        bitboard_t pa = pawn_attacks_bb(c, pawns), ka = king_attacks(ksq);
        ei->att[c][PAWN] = pa;
        ei->att[c][KING] = ka;
        ei->att[c][0] = pa | ka;
        ei->att2[c] = (pa & ka) | (pawn_east_captures(c, pawns) & pawn_west_captures(c, pawns));
        ei->att[c][KNIGHT] = ei->att[c][BISHOP] = ei->att[c][ROOK] = ei->att[c][QUEEN] = 0;
        ei->zone[c] = ka | sq_bb(ksq);
        for (int k = 0; k < KD_NB; k++)
            ei->kd[c][k] = 0;
    }
}

/* The complexity features (weights.h, W_COMPLEXITY). */
static FORCE_INLINE void complexity_features(const Position *pos, bitboard_t passed, int *f)
{
    const bitboard_t pawns = pos->by_type[PAWN];
    const bitboard_t queenside = file_bb(0) | file_bb(1) | file_bb(2) | file_bb(3);
    const int wk = pos_king_sq(pos, WHITE), bk = pos_king_sq(pos, BLACK);
    f[CX_BIAS] = 1;
    f[CX_PAWNS] = popcount(pawns);
    f[CX_PASSED] = popcount(passed);
    f[CX_BOTH_WINGS] = (pawns & queenside) && (pawns & ~queenside);
    f[CX_PAWNS_ONLY] = !(pos_occupied(pos) & ~pawns & ~pos->by_type[KING]);
    f[CX_OUTFLANKING] = abs(file_of(wk) - file_of(bk)) - abs(rank_of(wk) - rank_of(bk));
}

/* Endgame scale out of 64: material that cannot win (known.c), opposite
 * bishops. */
static FORCE_INLINE int scale_factor(const Position *pos, int strong)
{
    const int material = eval_material_scale(pos, strong);
    if (material < 64)
        return material;
    bitboard_t bishops = pos->by_type[BISHOP];
    if (popcount(pos_pieces(pos, WHITE, BISHOP)) == 1
        && popcount(pos_pieces(pos, BLACK, BISHOP)) == 1
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

/* The pawn hash: eval_pawns of both sides (White's minus Black's) and the
 * passed pawns, by pawn key, in the caller's table. A zeroed entry is right
 * for key 0, the position without pawns. */
#ifndef EVAL_MATERIAL_PST_ONLY
static FORCE_INLINE bitboard_t probe_pawns(const Position *pos, PawnTable *pawns, score_t *score)
{
    const uint64_t key = pos_st(pos)->pawn_key;
    PawnEntry *e = &pawns->entries[key & (PAWN_HASH_SIZE - 1)];
    if (e->key != key) {
        score_t pw[T_NB] = {0}, pb[T_NB] = {0};
        e->key = key;
        e->passed = eval_pawns(pos, WHITE, pw, NULL) | eval_pawns(pos, BLACK, pb, NULL);
        e->score = 0;
        for (int i = 0; i < T_NB; i++)
            e->score += pw[i] - pb[i];
    }
    *score = e->score;
    return e->passed;
}

#else
/* A comparison build (make CFLAGS=-DEVAL_MATERIAL_PST_ONLY, eval/README.md):
 * material and piece-square tables only, tapered and scaled as usual. */
static FORCE_INLINE score_t material_pst(const Position *pos)
{
    score_t s = 0;
    for (int c = WHITE; c <= BLACK; c++)
        for (int pt = PAWN; pt <= KING; pt++) {
            bitboard_t b = pos_pieces(pos, c, pt);
            while (b) {
                int sq = relative_square(c, pop_lsb(&b));
                score_t v = EvalW[W_MATERIAL + pt - PAWN] + EvalW[W_PSQT + 64 * (pt - PAWN) + sq];
                s += c == WHITE ? v : -v;
            }
        }
    return s;
}
#endif

/* Inlined into each caller, so that eval_position's copy is compiled with
 * tr == NULL and has no trace code left. The pawn hash serves only the plain
 * evaluation (a pawn table given, with no trace and no table of terms). */
static FORCE_INLINE int evaluate(const Position *pos, score_t *terms_w, score_t *terms_b,
                                 EvalTrace *tr, PawnTable *pawns)
{
    score_t tw[T_NB] = {0}, tb[T_NB] = {0};
    score_t total = 0;
    EvalInfo ei;
    if (tr) {
        init_info(pos, &ei);
        int cw[N_WEIGHTS] = {0}, cb[N_WEIGHTS] = {0};
        ei.passed = eval_pawns(pos, WHITE, tw, cw) | eval_pawns(pos, BLACK, tb, cb);
        eval_pieces(pos, WHITE, &ei, tw, cw);
        eval_pieces(pos, BLACK, &ei, tb, cb);
        eval_attacks(pos, WHITE, &ei, tw, cw);
        eval_attacks(pos, BLACK, &ei, tb, cb);
        for (int i = 0; i < N_WEIGHTS; i++)
            tr->coef[i] = cw[i] - cb[i];
        for (int c = WHITE; c <= BLACK; c++)
            for (int k = 0; k < KD_NB; k++)
                tr->kd[c][k] = ei.kd[c][k];
        tr->coef[W_TEMPO] = pos->side == WHITE ? 1 : -1;
        complexity_features(pos, ei.passed, tr->cx);
        tr->phase = eval_phase(pos);
        tr->scale[WHITE] = scale_factor(pos, WHITE);
        tr->scale[BLACK] = scale_factor(pos, BLACK);
        tr->side = pos->side;
        tr->dead = pos_is_dead(pos);
        tr->fixed = tr->dead ? 0 : eval_lone_king(pos);
        if (tr->fixed && pos->side == BLACK)
            tr->fixed = -tr->fixed;
    } else {
#ifdef EVAL_MATERIAL_PST_ONLY
        (void)pawns, (void)ei;
        total = material_pst(pos);
#else
        init_info(pos, &ei);
        if (pawns)
            ei.passed = probe_pawns(pos, pawns, &total);
        else
            ei.passed = eval_pawns(pos, WHITE, tw, NULL) | eval_pawns(pos, BLACK, tb, NULL);
        eval_pieces(pos, WHITE, &ei, tw, NULL);
        eval_pieces(pos, BLACK, &ei, tb, NULL);
        eval_attacks(pos, WHITE, &ei, tw, NULL);
        eval_attacks(pos, BLACK, &ei, tb, NULL);
#endif
    }
    for (int i = 0; i < T_NB; i++)
        total += tw[i] - tb[i];
    if (terms_w)
        for (int i = 0; i < T_NB; i++)
            terms_w[i] = tw[i], terms_b[i] = tb[i];
    if (pos_is_dead(pos))
        return 0;
    const int lk = eval_lone_king(pos);
    if (lk)
        return pos->side == WHITE ? lk : -lk;
    int mg = mg_value(total), eg = eg_value(total);
#ifndef EVAL_MATERIAL_PST_ONLY
    int cx[CX_NB];
    complexity_features(pos, ei.passed, cx);
    complexity(&mg, &eg, cx, EvalW);
#endif
    int strong = eg > 0 ? WHITE : BLACK;
    return finish(mg, eg, eval_phase(pos), scale_factor(pos, strong), pos->side,
                  mg_value(EvalW[W_TEMPO]));
}

int eval_position(const Position *pos, PawnTable *pawns)
{
    return evaluate(pos, NULL, NULL, NULL, pawns);
}

int eval_position_traced(const Position *pos, EvalTrace *tr)
{
    return evaluate(pos, NULL, NULL, tr, NULL);
}

int eval_from_trace(const EvalTrace *tr, const score_t w[N_WEIGHTS])
{
    if (tr->dead)
        return 0;
    if (tr->fixed)
        return tr->fixed;
    int mg = 0, eg = 0;
    for (int i = 0; i < N_WEIGHTS; i++)
        if (i != W_TEMPO) {
            mg += mg_value(w[i]) * tr->coef[i];
            eg += eg_value(w[i]) * tr->coef[i];
        }
    const score_t kw = king_danger(tr->kd[WHITE], w), kb = king_danger(tr->kd[BLACK], w);
    mg += mg_value(kw) - mg_value(kb);
    eg += eg_value(kw) - eg_value(kb);
    complexity(&mg, &eg, tr->cx, w);
    int strong = eg > 0 ? WHITE : BLACK;
    return finish(mg, eg, tr->phase, tr->scale[strong], tr->side, mg_value(w[W_TEMPO]));
}

void eval_trace(const Position *pos, void (*print)(const char *line))
{
    score_t tw[T_NB], tb[T_NB];
    char line[160];
    int v = evaluate(pos, tw, tb, NULL, NULL);
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
    snprintf(line, sizeof line, "Phase: %d/24 (24 = middlegame)", eval_phase(pos));
    print(line);
    int mg = 0, eg = 0;
    for (int i = 0; i < T_NB; i++) {
        mg += mg_value(tw[i] - tb[i]);
        eg += eg_value(tw[i] - tb[i]);
    }
    EvalTrace tr;
    eval_position_traced(pos, &tr);
    int mg2 = mg, eg2 = eg;
    complexity(&mg2, &eg2, tr.cx, EvalW);
    snprintf(line, sizeof line, "Complexity: MG %d -> %d, EG %d -> %d", mg, mg2, eg, eg2);
    print(line);
    if (pos_is_dead(pos)) {
        print("Dead position: no sequence of legal moves can mate (5.2.2), scored 0");
        snprintf(line, sizeof line, "Evaluation: %d cp (side to move)", v);
    } else if (eval_lone_king(pos)) {
        print("Won ending against a lone king: known win + material + mating pattern,");
        print("the terms above are not used");
        snprintf(line, sizeof line, "Evaluation: %d cp (side to move)", v);
    } else {
        snprintf(line, sizeof line, "Evaluation: %d cp (side to move, tempo %d included)", v,
                 mg_value(EvalW[W_TEMPO]));
    }
    print(line);
    snprintf(line, sizeof line, "Evaluation: %+.2f (white side)",
             (pos->side == WHITE ? v : -v) / 100.0);
    print(line);
}
