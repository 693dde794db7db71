/* Loading a network file (format.h) into a NnueNet, with every check of the
 * file's header, size, checksum and weight ranges. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../movegen/platform/platform.h"
#include "net.h"
#include "nnue.h"

/* Reads n int16 values into out; false when one is beyond +-limit. */
static bool read_table(const uint8_t **p, int16_t *out, size_t n, int limit)
{
    bool ok = true;
    for (size_t i = 0; i < n; i++, *p += 2) {
        out[i] = nnue_get_i16(*p);
        if (out[i] > limit || out[i] < -limit)
            ok = false;
    }
    return ok;
}

NnueNet *nnue_net_load(const uint8_t *data, size_t size, char *err, size_t errlen)
{
    NnueHeader h;
    if (!nnue_header_read(data, size, &h, err, errlen))
        return NULL;
    if (h.inputs != NNUE_INPUTS || h.hidden != H || h.qa != NNUE_QA || h.qb != NNUE_QB) {
        snprintf(err, errlen,
                 "a %u -> %u net with QA %u, QB %u; this build needs %d -> %d, QA %d, QB %d",
                 h.inputs, h.hidden, h.qa, h.qb, NNUE_INPUTS, H, NNUE_QA, NNUE_QB);
        return NULL;
    }
    const size_t want = nnue_file_size(NNUE_INPUTS, H, h.buckets);
    if (size != want) {
        snprintf(err, errlen, "%zu bytes, a %d -> %d net with %u output buckets has %zu", size,
                 NNUE_INPUTS, H, h.buckets, want);
        return NULL;
    }
    if (nnue_checksum(data, size - 4) != nnue_get_u32(data + size - 4)) {
        snprintf(err, errlen, "checksum mismatch (damaged file)");
        return NULL;
    }
    NnueNet *net = plat_aligned_alloc(64, sizeof(NnueNet));
    if (!net) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    const uint8_t *p = data + NNUE_HEADER_SIZE;
    bool ok = read_table(&p, &net->ft_weight[0][0], (size_t)NNUE_INPUTS * H, NNUE_FT_LIMIT)
              && read_table(&p, net->ft_bias, H, NNUE_FT_LIMIT)
              && read_table(&p, &net->out_weight[0][0], (size_t)h.buckets * 2 * H,
                            NNUE_WEIGHT_LIMIT);
    if (!ok) {
        snprintf(err, errlen, "a weight beyond the format's range (feature %d, output %d)",
                 NNUE_FT_LIMIT, NNUE_WEIGHT_LIMIT);
        plat_aligned_free(net);
        return NULL;
    }
    for (uint32_t k = 0; k < h.buckets; k++, p += 4)
        net->out_bias[k] = (int32_t)nnue_get_u32(p);
    net->buckets = (int)h.buckets;
    net->scale = h.scale;
    return net;
}

NnueNet *nnue_net_load_file(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    /* A valid file has at most this size: read one byte more to tell. */
    size_t want = nnue_file_size(NNUE_INPUTS, H, NNUE_MAX_BUCKETS);
    uint8_t *buf = malloc(want + 1);
    if (!buf) {
        fclose(f);
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    size_t got = fread(buf, 1, want + 1, f);
    bool read_error = ferror(f);
    fclose(f);
    NnueNet *net = NULL;
    if (read_error) {
        snprintf(err, errlen, "%s: read error", path);
    } else {
        char why[200];
        net = nnue_net_load(buf, got, why, sizeof why);
        if (!net)
            snprintf(err, errlen, "%s: %s", path, why);
    }
    free(buf);
    return net;
}

void nnue_net_free(NnueNet *net) { plat_aligned_free(net); }

int nnue_net_scale(const NnueNet *net) { return net->scale; }
