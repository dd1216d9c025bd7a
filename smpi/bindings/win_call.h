/* The entry and error macros of the MPI functions on windows (bindings/win.c, bindings/rma.c):
 * those of call.h, with the window's error handler instead of the communicator's.
 *
 *   smpi_win *w = WIN_GET(win);           // MPI_ERR_WIN on MPI_COMM_WORLD when not a window
 *   WIN_CHECK(flag, w, MPI_ERR_ARG);      // through w's handler, then return
 *   WIN_FAILF(w, MPI_ERR_TYPE, "compare-and-swap on %s", name);   // with a detail */
#ifndef SMPI_BINDINGS_WIN_CALL_H
#define SMPI_BINDINGS_WIN_CALL_H

#include "smpi/bindings/call.h"
#include "smpi/rma/win.h"

#define WIN_FAIL(w, code) SMPI_RETURN(smpi_win_error((w), (code), smpi_fname_))
#define WIN_FAILF(w, code, ...) \
  SMPI_RETURN(smpi_win_errorf((w), (code), smpi_fname_, __VA_ARGS__))
#define WIN_CHECK(cond, w, code) \
  do {                           \
    if (!(cond))                 \
      WIN_FAIL(w, code);         \
  } while (0)
#define WIN_GET(h)                            \
  ({                                          \
    smpi_win *smpi_w_ = smpi_win_get(h);      \
    if (!smpi_w_)                             \
      SMPI_FAIL(MPI_COMM_WORLD, MPI_ERR_WIN); \
    smpi_w_;                                  \
  })

#endif
