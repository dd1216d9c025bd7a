/* The part of SimGrid 3.32's <simgrid/host.h> that an MPI program under SMPI uses to read and
 * set its host's performance state (pstate), as SimGrid's own energy examples do:
 *
 *   sg_host_set_pstate(sg_host_self(), 2);   // then compute at pstate 2's speed
 *
 * Same names and types as SimGrid's (sg_host_t is SimGrid's pointer type; a program written
 * for SimGrid compiles unchanged). Only the calling rank's host is reachable
 * (sg_host_self); implemented in smpi/emulation/host_api.c. */
#ifndef SMPI_SIMGRID_HOST_H
#define SMPI_SIMGRID_HOST_H

#include "../smpi.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct s4u_Host s4u_Host;
typedef s4u_Host *sg_host_t;             /* SimGrid's spelling (simgrid/forward.h) */
typedef const s4u_Host *const_sg_host_t; /* idem */

SMPI_PUBLIC sg_host_t sg_host_self(void);
SMPI_PUBLIC const char *sg_host_get_name(const_sg_host_t host);
SMPI_PUBLIC const char *sg_host_self_get_name(void);
/* flop/s of one core at the current pstate (peak) */
SMPI_PUBLIC double sg_host_get_speed(const_sg_host_t host);
SMPI_PUBLIC int sg_host_core_count(const_sg_host_t host);
SMPI_PUBLIC unsigned long sg_host_get_nb_pstates(const_sg_host_t host);
SMPI_PUBLIC unsigned long sg_host_get_pstate(const_sg_host_t host);
SMPI_PUBLIC double sg_host_get_pstate_speed(const_sg_host_t host, unsigned long pstate_index);
/* From now on the host computes at that pstate's speed (running computations too). */
SMPI_PUBLIC void sg_host_set_pstate(sg_host_t host, unsigned long pstate);

#ifdef __cplusplus
}
#endif

#endif
