/* The Position: bitboards and mailbox, side to move, castling rights (kept as
 * rook squares, for Chess960), e.p. square, counters, Zobrist keys, checkers
 * and pins; FEN parsing and printing with full validation; make/unmake and the
 * null move; attack queries; repetition history and the FIDE game state. */
#ifndef ROKADE_POSITION_H
#define ROKADE_POSITION_H

#include <stddef.h>

#include "attacks.h"
#include "move.h"
#include "zobrist.h"

/* States kept per Position: the game history (compacted when it grows long;
 * older states cannot matter for repetition after the last irreversible move)
 * plus room for the deepest search line. */
enum { MAX_HISTORY = 1024, HISTORY_KEEP = 320 };

typedef struct {
    uint64_t key;                    /* Zobrist key; the e.p. file only when e.p. is legal */
    uint64_t pawn_key;               /* pawns only */
    uint64_t non_pawn_key[COLOR_NB]; /* each side's pieces but pawns (kings too) */
    bitboard_t checkers;             /* pieces giving check to the side to move */
    bitboard_t pinned;               /* side to move's pieces pinned to its king */
    int rule50;                      /* halfmove clock */
    int plies_from_null;
    move_t move;      /* the move that led here (MOVE_NONE at the root) */
    uint8_t castling; /* WHITE_OO | ... */
    uint8_t ep;       /* square behind a pawn that just moved two, or SQ_NONE */
    bool ep_legal;    /* an e.p. capture is legal (so it is in the key) */
    uint8_t captured; /* piece captured by `move` */
} StateInfo;

typedef struct Position {
    bitboard_t by_type[PIECE_TYPE_NB]; /* [0] = every occupied square */
    bitboard_t by_color[COLOR_NB];
    uint8_t board[SQ_NB];
    int side;
    int game_ply;                             /* plies since the game start, for the move number */
    bool chess960;                            /* UCI castling notation king-takes-rook */
    bool shredder_castling;                   /* print castling as file letters (HAha) */
    uint8_t castle_rook[CR_INDEX_NB];         /* rook square of each right */
    uint8_t castle_mask[SQ_NB];               /* rights kept when a piece leaves or enters sq */
    bitboard_t castle_path[CR_INDEX_NB];      /* must be empty but for king and rook */
    bitboard_t castle_king_path[CR_INDEX_NB]; /* squares the king crosses, incl. its target */
    int hply;                                 /* index of the current state in hist */
    StateInfo hist[MAX_HISTORY];
} Position;

/* The pieces a move takes off squares and puts on squares, as make-move
 * reports them to what follows the board piece by piece (the net's
 * accumulators): at most two of each (castling; a capture by a promotion
 * is two off, one on). The moving piece (the king, in castling) comes
 * first of each. */
typedef struct {
    uint8_t piece, sq;
} PieceSq;

typedef struct {
    uint8_t n_off, n_on;
    PieceSq off[2], on[2];
} PieceDelta;

typedef enum {
    GAME_ONGOING,
    GAME_CHECKMATE,
    GAME_STALEMATE,
    GAME_DEAD_POSITION,
    GAME_FIVEFOLD,
    GAME_75_MOVES,
    GAME_CLAIM_THREEFOLD,
    GAME_CLAIM_50_MOVES,
} GameState;

#define START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

/* Largest halfmove clock and fullmove number a FEN may give. */
enum { FEN_COUNTER_MAX = 100000000 };

/* Call once at start-up (attack tables and Zobrist keys). */
void movegen_init(void);

/* Sets the position from a FEN (KQkq, X-FEN or Shredder-FEN castling). On an
 * error returns false, writes a message naming the field and the reason to err
 * and leaves pos unchanged. */
bool pos_set_fen(Position *pos, const char *fen, bool chess960, char *err, size_t errlen);
void pos_set_startpos(Position *pos);
/* Writes the FEN (at most 100 bytes with the terminator). */
void pos_get_fen(const Position *pos, char *buf, size_t len);

void pos_make_move(Position *pos, move_t m);
/* The same, and says in *delta which pieces the move took off and put on. */
void pos_make_move_delta(Position *pos, move_t m, PieceDelta *delta);
void pos_unmake_move(Position *pos, move_t m);
void pos_make_null(Position *pos);
void pos_unmake_null(Position *pos);
/* Makes a move of the game (not of a search): keeps the history bounded. */
void pos_make_game_move(Position *pos, move_t m);

/* Keys computed from scratch (tests compare them with the incremental ones). */
uint64_t pos_compute_key(const Position *pos);
uint64_t pos_compute_pawn_key(const Position *pos);
uint64_t pos_compute_non_pawn_key(const Position *pos, int c);
/* Whether everything the position keeps agrees: bitboards with each other
 * and with the mailbox, one king each, no pawn on a first or last rank, the
 * other king safe, castling rooks in place, a possible e.p. square, and
 * checkers, pins, e.p. legality and keys equal to a computation from scratch.
 * Debug builds (no NDEBUG) assert it after every make and unmake. */
bool pos_is_consistent(const Position *pos);

/* Attackers of either colour to sq with the given occupancy. */
bitboard_t pos_attackers_to(const Position *pos, int sq, bitboard_t occ);
bool pos_square_attacked(const Position *pos, int sq, int by, bitboard_t occ);
/* Every square a piece of side `by` attacks (sliders through the current
 * occupancy), whatever stands on it. */
bitboard_t pos_attacked_by(const Position *pos, int by);
/* Whether a pawn of the side to move on `from` may legally capture e.p. */
bool pos_ep_capture_legal(const Position *pos, int from);

/* Earlier occurrences of the current position (same key, same side to move)
 * since the last irreversible move. */
int pos_repetitions(const Position *pos);
/* K v K, K+minor v K, or only bishops all on squares of one colour. */
bool pos_is_dead(const Position *pos);
/* Whether `side` could checkmate the other king by some series of legal
 * moves (FIDE 6.9 on a flag fall, 7.5.5 after a second illegal move), by
 * material: false for a bare king, a lone minor piece against a bare king,
 * and bishops all on one colour against a king with at most bishops of that
 * colour; true otherwise (pawn-locked positions are not looked into). */
bool pos_side_can_mate(const Position *pos, int side);
GameState pos_game_state(const Position *pos);
const char *game_state_text(GameState gs);

static inline const StateInfo *pos_st(const Position *pos) { return &pos->hist[pos->hply]; }
static inline bitboard_t pos_pieces(const Position *pos, int c, int pt)
{
    return pos->by_color[c] & pos->by_type[pt];
}
static inline bitboard_t pos_occupied(const Position *pos) { return pos->by_type[0]; }
static inline int pos_king_sq(const Position *pos, int c) { return lsb(pos_pieces(pos, c, KING)); }
static inline int pos_piece_on(const Position *pos, int sq) { return pos->board[sq]; }
static inline uint64_t pos_key(const Position *pos) { return pos->hist[pos->hply].key; }
static inline bitboard_t pos_checkers(const Position *pos) { return pos->hist[pos->hply].checkers; }
static inline bool pos_in_check(const Position *pos) { return pos->hist[pos->hply].checkers != 0; }
static inline int pos_rule50(const Position *pos) { return pos->hist[pos->hply].rule50; }
static inline int pos_fullmove(const Position *pos) { return 1 + pos->game_ply / 2; }
static inline bool pos_is_capture(const Position *pos, move_t m)
{
    return (pos->board[move_to(m)] != NO_PIECE && move_kind(m) != MOVE_CASTLING)
           || move_kind(m) == MOVE_EN_PASSANT;
}
/* The key after m, for prefetching the table's bucket before the move is
 * made: exact for a move or capture by a piece that changes no castling
 * right and makes no e.p. right, the usual case; castling, e.p.,
 * promotions and changed rights give another key (a prefetch of the wrong
 * bucket costs nothing but the prefetch). */
static inline uint64_t pos_key_after(const Position *pos, move_t m)
{
    const int from = move_from(m), to = move_to(m), piece = pos->board[from];
    uint64_t k = pos_key(pos) ^ ZobSide ^ ZobPiece[piece][from] ^ ZobPiece[piece][to];
    if (pos->board[to] != NO_PIECE)
        k ^= ZobPiece[pos->board[to]][to];
    if (pos_st(pos)->ep_legal)
        k ^= ZobEp[pos_st(pos)->ep & 7];
    return k;
}

#endif
