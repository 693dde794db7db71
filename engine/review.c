/* `review` (review.h): a pass over each game that searches every position
 * and notes what the Laws say, then a writer of the annotated PGN. */
#include "review.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../eval/wdl.h"
#include "../movegen/movegen.h"
#include "../movegen/notation.h"
#include "../movegen/platform/platform.h"
#include "../movegen/records/pgn.h"
#include "../movegen/score.h"
#include "../movegen/util.h"
#include "version.h"

/* SHOWN_PV: the moves of a better line shown; MATE_SEEN: the longest mate
 * whose loss is marked when the position stays won (a longer one is an
 * engine's find, not a player's miss). */
enum { SHOWN_PV = 8, NOTE_MAX = 1200, MATE_SEEN = 3 };

/* Per position of a game: the search's view and what the Laws say there. */
typedef struct {
    int score; /* side to move's view */
    move_t best;
    int pv_len;
    char pv_san[SHOWN_PV][12];
    GameState state;
    double expected; /* side to move's expected score, 0..1 */
    /* The played move from here (not for the last position). */
    char san[12];
    int nag; /* 0, 6, 2 or 4 */
    double loss, accuracy;
    char why[160];       /* the judgement's text */
    char note[NOTE_MAX]; /* the Laws, after the move into this position */
} Ply;

typedef struct {
    int inaccuracies, mistakes, blunders, moves;
    double accuracy_sum;
} PlayerSummary;

/* ------------------------------------------------------------------------ */
/* Options                                                                  */

bool review_parse(const char *args, ReviewOptions *opt, char *err, size_t errlen)
{
    memset(opt, 0, sizeof *opt);
    search_limits_none(&opt->limits);
    Tokens t = {args};
    char word[4096];
    size_t n = tok_next(&t, word, sizeof word);
    if (n == 0) {
        snprintf(err, errlen,
                 "no PGN file given (review <file.pgn> [nodes N | depth N | "
                 "movetime MS] [out <file>])");
        return false;
    }
    if (n >= sizeof opt->in) {
        snprintf(err, errlen, "the file name is too long");
        return false;
    }
    memcpy(opt->in, word, n + 1);
    bool budget = false;
    while ((n = tok_next(&t, word, sizeof word)) > 0) {
        char key[16];
        snprintf(key, sizeof key, "%.15s", word);
        char value[4096];
        size_t vn = tok_next(&t, value, sizeof value);
        if (vn == 0) {
            snprintf(err, errlen, "'%s' needs a value", key);
            return false;
        }
        long long v;
        if (!strcmp(key, "out")) {
            if (vn >= sizeof opt->out) {
                snprintf(err, errlen, "the output file name is too long");
                return false;
            }
            memcpy(opt->out, value, vn + 1);
            continue;
        }
        if (budget) {
            snprintf(err, errlen, "give one budget: nodes, depth or movetime");
            return false;
        }
        budget = true;
        if (!strcmp(key, "nodes") && parse_int(value, 1, 1000000000000LL, &v))
            opt->limits.nodes = (uint64_t)v;
        else if (!strcmp(key, "depth") && parse_int(value, 1, MAX_PLY - 2, &v))
            opt->limits.depth = (int)v;
        else if (!strcmp(key, "movetime") && parse_int(value, 1, 86400000, &v))
            opt->limits.clock.movetime = v;
        else if (!strcmp(key, "nodes") || !strcmp(key, "depth") || !strcmp(key, "movetime")) {
            snprintf(err, errlen,
                     "bad %s '%.40s' (nodes 1..10^12, depth 1..%d, movetime 1..86400000)", key,
                     value, MAX_PLY - 2);
            return false;
        } else {
            snprintf(err, errlen,
                     "unknown word '%.40s' (review <file.pgn> [nodes N | depth N | "
                     "movetime MS] [out <file>])",
                     word);
            return false;
        }
    }
    if (!budget)
        opt->limits.nodes = REVIEW_DEFAULT_NODES;
    if (*opt->out && !strcmp(opt->out, opt->in)) {
        snprintf(err, errlen, "the output would replace the game file '%s'", opt->in);
        return false;
    }
    return true;
}

/* ------------------------------------------------------------------------ */
/* Scores                                                                   */

static double expected_score(int score, const Position *pos)
{
    if (score >= SCORE_TB_WIN_IN_MAX)
        return 1.0;
    if (score <= SCORE_TB_LOSS_IN_MAX)
        return 0.0;
    int w, l;
    wdl_of_score(score, wdl_material(pos), &w, &l);
    return (w + (1000 - w - l) / 2.0) / 1000.0;
}

/* The printed score in pawns (White's view), or "#N" / "#-N". */
static void eval_text(int score, const Position *pos, char *buf, size_t len)
{
    const int white = pos->side == WHITE ? score : -score;
    /* A mate counts the moves of the side that mates: from the side to
     * move's view, mating in (plies + 1) / 2 or mated in plies / 2. */
    if (is_mate_score(score)) {
        const bool mover_mates = score > 0;
        const int moves = mover_mates ? (SCORE_MATE - score + 1) / 2 : (SCORE_MATE + score) / 2;
        const bool white_mates = mover_mates == (pos->side == WHITE);
        snprintf(buf, len, "#%s%d", white_mates ? "" : "-", moves);
    } else if (is_decisive_score(white))
        snprintf(buf, len, "%.2f", white / 100.0);
    else
        snprintf(buf, len, "%.2f", wdl_normalize(white, wdl_material(pos)) / 100.0);
}

/* The mover's printed centipawns (the normalised scale). */
static int printed_cp(int score, const Position *pos)
{
    if (is_decisive_score(score))
        return score > 0 ? 100000 : -100000;
    return wdl_normalize(score, wdl_material(pos));
}

static bool is_automatic_end(GameState gs)
{
    return gs == GAME_CHECKMATE || gs == GAME_STALEMATE || gs == GAME_DEAD_POSITION
           || gs == GAME_FIVEFOLD || gs == GAME_75_MOVES;
}

/* ------------------------------------------------------------------------ */
/* Notes                                                                    */

static void note_add(char *note, const char *fmt, ...) PLAT_PRINTF(2, 3);
static void note_add(char *note, const char *fmt, ...)
{
    size_t n = strlen(note);
    if (n + 2 >= NOTE_MAX)
        return;
    if (n)
        note[n++] = ' ', note[n] = '\0';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(note + n, NOTE_MAX - n, fmt, ap);
    va_end(ap);
}

static const char *side_name(int c) { return c == WHITE ? "White" : "Black"; }

/* "12." or "12..." and the move: how a move is named in a note. */
static void move_name(const Position *before, const char *san, char *buf, size_t len)
{
    snprintf(buf, len, "%d%s %s", pos_fullmove(before), before->side == WHITE ? "." : "...", san);
}

static const char *tag_value(const PgnPlayedGame *g, const char *name)
{
    for (int i = 0; i < g->tag_count; i++)
        if (!strcmp(g->tags[i].name, name))
            return g->tags[i].value;
    return NULL;
}

/* The time control of a TimeControl tag (PGN standard 9.6.1: "40/5400:1800",
 * "300+2", "?", "-"), as the class of the Laws. */
typedef struct {
    bool known;
    bool sudden_death_no_inc; /* the last period has no increment */
    bool rapid_or_blitz;      /* Appendix A or B */
    char text[320];
} TimeClass;

static TimeClass time_class(const char *tc)
{
    TimeClass k = {0};
    if (!tc || !*tc || !strcmp(tc, "?") || !strcmp(tc, "-"))
        return k;
    /* Periods separated by ':'; each "[moves/]seconds[+increment]". */
    long long total = 0, inc = 0;
    int periods = 0;
    bool first_all_moves = false;
    const char *p = tc;
    while (*p) {
        char *end;
        long long moves = 0, secs, add = 0;
        errno = 0;
        secs = strtoll(p, &end, 10);
        if (end == p || errno)
            return k;
        if (*end == '/') {
            moves = secs;
            p = end + 1;
            secs = strtoll(p, &end, 10);
            if (end == p)
                return k;
        }
        if (*end == '+') {
            p = end + 1;
            add = strtoll(p, &end, 10);
            if (end == p)
                return k;
        }
        if (*end && *end != ':')
            return k;
        if (periods == 0) {
            total = secs;
            inc = add;
            first_all_moves = moves == 0;
        }
        k.sudden_death_no_inc = add == 0 && moves == 0;
        periods++;
        p = *end ? end + 1 : end;
    }
    k.known = periods > 0;
    long long whole = total + 60 * inc;
    k.rapid_or_blitz = first_all_moves && whole < 3600;
    const char *cls = !first_all_moves ? "standard play"
                      : whole <= 600   ? "blitz (Appendix B.1: 10 minutes or less, with 60 "
                                         "times the increment)"
                      : whole < 3600   ? "rapid (Appendix A.1: more than 10 and less than 60 "
                                         "minutes, with 60 times the increment)"
                                       : "standard play";
    snprintf(k.text, sizeof k.text, "TimeControl %.40s: %s%s", tc, cls,
             k.sudden_death_no_inc ? "; the last period is sudden death without increment "
                                     "(Guideline III)"
                                   : "");
    return k;
}

static bool is_rapid_or_blitz(const TimeClass *k) { return k->known && k->rapid_or_blitz; }

/* What the claims of 9.2 and 9.3 allow the side to move here: a note the
 * first time each becomes available to each player. */
static void note_claims(Position *pos, bool first[2][2], char *note)
{
    const int us = pos->side;
    MoveList list;
    if (first[us][0]) {
        if (pos_repetitions(pos) >= 2) {
            note_add(note,
                     "%s may now claim a draw: this position has appeared for the third time "
                     "with %s to move (Article 9.2.1.2).",
                     side_name(us), side_name(us));
            first[us][0] = false;
        } else if (pos_rule50(pos) >= 3) {
            gen_legal(pos, &list);
            for (int i = 0; i < list.count; i++) {
                move_t m = list.moves[i];
                pos_make_move(pos, m);
                bool third = pos_repetitions(pos) >= 2;
                pos_unmake_move(pos, m);
                if (third) {
                    char san[12];
                    move_to_san(pos, m, san);
                    note_add(note,
                             "%s may now claim a draw by threefold repetition: by writing "
                             "%d%s %s on the scoresheet and declaring it to the arbiter before "
                             "playing it (Article 9.2.1.1).",
                             side_name(us), pos_fullmove(pos), us == WHITE ? "." : "...", san);
                    first[us][0] = false;
                    break;
                }
            }
        }
    }
    if (first[us][1]) {
        if (pos_rule50(pos) >= 100) {
            note_add(note,
                     "%s may now claim a draw: the last 50 moves by each player were made "
                     "without a pawn move or a capture (Article 9.3.2).",
                     side_name(us));
            first[us][1] = false;
        } else if (pos_rule50(pos) == 99) {
            gen_legal(pos, &list);
            for (int i = 0; i < list.count; i++) {
                move_t m = list.moves[i];
                if (pos_is_capture(pos, m) || piece_type(pos->board[move_from(m)]) == PAWN)
                    continue;
                char san[12];
                move_to_san(pos, m, san);
                note_add(note,
                         "%s may now claim a draw by the fifty-move rule: by writing %d%s %s, "
                         "which completes 50 moves by each player without a pawn move or a "
                         "capture, and declaring it to the arbiter (Article 9.3.1).",
                         side_name(us), pos_fullmove(pos), us == WHITE ? "." : "...", san);
                first[us][1] = false;
                break;
            }
        }
    }
}

static const char *end_text(GameState gs)
{
    switch (gs) {
    case GAME_CHECKMATE: return "checkmate (Article 5.1.1)";
    case GAME_STALEMATE: return "a draw by stalemate (Article 5.2.1)";
    case GAME_DEAD_POSITION:
        return "a draw: a dead position, no series of legal moves can mate (Article 5.2.2)";
    case GAME_FIVEFOLD:
        return "a draw by fivefold repetition: the same position for the fifth time (Article "
               "9.6.1)";
    case GAME_75_MOVES:
        return "a draw by the 75-move rule: 75 moves by each player without a pawn move or a "
               "capture, and the last move no mate (Article 9.6.2)";
    default: return "";
    }
}

/* ------------------------------------------------------------------------ */
/* The PGN writer: tokens wrapped before column 80                          */

typedef struct {
    FILE *f;
    int col;
    bool ok;
} Writer;

static void w_token(Writer *w, const char *tok)
{
    int n = (int)strlen(tok);
    if (w->col > 0 && w->col + 1 + n > 79) {
        if (fputc('\n', w->f) == EOF)
            w->ok = false;
        w->col = 0;
    } else if (w->col > 0) {
        fputc(' ', w->f);
        w->col++;
    }
    if (fputs(tok, w->f) == EOF)
        w->ok = false;
    w->col += n;
}

/* A comment's text, word by word (a "[%...]" command kept whole); braces
 * cannot appear inside a PGN comment. */
static void w_comment(Writer *w, const char *text)
{
    w_token(w, "{");
    const char *p = text;
    char word[256];
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        size_t n = 0;
        if (p[0] == '[' && p[1] == '%') {
            while (*p && n + 1 < sizeof word) {
                char c = *p++;
                word[n++] = c;
                if (c == ']')
                    break;
            }
        } else
            while (*p && *p != ' ' && n + 1 < sizeof word) {
                char c = *p++;
                word[n++] = c == '{' ? '(' : c == '}' ? ')' : c;
            }
        word[n] = '\0';
        w_token(w, word);
    }
    w_token(w, "}");
}

static void w_tag(FILE *f, const char *name, const char *value)
{
    fprintf(f, "[%s \"", name);
    for (const char *p = value; *p; p++) {
        if (*p == '"' || *p == '\\')
            fputc('\\', f);
        fputc(*p, f);
    }
    fputs("\"]\n", f);
}

static void clock_text(int64_t ms, char *buf, size_t len)
{
    long long s = ms / 1000, tenths = (ms % 1000) / 100;
    if (tenths)
        snprintf(buf, len, "[%%clk %lld:%02lld:%02lld.%lld]", s / 3600, s / 60 % 60, s % 60,
                 tenths);
    else
        snprintf(buf, len, "[%%clk %lld:%02lld:%02lld]", s / 3600, s / 60 % 60, s % 60);
}

/* ------------------------------------------------------------------------ */
/* One game                                                                 */

typedef struct {
    Search *s;
    const ReviewOptions *opt;
    void (*progress)(void *ctx, const char *line);
    void *ctx;
    Position *pos, *scratch;
} Reviewer;

static void say(const Reviewer *r, const char *fmt, ...) PLAT_PRINTF(2, 3);
static void say(const Reviewer *r, const char *fmt, ...)
{
    char line[1400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (r->progress)
        r->progress(r->ctx, line);
}

/* Searches the position (or takes the Laws' result when the game is over
 * there) into *p. */
static void analyse(Reviewer *r, Ply *p)
{
    Position *pos = r->pos;
    p->state = pos_game_state(pos);
    p->best = MOVE_NONE;
    p->pv_len = 0;
    if (p->state == GAME_CHECKMATE)
        p->score = mated_in(0);
    else if (is_automatic_end(p->state))
        p->score = SCORE_DRAW;
    else {
        SearchAnalysis a;
        search_analyse(r->s, pos, &r->opt->limits, &a);
        p->score = a.score;
        p->best = a.best;
        memcpy(r->scratch, pos, sizeof *pos);
        for (int i = 0; i < a.pv_len && i < SHOWN_PV; i++) {
            move_to_san(r->scratch, a.pv[i], p->pv_san[i]);
            pos_make_move(r->scratch, a.pv[i]);
            p->pv_len++;
        }
    }
    p->expected = p->state == GAME_CHECKMATE   ? 0.0
                  : is_automatic_end(p->state) ? 0.5
                                               : expected_score(p->score, pos);
}

/* The judgement of the move from b (before) to a (after), whose mover is
 * the side to move at b. */
static void judge(Ply *b, const Ply *a, move_t played, const Position *before_pos,
                  const Position *after_pos)
{
    const double after = 1.0 - a->expected;
    double loss = b->expected - after;
    if (loss < 0 || played == b->best)
        loss = 0;
    b->loss = loss;
    double acc = 103.1668 * exp(-4.354 * loss) - 3.1669;
    b->accuracy = acc < 0 ? 0 : acc > 100 ? 100 : acc;
    int nag = loss >= 0.30 ? 4 : loss >= 0.20 ? 2 : loss >= 0.10 ? 6 : 0;
    b->why[0] = '\0';
    const int rank[7] = {0, 0, 2, 0, 3, 0, 1}; /* severity of $0, $2, $4, $6 */
    /* Mates: let go, or walked into. */
    const bool had_mate = b->score >= SCORE_MATE_IN_MAX && a->state != GAME_CHECKMATE;
    const bool keeps_mate = a->score <= SCORE_MATED_IN_MAX || a->state == GAME_CHECKMATE;
    int mate_nag = 0;
    const int mate_moves = (SCORE_MATE - b->score + 1) / 2;
    if (had_mate && !keeps_mate && played != b->best && (mate_moves <= MATE_SEEN || loss > 0.005)) {
        int cp = -printed_cp(a->score, after_pos);
        mate_nag = cp > 999 ? 6 : cp > 700 ? 2 : 4;
        snprintf(b->why, sizeof b->why, "a mate in %d was missed.", mate_moves);
    } else if (a->score >= SCORE_MATE_IN_MAX && b->score > SCORE_MATED_IN_MAX && played != b->best
               && b->expected > 0.05) {
        int cp = printed_cp(b->score, before_pos);
        mate_nag = cp < -999 ? 6 : cp < -700 ? 2 : 4;
        snprintf(b->why, sizeof b->why, "it allows a mate in %d.", (SCORE_MATE - a->score + 1) / 2);
    }
    if (rank[mate_nag] > rank[nag])
        nag = mate_nag;
    b->nag = nag;
}

/* The first flag fall of the game: the ply index of the position at which
 * it fell (the flagged side to move there), or -1. */
static int flag_fall(const PgnPlayedGame *g, const Ply *plies, int *flagged_move)
{
    *flagged_move = -1;
    for (int i = 0; i < g->move_count; i++)
        if (g->moves[i].clk_ms == 0) {
            *flagged_move = i;
            /* A mate, stalemate or dead position made by that move ends the
             * game first (6.9's exceptions); otherwise the flag fell before
             * the move was completed. */
            GameState gs = plies[i + 1].state;
            if (gs == GAME_CHECKMATE || gs == GAME_STALEMATE || gs == GAME_DEAD_POSITION)
                return -1;
            return i;
        }
    const char *term = tag_value(g, "Termination");
    if (term) {
        char low[256];
        size_t n = 0;
        for (; term[n] && n + 1 < sizeof low; n++)
            low[n] = (char)tolower((unsigned char)term[n]);
        low[n] = '\0';
        if (strstr(low, "time forfeit") || strstr(low, "on time") || strstr(low, "timeout")
            || strstr(low, "time out") || strstr(low, "flag"))
            return g->move_count;
    }
    return -1;
}

static const char *result_of(GameState gs, int side_to_move)
{
    if (gs == GAME_CHECKMATE)
        return side_to_move == WHITE ? "0-1" : "1-0";
    return "1/2-1/2";
}

static bool review_game(Reviewer *r, const PgnPlayedGame *g, Writer *w, char *summary,
                        size_t summary_len)
{
    const int n = g->move_count;
    Ply *plies = calloc((size_t)n + 1, sizeof *plies);
    if (!plies)
        return false;
    Position *pos = r->pos;
    memcpy(pos, g->start, sizeof *pos);
    search_new_game(r->s);
    const int64_t t0 = now_ms();
    bool first_claim[2][2] = {{true, true}, {true, true}};
    int end_at = -1;         /* the position where the game ended by itself */
    char pre[NOTE_MAX] = ""; /* the Laws at the start position */
    for (int i = 0; i <= n; i++) {
        Ply *p = &plies[i];
        analyse(r, p);
        if (end_at < 0 && is_automatic_end(p->state)) {
            end_at = i;
            note_add(i > 0 ? plies[i].note : pre, "The game ends here: %s.", end_text(p->state));
            if (i < n)
                note_add(i > 0 ? plies[i].note : pre,
                         "The moves after it do not count: the game was over.");
        }
        if (end_at < 0)
            note_claims(pos, first_claim, i > 0 ? plies[i].note : pre);
        if (i < n) {
            move_to_san(pos, g->moves[i].move, p->san);
            say(r, "review: game %lld, %d%s %s (%d/%d positions, %.1f s)", g->number,
                pos_fullmove(pos), pos->side == WHITE ? "." : "...", p->san, i + 1, n + 1,
                (double)(now_ms() - t0) / 1000.0);
            pos_make_game_move(pos, g->moves[i].move);
        }
    }
    /* The judgements, replaying the game for the positions' material. */
    memcpy(pos, g->start, sizeof *pos);
    PlayerSummary sum[2] = {{0}, {0}};
    for (int i = 0; i < n; i++) {
        memcpy(r->scratch, pos, sizeof *pos);
        pos_make_game_move(pos, g->moves[i].move);
        judge(&plies[i], &plies[i + 1], g->moves[i].move, r->scratch, pos);
        PlayerSummary *ps = &sum[r->scratch->side];
        ps->moves++;
        ps->accuracy_sum += plies[i].accuracy;
        ps->inaccuracies += plies[i].nag == 6;
        ps->mistakes += plies[i].nag == 2;
        ps->blunders += plies[i].nag == 4;
    }

    /* The Laws at the end: an illegal move, a flag fall, the result. */
    char *last_note = n > 0 ? plies[n].note : pre;
    const TimeClass tcls = time_class(tag_value(g, "TimeControl"));
    if (g->stopped) {
        note_add(last_note,
                 "Next in the game (line %d) comes %s's '%s', which cannot be played: %s. An "
                 "illegal move: the position before it is reinstated (Article 7.5.1); for a "
                 "player's first completed illegal move the arbiter gives the opponent %s "
                 "extra, for the second the game is lost, unless the opponent cannot mate by "
                 "any series of legal moves (Article 7.5.5%s). The game is reviewed up to it.",
                 g->stop_line, side_name(pos->side), g->stop_text, g->stop_why,
                 is_rapid_or_blitz(&tcls) ? "one minute" : "two minutes",
                 is_rapid_or_blitz(&tcls) ? "; in rapid and blitz one minute (Appendix A.3), and "
                                            "only if the opponent has not yet made his next move "
                                            "(A.5.2)"
                                          : "");
    }
    /* What the game's end gives by the Laws: NULL when the result is free
     * (resignation, agreement, or an unfinished game). */
    const char *due = NULL;
    char why_due[400] = "";
    int flagged_move;
    int flag_at = g->stopped ? -1 : flag_fall(g, plies, &flagged_move);
    if (flag_at >= 0 && end_at >= 0 && flag_at >= end_at)
        flag_at = -1; /* the game had ended before the flag fell */
    if (flag_at < 0 && end_at >= 0) {
        Position *at = r->scratch;
        memcpy(at, g->start, sizeof *at);
        for (int i = 0; i < end_at; i++)
            pos_make_game_move(at, g->moves[i].move);
        due = result_of(plies[end_at].state, at->side);
        snprintf(why_due, sizeof why_due, "%s", end_text(plies[end_at].state));
    } else if (flag_at >= 0) {
        Position *at = r->scratch;
        memcpy(at, g->start, sizeof *at);
        for (int i = 0; i < flag_at; i++)
            pos_make_game_move(at, g->moves[i].move);
        const int flagged = at->side;
        const bool can = pos_side_can_mate(at, !flagged);
        due = can ? (flagged == WHITE ? "0-1" : "1-0") : "1/2-1/2";
        char *where = flag_at > 0 ? plies[flag_at].note : pre;
        snprintf(why_due, sizeof why_due, "%s's flag fell", side_name(flagged));
        note_add(where,
                 "%s's flag falls %s: by Article 6.9 the game is %s: %s %s checkmate %s's king "
                 "by %s series of legal moves.%s%s%s",
                 side_name(flagged),
                 flagged_move >= 0 ? "here (the clock shows 0:00:00 at the next move)"
                                   : "here (Termination tag)",
                 can ? "lost by the player whose flag fell" : "drawn", side_name(!flagged),
                 can ? "could still" : "cannot", side_name(flagged), can ? "some" : "any",
                 tcls.known ? " " : "", tcls.known ? tcls.text : "", tcls.known ? "." : "");
    }
    const char *tag_result = tag_value(g, "Result");
    if (tag_result && strcmp(tag_result, g->result) != 0)
        note_add(last_note, "The Result tag says %s but the game text ends with %s.", tag_result,
                 g->result);
    if (due && strcmp(due, g->result) != 0) {
        if (!strcmp(g->result, "*"))
            note_add(last_note, "The game is marked unfinished (*), but it ended: %s, so %s.",
                     why_due, due);
        else
            note_add(last_note, "The result %s contradicts the game: %s, so the result is %s.",
                     g->result, why_due, due);
    }

    /* The summary. */
    char players[2][128];
    for (int c = 0; c < 2; c++) {
        const char *name = tag_value(g, c == WHITE ? "White" : "Black");
        if (name && (!*name || !strcmp(name, "?") || !strcmp(name, side_name(c))))
            name = NULL; /* no name, or the colour's own */
        const PlayerSummary *ps = &sum[c];
        snprintf(players[c], sizeof players[c],
                 "%s%s%.60s%s: accuracy %.1f%%, %d %s, %d %s, %d %s.", side_name(c),
                 name ? " (" : "", name ? name : "", name ? ")" : "",
                 ps->moves ? ps->accuracy_sum / ps->moves : 100.0, ps->inaccuracies,
                 ps->inaccuracies == 1 ? "inaccuracy" : "inaccuracies", ps->mistakes,
                 ps->mistakes == 1 ? "mistake" : "mistakes", ps->blunders,
                 ps->blunders == 1 ? "blunder" : "blunders");
    }
    char budget[64];
    if (r->opt->limits.depth)
        snprintf(budget, sizeof budget, "depth %d", r->opt->limits.depth);
    else if (r->opt->limits.clock.movetime)
        snprintf(budget, sizeof budget, "%lld ms", (long long)r->opt->limits.clock.movetime);
    else
        snprintf(budget, sizeof budget, "%llu nodes", (unsigned long long)r->opt->limits.nodes);
    const double secs = (double)(now_ms() - t0) / 1000.0;
    snprintf(summary, summary_len, "%s %s", players[0], players[1]);

    /* The tags: the seven of the roster first, then the others as read. */
    static const char *const Roster[] = {"Event", "Site",  "Date",  "Round",
                                         "White", "Black", "Result"};
    FILE *f = w->f;
    for (int k = 0; k < 7; k++) {
        const char *v = tag_value(g, Roster[k]);
        w_tag(f, Roster[k], k == 6 ? g->result : v ? v : (k == 2 ? "????.??.??" : "?"));
    }
    for (int i = 0; i < g->tag_count; i++) {
        bool roster = !strcmp(g->tags[i].name, "Annotator");
        for (int k = 0; k < 7 && !roster; k++)
            roster = !strcmp(g->tags[i].name, Roster[k]);
        if (!roster)
            w_tag(f, g->tags[i].name, g->tags[i].value);
    }
    w_tag(f, "Annotator", "Rokade " ROKADE_VERSION);
    fputc('\n', f);

    /* The movetext. */
    w->col = 0;
    char text[NOTE_MAX * 2 + 600];
    char ev0[48] = "";
    if (plies[0].state != GAME_CHECKMATE) {
        char ev[24];
        eval_text(plies[0].score, g->start, ev, sizeof ev);
        snprintf(ev0, sizeof ev0, "[%%eval %s] ", ev);
    }
    snprintf(text, sizeof text,
             "%sReviewed by Rokade %s at %s a position (%.1f s). %s %s Inaccuracy ?!, mistake ?, "
             "blunder ??: a move that costs 10, 20 or 30%% of the expected score (win + "
             "draw/2).%s%s%s",
             ev0, ROKADE_VERSION, budget, secs, players[0], players[1], tcls.known ? " " : "",
             tcls.known ? tcls.text : "", tcls.known ? "." : "");
    if (*pre) {
        size_t len = strlen(text);
        snprintf(text + len, sizeof text - len, " %s", pre);
    }
    w_comment(w, text);
    memcpy(pos, g->start, sizeof *pos);
    for (int i = 0; i < n; i++) {
        Ply *p = &plies[i];
        char num[24];
        /* Every move has a comment after it, so black's moves take their
         * number too. */
        snprintf(num, sizeof num, "%d%s", pos_fullmove(pos), pos->side == WHITE ? "." : "...");
        w_token(w, num);
        w_token(w, p->san);
        if (p->nag) {
            char nag[8];
            snprintf(nag, sizeof nag, "$%d", p->nag);
            w_token(w, nag);
        }
        memcpy(r->scratch, pos, sizeof *pos);
        pos_make_game_move(pos, g->moves[i].move);
        const Ply *a = &plies[i + 1];
        text[0] = '\0';
        size_t len = 0;
        if (a->state == GAME_CHECKMATE)
            len += (size_t)snprintf(text + len, sizeof text - len, "Checkmate.");
        else {
            char ev[32];
            eval_text(a->score, pos, ev, sizeof ev);
            len += (size_t)snprintf(text + len, sizeof text - len, "[%%eval %s]", ev);
        }
        if (g->moves[i].clk_ms >= 0) {
            char clk[48];
            clock_text(g->moves[i].clk_ms, clk, sizeof clk);
            len += (size_t)snprintf(text + len, sizeof text - len, " %s", clk);
        }
        if (p->nag) {
            static const char *const Kind[7] = {"", "", "Mistake", "", "Blunder", "", "Inaccuracy"};
            char before[32], after[32], best[24];
            eval_text(p->score, r->scratch, before, sizeof before);
            eval_text(a->score, pos, after, sizeof after);
            move_name(r->scratch, p->pv_len ? p->pv_san[0] : "?", best, sizeof best);
            char cost[48] = "";
            if (p->loss >= 0.005)
                snprintf(cost, sizeof cost, ", -%.0f%% expected score", 100 * p->loss);
            len += (size_t)snprintf(text + len, sizeof text - len,
                                    " %s (%s to %s%s)%s%s Better was %s.", Kind[p->nag], before,
                                    after, cost, *p->why ? ": " : ".", p->why, best);
        }
        if (*a->note && len < sizeof text)
            snprintf(text + len, sizeof text - len, " %s", a->note);
        w_comment(w, text);
        if (p->nag && p->pv_len) {
            w_token(w, "(");
            int side = r->scratch->side, move = pos_fullmove(r->scratch);
            for (int k = 0; k < p->pv_len; k++) {
                if (k == 0 || side == WHITE) {
                    snprintf(num, sizeof num, "%d%s", move, side == WHITE ? "." : "...");
                    w_token(w, num);
                }
                w_token(w, p->pv_san[k]);
                if (k == 0) {
                    char ev[48], c[64];
                    eval_text(p->score, r->scratch, ev, sizeof ev);
                    snprintf(c, sizeof c, "[%%eval %s]", ev);
                    w_comment(w, c);
                }
                if (side == BLACK)
                    move++;
                side = !side;
            }
            w_token(w, ")");
        }
    }
    w_token(w, g->result);
    fputs("\n\n", f);
    say(r, "review: game %lld done in %.1f s: %s", g->number, secs, summary);
    free(plies);
    return w->ok;
}

/* ------------------------------------------------------------------------ */
/* The file                                                                 */

int review_run(Search *s, const ReviewOptions *opt, FILE *stream,
               void (*progress)(void *ctx, const char *line), void *ctx, char *err, size_t errlen)
{
    PgnPlayedReader *in = pgn_played_open(opt->in, err, errlen);
    if (!in)
        return -1;
    char tmp[4200] = "";
    FILE *out = stream;
    if (*opt->out) {
        snprintf(tmp, sizeof tmp, "%s.tmp", opt->out);
        if (!(out = fopen(tmp, "w"))) {
            snprintf(err, errlen, "cannot write '%s': %s", tmp, strerror(errno));
            pgn_played_close(in);
            return -1;
        }
    }
    Reviewer r = {s, opt, progress, ctx, malloc(sizeof(Position)), malloc(sizeof(Position))};
    Writer w = {out, 0, true};
    int reviewed = 0, bad = 0, rc;
    bool failed = !r.pos || !r.scratch;
    if (failed)
        snprintf(err, errlen, "out of memory");
    while (!failed && (rc = pgn_played_next(in, err, errlen)) != RECORD_END) {
        if (rc == RECORD_FAILED) {
            failed = true;
            break;
        }
        if (rc == RECORD_BAD_GAME) {
            say(&r, "review: skipped: %s", err);
            bad++;
            continue;
        }
        char summary[400];
        if (!review_game(&r, pgn_played_game(in), &w, summary, sizeof summary)) {
            snprintf(err, errlen, "cannot write the review: %s", strerror(errno));
            failed = true;
            break;
        }
        reviewed++;
    }
    free(r.pos);
    free(r.scratch);
    pgn_played_close(in);
    if (!failed && reviewed == 0) {
        if (bad)
            snprintf(err, errlen, "no game of '%s' could be reviewed (%d skipped)", opt->in, bad);
        else
            snprintf(err, errlen, "no games in '%s'", opt->in);
        failed = true;
    }
    if (out != stream) {
        bool ok = !failed && fflush(out) == 0 && !ferror(out);
        ok = fclose(out) == 0 && ok;
        if (!failed && !ok)
            snprintf(err, errlen, "cannot write '%s': %s", tmp, strerror(errno));
        if (!ok || !plat_replace_file(tmp, opt->out)) {
            if (ok && !failed)
                snprintf(err, errlen, "cannot replace '%s': %s", opt->out, strerror(errno));
            remove(tmp);
            return -1;
        }
    } else
        fflush(out);
    if (failed)
        return -1;
    say(&r, "review: %d game%s reviewed, %d skipped%s%s", reviewed, reviewed == 1 ? "" : "s", bad,
        *opt->out ? ", written to " : "", opt->out);
    return reviewed;
}
