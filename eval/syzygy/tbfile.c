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
 * truncated or corrupt file is reported and dropped, never read past. The
 * index of a position and the decompression are in tbindex.c. */
#include "tbfile.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tbformat.h"

enum { WDL_MAGIC = 0x5d23e871, DTZ_MAGIC = 0xa50c66d7 };

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
    plat_unmap_file(&f->mapping);
    memset(f->pairs, 0, sizeof f->pairs);
    f->base = NULL;
    f->size = 0;
}

/* Whether the blocks hold every value of the part, and every sparse index
 * entry points into them. */
static bool pairs_blocks_agree(const uint8_t *base, const TbPairs *d)
{
    if (d->flags & PF_SINGLE)
        return true;
    const uint8_t *lens = base + d->block_len;
    uint64_t values = 0;
    for (uint32_t b = 0; b < d->blocks; b++)
        values += u16_at(lens + 2 * (size_t)b) + 1ULL;
    if (values < d->factor[d->groups])
        return false;
    const uint8_t *se = base + d->sparse;
    for (uint32_t k = 0; k < d->sparse_count; k++, se += 6) {
        uint32_t block = se[0] | (uint32_t)se[1] << 8 | (uint32_t)se[2] << 16
                         | (uint32_t)se[3] << 24;
        if (block >= d->block_len_count || u16_at(se + 4) > u16_at(lens + 2 * (size_t)block))
            return false;
    }
    return true;
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
            const char *why = tbindex_set_groups(e, d, (int)(s ? order >> 4 : order & 15),
                                                 (int)(s ? order2 >> 4 : order2 & 15), file);
            if (why)
                return why;
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
    for (int file = 0; file < f->files && !r.error; file++)
        for (int s = 0; s < f->sides && !r.error; s++)
            if (!pairs_blocks_agree(f->base, &f->pairs[s][file]))
                r.error = "the block index does not match the table";
    return r.error;
}

/* Maps and checks a file (under TB.lock). */
static void file_load(TbEntry *e, TbKind kind)
{
    TbFile *f = &e->file[kind];
    char path[4096];
    snprintf(path, sizeof path, "%s/%s%s", TB.dirs[e->dir[kind]], e->name,
             kind == TB_WDL ? ".rtbw" : ".rtbz");
    const char *why = plat_map_file(path, 16, &f->mapping);
    if (!why) {
        f->base = f->mapping.data;
        f->size = f->mapping.size;
        why = file_parse(e, kind, f);
    }
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

TbFileStatus tbfile_probe(const Position *pos, TbKind kind, int wdl, int *value)
{
    uint64_t key = position_key(pos);
    TbEntry *e = TB.count ? entry_find(key) : NULL;
    if (!e || !file_ready(e, kind))
        return TBF_MISSING;
    const TbFile *f = &e->file[kind];
    /* The table's colours: its stronger side white; a symmetric table stores
     * only white to move. */
    bool flip = e->key != e->key2 ? key != e->key : pos->side == BLACK;
    const TbPairs *d;
    uint64_t idx;
    TbFileStatus st = tbindex_locate(pos, e, f, kind, flip, &d, &idx);
    if (st != TBF_OK)
        return st;
    int v = tbindex_value(f, d, idx);
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

static void add_dir_entry(const char *name, void *dir) { entry_add(name, *(const int *)dir); }

int tbfile_init(const char *path)
{
    static bool indexed;
    if (!indexed)
        tbindex_init();
    indexed = true;
    tbfile_free();
    if (!path || !*path || !strcmp(path, "<empty>"))
        return 0;
    for (const char *p = path; *p;) {
        const char *q = strchr(p, plat_path_list_separator());
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
    for (int i = 0; i < TB.dir_count; i++)
        plat_list_dir(TB.dirs[i], add_dir_entry, &i);
    return TB.files[TB_WDL];
}

int tbfile_max_pieces(void) { return TB.max_pieces; }

int tbfile_count(TbKind kind) { return TB.files[kind]; }
