/* Reproducible random numbers: xoshiro256** (Blackman and Vigna), its state seeded from one
 * 64-bit value by four steps of splitmix64. The same seed gives the same stream on every
 * machine; the doubles are too wherever the libm is the same (rng_normal uses log, sqrt and
 * cos). Used by smpi/emulation/sample.c (smpi/seed) and the calibration's bootstrap. */
#ifndef SMPI_SRC_RNG_H
#define SMPI_SRC_RNG_H

#include <stdint.h>

typedef struct rng_state {
  uint64_t s[4];
} rng_state;

void rng_seed(rng_state *r, uint64_t seed);
uint64_t rng_next(rng_state *r);
/* uniform in [0, 1), 53 random bits */
double rng_uniform(rng_state *r);
/* standard normal by Box-Muller: two uniforms per call, the second deviate of the pair
 * dropped, so that every call consumes the same amount of the stream */
double rng_normal(rng_state *r);

#endif
