/* The network file's header: see format.h. */
#include "format.h"

#include <stdio.h>
#include <string.h>

static const uint8_t Magic[4] = {'R', 'K', 'N', 'N'};

bool nnue_header_read(const uint8_t *data, size_t size, NnueHeader *h, char *err, size_t errlen)
{
    if (size < NNUE_HEADER_SIZE || memcmp(data, Magic, sizeof Magic) != 0) {
        snprintf(err, errlen, "not a Rokade network (no RKNN header)");
        return false;
    }
    h->version = nnue_get_u32(data + 4);
    h->inputs = nnue_get_u32(data + 8);
    h->hidden = nnue_get_u32(data + 12);
    h->qa = nnue_get_u32(data + 16);
    h->qb = nnue_get_u32(data + 20);
    h->scale = (int32_t)nnue_get_u32(data + 24);
    h->buckets = nnue_get_u32(data + 28);
    if (h->version != 1 && h->version != NNUE_VERSION) {
        snprintf(err, errlen, "format version %u, this build reads versions 1 and %d", h->version,
                 NNUE_VERSION);
        return false;
    }
    if (h->version == 1 && h->buckets != 0) {
        snprintf(err, errlen, "a version 1 net with %u in the header's reserved field (must be 0)",
                 h->buckets);
        return false;
    }
    if (h->version == 1)
        h->buckets = 1;
    if (h->buckets < 1 || h->buckets > NNUE_MAX_BUCKETS) {
        snprintf(err, errlen, "%u output buckets, this build reads 1 to %d", h->buckets,
                 NNUE_MAX_BUCKETS);
        return false;
    }
    if (h->scale < 1 || h->scale > NNUE_SCALE_MAX) {
        snprintf(err, errlen, "scale %d out of range (1..%d)", (int)h->scale, NNUE_SCALE_MAX);
        return false;
    }
    return true;
}

void nnue_header_write(uint8_t *out, const NnueHeader *h)
{
    memcpy(out, Magic, sizeof Magic);
    const uint32_t fields[7] = {NNUE_VERSION, h->inputs,          h->hidden, h->qa,
                                h->qb,        (uint32_t)h->scale, h->buckets};
    for (int i = 0; i < 7; i++)
        nnue_put_u32(out + 4 + 4 * (size_t)i, fields[i]);
}
