/* The page's rules: Rokade's own move generator and FIDE game state, compiled
 * into a small synchronous module (rules.js) so that the page and the engine
 * never disagree. One game at a time: its start position and moves. Strings
 * returned point to a static buffer, valid until the next call. The module
 * also gives the page the play levels' scale and ranges (search/level.h), so
 * that no constant of the engine is copied into the page by hand. */
#include <emscripten.h>
#include <stdio.h>
#include <string.h>

#include "../../movegen/movegen.h"
#include "../../movegen/notation.h"
#include "../../search/level.h"

/* Called from JavaScript only. */
void rules_init(void);
int rules_new_game(const char *fen, int chess960);
const char *rules_error(void);
const char *rules_legal(void);
const char *rules_play(const char *uci);
const char *rules_fen(void);
const char *rules_state(void);
int rules_in_check(void);
int rules_side(void);
int rules_can_mate(int color);
int rules_level_full(void);
int rules_elo_min(void);
int rules_elo_max(void);
int rules_elo_points(void);
int rules_elo_point(int i);
double rules_elo_point_strength(int i);
double rules_level_strength(int skill_level, int limit_strength, int elo);

static Position Game;
static char Out[MAX_MOVES * 16];
static char Err[160];

EMSCRIPTEN_KEEPALIVE void rules_init(void) { movegen_init(); }

/* Starts a game from fen; 0 (game unchanged, rules_error says why) when the
 * FEN is refused. */
EMSCRIPTEN_KEEPALIVE int rules_new_game(const char *fen, int chess960)
{
    Position p;
    if (!pos_set_fen(&p, fen, chess960 != 0, Err, sizeof Err))
        return 0;
    memcpy(&Game, &p, sizeof Game);
    return 1;
}

EMSCRIPTEN_KEEPALIVE const char *rules_error(void) { return Err; }

/* The legal moves as "uci san" pairs, one per line. */
EMSCRIPTEN_KEEPALIVE const char *rules_legal(void)
{
    MoveList list;
    gen_legal(&Game, &list);
    size_t len = 0;
    Out[0] = '\0';
    for (int i = 0; i < list.count; i++) {
        char uci[8], san[16];
        move_to_uci(&Game, list.moves[i], uci);
        move_to_san(&Game, list.moves[i], san);
        len += (size_t)snprintf(Out + len, sizeof Out - len, "%s %s\n", uci, san);
    }
    return Out;
}

/* Plays a move given in UCI notation; returns its SAN, or "" when it is not
 * legal here (the game is unchanged). */
EMSCRIPTEN_KEEPALIVE const char *rules_play(const char *uci)
{
    move_t m = move_from_uci(&Game, uci);
    Out[0] = '\0';
    if (m == MOVE_NONE)
        return Out;
    move_to_san(&Game, m, Out);
    pos_make_game_move(&Game, m);
    return Out;
}

EMSCRIPTEN_KEEPALIVE const char *rules_fen(void)
{
    pos_get_fen(&Game, Out, sizeof Out);
    return Out;
}

/* The GameState (movegen/position.h) of the position reached, by the name
 * the page uses (game.js, app.js, i18n.js). */
EMSCRIPTEN_KEEPALIVE const char *rules_state(void)
{
    switch (pos_game_state(&Game)) {
    case GAME_ONGOING: return "ongoing";
    case GAME_CHECKMATE: return "checkmate";
    case GAME_STALEMATE: return "stalemate";
    case GAME_DEAD_POSITION: return "dead";
    case GAME_FIVEFOLD: return "fivefold";
    case GAME_75_MOVES: return "seventyFive";
    case GAME_CLAIM_THREEFOLD: return "threefold";
    case GAME_CLAIM_50_MOVES: return "fifty";
    }
    return "ongoing";
}

EMSCRIPTEN_KEEPALIVE int rules_in_check(void) { return pos_in_check(&Game); }

/* 0 white, 1 black. */
EMSCRIPTEN_KEEPALIVE int rules_side(void) { return Game.side; }

/* Whether `color` could still mate by some series of legal moves, for a flag
 * fall (FIDE 6.9): pos_side_can_mate, as `review` judges it. */
EMSCRIPTEN_KEEPALIVE int rules_can_mate(int color)
{
    return (color == WHITE || color == BLACK) && pos_side_can_mate(&Game, color);
}

/* ---- Play levels (search/level.h): the Skill Level and UCI_Elo options'
 * ranges (engine/options.c takes them from there too) and the UCI_Elo scale. */

/* Skill Level runs from 0 to this, full strength. */
EMSCRIPTEN_KEEPALIVE int rules_level_full(void) { return LEVEL_FULL; }
EMSCRIPTEN_KEEPALIVE int rules_elo_min(void) { return LEVEL_ELO_MIN; }
EMSCRIPTEN_KEEPALIVE int rules_elo_max(void) { return LEVEL_ELO_MAX; }

/* The scale's points: their number, and point i's UCI_Elo and strength. */
EMSCRIPTEN_KEEPALIVE int rules_elo_points(void)
{
    int n;
    level_elo_points(&n);
    return n;
}

EMSCRIPTEN_KEEPALIVE int rules_elo_point(int i)
{
    int n;
    const LevelEloPoint *p = level_elo_points(&n);
    return i >= 0 && i < n ? p[i].elo : 0;
}

EMSCRIPTEN_KEEPALIVE double rules_elo_point_strength(int i)
{
    int n;
    const LevelEloPoint *p = level_elo_points(&n);
    return i >= 0 && i < n ? p[i].strength : 0;
}

/* The strength (0..LEVEL_FULL) the engine plays at with these options. */
EMSCRIPTEN_KEEPALIVE double rules_level_strength(int skill_level, int limit_strength, int elo)
{
    return level_strength(skill_level, limit_strength != 0, elo);
}
