/* Every constant of the search, the move picker, the histories and the time
 * manager, in one place: to change one, change its line here.
 *
 * Each entry is X(NAME, value, min, max): the default and the range a tuner
 * may try. The comment says what it does and, where the technique was
 * measured by leaving it out (README.md, "Ablation"), what it is worth.
 * Values written as a fraction are in hundredths (130 = 1.30).
 *
 * Ablation is a setting of these, not a switch in the search: where a
 * technique can be left out, its range reaches the value that leaves it out
 * (a tuner's own ranges are narrower), as listed in TECHNIQUE_OFF below and
 * used by bench/ablate.sh.
 *
 * The default build makes them compile-time constants. `make TUNE=1` builds
 * them as variables and lists each as a UCI spin option with its range, so
 * that an SPSA tuner (OpenBench's) can set them; the default build does not
 * list them. */
#ifndef ROKADE_TUNABLES_H
#define ROKADE_TUNABLES_H

/* clang-format off */
#define SEARCH_TUNABLES(X)                                                                        \
    /* Aspiration windows (+106 Elo, H1) */                                                       \
    X(ASP_MIN_DEPTH,         4,     1,  1000)  /* first iteration searched with a window */       \
    X(ASP_DELTA,            14,     4,    60)  /* half-width of the first window, cp */            \
    X(ASP_DELTA_DIV,        64,    16,   256)  /* the window widens by |score| / this */           \
    X(ASP_FAIL_HIGH_MAX,     3,     0,     6)  /* plies a re-search after a fail high may lose */  \
    /* Razoring (+13 Elo) */                                                                      \
    X(RAZOR_DEPTH,           3,     0,     6)  /* deepest razored node */                          \
    X(RAZOR_MARGIN,        220,    50,   600)  /* per ply, cp below alpha */                       \
    /* Reverse futility pruning (+53 Elo) */                                                      \
    X(RFP_DEPTH,             8,     0,    14)  /* deepest pruned node */                           \
    X(RFP_MARGIN,           90,    20,   200)  /* per ply (less one when improving), cp */        \
    /* Null-move pruning (+12 Elo) */                                                             \
    X(NMP_MIN_DEPTH,         3,     1,  1000)  /* shallowest node that tries a null move */        \
    X(NMP_BASE_REDUCTION,    4,     1,     8)  /* reduction at any depth */                        \
    X(NMP_DEPTH_DIV,         4,     2,    12)  /* plus depth / this */                             \
    X(NMP_EVAL_DIV,        250,    50,   800)  /* plus (eval - beta) / this ... */                 \
    X(NMP_EVAL_MAX,          3,     0,     8)  /* ... at most this */                              \
    X(NMP_VERIFY_DEPTH,     12,     6,    30)  /* from this depth a null-move cutoff is verified */\
    /* Internal iterative reduction (+29 Elo) */                                                  \
    X(IIR_MIN_DEPTH,         4,     2,  1000)  /* a PV or cut node without a TT move, from here */ \
    /* Late-move pruning (+148 Elo, H1) */                                                        \
    X(LMP_BASE,              3,     0,   512)  /* quiets tried: (this + depth^2) / (2 - improving) */ \
    /* History pruning */                                                                         \
    X(HIST_PRUNE_DEPTH,      4,     0,     8)  /* deepest pruned node */                           \
    X(HIST_PRUNE_MARGIN,  4000,  1000, 12000)  /* prunes a quiet below -this * depth */            \
    /* Futility pruning (+17 Elo) */                                                              \
    X(FUTILITY_DEPTH,        8,     0,    14)  /* deepest pruned node */                           \
    X(FUTILITY_BASE,        90,     0,   300)  /* margin at depth 0, cp */                         \
    X(FUTILITY_MARGIN,      90,    30,   250)  /* margin per ply, cp */                            \
    /* SEE pruning (+45 Elo) */                                                                   \
    X(SEE_QUIET_MARGIN,    -55,-10000,     0)  /* quiets losing more than -this * depth */        \
    X(SEE_NOISY_DEPTH,       8,     0,    14)  /* deepest node whose captures are SEE-pruned */    \
    X(SEE_NOISY_MARGIN,    -22,  -100,     0)  /* captures losing more than -this * depth^2 */    \
    /* Singular extensions and multi-cut (+23 Elo) */                                             \
    X(SE_MIN_DEPTH,          7,     4,  1000)  /* shallowest node that tests the TT move */       \
    X(SE_TT_DEPTH_MARGIN,    3,     1,     6)  /* the TT entry is at most this much shallower */   \
    X(SE_BETA_SCALE,         2,     1,     6)  /* singular beta: TT score - this * depth */        \
    X(SE_DOUBLE_MARGIN,     20,     0,   100)  /* a non-PV move this far below: extend by two */   \
    /* Late-move reductions (+98 Elo, H1) */                                                      \
    X(LMR_MIN_DEPTH,         3,     2,  1000)  /* shallowest reduced node */                       \
    X(LMR_BASE,             75,   -50,   200)  /* reduction: base + ln(depth) ln(moves) / div */   \
    X(LMR_DIV,             225,   100,   500)  /* (both in hundredths) */                          \
    X(LMR_CUTOFFS,           3,     1,    10)  /* one more when the child cut off more often */    \
    X(LMR_HIST_DIV,       8192,  2048, 32768)  /* one less per this much quiet history */          \
    X(LMR_CAPHIST_DIV,    8192,  2048, 32768)  /* captures: one less, and one per this */          \
    X(LMR_DEEPER_MARGIN,    40,     0,   200)  /* re-search a ply deeper above best + this + 2 d */ \
    X(LMR_SHALLOWER_MARGIN, 10,   -50,   100)  /* ... a ply shallower below best + this */         \
    X(LMR_RESEARCH_ADJ,      1,     0,     1)  /* 0: the re-search at new depth as it is */        \
    /* Quiescence (delta and SEE pruning: +125 Elo, H1) */                                        \
    X(QS_DELTA,            200,    50,100000)  /* margin over the captured piece, cp */            \
    X(QS_SEE_MARGIN,         0,-10000,   200)  /* captures with a SEE below this are skipped */    \
    /* Histories */                                                                               \
    X(HIST_BONUS_MUL,      170,    50,   400)  /* history bonus: mul * depth - sub ... */          \
    X(HIST_BONUS_SUB,      120,     0,   400)                                                     \
    X(HIST_BONUS_MAX,     1800,   500,  4000)  /* ... at most this */                             \
    X(EVAL_DIFF_HIST,       10,     0,    40)  /* opponent's quiet: -this * eval change ... */     \
    X(EVAL_DIFF_HIST_MAX, 1600,   200,  4000)  /* ... within +-this */                             \
    X(PRIOR_HIST,            1,     0,     1)  /* 0: no history for a move all replies fail to */  \
    /* ProbCut */                                                                                 \
    X(PROBCUT_MIN_DEPTH,     5,     2,  1000)  /* shallowest node tried */                        \
    X(PROBCUT_MARGIN,      200,    50,   500)  /* cp above beta a capture must reach ... */       \
    X(PROBCUT_REDUCTION,     4,     2,     6)  /* ... searched this many plies shallower */       \
    /* Correction history (search/history.h) */                                                  \
    X(CORR_WEIGHT_MAX,      16,     4,    64)  /* an update's weight: depth + 1, at most this ... */ \
    X(CORR_WEIGHT_DIV,     256,    64,  1024)  /* ... of this */                                  \
    X(CORR_PAWN_WEIGHT,    100,     0,   200)  /* the pawn table's share, % */                   \
    X(CORR_NON_PAWN_WEIGHT, 60,     0,   200)  /* each non-pawn table's share, % */              \
    X(CORR_MINOR_WEIGHT,    60,     0,   200)  /* the minor-piece table's share, % */            \
    /* Move picker */                                                                             \
    X(MP_CAPHIST_DIV,       16,     4,    64)  /* capture history weight: 1 / this */              \
    X(MP_GOOD_SEE_DIV,      64,    16,   256)  /* good captures: SEE >= -score / this */           \
    X(MP_KILLERS,            1,     0,     1)  /* killers and counter-move tried after captures */ \
    X(MP_PAWN_HIST,          1,     0,     1)  /* 0: quiets ordered without the pawn history */    \
    X(THREAT_HIST,           0,     0,     1)  /* 1: butterfly history by the opponent's threats */ \
    /* Lazy SMP: a thread's vote for its move */                                                  \
    X(VOTE_SCORE_OFFSET,    14,     0,   100)  /* (score - worst + this) * depth */               \
    /* Extensions (check extension: +4 Elo in 800 games) */                                       \
    X(EXT_PLY_MUL,           2,     1,     4)  /* no singular extension beyond this * root depth */ \
    X(CHECK_EXT_PLY_MUL,     2,     0,     4)  /* no check extension beyond this * root depth */    \
    X(CHECK_EXT_SEE,    -10000, -10000,  500)  /* a direct check's SEE at least this (-10000: any) */ \
    /* Time allocation (search/timeman.c) */                                                      \
    X(TM_MOVES,             40,    10,    80)  /* moves the clock is spread over at most */        \
    X(TM_SD_MOVES,          35,    10,    80)  /* without moves-to-go: soft = available / this */  \
    X(TM_OVERHEAD_MOVES,     4,     1,    10)  /* the Move Overhead is kept for this many moves */ \
    X(TM_HARD_MUL,           5,     2,    10)  /* hard limit: this * soft ... */                   \
    X(TM_HARD_SHARE,        40,    10,    90)  /* ... at most this share of the clock, % ... */    \
    X(TM_LAST_SHARE,        80,    30,    95)  /* ... or, last move of a period, this share, % */  \
    X(TM_MARGIN_MS,          5,     0,    50)  /* never closer than this to the flag, ms */        \
    /* Time manager, during the search (1+0.01 .. 8+0.08 matches in README.md) */                 \
    X(TM_STABILITY_MAX,      6,     2,    12)  /* iterations of a stable best move that count */   \
    X(TM_STABLE_BASE,      130,    80,   200)  /* soft scale: base - step * stability */           \
    X(TM_STABLE_STEP,       10,     0,    25)                                                     \
    X(TM_DROP_SCORE,        20,     5,   100)  /* a score drop of this much, cp ... */             \
    X(TM_DROP_SCALE,       140,   100,   250)  /* ... scales by this */                            \
    X(TM_SHARE_MIN_DEPTH,    8,     1,    20)  /* the best move's node share counts from here */   \
    X(TM_SHARE_BASE,        50,     0,   150)  /* scale: base + weight * (1 - share) ... */        \
    X(TM_SHARE_WEIGHT,     200,    50,   400)                                                     \
    X(TM_SHARE_MAX,        150,   100,   300)  /* ... at most this (16.5 Elo at 2+0.02) */         \
    X(TM_SINGLE_REPLY,      20,     1,   100)  /* scale with one legal move */
/* clang-format on */

/* Each technique that ablation matches can leave out, and the settings that
 * leave it out: X(NAME, "TUNABLE=value ..."). A minimum depth of 1000 is never
 * reached (a search's depth stays below MAX_PLY plus its extensions); a
 * LMP_BASE of 512 allows more quiets than a position has (MAX_MOVES); margins
 * of -10000 or 100000 are beyond any SEE or score. */
#define TECHNIQUE_OFF(X)                                                                           \
    X(ASPIRATION, "ASP_MIN_DEPTH=1000")                                                            \
    X(RAZOR, "RAZOR_DEPTH=0")                                                                      \
    X(RFP, "RFP_DEPTH=0")                                                                          \
    X(NMP, "NMP_MIN_DEPTH=1000")                                                                   \
    X(PROBCUT, "PROBCUT_MIN_DEPTH=1000")                                                           \
    X(IIR, "IIR_MIN_DEPTH=1000")                                                                   \
    X(LMP, "LMP_BASE=512")                                                                         \
    X(FUTILITY, "FUTILITY_DEPTH=0")                                                                \
    X(SEE_PRUNE, "SEE_QUIET_MARGIN=-10000 SEE_NOISY_DEPTH=0")                                      \
    X(SINGULAR, "SE_MIN_DEPTH=1000")                                                               \
    X(CHECK_EXT, "CHECK_EXT_PLY_MUL=0")                                                            \
    X(LMR, "LMR_MIN_DEPTH=1000")                                                                   \
    X(KILLERS, "MP_KILLERS=0")                                                                     \
    X(QS_PRUNE, "QS_DELTA=100000 QS_SEE_MARGIN=-10000")                                            \
    X(HIST_PRUNE, "HIST_PRUNE_DEPTH=0")

/* Every default lies in its range. */
#define TUNABLE_CHECK(name, value, min, max)                                                       \
    _Static_assert((min) <= (value) && (value) <= (max), #name "'s default is outside its range");
SEARCH_TUNABLES(TUNABLE_CHECK)
#undef TUNABLE_CHECK

#ifdef TUNE
#define TUNABLE_DECLARE(name, value, min, max) extern int name;
SEARCH_TUNABLES(TUNABLE_DECLARE)
#undef TUNABLE_DECLARE

/* Name, value and range of each tunable, for the option table. */
typedef struct {
    const char *name;
    int *value;
    int def, min, max;
} Tunable;
extern const Tunable Tunables[];
extern const int TunableCount;
#else
#define TUNABLE_ENUM(name, value, min, max) name = (value),
enum { SEARCH_TUNABLES(TUNABLE_ENUM) };
#undef TUNABLE_ENUM
#endif

#endif
