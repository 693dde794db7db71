/* Fixed-width typedefs and the enums every module shares: colours, piece types,
 * pieces, squares, castling rights, move encoding limits. */
#ifndef ROKADE_TYPES_H
#define ROKADE_TYPES_H

#include <stdbool.h>
#include <stdint.h>

typedef uint64_t bitboard_t;
typedef uint16_t move_t;

#if defined(__GNUC__) || defined(__clang__)
#define FORCE_INLINE inline __attribute__((always_inline))
#else
#define FORCE_INLINE inline
#endif

enum { MAX_MOVES = 256, MAX_PLY = 246 };

enum { WHITE, BLACK, COLOR_NB };

enum { NO_PIECE_TYPE, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, PIECE_TYPE_NB };

/* The tables are laid out as the board is. */
/* clang-format off */
/* A piece is (colour << 3) | type; 0 is an empty square. */
enum {
    NO_PIECE,
    W_PAWN = 1, W_KNIGHT, W_BISHOP, W_ROOK, W_QUEEN, W_KING,
    B_PAWN = 9, B_KNIGHT, B_BISHOP, B_ROOK, B_QUEEN, B_KING,
    PIECE_NB = 16
};

enum {
    SQ_A1, SQ_B1, SQ_C1, SQ_D1, SQ_E1, SQ_F1, SQ_G1, SQ_H1,
    SQ_A2, SQ_B2, SQ_C2, SQ_D2, SQ_E2, SQ_F2, SQ_G2, SQ_H2,
    SQ_A3, SQ_B3, SQ_C3, SQ_D3, SQ_E3, SQ_F3, SQ_G3, SQ_H3,
    SQ_A4, SQ_B4, SQ_C4, SQ_D4, SQ_E4, SQ_F4, SQ_G4, SQ_H4,
    SQ_A5, SQ_B5, SQ_C5, SQ_D5, SQ_E5, SQ_F5, SQ_G5, SQ_H5,
    SQ_A6, SQ_B6, SQ_C6, SQ_D6, SQ_E6, SQ_F6, SQ_G6, SQ_H6,
    SQ_A7, SQ_B7, SQ_C7, SQ_D7, SQ_E7, SQ_F7, SQ_G7, SQ_H7,
    SQ_A8, SQ_B8, SQ_C8, SQ_D8, SQ_E8, SQ_F8, SQ_G8, SQ_H8,
    SQ_NB, SQ_NONE = 64
};
/* clang-format on */

/* Castling rights: one bit per (colour, side). The rook square of each right is
 * kept in the Position, so Chess960 and standard chess share one code path. */
enum { WHITE_OO = 1, WHITE_OOO = 2, BLACK_OO = 4, BLACK_OOO = 8, CASTLING_NB = 16 };
enum { CR_WK, CR_WQ, CR_BK, CR_BQ, CR_INDEX_NB };

/* Both castling rights of colour c. */
static inline int castling_rights_of(int c)
{
    return c == WHITE ? WHITE_OO | WHITE_OOO : BLACK_OO | BLACK_OOO;
}

static inline int make_piece(int c, int pt) { return (c << 3) | pt; }
static inline int piece_type(int p) { return p & 7; }
static inline int piece_color(int p) { return p >> 3; }
static inline int file_of(int sq) { return sq & 7; }
static inline int rank_of(int sq) { return sq >> 3; }
/* King steps from a to b (Chebyshev distance). */
static inline int square_distance(int a, int b)
{
    int df = file_of(a) - file_of(b), dr = rank_of(a) - rank_of(b);
    df = df < 0 ? -df : df;
    dr = dr < 0 ? -dr : dr;
    return df > dr ? df : dr;
}
static inline int make_square(int file, int rank) { return (rank << 3) | file; }
/* Rank from the point of view of colour c (0 = own back rank). */
static inline int relative_rank(int c, int sq)
{
    return c == WHITE ? rank_of(sq) : 7 - rank_of(sq);
}
static inline int relative_square(int c, int sq) { return c == WHITE ? sq : sq ^ 56; }
static inline int pawn_push(int c) { return c == WHITE ? 8 : -8; }

#endif
