/* Syzygy tables inside eval/syzygy/: the layout of a mapped table (its
 * (file, side) parts, TbPairs) as tbfile.c reads it, and what tbindex.c
 * offers it: the groups of a part, the index of a position and the value
 * stored at an index. Not for use outside eval/syzygy/. */
#ifndef ROKADE_TBFORMAT_H
#define ROKADE_TBFORMAT_H

#include <stdatomic.h>
#include <stddef.h>

#include "../../movegen/platform/platform.h"
#include "tbfile.h"

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
    PlatMapping mapping; /* the mapped file */
    const uint8_t *base; /* mapping.data, size mapping.size, while mapped */
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

static inline unsigned u16_at(const uint8_t *p) { return p[0] | (unsigned)p[1] << 8; }

/* Builds the index tables; call once before the rest. */
void tbindex_init(void);

/* The groups of part d of table e (its pieces set) and their multipliers,
 * from the encoding order (the lead group at position order0, the other
 * side's pawns at order1 when both sides have pawns) and the pawn file;
 * NULL or what is wrong with them. */
const char *tbindex_set_groups(const TbEntry *e, TbPairs *d, int order0, int order1, int file);

/* The part of table file f (of entry e, `flip`: the position's colours are
 * the other way round) that holds pos, and the index of pos in it.
 * TBF_OTHER_SIDE: a DTZ table that stores the other side to move;
 * TBF_MISSING: no such position in the table. */
TbFileStatus tbindex_locate(const Position *pos, const TbEntry *e, const TbFile *f, TbKind kind,
                            bool flip, const TbPairs **part, uint64_t *index);

/* The value stored at index idx of part d of mapped file f: -1 when the data
 * is found corrupt, -2 for an index beyond the part. */
int tbindex_value(const TbFile *f, const TbPairs *d, uint64_t idx);

#endif
