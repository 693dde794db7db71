/* libFuzzer target: the FEN parser. Any byte string is offered as a FEN (in
 * standard and Chess960 mode); an accepted position must be self-consistent:
 * its printed FEN parses back to the same FEN and key, its incremental key
 * matches a recomputation, and every legal move makes and unmakes back to
 * the same position. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../movegen/movegen.h"
#include "../../movegen/notation.h"
#include "../../movegen/position.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static Position *Pos, *Copy;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    movegen_init();
    Pos = calloc(1, sizeof *Pos);
    Copy = calloc(1, sizeof *Copy);
    return Pos && Copy ? 0 : 1;
}

static void check(const Position *pos, bool chess960)
{
    char fen[128], fen2[128], err[200];
    pos_get_fen(pos, fen, sizeof fen);
    if (!pos_set_fen(Copy, fen, chess960, err, sizeof err))
        abort(); /* a printed FEN must parse */
    pos_get_fen(Copy, fen2, sizeof fen2);
    if (strcmp(fen, fen2) != 0 || pos_key(Copy) != pos_key(pos))
        abort();
    if (pos_compute_key(pos) != pos_key(pos) || pos_compute_pawn_key(pos) != pos_st(pos)->pawn_key)
        abort();
    MoveList list;
    gen_legal(pos, &list);
    if (list.count != gen_count_legal(pos))
        abort();
    Position *p = Copy;
    pos_set_fen(p, fen, chess960, err, sizeof err);
    for (int i = 0; i < list.count; i++) {
        move_t m = list.moves[i];
        if (!pos_is_pseudo_legal(p, m) || !pos_is_legal(p, m))
            abort();
        char uci[8];
        move_to_uci(p, m, uci);
        if (move_from_uci(p, uci) != m)
            abort();
        pos_make_move(p, m);
        if (pos_compute_key(p) != pos_key(p))
            abort();
        pos_unmake_move(p, m);
        pos_get_fen(p, fen2, sizeof fen2);
        if (strcmp(fen, fen2) != 0)
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    char err[200];
    for (int chess960 = 0; chess960 < 2; chess960++)
        if (pos_set_fen(Pos, s, chess960, err, sizeof err))
            check(Pos, chess960);
    free(s);
    return 0;
}
