/* Syzygy table files (tbfile.h).
 *
 * The format, as the generator (syzygy1/tb) writes it: a 4-byte magic, a
 * flags byte (bit 0: the WDL table stores both sides to move; bit 1: pawns),
 * then for each pawn file a..d (one "file" for a table without pawns) the
 * encoding order of the piece groups and the pieces in encoding order (low
 * nibble for white to move, high nibble for black), then per (file, side) the
 * compression parameters, for DTZ the value maps, then per (file, side) the
 * sparse index, the block lengths and, each at a 64-byte boundary, the blocks
 * of canonical Huffman codes of "recursive pairing" symbols. A table stores
 * the position with the stronger side (the first side of its name) as white;
 * a position with the colours the other way round is probed flipped.
 *
 * Every offset and length read from a file is checked against its size, so a
 * truncated or corrupt file is reported and dropped, never read past. */
#include "tbfile.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(_WIN32)
#define TB_PATH_SEP ';'
#else
#define TB_PATH_SEP ':'
#endif

enum { WDL_MAGIC = 0x5d23e871, DTZ_MAGIC = 0xa50c66d7 };

/* The flags byte of each (file, side) of a table. */
enum {
    PF_STM = 1,        /* DTZ: the side to move it stores (0 white) */
    PF_MAPPED = 2,     /* DTZ: values go through the table's maps */
    PF_WIN_PLIES = 4,  /* DTZ: wins counted in plies, not moves */
    PF_LOSS_PLIES = 8, /* DTZ: losses counted in plies */
    PF_WIDE = 16,      /* DTZ: 16-bit map entries */
    PF_SINGLE = 128,   /* one value for every position */
};

enum { FILE_UNLOADED, FILE_READY, FILE_BROKEN };

/* One (file, side) of a table: how a position becomes an index, and where
 * the index's value is stored. */
typedef struct {
    uint8_t flags;
    uint8_t single;                   /* the value of a PF_SINGLE table */
    uint8_t pieces[TB_PIECES_MAX];    /* table piece codes, encoding order */
    uint8_t group_len[TB_PIECES_MAX]; /* pieces of each group */
    int groups;
    uint64_t factor[TB_PIECES_MAX + 1]; /* multiplier of each group; [groups]: size */
    uint64_t block_bytes, span;
    uint32_t blocks, block_len_count, sparse_count;
    size_t sparse, block_len, data; /* offsets in the file */
    int min_len, max_len;           /* Huffman code lengths */
    size_t lowest_sym;              /* offset of the lowest symbol of each length */
    uint64_t *base;                 /* [max_len - min_len + 1], left-aligned */
    size_t tree;                    /* offset of the 3-byte symbol pairs */
    int sym_count;
    uint16_t *sym_values; /* number of values each symbol stands for */
    uint16_t map_idx[4];  /* DTZ: first entry of each map (win, loss, cursed, blessed) */
} TbPairs;

typedef struct {
    atomic_int state;
    void *mapping; /* the mapped file, as munmap takes it */
    const uint8_t *base;
    size_t size;
    int files, sides;
    size_t map, map_end; /* DTZ maps */
    TbPairs pairs[2][4]; /* [side][pawn file] */
} TbFile;

typedef struct {
    char name[TB_PIECES_MAX + 2];
    uint64_t key;  /* material with the first side of the name white */
    uint64_t key2; /* with it black */
    int pieces;
    bool has_pawns, unique, both_pawns;
    int dir[2]; /* directory of the WDL and DTZ file, -1 for none */
    TbFile file[2];
    atomic_int reported[2]; /* the broken file was reported */
} TbEntry;

enum { HASH_SLOTS = 8192 };

static struct {
    char **dirs;
    int dir_count;
    TbEntry *entries;
    int count, cap;
    int hash[HASH_SLOTS]; /* entry index + 1, 0 for an empty slot */
    int max_pieces;
    int files[2];
    pthread_mutex_t lock;
    void (*report)(const char *line);
} TB = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* ---- index tables ---- */

static uint64_t Binom[TB_PIECES_MAX + 1][64]; /* Binom[k][n] = n choose k */
static int8_t TriMap[SQ_NB];   /* a1-d1-d4 triangle: b1..d3 below the diagonal 0..5, a1..d4 6..9 */
static int8_t LowerMap[SQ_NB]; /* squares below the a1-h8 diagonal: 0..27 */
static int16_t KingMap[10][SQ_NB]; /* two kings, the first in the triangle: 0..461 */
static int8_t PawnMap[SQ_NB];      /* a2..h7: the leading pawn has the highest */
static uint32_t LeadIdx[6][SQ_NB]; /* first index of a leading pawn on sq, by pawn count */
static uint32_t LeadSize[6][4];    /* indices of n leading pawns on a file */
static bool TablesReady;

static inline int diag_offset(int sq) { return rank_of(sq) - file_of(sq); }
static inline int transpose(int sq) { return ((sq >> 3) | (sq << 3)) & 63; }
static inline bool kings_touch(int a, int b)
{
    int df = file_of(a) - file_of(b), dr = rank_of(a) - rank_of(b);
    return df >= -1 && df <= 1 && dr >= -1 && dr <= 1;
}

static void tables_init(void)
{
    for (int n = 0; n < 64; n++) {
        Binom[0][n] = 1;
        for (int k = 1; k <= TB_PIECES_MAX; k++)
            Binom[k][n] = n == 0 ? 0 : Binom[k - 1][n - 1] + Binom[k][n - 1];
    }
    int code = 0;
    for (int sq = 0; sq < SQ_NB; sq++) {
        TriMap[sq] = -1;
        LowerMap[sq] = diag_offset(sq) < 0 ? (int8_t)code++ : -1;
    }
    code = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int sq = SQ_A1; sq <= SQ_D4; sq++)
            if (file_of(sq) <= 3 && (pass == 0 ? diag_offset(sq) < 0 : diag_offset(sq) == 0))
                TriMap[sq] = (int8_t)code++;
    /* The second king of a first on the diagonal never stands above it; the
     * pairs with both on the diagonal come last. */
    code = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int t = 0; t < 10; t++)
            for (int k1 = 0; k1 < SQ_NB; k1++) {
                if (TriMap[k1] != t)
                    continue;
                for (int k2 = 0; k2 < SQ_NB; k2++) {
                    if (pass == 0)
                        KingMap[t][k2] = -1;
                    if (k1 == k2 || kings_touch(k1, k2))
                        continue;
                    bool on1 = diag_offset(k1) == 0, on2 = diag_offset(k2) == 0;
                    if (on1 && diag_offset(k2) > 0)
                        continue;
                    if ((on1 && on2) == (pass == 1))
                        KingMap[t][k2] = (int16_t)code++;
                }
            }
    /* Pawn squares by distance from the edge: a2 47, h2 46, a3 45, ... */
    int avail = 47;
    for (int f = 0; f < 4; f++)
        for (int r = 1; r <= 6; r++) {
            PawnMap[make_square(f, r)] = (int8_t)avail--;
            PawnMap[make_square(7 - f, r)] = (int8_t)avail--;
        }
    for (int n = 1; n <= 5; n++)
        for (int f = 0; f < 4; f++) {
            uint32_t idx = 0;
            for (int r = 1; r <= 6; r++) {
                int sq = make_square(f, r);
                LeadIdx[n][sq] = idx;
                idx += (uint32_t)Binom[n - 1][PawnMap[sq]];
            }
            LeadSize[n][f] = idx;
        }
    TablesReady = true;
}

/* ---- names and material keys ---- */

static const char PieceChars[] = " PNBRQK";

/* Material key: four bits per (colour, piece type) count. */
static inline uint64_t material_key(const int count[COLOR_NB][PIECE_TYPE_NB])
{
    uint64_t k = 0;
    for (int c = WHITE; c <= BLACK; c++)
        for (int pt = PAWN; pt <= KING; pt++)
            k |= (uint64_t)count[c][pt] << (4 * (c * 6 + pt - 1));
    return k;
}

static uint64_t position_key(const Position *pos)
{
    int count[COLOR_NB][PIECE_TYPE_NB] = {{0}};
    for (int c = WHITE; c <= BLACK; c++)
        for (int pt = PAWN; pt <= KING; pt++)
            count[c][pt] = popcount(pos_pieces(pos, c, pt));
    return material_key(count);
}

/* Parses a table name such as KRPvKR into piece counts (first side white). */
static bool name_parse(const char *name, size_t len, int count[COLOR_NB][PIECE_TYPE_NB])
{
    int side = WHITE, total = 0;
    memset(count, 0, sizeof(int[COLOR_NB][PIECE_TYPE_NB]));
    for (size_t i = 0; i < len; i++) {
        if (name[i] == 'v') {
            if (side == BLACK || i == 0 || name[i - 1] == 'v')
                return false;
            side = BLACK;
            continue;
        }
        const char *p = strchr(PieceChars + 1, name[i]);
        if (!name[i] || !p || ++total > TB_PIECES_MAX)
            return false;
        count[side][p - PieceChars]++;
    }
    return side == BLACK && name[len - 1] != 'v' && count[WHITE][KING] == 1
           && count[BLACK][KING] == 1 && name[0] == 'K' && total >= 3;
}

static TbEntry *entry_find(uint64_t key)
{
    for (uint32_t h = (uint32_t)((key * 0x9E3779B97F4A7C15ULL) >> 51);; h = (h + 1) % HASH_SLOTS) {
        int i = TB.hash[h];
        if (!i)
            return NULL;
        TbEntry *e = &TB.entries[i - 1];
        if (e->key == key || e->key2 == key)
            return e;
    }
}

static void hash_insert(uint64_t key, int index)
{
    uint32_t h = (uint32_t)((key * 0x9E3779B97F4A7C15ULL) >> 51);
    while (TB.hash[h])
        h = (h + 1) % HASH_SLOTS;
    TB.hash[h] = index + 1;
}

/* Registers the file `name` (e.g. KRvK.rtbw) found in directory dir. */
static void entry_add(const char *name, int dir)
{
    size_t len = strlen(name);
    if (len < 6 || len > 5 + TB_PIECES_MAX + 1)
        return;
    TbKind kind;
    if (!strcmp(name + len - 5, ".rtbw"))
        kind = TB_WDL;
    else if (!strcmp(name + len - 5, ".rtbz"))
        kind = TB_DTZ;
    else
        return;
    int count[COLOR_NB][PIECE_TYPE_NB];
    if (!name_parse(name, len - 5, count))
        return;
    uint64_t key = material_key(count);
    TbEntry *e = entry_find(key);
    if (e && e->key != key)
        return; /* the same material under the other name: the first one wins */
    if (!e) {
        if (TB.count >= HASH_SLOTS / 2 - 1)
            return;
        if (TB.count == TB.cap) {
            int cap = TB.cap ? 2 * TB.cap : 64;
            TbEntry *n = realloc(TB.entries, (size_t)cap * sizeof *n);
            if (!n)
                return;
            TB.entries = n;
            TB.cap = cap;
        }
        e = &TB.entries[TB.count];
        memset(e, 0, sizeof *e);
        memcpy(e->name, name, len - 5);
        e->name[len - 5] = '\0';
        int swapped[COLOR_NB][PIECE_TYPE_NB];
        for (int pt = PAWN; pt <= KING; pt++) {
            swapped[WHITE][pt] = count[BLACK][pt];
            swapped[BLACK][pt] = count[WHITE][pt];
            e->pieces += count[WHITE][pt] + count[BLACK][pt];
            for (int c = WHITE; c <= BLACK; c++)
                e->unique |= pt != KING && count[c][pt] == 1;
        }
        e->key = key;
        e->key2 = material_key(swapped);
        e->has_pawns = count[WHITE][PAWN] + count[BLACK][PAWN] > 0;
        e->both_pawns = count[WHITE][PAWN] > 0 && count[BLACK][PAWN] > 0;
        e->dir[TB_WDL] = e->dir[TB_DTZ] = -1;
        for (int k = 0; k < 2; k++) {
            atomic_init(&e->file[k].state, FILE_UNLOADED);
            atomic_init(&e->reported[k], 0);
        }
        hash_insert(e->key, TB.count);
        if (e->key2 != e->key)
            hash_insert(e->key2, TB.count);
        TB.count++;
    }
    if (e->dir[kind] < 0) {
        e->dir[kind] = dir;
        TB.files[kind]++;
        if (kind == TB_WDL && e->pieces > TB.max_pieces)
            TB.max_pieces = e->pieces;
    }
}

/* ---- reports ---- */

static void report_default(const char *line)
{
    printf("%s\n", line);
    fflush(stdout);
}

void tbfile_set_report(void (*report)(const char *line)) { TB.report = report; }

/* Reports a broken file once. */
static void report_broken(TbEntry *e, TbKind kind, const char *why)
{
    if (atomic_exchange(&e->reported[kind], 1))
        return;
    char line[640];
    snprintf(line, sizeof line, "info string error: Syzygy table %s/%s%s: %s; table not used",
             e->dir[kind] >= 0 ? TB.dirs[e->dir[kind]] : "?", e->name,
             kind == TB_WDL ? ".rtbw" : ".rtbz", why);
    (TB.report ? TB.report : report_default)(line);
}

/* ---- reading a file's layout ---- */

typedef struct {
    const uint8_t *base;
    size_t size, pos;
    const char *error; /* the first thing found wrong */
} Reader;

static inline bool reader_need(Reader *r, size_t n)
{
    if (r->error)
        return false;
    if (n > r->size || r->pos > r->size - n) {
        r->error = "truncated file";
        return false;
    }
    return true;
}

static inline unsigned read_u8(Reader *r)
{
    if (!reader_need(r, 1))
        return 0;
    return r->base[r->pos++];
}

static inline unsigned read_u16(Reader *r)
{
    if (!reader_need(r, 2))
        return 0;
    unsigned v = r->base[r->pos] | (unsigned)r->base[r->pos + 1] << 8;
    r->pos += 2;
    return v;
}

static inline uint32_t read_u32(Reader *r)
{
    if (!reader_need(r, 4))
        return 0;
    const uint8_t *p = r->base + r->pos;
    r->pos += 4;
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Moves on n bytes (checked, with the product of two counts). */
static inline void reader_skip(Reader *r, uint64_t count, uint64_t unit)
{
    if (r->error)
        return;
    if (unit && count > (r->size - r->pos) / unit) {
        r->error = "truncated file";
        return;
    }
    r->pos += (size_t)(count * unit);
}

static inline void reader_align(Reader *r, size_t to)
{
    size_t pad = (to - r->pos % to) % to;
    if (reader_need(r, pad))
        r->pos += pad;
}

static inline void reader_fail(Reader *r, const char *why)
{
    if (!r->error)
        r->error = why;
}

static inline unsigned u16_at(const uint8_t *p) { return p[0] | (unsigned)p[1] << 8; }

/* The groups of a (file, side) and their multipliers, from its pieces and the
 * encoding order (lead group at position order0, the other side's pawns at
 * order1 when both sides have pawns). */
static void pairs_set_groups(Reader *r, const TbEntry *e, TbPairs *d, int order0, int order1,
                             int file)
{
    int first = e->has_pawns ? 0 : e->unique ? 3 : 2;
    int n = 0;
    d->group_len[0] = 1;
    for (int i = 1; i < e->pieces; i++) {
        if (--first > 0 || d->pieces[i] == d->pieces[i - 1])
            d->group_len[n]++;
        else
            d->group_len[++n] = 1;
    }
    d->groups = ++n;
    if (e->has_pawns && (piece_type(d->pieces[0]) != PAWN || d->group_len[0] > 5))
        return reader_fail(r, "bad piece order");
    if (e->both_pawns && (n < 2 || piece_type(d->pieces[d->group_len[0]]) != PAWN))
        return reader_fail(r, "bad piece order");
    int next = e->both_pawns ? 2 : 1;
    int free_sq = 64 - d->group_len[0] - (e->both_pawns ? d->group_len[1] : 0);
    bool lead_done = false, pawns_done = !e->both_pawns;
    uint64_t size = 1;
    for (int k = 0; k < 16 && (next < n || !lead_done || !pawns_done); k++) {
        if (k == order0) {
            d->factor[0] = size;
            size *= e->has_pawns ? LeadSize[d->group_len[0]][file] : e->unique ? 31332 : 462;
            lead_done = true;
        } else if (e->both_pawns && k == order1) {
            d->factor[1] = size;
            size *= Binom[d->group_len[1]][48 - d->group_len[0]];
            pawns_done = true;
        } else if (next < n) {
            d->factor[next] = size;
            size *= Binom[d->group_len[next]][free_sq];
            free_sq -= d->group_len[next++];
        }
    }
    if (!lead_done || !pawns_done || next != n)
        return reader_fail(r, "bad group order");
    d->factor[n] = size;
}

static inline void tree_children(const uint8_t *tree, int sym, int *left, int *right)
{
    const uint8_t *t = tree + 3 * (size_t)sym;
    *left = t[0] | (t[1] & 15) << 8;
    *right = t[1] >> 4 | t[2] << 4;
}

/* The number of values each symbol stands for: 1 for a value, the sum of its
 * two symbols' for a pair. Depth-first with an explicit stack; false for a
 * cycle, a symbol out of range or a count beyond 16 bits. */
static bool pairs_count_values(const uint8_t *tree, int count, uint16_t *values)
{
    int *stack = malloc((size_t)count * sizeof *stack);
    if (!stack)
        return false;
    memset(values, 0, (size_t)count * sizeof *values); /* 0: not counted yet */
    bool ok = true;
    for (int s0 = 0; s0 < count && ok; s0++) {
        if (values[s0])
            continue;
        int top = 0;
        stack[top++] = s0;
        while (top > 0 && ok) {
            int s = stack[top - 1], left, right;
            tree_children(tree, s, &left, &right);
            if (right == 0xFFF) {
                values[s] = 1;
                top--;
                continue;
            }
            if (left >= count || right >= count) {
                ok = false;
                break;
            }
            if (values[left] && values[right]) {
                if (values[left] + values[right] > 65535)
                    ok = false;
                values[s] = (uint16_t)(values[left] + values[right]);
                top--;
                continue;
            }
            /* A symbol met again before it is counted: a cycle. */
            int child = values[left] ? right : left;
            for (int i = 0; i < top && ok; i++)
                ok = stack[i] != child;
            if (ok && top < count)
                stack[top++] = child;
            else
                ok = false;
        }
    }
    free(stack);
    return ok;
}

/* The compression parameters of a (file, side). */
static void pairs_set_sizes(Reader *r, TbPairs *d)
{
    d->flags = (uint8_t)read_u8(r);
    if (d->flags & PF_SINGLE) {
        d->single = (uint8_t)read_u8(r);
        return;
    }
    unsigned block_log = read_u8(r), span_log = read_u8(r);
    unsigned padding = read_u8(r);
    d->blocks = read_u32(r);
    d->max_len = (int)read_u8(r);
    d->min_len = (int)read_u8(r);
    if (r->error)
        return;
    if (block_log > 24 || span_log > 40 || d->min_len < 1 || d->max_len < d->min_len
        || d->max_len > 32)
        return reader_fail(r, "bad compression parameters");
    d->block_bytes = 1ULL << block_log;
    d->span = 1ULL << span_log;
    uint64_t size = d->factor[d->groups];
    if ((size + d->span - 1) / d->span > UINT32_MAX || (uint64_t)d->blocks + padding > UINT32_MAX)
        return reader_fail(r, "bad compression parameters");
    d->sparse_count = (uint32_t)((size + d->span - 1) / d->span);
    d->block_len_count = d->blocks + padding;
    int lengths = d->max_len - d->min_len + 1;
    d->lowest_sym = r->pos;
    reader_skip(r, (uint64_t)lengths, 2);
    d->sym_count = (int)read_u16(r);
    d->tree = r->pos;
    reader_skip(r, (uint64_t)d->sym_count, 3);
    reader_skip(r, (uint64_t)(d->sym_count & 1), 1);
    if (r->error)
        return;
    if (d->sym_count == 0 || d->sym_count > 4096)
        return reader_fail(r, "bad symbol count");
    /* Canonical Huffman: the codes of a length follow each other, longer
     * codes have lower values. base[i] is the lowest code of length
     * min_len + i, left-aligned in 64 bits. */
    d->base = malloc((size_t)lengths * sizeof *d->base);
    d->sym_values = malloc((size_t)d->sym_count * sizeof *d->sym_values);
    if (!d->base || !d->sym_values)
        return reader_fail(r, "out of memory");
    const uint8_t *low = r->base + d->lowest_sym;
    d->base[lengths - 1] = 0;
    for (int i = lengths - 2; i >= 0; i--) {
        uint64_t up = d->base[i + 1] + u16_at(low + 2 * (size_t)i);
        unsigned next = u16_at(low + 2 * (size_t)(i + 1));
        if (up < next)
            return reader_fail(r, "bad Huffman code");
        d->base[i] = (up - next) / 2;
    }
    for (int i = 0; i < lengths; i++) {
        if (i + d->min_len < 64 && d->base[i] >> (i + d->min_len))
            return reader_fail(r, "bad Huffman code");
        d->base[i] <<= 64 - i - d->min_len;
    }
    if (!pairs_count_values(r->base + d->tree, d->sym_count, d->sym_values))
        return reader_fail(r, "bad symbol tree");
}

/* The DTZ value maps. */
static void file_set_maps(Reader *r, TbFile *f)
{
    f->map = r->pos;
    for (int file = 0; file < f->files; file++) {
        TbPairs *d = &f->pairs[0][file];
        if (!(d->flags & PF_MAPPED))
            continue;
        if (d->flags & PF_WIDE) {
            reader_align(r, 2);
            for (int i = 0; i < 4; i++) {
                size_t idx = (r->pos - f->map) / 2 + 1;
                if (idx > 65535)
                    return reader_fail(r, "bad value map");
                d->map_idx[i] = (uint16_t)idx;
                reader_skip(r, read_u16(r), 2);
            }
        } else {
            for (int i = 0; i < 4; i++) {
                size_t idx = r->pos - f->map + 1;
                if (idx > 65535)
                    return reader_fail(r, "bad value map");
                d->map_idx[i] = (uint16_t)idx;
                reader_skip(r, read_u8(r), 1);
            }
        }
    }
    f->map_end = r->pos;
    reader_align(r, 2);
}

static void file_release(TbFile *f)
{
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < 4; i++) {
            free(f->pairs[s][i].base);
            free(f->pairs[s][i].sym_values);
        }
    if (f->base)
        munmap(f->mapping, f->size);
    memset(f->pairs, 0, sizeof f->pairs);
    f->base = NULL;
    f->mapping = NULL;
    f->size = 0;
}

/* Reads the layout of a mapped file; NULL or what is wrong. */
static const char *file_parse(const TbEntry *e, TbKind kind, TbFile *f)
{
    Reader r = {f->base, f->size, 0, NULL};
    uint32_t magic = read_u32(&r);
    if (r.error || magic != (kind == TB_WDL ? (uint32_t)WDL_MAGIC : (uint32_t)DTZ_MAGIC))
        return "not a Syzygy table (bad magic number)";
    unsigned head = read_u8(&r);
    bool split = head & 1, pawns = (head & 2) != 0;
    if (pawns != e->has_pawns || (kind == TB_WDL && split != (e->key != e->key2)))
        return "the file does not hold the table its name says";
    f->files = pawns ? 4 : 1;
    f->sides = kind == TB_WDL && split ? 2 : 1;
    const int pieces = e->pieces < TB_PIECES_MAX ? e->pieces : TB_PIECES_MAX;
    for (int file = 0; file < f->files; file++) {
        unsigned order = read_u8(&r), order2 = e->both_pawns ? read_u8(&r) : 0xFF;
        for (int k = 0; k < pieces; k++) {
            unsigned b = read_u8(&r);
            for (int s = 0; s < f->sides; s++)
                f->pairs[s][file].pieces[k] = (uint8_t)(s ? b >> 4 : b & 15);
        }
        for (int s = 0; s < f->sides && !r.error; s++) {
            /* The pieces must be the table's material, white first named. */
            TbPairs *d = &f->pairs[s][file];
            int count[COLOR_NB][PIECE_TYPE_NB] = {{0}};
            for (int k = 0; k < e->pieces; k++) {
                int pt = piece_type(d->pieces[k]);
                if (pt < PAWN || pt > KING || (d->pieces[k] & 0x70))
                    return "bad piece code";
                count[piece_color(d->pieces[k])][pt]++;
            }
            if (material_key(count) != e->key)
                return "the file does not hold the table its name says";
            pairs_set_groups(&r, e, d, (int)(s ? order >> 4 : order & 15),
                             (int)(s ? order2 >> 4 : order2 & 15), file);
        }
    }
    reader_align(&r, 2);
    for (int file = 0; file < f->files; file++)
        for (int s = 0; s < f->sides; s++)
            pairs_set_sizes(&r, &f->pairs[s][file]);
    if (kind == TB_DTZ)
        file_set_maps(&r, f);
    for (int file = 0; file < f->files; file++)
        for (int s = 0; s < f->sides; s++) {
            f->pairs[s][file].sparse = r.pos;
            reader_skip(&r, f->pairs[s][file].sparse_count, 6);
        }
    for (int file = 0; file < f->files; file++)
        for (int s = 0; s < f->sides; s++) {
            f->pairs[s][file].block_len = r.pos;
            reader_skip(&r, f->pairs[s][file].block_len_count, 2);
        }
    for (int file = 0; file < f->files; file++)
        for (int s = 0; s < f->sides; s++) {
            TbPairs *d = &f->pairs[s][file];
            reader_align(&r, 64);
            d->data = r.pos;
            reader_skip(&r, d->blocks, d->block_bytes);
        }
    return r.error;
}

/* Maps and checks a file (under TB.lock). */
static void file_load(TbEntry *e, TbKind kind)
{
    TbFile *f = &e->file[kind];
    char path[4096];
    snprintf(path, sizeof path, "%s/%s%s", TB.dirs[e->dir[kind]], e->name,
             kind == TB_WDL ? ".rtbw" : ".rtbz");
    const char *why = NULL;
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0)
        why = "cannot open the file";
    else if (fstat(fd, &st) != 0)
        why = "cannot read the file";
    else if (st.st_size < 16)
        why = "truncated file";
    else {
        f->size = (size_t)st.st_size;
        void *m = mmap(NULL, f->size, PROT_READ, MAP_SHARED, fd, 0);
        if (m == MAP_FAILED)
            why = "cannot map the file";
        else {
            f->mapping = m;
            f->base = m;
            why = file_parse(e, kind, f);
        }
    }
    if (fd >= 0)
        close(fd);
    if (why) {
        file_release(f);
        report_broken(e, kind, why);
    }
    atomic_store_explicit(&f->state, why ? FILE_BROKEN : FILE_READY, memory_order_release);
}

static inline bool file_ready(TbEntry *e, TbKind kind)
{
    int s = atomic_load_explicit(&e->file[kind].state, memory_order_acquire);
    if (s == FILE_UNLOADED) {
        if (e->dir[kind] < 0)
            return false;
        pthread_mutex_lock(&TB.lock);
        if (atomic_load_explicit(&e->file[kind].state, memory_order_relaxed) == FILE_UNLOADED)
            file_load(e, kind);
        pthread_mutex_unlock(&TB.lock);
        s = atomic_load_explicit(&e->file[kind].state, memory_order_acquire);
    }
    return s == FILE_READY;
}

/* Marks a file found corrupt while probing; its mapping stays until
 * tbfile_free, as other threads may be reading it. */
static void file_mark_broken(TbEntry *e, TbKind kind, const char *why)
{
    atomic_store_explicit(&e->file[kind].state, FILE_BROKEN, memory_order_release);
    report_broken(e, kind, why);
}

/* ---- decompression ---- */

static inline uint32_t load_be32(const TbFile *f, size_t at, size_t end)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v = v << 8 | (at + (size_t)i < end ? f->base[at + (size_t)i] : 0);
    return v;
}

/* The value stored at index idx; -1 when the data is found corrupt, -2 for
 * an index out of the table (a position the table cannot hold). */
static int pairs_value(const TbFile *f, const TbPairs *d, uint64_t idx)
{
    if (d->flags & PF_SINGLE)
        return d->single;
    if (idx >= d->factor[d->groups])
        return -2;
    /* Sparse entry k gives the block and offset of index k * span + span / 2. */
    uint64_t k = idx / d->span;
    const uint8_t *se = f->base + d->sparse + 6 * k;
    uint32_t block = se[0] | (uint32_t)se[1] << 8 | (uint32_t)se[2] << 16 | (uint32_t)se[3] << 24;
    int64_t offset = (int64_t)u16_at(se + 4) + (int64_t)(idx % d->span) - (int64_t)(d->span / 2);
    const uint8_t *lens = f->base + d->block_len;
    while (offset < 0) {
        if (block == 0)
            return -1;
        offset += (int64_t)u16_at(lens + 2 * (size_t)--block) + 1;
    }
    for (;;) {
        if (block >= d->blocks)
            return -1;
        int64_t len = u16_at(lens + 2 * (size_t)block);
        if (offset <= len)
            break;
        offset -= len + 1;
        block++;
    }
    size_t at = d->data + (size_t)block * d->block_bytes, end = at + d->block_bytes;
    uint64_t buf = (uint64_t)load_be32(f, at, end) << 32 | load_be32(f, at + 4, end);
    at += 8;
    int bits = 64;
    const uint8_t *low = f->base + d->lowest_sym;
    const int lengths = d->max_len - d->min_len + 1;
    int sym;
    for (;;) {
        int len = 0;
        while (buf < d->base[len])
            if (++len >= lengths)
                return -1;
        sym = (int)((buf - d->base[len]) >> (64 - len - d->min_len))
              + (int)u16_at(low + 2 * (size_t)len);
        if (sym >= d->sym_count)
            return -1;
        if (offset < d->sym_values[sym])
            break;
        offset -= d->sym_values[sym];
        len += d->min_len;
        buf <<= len;
        bits -= len;
        if (bits <= 32) {
            bits += 32;
            buf |= (uint64_t)load_be32(f, at, end) << (64 - bits);
            at += 4;
            if (at > end + 8)
                return -1;
        }
    }
    /* Down the pair tree to the value at offset. */
    const uint8_t *tree = f->base + d->tree;
    for (;;) {
        const uint8_t *t = tree + 3 * (size_t)sym;
        int left = t[0] | (t[1] & 15) << 8;
        if (d->sym_values[sym] == 1)
            return left;
        if (offset < d->sym_values[left])
            sym = left;
        else {
            offset -= d->sym_values[left];
            sym = t[1] >> 4 | t[2] << 4;
        }
    }
}

/* ---- from a position to an index ---- */

static inline void sort_squares(int *sq, int n, bool by_pawn_map)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0; j--) {
            int a = by_pawn_map ? PawnMap[sq[j - 1]] : sq[j - 1];
            int b = by_pawn_map ? PawnMap[sq[j]] : sq[j];
            if (a <= b)
                break;
            int t = sq[j];
            sq[j] = sq[j - 1];
            sq[j - 1] = t;
        }
}

/* Index of the first three pieces (all different) of a table without pawns,
 * the first in the a1-d1-d4 triangle, the first off the diagonal below it. */
static uint64_t three_pieces_index(const int *sq)
{
    /* Where the index ranges of the four cases start: the first piece off
     * the diagonal (6 squares, then 63 and 62), the first on it and the
     * second off (4, 28, 62), the first two on it (4, 7, 28), all three. */
    const uint64_t on1 = 6ULL * 63 * 62, on2 = on1 + 4ULL * 28 * 62, on3 = on2 + 4ULL * 7 * 28;
    const uint64_t r0 = (uint64_t)rank_of(sq[0]);
    const uint64_t adj1 = sq[1] > sq[0], adj2 = (uint64_t)(sq[2] > sq[0]) + (sq[2] > sq[1]);
    const uint64_t s1 = (uint64_t)sq[1] - adj1, s2 = (uint64_t)sq[2] - adj2;
    if (diag_offset(sq[0]))
        return ((uint64_t)TriMap[sq[0]] * 63 + s1) * 62 + s2;
    if (diag_offset(sq[1]))
        return on1 + (r0 * 28 + (uint64_t)LowerMap[sq[1]]) * 62 + s2;
    const uint64_t r1 = (uint64_t)rank_of(sq[1]) - adj1;
    if (diag_offset(sq[2]))
        return on2 + (r0 * 7 + r1) * 28 + (uint64_t)LowerMap[sq[2]];
    return on3 + (r0 * 7 + r1) * 6 + (uint64_t)rank_of(sq[2]) - adj2;
}

TbFileStatus tbfile_probe(const Position *pos, TbKind kind, int wdl, int *value)
{
    uint64_t key = position_key(pos);
    TbEntry *e = TB.count ? entry_find(key) : NULL;
    if (!e || !file_ready(e, kind))
        return TBF_MISSING;
    TbFile *f = &e->file[kind];
    /* The table's colours: its stronger side white; a symmetric table stores
     * only white to move. */
    bool flip = e->key != e->key2 ? key != e->key : pos->side == BLACK;
    int stm = flip ^ pos->side, sq_flip = flip ? 56 : 0, pc_flip = flip ? 8 : 0;
    int sq[TB_PIECES_MAX] = {0}, pc[TB_PIECES_MAX] = {0}, n = 0, file = 0;
    bitboard_t rest = pos_occupied(pos);
    if (e->has_pawns) {
        int lead = f->pairs[0][0].pieces[0] ^ pc_flip;
        bitboard_t b = pos_pieces(pos, piece_color(lead), PAWN);
        rest ^= b;
        while (b)
            sq[n++] = pop_lsb(&b) ^ sq_flip;
        for (int i = 1; i < n; i++)
            if (PawnMap[sq[i]] > PawnMap[sq[0]]) {
                int t = sq[0];
                sq[0] = sq[i];
                sq[i] = t;
            }
        file = file_of(sq[0]) > 3 ? 7 - file_of(sq[0]) : file_of(sq[0]);
    }
    const int lead_count = n;
    if (kind == TB_WDL && stm >= f->sides)
        return TBF_MISSING;
    const TbPairs *d = &f->pairs[kind == TB_WDL ? stm : 0][file];
    if (kind == TB_DTZ && (d->flags & PF_STM) != stm && (e->key != e->key2 || e->has_pawns))
        return TBF_OTHER_SIDE;
    while (rest) {
        int s = pop_lsb(&rest);
        sq[n] = s ^ sq_flip;
        pc[n++] = pos->board[s] ^ pc_flip;
    }
    /* The pieces in the table's order. */
    for (int i = lead_count; i < n; i++) {
        if (pc[i] == d->pieces[i])
            continue;
        for (int j = i + 1; j < n; j++)
            if (pc[j] == d->pieces[i]) {
                int t = pc[i];
                pc[i] = pc[j];
                pc[j] = t;
                t = sq[i];
                sq[i] = sq[j];
                sq[j] = t;
                break;
            }
    }
    if (file_of(sq[0]) > 3)
        for (int i = 0; i < n; i++)
            sq[i] ^= 7;
    uint64_t idx;
    if (e->has_pawns) {
        idx = LeadIdx[lead_count][sq[0]];
        sort_squares(sq + 1, lead_count - 1, true);
        for (int i = 1; i < lead_count; i++)
            idx += Binom[i][PawnMap[sq[i]]];
    } else {
        if (rank_of(sq[0]) > 3)
            for (int i = 0; i < n; i++)
                sq[i] ^= 56;
        for (int i = 0; i < d->group_len[0]; i++) {
            if (!diag_offset(sq[i]))
                continue;
            if (diag_offset(sq[i]) > 0)
                for (int j = i; j < n; j++)
                    sq[j] = transpose(sq[j]);
            break;
        }
        if (!e->unique && KingMap[TriMap[sq[0]]][sq[1]] < 0)
            return TBF_MISSING; /* kings side by side: not a position */
        idx = e->unique ? three_pieces_index(sq) : (uint64_t)KingMap[TriMap[sq[0]]][sq[1]];
    }
    idx *= d->factor[0];
    /* The other groups: each a combination of the squares left free. */
    int start = d->group_len[0];
    bool pawn_group = e->both_pawns;
    for (int g = 1; g < d->groups; g++) {
        int len = d->group_len[g];
        sort_squares(sq + start, len, false);
        uint64_t comb = 0;
        for (int i = 0; i < len; i++) {
            int s = sq[start + i], below = 0;
            for (int j = 0; j < start; j++)
                below += sq[j] < s;
            comb += Binom[i + 1][s - below - (pawn_group ? 8 : 0)];
        }
        pawn_group = false;
        idx += comb * d->factor[g];
        start += len;
    }
    int v = pairs_value(f, d, idx);
    if (v == -2)
        return TBF_MISSING;
    if (v < 0) {
        file_mark_broken(e, kind, "corrupt compressed data");
        return TBF_MISSING;
    }
    if (kind == TB_WDL) {
        if (v > 4) {
            file_mark_broken(e, kind, "bad value");
            return TBF_MISSING;
        }
        *value = v - 2;
        return TBF_OK;
    }
    if (d->flags & PF_MAPPED) {
        static const int MapOf[5] = {1, 3, 0, 2, 0}; /* by WDL + 2 */
        size_t at = d->map_idx[MapOf[wdl + 2]] + (size_t)v;
        if (d->flags & PF_WIDE) {
            at = f->map + 2 * at;
            v = at + 2 <= f->map_end ? (int)u16_at(f->base + at) : -1;
        } else {
            at = f->map + at;
            v = at < f->map_end ? f->base[at] : -1;
        }
        if (v < 0) {
            file_mark_broken(e, kind, "bad value map");
            return TBF_MISSING;
        }
    }
    if ((wdl == 2 && !(d->flags & PF_WIN_PLIES)) || (wdl == -2 && !(d->flags & PF_LOSS_PLIES))
        || wdl == 1 || wdl == -1)
        v *= 2;
    *value = v + 1;
    return TBF_OK;
}

/* ---- set-up ---- */

void tbfile_free(void)
{
    for (int i = 0; i < TB.count; i++)
        for (int k = 0; k < 2; k++)
            file_release(&TB.entries[i].file[k]);
    free(TB.entries);
    for (int i = 0; i < TB.dir_count; i++)
        free(TB.dirs[i]);
    free(TB.dirs);
    TB.entries = NULL;
    TB.dirs = NULL;
    TB.count = TB.cap = TB.dir_count = TB.max_pieces = 0;
    TB.files[0] = TB.files[1] = 0;
    memset(TB.hash, 0, sizeof TB.hash);
}

int tbfile_init(const char *path)
{
    if (!TablesReady)
        tables_init();
    tbfile_free();
    if (!path || !*path || !strcmp(path, "<empty>"))
        return 0;
    for (const char *p = path; *p;) {
        const char *q = strchr(p, TB_PATH_SEP);
        size_t len = q ? (size_t)(q - p) : strlen(p);
        if (len > 0 && len < 2048) {
            char **dirs = realloc(TB.dirs, (size_t)(TB.dir_count + 1) * sizeof *dirs);
            char *dir = malloc(len + 1);
            if (dirs)
                TB.dirs = dirs;
            if (dirs && dir) {
                memcpy(dir, p, len);
                dir[len] = '\0';
                TB.dirs[TB.dir_count++] = dir;
            } else
                free(dir);
        }
        p += len + (q != NULL);
    }
    for (int i = 0; i < TB.dir_count; i++) {
        DIR *d = opendir(TB.dirs[i]);
        if (!d)
            continue;
        struct dirent *de;
        while ((de = readdir(d)) != NULL)
            entry_add(de->d_name, i);
        closedir(d);
    }
    return TB.files[TB_WDL];
}

int tbfile_max_pieces(void) { return TB.max_pieces; }

int tbfile_count(TbKind kind) { return TB.files[kind]; }
