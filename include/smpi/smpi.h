/* smpi.h: smpi's own extensions to MPI (simulation control, sampling, shared malloc).
 * Included by mpi.h; may also be included alone by code that only talks to the simulator. */
#ifndef SMPI_SMPI_H
#define SMPI_SMPI_H

#if defined(SMPI_BUILDING) && defined(__GNUC__)
#define SMPI_PUBLIC __attribute__((visibility("default")))
#else
#define SMPI_PUBLIC
#endif

#define SMPI_VERSION_MAJOR 0
#define SMPI_VERSION_MINOR 1
#define SMPI_VERSION_PATCH 0

#ifdef __cplusplus
extern "C" {
#endif

/* "0.1.0": the version of the library actually linked. */
SMPI_PUBLIC const char *smpi_version_string(void);

#ifdef __cplusplus
}
#endif
#endif /* SMPI_SMPI_H */
