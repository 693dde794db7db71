/* Endgame openings from self-play data: for the Syzygy matches of
 * bench/README.md, positions where the tables come into play.
 *
 *   endgame_fens GAMES.vf COUNT
 *
 * Reads the viriformat games and prints, from each game, the first position with 5 to 7 pieces
 * (kings included) that is a fair start: no castling right, the side to move not in check, the move
 * played there quiet, and the search's score within +-150 cp; at most COUNT FENs, one a line.
 * Build: make build/release/endgame_fens. */
#include <stdio.h>
#include <stdlib.h>

#include "../../movegen/movegen.h"
#include "../../movegen/records/viriformat.h"
#include "../../movegen/util.h"

enum { MIN_PIECES = 5, MAX_PIECES = 7, MAX_SCORE = 150 };

int main(int argc, char **argv)
{
    long long count = 0;
    if (argc != 3 || !parse_int(argv[2], 1, 1000000, &count)) {
        fprintf(stderr, "usage: endgame_fens GAMES.vf COUNT\n");
        return 2;
    }
    movegen_init();
    char err[256];
    VfReader *r = vf_open(argv[1], err, sizeof err);
    if (!r) {
        fprintf(stderr, "error: %s\n", err);
        return 1;
    }
    VfFilter filter = vf_filter_none();
    filter.skip_in_check = true;
    filter.skip_noisy = true;
    long long printed = 0;
    int status;
    while (printed < count && (status = vf_next_game(r, err, sizeof err)) != RECORD_END) {
        if (status == RECORD_FAILED) {
            fprintf(stderr, "error: %s\n", err);
            break;
        }
        if (status != RECORD_GAME)
            continue;
        VfPosition p;
        while (vf_next_position(r, &filter, &p)) {
            int pieces = popcount(pos_occupied(p.pos));
            if (pieces > MAX_PIECES)
                continue;
            if (pieces >= MIN_PIECES && !pos_st(p.pos)->castling && abs(p.score) <= MAX_SCORE) {
                char fen[128];
                pos_get_fen(p.pos, fen, sizeof fen);
                puts(fen);
                printed++;
            }
            break;
        }
    }
    vf_close(r);
    return printed ? 0 : 1;
}
