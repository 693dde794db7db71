/* Syzygy table files, the layer under tbprobe.h: finding the files of a
 * path list by name, mapping them read-only on first use, checking their
 * layout, and reading the value a table stores for a position (index
 * computation and decompression). Knows nothing of captures, e.p. or the
 * side the table does not store: tbprobe.c does. */
#ifndef ROKADE_TBFILE_H
#define ROKADE_TBFILE_H

#include <stdbool.h>

#include "../../movegen/position.h"

/* Largest number of pieces (kings included) a table may have. */
enum { TB_PIECES_MAX = 7 };

typedef enum { TB_WDL, TB_DTZ } TbKind;

typedef enum {
    TBF_OK,         /* value read */
    TBF_MISSING,    /* no table (or a broken one) for this material */
    TBF_OTHER_SIDE, /* a DTZ table that stores only the other side to move */
} TbFileStatus;

/* Finds the tables under every directory of path (':' separated, ';' on
 * Windows), dropping those found before. NULL, "" or "<empty>": none.
 * Returns the number of WDL tables found. Not to be called during probes. */
int tbfile_init(const char *path);
void tbfile_free(void);
/* The most pieces of any WDL table found (0 when none). */
int tbfile_max_pieces(void);
/* Number of WDL and DTZ files found. */
int tbfile_count(TbKind kind);

/* Where a broken table is reported (once per file), a line without the
 * newline; by default `info string error: ...` on stdout. */
void tbfile_set_report(void (*report)(const char *line));

/* The value the table stores for pos, whatever its castling rights, e.p.
 * square and halfmove clock. WDL: -2..2. DTZ: `wdl` is the position's WDL
 * (not a draw), and the value is the stored distance in plies, at least 1,
 * without its sign or the 100 of a cursed win. Thread-safe. */
TbFileStatus tbfile_probe(const Position *pos, TbKind kind, int wdl, int *value);

#endif
