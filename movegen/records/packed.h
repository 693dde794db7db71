/* Packed training records: a position with its search score and the game's
 * result in 32 bytes, little-endian, for `datagen` and the tuner (the layout
 * is documented in eval/README.md):
 *
 *   0-7    occupancy, bit i = square i (a1 = 0 .. h8 = 63)
 *   8-23   4-bit piece codes, one per occupied square in ascending order, low
 *          nibble first: 0 pawn .. 5 king, 6 rook with a castling right;
 *          +8 for Black
 *   24     bits 0-6 e.p. square (only when an e.p. capture is legal, else 64);
 *          bit 7 Black to move
 *   25     halfmove clock (at most 255)
 *   26-27  fullmove number (at most 65535)
 *   28-29  score, int16, centipawns from White's view (within +-32000)
 *   30     result from White's view: 0 Black won, 1 draw, 2 White won
 *   31     flags: bit 0 Chess960 position
 *
 * Its writer (RecordPacked, record.h: `datagen format packed`) keeps the
 * quiet positions of a game, those the tuner can learn from: the side to
 * move not in check, the move played neither a capture nor a promotion, and
 * the score within +-PACKED_QUIET_SCORE (mate scores lie far beyond). A file
 * is the records one after the other. */
#ifndef ROKADE_PACKED_H
#define ROKADE_PACKED_H

#include "../position.h"
#include "record.h"

enum { PACKED_SIZE = 32, PACKED_SCORE_MAX = 32000, PACKED_QUIET_SCORE = 3000 };

typedef struct {
    uint8_t b[PACKED_SIZE];
} PackedPos;

/* Packs pos; false when it has more than 32 pieces (it cannot be stored). */
bool packed_from_position(const Position *pos, int score_white, int result_white, PackedPos *out);
/* Unpacks a record into pos (validated like a FEN). On an error returns false
 * with a message in err and leaves pos unchanged. */
bool packed_to_position(const PackedPos *p, Position *pos, int *score_white, int *result_white,
                        char *err, size_t errlen);
/* Sets the result of a record in place (a game's result is known at its
 * end, after its records). */
void packed_set_result(PackedPos *p, int result_white);

#endif
