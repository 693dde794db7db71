/* libFuzzer target: the `position ...` command (startpos or FEN, then a
 * move list). The input is the command's argument text. Afterwards the game
 * position must be either the one before (a rejected command) or a valid
 * position whose printed FEN parses back to itself with the same key; a
 * command answered with an error must leave the position byte-for-byte
 * unchanged, and an accepted one prints nothing. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/uci.h"
#include "../../movegen/position.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static Position *Before, *Check;
static char *Out;
static size_t OutLen;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* Capture the engine's answers (glibc lets stdout be reassigned). */
    stdout = open_memstream(&Out, &OutLen);
    if (!stdout)
        return 1;
    uci_init();
    Before = malloc(sizeof *Before);
    Check = malloc(sizeof *Check);
    return Before && Check ? 0 : 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Alternate the starting position so "unchanged" is checked against more
     * than the initial position. */
    static const char *const Starts[] = {
        "position startpos",
        "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "position fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"};
    uci_command(Starts[size % 3]);
    char *line = malloc(size + 10);
    if (!line)
        return 0;
    memcpy(line, "position ", 9);
    memcpy(line + 9, data, size);
    line[size + 9] = '\0';
    const Position *root = uci_position();
    memcpy(Before, root, sizeof *Before);
    fflush(stdout);
    size_t mark = OutLen;
    uci_command(line);
    free(line);
    fflush(stdout);
    bool rejected = strstr(Out + mark, "info string error:") != NULL;
    /* Byte-for-byte on purpose: Before is a memcpy of the position. */
    /* NOLINTNEXTLINE(bugprone-suspicious-memory-comparison) */
    if (rejected && memcmp(Before, root, sizeof *Before) != 0)
        abort();
    if (!rejected && OutLen != mark)
        abort();
    fclose(stdout);
    free(Out);
    stdout = open_memstream(&Out, &OutLen);
    if (!stdout)
        abort();

    char fen[128], fen2[128], err[200];
    pos_get_fen(root, fen, sizeof fen);
    if (pos_compute_key(root) != pos_key(root))
        abort();
    if (!pos_set_fen(Check, fen, false, err, sizeof err)
        && !pos_set_fen(Check, fen, true, err, sizeof err))
        abort();
    pos_get_fen(Check, fen2, sizeof fen2);
    if (strcmp(fen, fen2) != 0 || pos_key(Check) != pos_key(root))
        abort();
    return 0;
}
