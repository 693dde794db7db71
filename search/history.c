/* History updates at a cutoff (history.h). */
#include "history.h"

#include <string.h>

void hist_update_quiets(History *h, ContHist *const cont[2], const Position *pos,
                        bitboard_t threats, move_t prev, move_t best, const move_t *quiets, int n,
                        int depth)
{
    int bonus = history_bonus(depth);
    if (MP_KILLERS && prev && prev != MOVE_NULL) {
        int pto = move_to(prev);
        h->counter[pos->board[pto]][pto] = best;
    }
    for (int i = 0; i < n; i++)
        hist_update_quiet(h, cont, pos, threats, quiets[i], quiets[i] == best ? bonus : -bonus);
}

void hist_update_captures(History *h, const Position *pos, move_t best, const move_t *captures,
                          int n, int depth)
{
    int bonus = history_bonus(depth);
    if (best)
        hist_update_capture(h, pos, best, bonus);
    for (int i = 0; i < n; i++)
        if (captures[i] != best)
            hist_update_capture(h, pos, captures[i], -bonus);
}

void hist_clear(History *h) { memset(h, 0, sizeof *h); }
