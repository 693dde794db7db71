/* The one SIMD layer of the network, used by the engine's inference
 * (eval/nnue/) and the trainer (eval/train/): vectors of int16 (with 32-bit
 * sums) and of float. A kernel is written once over these operations and
 * steps by the vector's lane count; every version gives the same integers
 * as the portable one, and the float kernels the same operations in the
 * same order per lane (vf32_min/max are exactly the portable b < a ? b : a
 * and b > a ? b : a, NaN and signed zeros included).
 *
 * The version is chosen by the compiler's target macros (-march), first
 * that applies:
 *   AVX-512   int16 with __AVX512BW__ (32 lanes; "avx512", or
 *             "avx512-vnni" whose vi32_add_madd is one vpdpwssd with
 *             __AVX512VNNI__), float with __AVX512F__ (16 lanes)
 *   AVX2      __AVX2__ (16 and 8 lanes; int16 "avx2", or "avx2-vnni"
 *             with AVX-VNNI's vpdpwssd, __AVXVNNI__)
 *   SSE2      __SSE2__, the x86-64 baseline (8 and 4 lanes; "sse2"; the
 *             float sum takes SSE3's movshdup with __SSE3__, "sse3". Of
 *             SSSE3 and SSE4.1 nothing serves these operations better:
 *             phaddd takes more micro-ops than the shuffle and add it would
 *             replace, so x86-64-v2 builds are "sse2" and "sse3" too)
 *   NEON      AArch64, __aarch64__ and __ARM_NEON (8 and 4 lanes; "neon";
 *             its float kernels give SSE's floats bit for bit)
 *   wasm      WebAssembly SIMD, __wasm_simd128__ (8 and 4 lanes)
 *   portable  one lane, plain C: every other target, and any build with
 *             -DNNUE_SIMD_PORTABLE (make NNUE_SIMD=portable: the floor
 *             that the others are measured and tested against)
 *
 * int16:  vi16 (VI16_LANES), vi32 its pairwise 32-bit sums
 *         vi16_load/store (any alignment), vi16_set1, vi16_zero,
 *         vi16_add, vi16_sub (wrapping), vi16_min, vi16_max, vi16_mullo
 *         (the low 16 bits of the product), vi16_madd (pairs of products
 *         summed to 32 bits, wrapping), vi32_zero, vi32_add, vi32_sum,
 *         vi32_add_madd (acc + vi16_madd(a, b), lane by lane)
 *         VI16_REGS: how many vi16 a kernel may keep in registers (a tile
 *         of an accumulator), leaving some of the target's for the rest
 * float:  vf32 (VF32_LANES), loads and stores 64-byte aligned
 *         vf32_load/store, vf32_set1, vf32_zero, vf32_add, vf32_mul,
 *         vf32_min, vf32_max, vf32_mul_add (a * b + c: one rounding with
 *         AVX-512's fused instruction, VF32_FUSED_MUL_ADD 1; two elsewhere,
 *         0), vf32_sum,
 *         vf32_in_open01 (x where 0 < t < 1, else 0) */
#ifndef ROKADE_NNUE_SIMD_H
#define ROKADE_NNUE_SIMD_H

#include <stdint.h>

#if defined(NNUE_SIMD_PORTABLE)
/* (the portable versions below, whatever the target) */
#elif defined(__AVX512BW__) || defined(__AVX512F__) || defined(__AVX2__) || defined(__SSE2__)
#include <immintrin.h>
#elif defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

/* ---- int16 -------------------------------------------------------------- */

#if !defined(NNUE_SIMD_PORTABLE) && defined(__AVX512BW__)

#if defined(__AVX512VNNI__)
#define SIMD_I16_NAME "avx512-vnni"
#else
#define SIMD_I16_NAME "avx512"
#endif
enum { VI16_LANES = 32, VI16_REGS = 16 };
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
static inline vi32 vi32_add_madd(vi32 acc, vi16 a, vi16 b)
{
#if defined(__AVX512VNNI__)
    return _mm512_dpwssd_epi32(acc, a, b); /* wrapping, as madd then add */
#else
    return _mm512_add_epi32(acc, _mm512_madd_epi16(a, b));
#endif
}

#elif !defined(NNUE_SIMD_PORTABLE) && defined(__AVX2__)

#if defined(__AVXVNNI__)
#define SIMD_I16_NAME "avx2-vnni"
#else
#define SIMD_I16_NAME "avx2"
#endif
enum { VI16_LANES = 16, VI16_REGS = 8 };
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
static inline vi32 vi32_add_madd(vi32 acc, vi16 a, vi16 b)
{
#if defined(__AVXVNNI__)
    return _mm256_dpwssd_avx_epi32(acc, a, b); /* wrapping, as madd then add */
#else
    return _mm256_add_epi32(acc, _mm256_madd_epi16(a, b));
#endif
}

#elif !defined(NNUE_SIMD_PORTABLE) && defined(__SSE2__)

#define SIMD_I16_NAME "sse2"
enum { VI16_LANES = 8, VI16_REGS = 8 };
typedef __m128i vi16;
typedef __m128i vi32;
static inline vi16 vi16_load(const int16_t *p) { return _mm_loadu_si128((const __m128i *)p); }
static inline void vi16_store(int16_t *p, vi16 v) { _mm_storeu_si128((__m128i *)p, v); }
static inline vi16 vi16_set1(int16_t x) { return _mm_set1_epi16(x); }
static inline vi16 vi16_zero(void) { return _mm_setzero_si128(); }
static inline vi16 vi16_add(vi16 a, vi16 b) { return _mm_add_epi16(a, b); }
static inline vi16 vi16_sub(vi16 a, vi16 b) { return _mm_sub_epi16(a, b); }
static inline vi16 vi16_min(vi16 a, vi16 b) { return _mm_min_epi16(a, b); }
static inline vi16 vi16_max(vi16 a, vi16 b) { return _mm_max_epi16(a, b); }
static inline vi16 vi16_mullo(vi16 a, vi16 b) { return _mm_mullo_epi16(a, b); }
static inline vi32 vi16_madd(vi16 a, vi16 b) { return _mm_madd_epi16(a, b); }
static inline vi32 vi32_zero(void) { return _mm_setzero_si128(); }
static inline vi32 vi32_add(vi32 a, vi32 b) { return _mm_add_epi32(a, b); }
static inline int32_t vi32_sum(vi32 v)
{
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0x4e));
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0xb1));
    return _mm_cvtsi128_si32(v);
}
static inline vi32 vi32_add_madd(vi32 acc, vi16 a, vi16 b)
{
    return _mm_add_epi32(acc, _mm_madd_epi16(a, b));
}

#elif !defined(NNUE_SIMD_PORTABLE) && defined(__aarch64__) && defined(__ARM_NEON)

#define SIMD_I16_NAME "neon"
enum { VI16_LANES = 8, VI16_REGS = 16 };
typedef int16x8_t vi16;
typedef int32x4_t vi32;
static inline vi16 vi16_load(const int16_t *p) { return vld1q_s16(p); }
static inline void vi16_store(int16_t *p, vi16 v) { vst1q_s16(p, v); }
static inline vi16 vi16_set1(int16_t x) { return vdupq_n_s16(x); }
static inline vi16 vi16_zero(void) { return vdupq_n_s16(0); }
static inline vi16 vi16_add(vi16 a, vi16 b) { return vaddq_s16(a, b); }
static inline vi16 vi16_sub(vi16 a, vi16 b) { return vsubq_s16(a, b); }
static inline vi16 vi16_min(vi16 a, vi16 b) { return vminq_s16(a, b); }
static inline vi16 vi16_max(vi16 a, vi16 b) { return vmaxq_s16(a, b); }
static inline vi16 vi16_mullo(vi16 a, vi16 b) { return vmulq_s16(a, b); }
/* The products of lanes 0-3 and 4-7 widened, then adjacent ones summed:
 * lane i is a[2i] b[2i] + a[2i+1] b[2i+1], as x86's madd. */
static inline vi32 vi16_madd(vi16 a, vi16 b)
{
    return vpaddq_s32(vmull_s16(vget_low_s16(a), vget_low_s16(b)), vmull_high_s16(a, b));
}
static inline vi32 vi32_zero(void) { return vdupq_n_s32(0); }
static inline vi32 vi32_add(vi32 a, vi32 b) { return vaddq_s32(a, b); }
static inline int32_t vi32_sum(vi32 v) { return vaddvq_s32(v); }
static inline vi32 vi32_add_madd(vi32 acc, vi16 a, vi16 b)
{
    return vaddq_s32(acc, vi16_madd(a, b));
}

#elif !defined(NNUE_SIMD_PORTABLE) && defined(__wasm_simd128__)

#define SIMD_I16_NAME "wasm-simd128"
enum { VI16_LANES = 8, VI16_REGS = 8 };
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
static inline vi32 vi32_add_madd(vi32 acc, vi16 a, vi16 b)
{
    return wasm_i32x4_add(acc, wasm_i32x4_dot_i16x8(a, b));
}

#else

/* Portable: one lane. The arithmetic is the vector one: a 16-bit sum or
 * product wraps as the lanes' does, and its 32-bit sums are exact. */
#define SIMD_I16_NAME "portable"
enum { VI16_LANES = 1, VI16_REGS = 16 };
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
static inline vi32 vi32_add_madd(vi32 acc, vi16 a, vi16 b) { return acc + (int32_t)a * b; }

#endif

/* ---- float -------------------------------------------------------------- */

#if !defined(NNUE_SIMD_PORTABLE) && defined(__AVX512F__)

#define SIMD_F32_NAME "avx512"
enum { VF32_LANES = 16, VF32_FUSED_MUL_ADD = 1 };
typedef __m512 vf32;
static inline vf32 vf32_load(const float *p) { return _mm512_load_ps(p); }
static inline void vf32_store(float *p, vf32 v) { _mm512_store_ps(p, v); }
static inline vf32 vf32_set1(float x) { return _mm512_set1_ps(x); }
static inline vf32 vf32_zero(void) { return _mm512_setzero_ps(); }
static inline vf32 vf32_add(vf32 a, vf32 b) { return _mm512_add_ps(a, b); }
static inline vf32 vf32_mul(vf32 a, vf32 b) { return _mm512_mul_ps(a, b); }
/* minps/maxps give their second operand unless the first is strictly less
 * (greater): with the operands swapped, exactly the portable versions. */
static inline vf32 vf32_min(vf32 a, vf32 b) { return _mm512_min_ps(b, a); }
static inline vf32 vf32_max(vf32 a, vf32 b) { return _mm512_max_ps(b, a); }
static inline vf32 vf32_mul_add(vf32 a, vf32 b, vf32 c) { return _mm512_fmadd_ps(a, b, c); }
static inline float vf32_sum(vf32 v) { return _mm512_reduce_add_ps(v); }
static inline vf32 vf32_in_open01(vf32 t, vf32 x)
{
    __mmask16 in = _mm512_cmp_ps_mask(t, _mm512_setzero_ps(), _CMP_GT_OQ)
                   & _mm512_cmp_ps_mask(t, _mm512_set1_ps(1.0f), _CMP_LT_OQ);
    return _mm512_maskz_mov_ps(in, x);
}

#elif !defined(NNUE_SIMD_PORTABLE) && defined(__AVX2__)

#define SIMD_F32_NAME "avx2"
enum { VF32_LANES = 8, VF32_FUSED_MUL_ADD = 0 };
typedef __m256 vf32;
static inline vf32 vf32_load(const float *p) { return _mm256_load_ps(p); }
static inline void vf32_store(float *p, vf32 v) { _mm256_store_ps(p, v); }
static inline vf32 vf32_set1(float x) { return _mm256_set1_ps(x); }
static inline vf32 vf32_zero(void) { return _mm256_setzero_ps(); }
static inline vf32 vf32_add(vf32 a, vf32 b) { return _mm256_add_ps(a, b); }
static inline vf32 vf32_mul(vf32 a, vf32 b) { return _mm256_mul_ps(a, b); }
static inline vf32 vf32_min(vf32 a, vf32 b) { return _mm256_min_ps(b, a); } /* as AVX-512's */
static inline vf32 vf32_max(vf32 a, vf32 b) { return _mm256_max_ps(b, a); }
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

#elif !defined(NNUE_SIMD_PORTABLE) && defined(__SSE2__)

#if defined(__SSE3__)
#define SIMD_F32_NAME "sse3"
#else
#define SIMD_F32_NAME "sse2"
#endif
enum { VF32_LANES = 4, VF32_FUSED_MUL_ADD = 0 };
typedef __m128 vf32;
static inline vf32 vf32_load(const float *p) { return _mm_load_ps(p); }
static inline void vf32_store(float *p, vf32 v) { _mm_store_ps(p, v); }
static inline vf32 vf32_set1(float x) { return _mm_set1_ps(x); }
static inline vf32 vf32_zero(void) { return _mm_setzero_ps(); }
static inline vf32 vf32_add(vf32 a, vf32 b) { return _mm_add_ps(a, b); }
static inline vf32 vf32_mul(vf32 a, vf32 b) { return _mm_mul_ps(a, b); }
static inline vf32 vf32_min(vf32 a, vf32 b) { return _mm_min_ps(b, a); } /* as AVX-512's */
static inline vf32 vf32_max(vf32 a, vf32 b) { return _mm_max_ps(b, a); }
static inline vf32 vf32_mul_add(vf32 a, vf32 b, vf32 c) { return _mm_add_ps(c, _mm_mul_ps(a, b)); }
/* (v0 + v2) + (v1 + v3), the order of AVX2's last steps. */
static inline float vf32_sum(vf32 v)
{
    v = _mm_add_ps(v, _mm_movehl_ps(v, v));
#if defined(__SSE3__)
    v = _mm_add_ss(v, _mm_movehdup_ps(v));
#else
    v = _mm_add_ss(v, _mm_shuffle_ps(v, v, 0x55));
#endif
    return _mm_cvtss_f32(v);
}
static inline vf32 vf32_in_open01(vf32 t, vf32 x)
{
    __m128 in = _mm_and_ps(_mm_cmpgt_ps(t, _mm_setzero_ps()), _mm_cmplt_ps(t, _mm_set1_ps(1.0f)));
    return _mm_and_ps(in, x);
}

#elif !defined(NNUE_SIMD_PORTABLE) && defined(__aarch64__) && defined(__ARM_NEON)

#define SIMD_F32_NAME "neon"
enum { VF32_LANES = 4, VF32_FUSED_MUL_ADD = 0 };
typedef float32x4_t vf32;
static inline vf32 vf32_load(const float *p) { return vld1q_f32(p); }
static inline void vf32_store(float *p, vf32 v) { vst1q_f32(p, v); }
static inline vf32 vf32_set1(float x) { return vdupq_n_f32(x); }
static inline vf32 vf32_zero(void) { return vdupq_n_f32(0.0f); }
static inline vf32 vf32_add(vf32 a, vf32 b) { return vaddq_f32(a, b); }
static inline vf32 vf32_mul(vf32 a, vf32 b) { return vmulq_f32(a, b); }
/* A compare and a select, not fmin/fmax (whose -0 < +0 and NaN rules are
 * not the portable ones). */
static inline vf32 vf32_min(vf32 a, vf32 b) { return vbslq_f32(vcltq_f32(b, a), b, a); }
static inline vf32 vf32_max(vf32 a, vf32 b) { return vbslq_f32(vcgtq_f32(b, a), b, a); }
/* Two roundings, as the other versions but AVX-512's: not vfmaq_f32. */
static inline vf32 vf32_mul_add(vf32 a, vf32 b, vf32 c) { return vaddq_f32(c, vmulq_f32(a, b)); }
/* (v0 + v2) + (v1 + v3), as SSE's. */
static inline float vf32_sum(vf32 v)
{
    float32x2_t s = vadd_f32(vget_low_f32(v), vget_high_f32(v));
    return vget_lane_f32(s, 0) + vget_lane_f32(s, 1);
}
static inline vf32 vf32_in_open01(vf32 t, vf32 x)
{
    uint32x4_t in = vandq_u32(vcgtq_f32(t, vdupq_n_f32(0.0f)), vcltq_f32(t, vdupq_n_f32(1.0f)));
    return vreinterpretq_f32_u32(vandq_u32(in, vreinterpretq_u32_f32(x)));
}

#elif !defined(NNUE_SIMD_PORTABLE) && defined(__wasm_simd128__)

#define SIMD_F32_NAME "wasm-simd128"
enum { VF32_LANES = 4, VF32_FUSED_MUL_ADD = 0 };
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
enum { VF32_LANES = 1, VF32_FUSED_MUL_ADD = 0 };
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
