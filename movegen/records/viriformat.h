/* The game format for training data, byte for byte the public *viriformat*
 * of Viridithas and the bullet trainer: each game is stored once as its start
 * position and, for every ply, the move played and the search score, about
 * 4 bytes a position instead of 32. Positions are filtered when they are read
 * (VfFilter), so a filter can change without new games. Little-endian:
 *
 *   game   = header, then one entry per ply, then 4 zero bytes
 *   header = a 32-byte packed record (packed.h, marlinformat): the start
 *            position and, in byte 30, the game's result from White's view
 *            (0 Black won, 1 draw, 2 White won); the score field is 0 and
 *            byte 31 is Rokade's Chess960 flag (other writers leave it 0)
 *   entry  = move (u16), score (i16): the move played in the position and
 *            the search score there, centipawns from White's view
 *   move   = from (bits 0-5), to (6-11), promotion piece (12-13: knight 0 ..
 *            queen 3), kind (14-15: 0 normal, 1 e.p., 2 castling, 3
 *            promotion); castling is king-takes-own-rook, as in Chess960
 *
 * A header whose occupancy (bytes 0-7) is 0 opens an extension record
 * instead of a game: u16 id, u16 length N, N bytes, 4 zero bytes; the reader
 * skips it.
 *
 * Its writer is RecordViriformat (record.h: `datagen`, `datagen pgn`); it
 * keeps every position, and the reader filters them. */
#ifndef ROKADE_VIRIFORMAT_H
#define ROKADE_VIRIFORMAT_H

#include <stddef.h>

#include "packed.h"
#include "record.h"

enum {
    VF_HEADER_SIZE = PACKED_SIZE,
    VF_ENTRY_SIZE = 4,
    VF_MAX_PLIES = 10000,  /* the reader refuses longer games */
    VF_MATE_BOUND = 31000, /* |score| at or above: a mate (or tablebase) score */
};

/* ---- Moves ------------------------------------------------------------- */

uint16_t vf_move_encode(move_t m);
/* The move in Rokade's encoding; not checked for legality. */
move_t vf_move_decode(uint16_t v);

/* ---- Reading ----------------------------------------------------------- */

/* Which positions the reader skips; every field is the caller's to set. */
typedef struct {
    int min_ply;        /* game plies before this one (2 * (fullmove - 1) + Black to move) */
    int max_score;      /* |score| at or above (mate scores); 0 = no limit */
    bool skip_in_check; /* the side to move is in check */
    bool skip_noisy;    /* the move played is a capture or a promotion */
} VfFilter;

/* The usual training filter: the first 16 plies, positions in check, noisy
 * moves and mate scores (VF_MATE_BOUND) are skipped. */
VfFilter vf_filter_default(void);
/* Every position passes. */
VfFilter vf_filter_none(void);
/* Whether the position, the move played there and its score (White's view)
 * pass the filter. */
bool vf_filter_pass(const VfFilter *f, const Position *pos, move_t move, int score_white);

/* One position of the game as the reader yields it. */
typedef struct {
    const Position *pos; /* the position before `move`; valid until the next call */
    move_t move;         /* the move played there (the searcher's choice) */
    int score;           /* side to move's view, centipawns */
    int score_white;
    int result;       /* side to move's view: 0 lost, 1 draw, 2 won */
    int result_white; /* RESULT_* */
    int ply;          /* game ply of pos (see VfFilter.min_ply) */
} VfPosition;

typedef struct VfReader VfReader;

/* Opens a file for reading; NULL with a message in err. */
VfReader *vf_open(const char *path, char *err, size_t errlen);
void vf_close(VfReader *r);
/* Reads the next game (record.h): RECORD_GAME; RECORD_END at the end of the
 * file; RECORD_BAD_GAME when the game was read but is not valid (a bad
 * header or result, an illegal move; it is skipped and the next call goes on
 * with the next game); RECORD_FAILED when the file cannot be read on (a
 * truncated game, a read error). Both errors write a message with the file,
 * the game number and its byte offset to err. */
int vf_next_game(VfReader *r, char *err, size_t errlen);
/* The game just read (after RECORD_GAME). */
RecordGame vf_game(const VfReader *r);
/* The next position of the game that passes the filter (NULL: every one);
 * false at the end of the game. */
bool vf_next_position(VfReader *r, const VfFilter *f, VfPosition *out);

#endif
