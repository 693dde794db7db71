/* Syzygy tablebase probes: WDL (win/draw/loss, the .rtbw files) for the
 * search and DTZ (distance to the next capture or pawn move, the .rtbz files)
 * for the root, of positions without castling rights. Tables are found by
 * name under the directories of a path list, mapped read-only on first use
 * and shared by every thread; probes are thread-safe (each thread with its own
 * Position). A missing, truncated or corrupt table is reported once and then
 * treated as absent: its probes fail. */
#ifndef ROKADE_TBPROBE_H
#define ROKADE_TBPROBE_H

#include <stdbool.h>

#include "../../movegen/position.h"

/* WDL values, from the side to move. A cursed win is a win that the
 * fifty-move rule makes a draw, a blessed loss the loss it saves. */
enum { TB_LOSS = -2, TB_BLESSED_LOSS = -1, TB_DRAW = 0, TB_CURSED_WIN = 1, TB_WIN = 2 };

/* Drops the tables found before and finds those under path (':' separated,
 * ';' on Windows; NULL, "" or "<empty>" for none). Returns the number of WDL
 * tables. Not to be called while another thread probes. */
int tb_init(const char *path);
void tb_free(void);
/* Most pieces (kings included) of any WDL table found; 0 when none. */
int tb_max_pieces(void);
/* Number of WDL and of DTZ tables found. */
int tb_wdl_count(void);
int tb_dtz_count(void);
/* Where a broken table is reported (a line without the newline); by default
 * `info string error: ...` on stdout. */
void tb_set_report(void (*report)(const char *line));

/* WDL of pos from the side to move, e.p. included, the halfmove clock not.
 * False when pos has castling rights, too many pieces, or a table it needs
 * is missing. pos is changed during the call and restored. */
bool tb_probe_wdl(Position *pos, int *wdl);

/* DTZ of pos from the side to move: 0 for a draw; otherwise plies to the
 * next capture or pawn move on the best line of the winning side, positive
 * for a win, negative for a loss, with 100 added to the magnitude for a
 * cursed win or blessed loss; it may be one ply more than the true distance
 * (the tables round some values up). A mated side has -1. False as for
 * tb_probe_wdl. */
bool tb_probe_dtz(Position *pos, int *dtz);

#endif
