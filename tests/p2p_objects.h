/* Receives and messages made by hand for the matching queues' unit tests (check_p2p.c,
 * per_message/, mq_reports/), with the fields smpi/mpi/request.c sets before it hands them
 * to match.c, numbered in posting order as request.c numbers them. calloc'd: the caller
 * frees them. */
#ifndef TESTS_P2P_OBJECTS_H
#define TESTS_P2P_OBJECTS_H

#include <stdint.h>
#include <stdlib.h>

#include "smpi/mpi/p2p_private.h"
#include "src/list.h"

static uint64_t p2p_test_seq; /* the last posting number given; a test may reset it */

static inline smpi_req *p2p_test_recv(uint32_t ctx, int dst, int src, int tag)
{
  smpi_req *r = calloc(1, sizeof *r);
  r->kind = REQ_RECV;
  r->ctx = ctx;
  r->owner = dst;
  r->peer = src;
  r->tag = tag;
  r->seq = ++p2p_test_seq;
  list_init(&r->qlink);
  return r;
}

/* src is a rank of a communicator whose ranks are the world's */
static inline p2p_msg *p2p_test_msg(uint32_t ctx, int dst, int src, int tag)
{
  p2p_msg *m = calloc(1, sizeof *m);
  m->ctx = ctx;
  m->dst_world = dst;
  m->src = src;
  m->src_world = src;
  m->tag = tag;
  m->seq = ++p2p_test_seq;
  list_init(&m->slink);
  list_init(&m->alink);
  return m;
}

#endif
