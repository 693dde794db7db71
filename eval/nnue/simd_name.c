/* The SIMD layer's version compiled in (nnue.h). */
#include "nnue.h"
#include "simd.h"

const char *nnue_simd_name(void) { return SIMD_I16_NAME; }
