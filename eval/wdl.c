/* The win-draw-loss model (wdl.h). */
#include "wdl.h"

#include <math.h>

#include "../movegen/bitboard.h"

#include "wdl/params.h"

int wdl_material(const Position *pos)
{
    return popcount(pos->by_type[PAWN]) + 3 * popcount(pos->by_type[KNIGHT])
           + 3 * popcount(pos->by_type[BISHOP]) + 5 * popcount(pos->by_type[ROOK])
           + 9 * popcount(pos->by_type[QUEEN]);
}

void wdl_params(int material, double *a, double *b)
{
    int m = material < WDL_MIN ? WDL_MIN : material > WDL_MAX ? WDL_MAX : material;
    double x = m / 58.0;
    *a = ((WdlA[0] * x + WdlA[1]) * x + WdlA[2]) * x + WdlA[3];
    *b = ((WdlB[0] * x + WdlB[1]) * x + WdlB[2]) * x + WdlB[3];
}

void wdl_of_score(int score, int material, int *win, int *loss)
{
    double a, b;
    wdl_params(material, &a, &b);
    /* Beyond +-4000 the chances no longer change in per mille. */
    double s = score > 4000 ? 4000 : score < -4000 ? -4000 : score;
    *win = (int)(1000.0 / (1.0 + exp((a - s) / b)) + 0.5);
    *loss = (int)(1000.0 / (1.0 + exp((a + s) / b)) + 0.5);
}

int wdl_normalize(int score, int material)
{
    double a, b;
    wdl_params(material, &a, &b);
    return (int)lround(100.0 * score / a);
}
