/* What the simulator consumes, written from a fitted model: configuration settings (for
 * --cfg= or a platform file's <config>), a two-host platform whose route the factors are
 * relative to, and the bootstrap's parameter samples.
 *
 *   emit_settings(m, link, 16384):
 *     "smpi/bw-factor:0:4.1;16399:1.7 smpi/lat-factor:0:0.15;16399:3.9 smpi/os:0:0:0
 *      smpi/or:0:0:0 smpi/ois:0:0:0 smpi/async-small-thresh:16384
 *      smpi/send-is-detached-thresh:16384"
 *
 * i.e. "key:value" settings separated by single spaces, which is what cfg_parse() accepts in
 * one string; values never contain spaces. switch_size is the first size of the segment after
 * the detected eager/rendezvous switch (0: none detected, the two thresholds are left out). */
#ifndef SMPI_CALIBRATION_EMIT_H
#define SMPI_CALIBRATION_EMIT_H

#include <stdio.h>

#include "calibration/fit.h"

char *emit_lat_factor(const fit_model *m, const fit_link *l);
char *emit_bw_factor(const fit_model *m, const fit_link *l);
char *emit_settings(const fit_model *m, const fit_link *l, double switch_size);

/* "--cfg=key:value" lines with comments saying what they assume; provenance is one line. */
void emit_cfg_file(FILE *out, const fit_model *m, const fit_link *l, double switch_size,
                   const char *provenance);
/* A complete platform (format 4.1): the settings in <config>, two hosts, one SPLITDUPLEX
 * link with the reference latency and bandwidth. */
void emit_platform(FILE *out, const fit_model *m, const fit_link *l, double switch_size,
                   const char *provenance);
/* Header of a samples file; then one emit_settings() line per sample. */
void emit_samples_header(FILE *out, const fit_link *l, size_t nsamples, unsigned long long seed,
                         const char *provenance);

#endif
