/* The one SIMD layer of the network, used by the engine's inference
 * (eval/nnue/) and the trainer (eval/train/): vectors of int16 (with 32-bit
 * sums) and of float, each with AVX-512, AVX2, WebAssembly SIMD and
 * portable (one lane) versions chosen by the compiler's target macros. A
 * kernel is written once over these operations and steps by the vector's
 * lane count; every version gives the same integers, and the float kernels
 * the same operations in the same order per lane.
 *
 * int16:  vi16 (VI16_LANES), vi32 its pairwise 32-bit sums
 *         vi16_load/store (any alignment), vi16_set1, vi16_zero,
 *         vi16_add, vi16_sub, vi16_min, vi16_max, vi16_mullo,
 *         vi16_madd (pairs of products summed to 32 bits),
 *         vi32_zero, vi32_add, vi32_sum
 * float:  vf32 (VF32_LANES), loads and stores 64-byte aligned
 *         vf32_load/store, vf32_set1, vf32_zero, vf32_add, vf32_mul,
 *         vf32_min, vf32_max, vf32_mul_add (a * b + c: one rounding with
 *         AVX-512's fused instruction, two elsewhere), vf32_sum,
 *         vf32_in_open01 (x where 0 < t < 1, else 0) */
#ifndef ROKADE_NNUE_SIMD_H
#define ROKADE_NNUE_SIMD_H

#include <stdint.h>

#if defined(__AVX512BW__) || defined(__AVX512F__) || defined(__AVX2__)
#include <immintrin.h>
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

/* ---- int16 -------------------------------------------------------------- */

#if defined(__AVX512BW__)

#define SIMD_I16_NAME "avx512"
enum { VI16_LANES = 32 };
typedef __m512i vi16;
typedef __m512i vi32;
static inline vi16 vi16_load(const int16_t *p) { return _mm512_loadu_si512(p); }
static inline void vi16_store(int16_t *p, vi16 v) { _mm512_storeu_si512(p, v); }
static inline vi16 vi16_set1(int16_t x) { return _mm512_set1_epi16(x); }
static inline vi16 vi16_zero(void) { return _mm512_setzero_si512(); }
static inline vi16 vi16_add(vi16 a, vi16 b) { return _mm512_add_epi16(a, b); }
static inline vi16 vi16_sub(vi16 a, vi16 b) { return _mm512_sub_epi16(a, b); }
static inline vi16 vi16_min(vi16 a, vi16 b) { return _mm512_min_epi16(a, b); }
static inline vi16 vi16_max(vi16 a, vi16 b) { return _mm512_max_epi16(a, b); }
static inline vi16 vi16_mullo(vi16 a, vi16 b) { return _mm512_mullo_epi16(a, b); }
static inline vi32 vi16_madd(vi16 a, vi16 b) { return _mm512_madd_epi16(a, b); }
static inline vi32 vi32_zero(void) { return _mm512_setzero_si512(); }
static inline vi32 vi32_add(vi32 a, vi32 b) { return _mm512_add_epi32(a, b); }
static inline int32_t vi32_sum(vi32 v) { return _mm512_reduce_add_epi32(v); }

#elif defined(__AVX2__)

#define SIMD_I16_NAME "avx2"
enum { VI16_LANES = 16 };
typedef __m256i vi16;
typedef __m256i vi32;
static inline vi16 vi16_load(const int16_t *p) { return _mm256_loadu_si256((const __m256i *)p); }
static inline void vi16_store(int16_t *p, vi16 v) { _mm256_storeu_si256((__m256i *)p, v); }
static inline vi16 vi16_set1(int16_t x) { return _mm256_set1_epi16(x); }
static inline vi16 vi16_zero(void) { return _mm256_setzero_si256(); }
static inline vi16 vi16_add(vi16 a, vi16 b) { return _mm256_add_epi16(a, b); }
static inline vi16 vi16_sub(vi16 a, vi16 b) { return _mm256_sub_epi16(a, b); }
static inline vi16 vi16_min(vi16 a, vi16 b) { return _mm256_min_epi16(a, b); }
static inline vi16 vi16_max(vi16 a, vi16 b) { return _mm256_max_epi16(a, b); }
static inline vi16 vi16_mullo(vi16 a, vi16 b) { return _mm256_mullo_epi16(a, b); }
static inline vi32 vi16_madd(vi16 a, vi16 b) { return _mm256_madd_epi16(a, b); }
static inline vi32 vi32_zero(void) { return _mm256_setzero_si256(); }
static inline vi32 vi32_add(vi32 a, vi32 b) { return _mm256_add_epi32(a, b); }
static inline int32_t vi32_sum(vi32 v)
{
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
    return _mm_cvtsi128_si32(s);
}

#elif defined(__wasm_simd128__)

#define SIMD_I16_NAME "wasm-simd128"
enum { VI16_LANES = 8 };
typedef v128_t vi16;
typedef v128_t vi32;
static inline vi16 vi16_load(const int16_t *p) { return wasm_v128_load(p); }
static inline void vi16_store(int16_t *p, vi16 v) { wasm_v128_store(p, v); }
static inline vi16 vi16_set1(int16_t x) { return wasm_i16x8_splat(x); }
static inline vi16 vi16_zero(void) { return wasm_i16x8_splat(0); }
static inline vi16 vi16_add(vi16 a, vi16 b) { return wasm_i16x8_add(a, b); }
static inline vi16 vi16_sub(vi16 a, vi16 b) { return wasm_i16x8_sub(a, b); }
static inline vi16 vi16_min(vi16 a, vi16 b) { return wasm_i16x8_min(a, b); }
static inline vi16 vi16_max(vi16 a, vi16 b) { return wasm_i16x8_max(a, b); }
static inline vi16 vi16_mullo(vi16 a, vi16 b) { return wasm_i16x8_mul(a, b); }
static inline vi32 vi16_madd(vi16 a, vi16 b) { return wasm_i32x4_dot_i16x8(a, b); }
static inline vi32 vi32_zero(void) { return wasm_i32x4_splat(0); }
static inline vi32 vi32_add(vi32 a, vi32 b) { return wasm_i32x4_add(a, b); }
static inline int32_t vi32_sum(vi32 v)
{
    return wasm_i32x4_extract_lane(v, 0) + wasm_i32x4_extract_lane(v, 1)
           + wasm_i32x4_extract_lane(v, 2) + wasm_i32x4_extract_lane(v, 3);
}

#else

/* Portable: one lane. The arithmetic is the vector one: a 16-bit product
 * wraps as the lanes' does, and its 32-bit sums are exact. */
#define SIMD_I16_NAME "portable"
enum { VI16_LANES = 1 };
typedef int16_t vi16;
typedef int32_t vi32;
static inline vi16 vi16_load(const int16_t *p) { return *p; }
static inline void vi16_store(int16_t *p, vi16 v) { *p = v; }
static inline vi16 vi16_set1(int16_t x) { return x; }
static inline vi16 vi16_zero(void) { return 0; }
static inline vi16 vi16_add(vi16 a, vi16 b) { return (int16_t)(a + b); }
static inline vi16 vi16_sub(vi16 a, vi16 b) { return (int16_t)(a - b); }
static inline vi16 vi16_min(vi16 a, vi16 b) { return a < b ? a : b; }
static inline vi16 vi16_max(vi16 a, vi16 b) { return a > b ? a : b; }
static inline vi16 vi16_mullo(vi16 a, vi16 b) { return (int16_t)(uint16_t)((int32_t)a * b); }
static inline vi32 vi16_madd(vi16 a, vi16 b) { return (int32_t)a * b; }
static inline vi32 vi32_zero(void) { return 0; }
static inline vi32 vi32_add(vi32 a, vi32 b) { return a + b; }
static inline int32_t vi32_sum(vi32 v) { return v; }

#endif

/* ---- float -------------------------------------------------------------- */

#if defined(__AVX512F__)

#define SIMD_F32_NAME "avx512"
enum { VF32_LANES = 16 };
typedef __m512 vf32;
static inline vf32 vf32_load(const float *p) { return _mm512_load_ps(p); }
static inline void vf32_store(float *p, vf32 v) { _mm512_store_ps(p, v); }
static inline vf32 vf32_set1(float x) { return _mm512_set1_ps(x); }
static inline vf32 vf32_zero(void) { return _mm512_setzero_ps(); }
static inline vf32 vf32_add(vf32 a, vf32 b) { return _mm512_add_ps(a, b); }
static inline vf32 vf32_mul(vf32 a, vf32 b) { return _mm512_mul_ps(a, b); }
static inline vf32 vf32_min(vf32 a, vf32 b) { return _mm512_min_ps(a, b); }
static inline vf32 vf32_max(vf32 a, vf32 b) { return _mm512_max_ps(a, b); }
static inline vf32 vf32_mul_add(vf32 a, vf32 b, vf32 c) { return _mm512_fmadd_ps(a, b, c); }
static inline float vf32_sum(vf32 v) { return _mm512_reduce_add_ps(v); }
static inline vf32 vf32_in_open01(vf32 t, vf32 x)
{
    __mmask16 in = _mm512_cmp_ps_mask(t, _mm512_setzero_ps(), _CMP_GT_OQ)
                   & _mm512_cmp_ps_mask(t, _mm512_set1_ps(1.0f), _CMP_LT_OQ);
    return _mm512_maskz_mov_ps(in, x);
}

#elif defined(__AVX2__)

#define SIMD_F32_NAME "avx2"
enum { VF32_LANES = 8 };
typedef __m256 vf32;
static inline vf32 vf32_load(const float *p) { return _mm256_load_ps(p); }
static inline void vf32_store(float *p, vf32 v) { _mm256_store_ps(p, v); }
static inline vf32 vf32_set1(float x) { return _mm256_set1_ps(x); }
static inline vf32 vf32_zero(void) { return _mm256_setzero_ps(); }
static inline vf32 vf32_add(vf32 a, vf32 b) { return _mm256_add_ps(a, b); }
static inline vf32 vf32_mul(vf32 a, vf32 b) { return _mm256_mul_ps(a, b); }
static inline vf32 vf32_min(vf32 a, vf32 b) { return _mm256_min_ps(a, b); }
static inline vf32 vf32_max(vf32 a, vf32 b) { return _mm256_max_ps(a, b); }
static inline vf32 vf32_mul_add(vf32 a, vf32 b, vf32 c)
{
    return _mm256_add_ps(c, _mm256_mul_ps(a, b));
}
static inline float vf32_sum(vf32 v)
{
    __m128 s4 = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s4 = _mm_add_ps(s4, _mm_movehl_ps(s4, s4));
    s4 = _mm_add_ss(s4, _mm_movehdup_ps(s4));
    return _mm_cvtss_f32(s4);
}
static inline vf32 vf32_in_open01(vf32 t, vf32 x)
{
    __m256 in = _mm256_and_ps(_mm256_cmp_ps(t, _mm256_setzero_ps(), _CMP_GT_OQ),
                              _mm256_cmp_ps(t, _mm256_set1_ps(1.0f), _CMP_LT_OQ));
    return _mm256_and_ps(in, x);
}

#elif defined(__wasm_simd128__)

#define SIMD_F32_NAME "wasm-simd128"
enum { VF32_LANES = 4 };
typedef v128_t vf32;
static inline vf32 vf32_load(const float *p) { return wasm_v128_load(p); }
static inline void vf32_store(float *p, vf32 v) { wasm_v128_store(p, v); }
static inline vf32 vf32_set1(float x) { return wasm_f32x4_splat(x); }
static inline vf32 vf32_zero(void) { return wasm_f32x4_splat(0.0f); }
static inline vf32 vf32_add(vf32 a, vf32 b) { return wasm_f32x4_add(a, b); }
static inline vf32 vf32_mul(vf32 a, vf32 b) { return wasm_f32x4_mul(a, b); }
static inline vf32 vf32_min(vf32 a, vf32 b) { return wasm_f32x4_pmin(a, b); }
static inline vf32 vf32_max(vf32 a, vf32 b) { return wasm_f32x4_pmax(a, b); }
static inline vf32 vf32_mul_add(vf32 a, vf32 b, vf32 c)
{
    return wasm_f32x4_add(c, wasm_f32x4_mul(a, b));
}
static inline float vf32_sum(vf32 v)
{
    return wasm_f32x4_extract_lane(v, 0) + wasm_f32x4_extract_lane(v, 1)
           + wasm_f32x4_extract_lane(v, 2) + wasm_f32x4_extract_lane(v, 3);
}
static inline vf32 vf32_in_open01(vf32 t, vf32 x)
{
    v128_t in = wasm_v128_and(wasm_f32x4_gt(t, wasm_f32x4_splat(0.0f)),
                              wasm_f32x4_lt(t, wasm_f32x4_splat(1.0f)));
    return wasm_v128_and(in, x);
}

#else

#define SIMD_F32_NAME "portable"
enum { VF32_LANES = 1 };
typedef float vf32;
static inline vf32 vf32_load(const float *p) { return *p; }
static inline void vf32_store(float *p, vf32 v) { *p = v; }
static inline vf32 vf32_set1(float x) { return x; }
static inline vf32 vf32_zero(void) { return 0.0f; }
static inline vf32 vf32_add(vf32 a, vf32 b) { return a + b; }
static inline vf32 vf32_mul(vf32 a, vf32 b) { return a * b; }
static inline vf32 vf32_min(vf32 a, vf32 b) { return b < a ? b : a; }
static inline vf32 vf32_max(vf32 a, vf32 b) { return b > a ? b : a; }
static inline vf32 vf32_mul_add(vf32 a, vf32 b, vf32 c) { return c + a * b; }
static inline float vf32_sum(vf32 v) { return v; }
static inline vf32 vf32_in_open01(vf32 t, vf32 x) { return t > 0.0f && t < 1.0f ? x : 0.0f; }

#endif

#endif
