/* The `mpich` selector (to be filled in). */
#include "collectives/coll_private.h"

coll_alg_id coll_select_mpich(const coll_features *f) { return coll_select_default(f); }
