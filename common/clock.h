/*
 * clock: the one clock for deadlines, timeouts and usage. Monotonic, so a
 * wall-clock step (NTP, an operator) never ends a bot's call early.
 */
#ifndef ARENA_CLOCK_H
#define ARENA_CLOCK_H

#include <stdint.h>

/* Milliseconds on CLOCK_MONOTONIC, from an arbitrary origin. */
int64_t clock_now_ms(void);
/* The same clock in nanoseconds, for benchmarks. */
int64_t clock_now_ns(void);

#endif
