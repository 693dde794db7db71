/* Play levels (Skill Level, UCI_LimitStrength + UCI_Elo): how a weaker level
 * searches and picks its move. A level is a strength s from 0 (weakest) to 20
 * (full strength); below 20 the search is capped in depth and nodes, its
 * static evaluation gets noise that is a fixed function of the position and
 * the game's seed (so it is consistent within a search), and the move is drawn
 * among the best few root moves with weights that fall with the score loss. */
#ifndef ROKADE_LEVEL_H
#define ROKADE_LEVEL_H

#include <stdbool.h>
#include <stdint.h>

#include "../movegen/util.h"

enum { LEVEL_FULL = 20, LEVEL_CANDIDATES = 4, LEVEL_ELO_MIN = 1000, LEVEL_ELO_MAX = 2800 };

typedef struct {
    bool active;                 /* false = full strength, nothing below applies */
    double strength;             /* 0..20 */
    int depth_cap;               /* plies */
    uint64_t node_cap;           /* nodes per move */
    int noise;                   /* eval noise amplitude, centipawns (uniform +-noise) */
    int temperature;             /* move choice: weight exp(-loss / temperature) */
    double think_min, think_max; /* share of the soft time limit to use */
} Level;

/* One point of the UCI_Elo scale: the strength that plays at that Elo. */
typedef struct {
    int elo;
    double strength;
} LevelEloPoint;

/* strength from the options: UCI_Elo (when limit_strength) wins over skill.
 * UCI_Elo maps through the scale's points, linearly between them. */
double level_strength(int skill_level, bool limit_strength, int elo);
/* The scale's points, by rising Elo; *count gets their number. For the
 * browser page's level descriptions (engine/web/rules.c). */
const LevelEloPoint *level_elo_points(int *count);
Level level_make(double strength);

/* The noise for the position with this key: in [-noise, +noise]. */
static inline int level_noise(const Level *lv, uint64_t key, uint64_t seed)
{
    return (int)(mix64(key ^ seed) % (uint64_t)(2 * lv->noise + 1)) - lv->noise;
}

/* Picks one of n root moves, scores[0] the best (centipawns; n >= 1), by the
 * level's weights; deterministic for a given seed. Returns its index. */
int level_pick(const Level *lv, const int *scores, int n, uint64_t seed);

#endif
