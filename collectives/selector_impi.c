/* The `impi` selector: SimGrid 3.32's imitation of Intel MPI 4.1 (its
 * smpi_intel_mpi_selector.cpp: timings of Intel MPI 4.1.3 on TACC's Stampede with 1, 2, 4,
 * 8 and 16 ranks per node, turned into tables). The thresholds and algorithm numbers
 * below are those the compiled libsimgrid.so.3.32 holds (tools/simgrid-ref/
 * record_impi_tables.py reads them into tests/data/simgrid-ref/impi_tables.txt, and the
 * test coll_impi_tables checks this file against it, row by row).
 *
 * A decision, e.g. MPI_Bcast of 1000 B on 64 ranks, 8 per host:
 *
 *   ppn   = ranks per host (same on every host, in blocks) = 8; a ppn with no table
 *           (3, 5, 32...) or an irregular layout uses the 1-per-host table
 *   row   = first row of (bcast, ppn 8) with 64 <= max_np:    {64, n=3, 468:7 699:1 ANY:7}
 *   k     = first k < n with bytes < max_size[k] (k = n if none): 1000 >= 468, >= 699,
 *           k = 2 -> algorithm 7 = SimGrid's bcast "mvapich2", i.e. its mvapich2 selector
 *
 * "bytes" is, as in SimGrid: the buffer (bcast, reduce, allreduce), one block (gather,
 * scatter, allgather, alltoall), the whole vector (reduce_scatter, allgatherv: the sum of
 * the counts), 1 (barrier, alltoallv). The quirks of the data are kept: a row's n bounds
 * the search even where more elements follow (reduce_scatter, 2 per host, 16 ranks: n=1,
 * so 4 B and above take element 1). The collectives SimGrid's impi does not cover
 * (gatherv, scatterv, alltoallw, reduce_scatter_block, scan, exscan) take the default
 * selector's choice, as in SimGrid.
 *
 * An algorithm number names one of our algorithms, or another selector (SimGrid's
 * reduce__mvapich2 is its mvapich2 selector; barrier 5-6 and reduce_scatter 4-5 are its
 * default). A name this build lacks, or an algorithm that cannot serve the call (pair and
 * rab1 need a power-of-two size: SimGrid's abort there), takes the default selector's
 * choice with a warning, once per name. */
#include <stdio.h>
#include <string.h>

#include "collectives/coll_private.h"
#include "smpi/runtime/world.h"
#include "src/invariant.h"
#include "src/log.h"

LOG_EXTERNAL_CATEGORY(smpi_coll);
LOG_DEFAULT_CATEGORY(smpi_coll);

#define IMPI_ANY 2147483647u

typedef struct impi_step {
  unsigned max_size; /* bytes below which this element applies */
  int algo;          /* algorithm number, 1-based (impi_names) */
} impi_step;

typedef struct impi_row {
  coll_id coll;
  int ppn;         /* ranks per host */
  unsigned max_np; /* communicator sizes up to this one */
  int n;           /* elements the size search looks at */
  const impi_step *steps;
  int nsteps; /* elements listed (n + 1 where the data says fewer than it has) */
} impi_row;

#define IMPI_ROW(c, p, maxnp, cnt, ...)                                     \
  {                                                                         \
    COLL_##c, p, maxnp, cnt, (const impi_step[]){__VA_ARGS__},              \
        (int)(sizeof((const impi_step[]){__VA_ARGS__}) / sizeof(impi_step)) \
  }

/* in SimGrid's order: by collective, ppn, then max_np */
static const impi_row impi_rows[] = {
    IMPI_ROW(allgather, 1, 4, 11, {1, 4}, {384, 1}, {1533, 4}, {3296, 1}, {10763, 4}, {31816, 3},
             {193343, 4}, {405857, 3}, {597626, 4}, {1844323, 3}, {IMPI_ANY, 4}),
    IMPI_ROW(allgather, 1, 8, 10, {12, 4}, {46, 1}, {205, 4}, {3422, 2}, {4200, 4}, {8748, 1},
             {24080, 3}, {33244, 4}, {371159, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(allgather, 1, 16, 8, {3, 4}, {53, 1}, {100, 4}, {170, 1}, {6077, 4}, {127644, 1},
             {143741, 4}, {IMPI_ANY, 3}),
    IMPI_ROW(allgather, 1, IMPI_ANY, 10, {184, 1}, {320, 4}, {759, 1}, {1219, 4}, {2633, 1},
             {8259, 4}, {123678, 1}, {160801, 4}, {284341, 1}, {IMPI_ANY, 4}),
    IMPI_ROW(allgather, 2, 8, 6, {490, 1}, {558, 2}, {2319, 1}, {46227, 3}, {2215101, 1},
             {IMPI_ANY, 3}),
    IMPI_ROW(allgather, 2, 16, 4, {1005, 1}, {1042, 2}, {2059, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(allgather, 2, IMPI_ANY, 2, {2454, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(allgather, 4, 8, 2, {2861, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(allgather, 4, IMPI_ANY, 2, {605, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(allgather, 8, 16, 4, {66, 1}, {213, 4}, {514, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(allgather, 8, 32, 4, {91, 1}, {213, 4}, {514, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(allgather, 8, 64, 4, {71, 1}, {213, 4}, {514, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(allgather, 8, 128, 2, {305, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(allgather, 8, IMPI_ANY, 2, {213, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(allgather, 16, 8, 2, {2861, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(allgather, 16, IMPI_ANY, 2, {605, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(allgatherv, 1, 2, 3, {259668, 3}, {635750, 4}, {IMPI_ANY, 3}),
    IMPI_ROW(allgatherv, 1, 4, 7, {1, 1}, {5, 4}, {46, 1}, {2590, 2}, {1177259, 3}, {2767234, 4},
             {IMPI_ANY, 3}),
    IMPI_ROW(allgatherv, 1, 8, 6, {99, 2}, {143, 1}, {4646, 2}, {63522, 3}, {2187806, 4},
             {IMPI_ANY, 3}),
    IMPI_ROW(allgatherv, 1, IMPI_ANY, 7, {1, 1}, {5, 4}, {46, 1}, {2590, 2}, {1177259, 3},
             {2767234, 4}, {IMPI_ANY, 3}),
    IMPI_ROW(allgatherv, 2, 4, 3, {3147, 1}, {5622, 2}, {IMPI_ANY, 3}),
    IMPI_ROW(allgatherv, 2, 8, 3, {975, 1}, {4158, 2}, {IMPI_ANY, 3}),
    IMPI_ROW(allgatherv, 2, 16, 2, {2146, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(allgatherv, 2, 32, 4, {81, 1}, {414, 2}, {1190, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(allgatherv, 2, IMPI_ANY, 5, {1, 2}, {3, 1}, {783, 2}, {1782, 4}, {IMPI_ANY, 3}),
    IMPI_ROW(allgatherv, 4, 8, 2, {2554, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(allgatherv, 4, 16, 4, {272, 1}, {657, 2}, {2078, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(allgatherv, 4, 32, 2, {1081, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(allgatherv, 4, 64, 2, {547, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(allgatherv, 4, IMPI_ANY, 5, {19, 1}, {239, 2}, {327, 1}, {821, 4}, {IMPI_ANY, 3}),
    IMPI_ROW(allgatherv, 8, 16, 3, {55, 1}, {514, 2}, {IMPI_ANY, 3}),
    IMPI_ROW(allgatherv, 8, 32, 4, {53, 1}, {167, 4}, {514, 2}, {IMPI_ANY, 3}),
    IMPI_ROW(allgatherv, 8, 64, 3, {13, 1}, {319, 4}, {IMPI_ANY, 3}),
    IMPI_ROW(allgatherv, 8, 128, 7, {2, 1}, {11, 2}, {48, 1}, {201, 2}, {304, 1}, {1048, 4},
             {IMPI_ANY, 3}),
    IMPI_ROW(allgatherv, 8, IMPI_ANY, 5, {5, 1}, {115, 4}, {129, 1}, {451, 4}, {IMPI_ANY, 3}),
    IMPI_ROW(allgatherv, 16, 8, 2, {2554, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(allgatherv, 16, 16, 4, {272, 1}, {657, 2}, {2078, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(allgatherv, 16, 32, 2, {1081, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(allgatherv, 16, 64, 2, {547, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(allgatherv, 16, IMPI_ANY, 5, {19, 1}, {239, 2}, {327, 1}, {821, 4}, {IMPI_ANY, 3}),
    IMPI_ROW(allreduce, 1, 2, 9, {6, 7}, {85, 1}, {192, 7}, {853, 1}, {1279, 7}, {16684, 1},
             {34279, 8}, {1681224, 3}, {IMPI_ANY, 7}),
    IMPI_ROW(allreduce, 1, 4, 8, {16, 7}, {47, 1}, {2062, 7}, {16699, 1}, {33627, 7}, {70732, 8},
             {1300705, 3}, {IMPI_ANY, 8}),
    IMPI_ROW(allreduce, 1, 8, 8, {118, 1}, {146, 4}, {16760, 1}, {36364, 6}, {136239, 8},
             {315710, 7}, {3220366, 3}, {IMPI_ANY, 8}),
    IMPI_ROW(allreduce, 1, 16, 7, {934, 1}, {1160, 6}, {15505, 1}, {52730, 2}, {300705, 8},
             {563680, 7}, {IMPI_ANY, 3}),
    IMPI_ROW(allreduce, 1, IMPI_ANY, 11, {5, 6}, {11, 4}, {182, 1}, {700, 6}, {1450, 4},
             {11146, 1}, {25539, 6}, {37634, 4}, {93784, 6}, {817658, 2}, {IMPI_ANY, 3}),
    IMPI_ROW(allreduce, 2, 4, 6, {2084, 7}, {15216, 1}, {99715, 7}, {168666, 3}, {363889, 2},
             {IMPI_ANY, 7}),
    IMPI_ROW(allreduce, 2, 8, 6, {14978, 1}, {66879, 2}, {179296, 8}, {304801, 3}, {704509, 7},
             {IMPI_ANY, 2}),
    IMPI_ROW(allreduce, 2, 16, 6, {16405, 1}, {81784, 2}, {346385, 8}, {807546, 7}, {1259854, 2},
             {IMPI_ANY, 3}),
    IMPI_ROW(allreduce, 2, 32, 4, {8913, 1}, {103578, 2}, {615876, 8}, {IMPI_ANY, 2}),
    IMPI_ROW(allreduce, 2, 64, 7, {1000, 1}, {2249, 2}, {6029, 1}, {325357, 2}, {1470976, 8},
             {2556670, 7}, {IMPI_ANY, 3}),
    IMPI_ROW(allreduce, 2, 128, 5, {664, 1}, {754706, 2}, {1663862, 4}, {3269097, 2},
             {IMPI_ANY, 7}),
    IMPI_ROW(allreduce, 2, IMPI_ANY, 3, {789, 1}, {2247589, 2}, {IMPI_ANY, 8}),
    IMPI_ROW(allreduce, 4, 4, 4, {5738, 1}, {197433, 2}, {593742, 7}, {IMPI_ANY, 2}),
    IMPI_ROW(allreduce, 4, 8, 7, {5655, 1}, {75166, 2}, {177639, 8}, {988014, 3}, {1643869, 2},
             {2494859, 8}, {IMPI_ANY, 2}),
    IMPI_ROW(allreduce, 4, 16, 7, {587, 1}, {3941, 2}, {9003, 1}, {101469, 2}, {355768, 8},
             {3341814, 3}, {IMPI_ANY, 8}),
    IMPI_ROW(allreduce, 4, 32, 4, {795, 1}, {146567, 2}, {732118, 8}, {IMPI_ANY, 3}),
    IMPI_ROW(allreduce, 4, 64, 4, {528, 1}, {221277, 2}, {1440737, 8}, {IMPI_ANY, 3}),
    IMPI_ROW(allreduce, 4, 128, 4, {481, 1}, {593833, 2}, {2962021, 8}, {IMPI_ANY, 7}),
    IMPI_ROW(allreduce, 4, 256, 2, {584, 1}, {IMPI_ANY, 2}),
    IMPI_ROW(allreduce, 4, IMPI_ANY, 3, {604, 1}, {2997006, 2}, {IMPI_ANY, 8}),
    IMPI_ROW(allreduce, 8, 8, 6, {2560, 1}, {114230, 6}, {288510, 8}, {664038, 2}, {1339913, 6},
             {IMPI_ANY, 4}),
    IMPI_ROW(allreduce, 8, 16, 5, {497, 1}, {54201, 2}, {356217, 8}, {3413609, 3}, {IMPI_ANY, 8}),
    IMPI_ROW(allreduce, 8, 32, 5, {377, 1}, {109745, 2}, {716514, 8}, {3976768, 3},
             {IMPI_ANY, 8}),
    IMPI_ROW(allreduce, 8, 64, 6, {109, 1}, {649, 5}, {266080, 2}, {1493331, 8}, {2541403, 7},
             {IMPI_ANY, 3}),
    IMPI_ROW(allreduce, 8, 128, 4, {7, 1}, {751, 5}, {408808, 2}, {IMPI_ANY, 8}),
    IMPI_ROW(allreduce, 8, 256, 3, {828, 5}, {909676, 2}, {IMPI_ANY, 8}),
    IMPI_ROW(allreduce, 8, 512, 5, {847, 5}, {1007066, 2}, {1068775, 4}, {2803389, 2},
             {IMPI_ANY, 8}),
    IMPI_ROW(allreduce, 8, IMPI_ANY, 3, {1974, 5}, {4007876, 2}, {IMPI_ANY, 8}),
    IMPI_ROW(allreduce, 16, 16, 12, {409, 1}, {768, 6}, {1365, 4}, {3071, 6}, {11299, 2},
             {21746, 6}, {55629, 2}, {86065, 4}, {153867, 2}, {590560, 6}, {1448760, 2},
             {IMPI_ANY, 8}),
    IMPI_ROW(allreduce, 16, 32, 8, {6, 1}, {24, 5}, {86, 1}, {875, 5}, {74528, 2}, {813050, 8},
             {1725981, 7}, {IMPI_ANY, 8}),
    IMPI_ROW(allreduce, 16, 64, 6, {1018, 5}, {1217, 6}, {2370, 5}, {160654, 2}, {1885487, 8},
             {IMPI_ANY, 3}),
    IMPI_ROW(allreduce, 16, 128, 4, {2291, 5}, {434465, 2}, {3525103, 8}, {IMPI_ANY, 7}),
    IMPI_ROW(allreduce, 16, 256, 3, {2189, 5}, {713154, 2}, {IMPI_ANY, 8}),
    IMPI_ROW(allreduce, 16, 512, 3, {2140, 5}, {1235056, 2}, {IMPI_ANY, 8}),
    IMPI_ROW(allreduce, 16, IMPI_ANY, 3, {2153, 5}, {2629855, 2}, {IMPI_ANY, 8}),
    IMPI_ROW(alltoall, 1, 2, 1, {IMPI_ANY, 3}),
    IMPI_ROW(alltoall, 1, 4, 2, {0, 4}, {IMPI_ANY, 2}),
    IMPI_ROW(alltoall, 1, 8, 1, {IMPI_ANY, 2}),
    IMPI_ROW(alltoall, 1, 16, 5, {0, 3}, {84645, 2}, {167570, 3}, {413152, 4}, {IMPI_ANY, 2}),
    IMPI_ROW(alltoall, 1, 32, 6, {61, 1}, {164, 2}, {696, 1}, {143254, 2}, {387024, 3},
             {IMPI_ANY, 2}),
    IMPI_ROW(alltoall, 1, 64, 4, {523, 1}, {146088, 2}, {488989, 4}, {IMPI_ANY, 2}),
    IMPI_ROW(alltoall, 1, IMPI_ANY, 3, {270, 1}, {628, 4}, {IMPI_ANY, 2}),
    IMPI_ROW(alltoall, 2, 4, 4, {1, 2}, {75, 3}, {131072, 2}, {IMPI_ANY, 2}),
    IMPI_ROW(alltoall, 2, 8, 3, {709, 1}, {131072, 2}, {IMPI_ANY, 2}),
    IMPI_ROW(alltoall, 2, 16, 4, {40048, 2}, {131072, 3}, {155927, 3}, {IMPI_ANY, 4}),
    IMPI_ROW(alltoall, 2, 32, 7, {105, 1}, {130, 2}, {1030, 1}, {58893, 2}, {131072, 2},
             {271838, 3}, {IMPI_ANY, 2}),
    IMPI_ROW(alltoall, 2, IMPI_ANY, 8, {521, 1}, {2032, 4}, {2412, 2}, {4112, 4}, {61620, 2},
             {131072, 3}, {427408, 3}, {IMPI_ANY, 4}),
    IMPI_ROW(alltoall, 4, 8, 3, {512, 1}, {32768, 2}, {IMPI_ANY, 2}),
    IMPI_ROW(alltoall, 4, 64, 8, {7, 1}, {199, 4}, {764, 1}, {6409, 4}, {20026, 2}, {32768, 3},
             {221643, 4}, {IMPI_ANY, 3}),
    IMPI_ROW(alltoall, 4, IMPI_ANY, 7, {262, 1}, {7592, 4}, {22871, 2}, {32768, 3}, {47538, 3},
             {101559, 4}, {IMPI_ANY, 3}),
    IMPI_ROW(alltoall, 8, 16, 6, {973, 1}, {5126, 4}, {16898, 2}, {32768, 4}, {65456, 4},
             {IMPI_ANY, 2}),
    IMPI_ROW(alltoall, 8, 32, 7, {874, 1}, {6727, 4}, {17912, 2}, {32768, 3}, {41513, 3},
             {199604, 4}, {IMPI_ANY, 3}),
    IMPI_ROW(alltoall, 8, 64, 8, {5, 1}, {114, 4}, {552, 1}, {8130, 4}, {32768, 3}, {34486, 3},
             {160113, 4}, {IMPI_ANY, 3}),
    IMPI_ROW(alltoall, 8, 128, 6, {270, 1}, {3679, 4}, {32768, 3}, {64367, 3}, {146595, 4},
             {IMPI_ANY, 3}),
    IMPI_ROW(alltoall, 8, IMPI_ANY, 4, {133, 1}, {4017, 4}, {32768, 3}, {76351, 4},
             {IMPI_ANY, 3}),
    IMPI_ROW(alltoall, 16, 32, 7, {963, 1}, {1818, 4}, {20007, 2}, {32768, 4}, {54296, 4},
             {169735, 3}, {IMPI_ANY, 2}),
    IMPI_ROW(alltoall, 16, 64, 11, {17, 1}, {42, 4}, {592, 1}, {2015, 4}, {2753, 2}, {6496, 3},
             {20402, 4}, {32768, 3}, {36246, 3}, {93229, 4}, {IMPI_ANY, 3}),
    IMPI_ROW(alltoall, 16, 128, 9, {18, 1}, {40, 4}, {287, 1}, {1308, 4}, {6842, 1}, {32768, 3},
             {36986, 3}, {129081, 4}, {IMPI_ANY, 3}),
    IMPI_ROW(alltoall, 16, 256, 7, {135, 1}, {1538, 4}, {3267, 1}, {4132, 3}, {31469, 4},
             {32768, 3}, {IMPI_ANY, 3}),
    IMPI_ROW(alltoall, 16, IMPI_ANY, 8, {66, 1}, {1637, 4}, {2626, 1}, {4842, 4}, {32768, 3},
             {33963, 3}, {72978, 4}, {IMPI_ANY, 3}),
    IMPI_ROW(alltoallv, 1, IMPI_ANY, 1, {IMPI_ANY, 1}),
    IMPI_ROW(alltoallv, 2, IMPI_ANY, 1, {IMPI_ANY, 1}),
    IMPI_ROW(alltoallv, 4, 8, 1, {IMPI_ANY, 1}),
    IMPI_ROW(alltoallv, 4, IMPI_ANY, 2, {4, 1}, {IMPI_ANY, 2}),
    IMPI_ROW(alltoallv, 8, 16, 1, {IMPI_ANY, 1}),
    IMPI_ROW(alltoallv, 8, IMPI_ANY, 2, {0, 1}, {IMPI_ANY, 2}),
    IMPI_ROW(alltoallv, 16, 8, 1, {IMPI_ANY, 1}),
    IMPI_ROW(alltoallv, 16, IMPI_ANY, 2, {4, 1}, {IMPI_ANY, 2}),
    IMPI_ROW(barrier, 1, 2, 1, {IMPI_ANY, 2}),
    IMPI_ROW(barrier, 1, 4, 1, {IMPI_ANY, 6}),
    IMPI_ROW(barrier, 1, 8, 1, {IMPI_ANY, 1}),
    IMPI_ROW(barrier, 1, 64, 1, {IMPI_ANY, 2}),
    IMPI_ROW(barrier, 1, IMPI_ANY, 1, {IMPI_ANY, 6}),
    IMPI_ROW(barrier, 2, 2, 1, {IMPI_ANY, 1}),
    IMPI_ROW(barrier, 2, 4, 1, {IMPI_ANY, 3}),
    IMPI_ROW(barrier, 2, 8, 1, {IMPI_ANY, 5}),
    IMPI_ROW(barrier, 2, 32, 1, {IMPI_ANY, 2}),
    IMPI_ROW(barrier, 2, 128, 1, {IMPI_ANY, 3}),
    IMPI_ROW(barrier, 2, IMPI_ANY, 1, {IMPI_ANY, 4}),
    IMPI_ROW(barrier, 4, 4, 1, {IMPI_ANY, 2}),
    IMPI_ROW(barrier, 4, 8, 1, {IMPI_ANY, 5}),
    IMPI_ROW(barrier, 4, 32, 1, {IMPI_ANY, 2}),
    IMPI_ROW(barrier, 4, IMPI_ANY, 1, {IMPI_ANY, 4}),
    IMPI_ROW(barrier, 8, 8, 1, {IMPI_ANY, 1}),
    IMPI_ROW(barrier, 8, 32, 1, {IMPI_ANY, 2}),
    IMPI_ROW(barrier, 8, IMPI_ANY, 1, {IMPI_ANY, 4}),
    IMPI_ROW(barrier, 16, 4, 1, {IMPI_ANY, 2}),
    IMPI_ROW(barrier, 16, 8, 1, {IMPI_ANY, 5}),
    IMPI_ROW(barrier, 16, 32, 1, {IMPI_ANY, 2}),
    IMPI_ROW(barrier, 16, IMPI_ANY, 1, {IMPI_ANY, 4}),
    IMPI_ROW(bcast, 1, 2, 9, {1, 2}, {402, 7}, {682, 5}, {1433, 4}, {5734, 7}, {21845, 1},
             {95963, 6}, {409897, 5}, {IMPI_ANY, 1}),
    IMPI_ROW(bcast, 1, 4, 1, {IMPI_ANY, 7}),
    IMPI_ROW(bcast, 1, 8, 11, {3, 6}, {4, 7}, {25, 6}, {256, 1}, {682, 6}, {1264, 1}, {2234, 6},
             {6655, 5}, {16336, 1}, {3998434, 7}, {IMPI_ANY, 6}),
    IMPI_ROW(bcast, 1, IMPI_ANY, 1, {IMPI_ANY, 7}),
    IMPI_ROW(bcast, 2, 4, 6, {806, 4}, {18093, 7}, {51366, 6}, {182526, 4}, {618390, 1},
             {IMPI_ANY, 7}),
    IMPI_ROW(bcast, 2, 8, 6, {24, 1}, {74, 4}, {18137, 1}, {614661, 7}, {1284626, 1},
             {IMPI_ANY, 2}),
    IMPI_ROW(bcast, 2, 16, 4, {1, 1}, {158, 7}, {16955, 1}, {IMPI_ANY, 7}),
    IMPI_ROW(bcast, 2, 32, 3, {242, 7}, {10345, 1}, {IMPI_ANY, 7}),
    IMPI_ROW(bcast, 2, IMPI_ANY, 4, {1, 1}, {737, 7}, {5340, 1}, {IMPI_ANY, 7}),
    IMPI_ROW(bcast, 4, 8, 4, {256, 4}, {17181, 1}, {1048576, 7}, {IMPI_ANY, 7}),
    IMPI_ROW(bcast, 4, IMPI_ANY, 1, {IMPI_ANY, 7}),
    IMPI_ROW(bcast, 8, 16, 5, {3, 1}, {318, 7}, {1505, 1}, {1048576, 7}, {IMPI_ANY, 7}),
    IMPI_ROW(bcast, 8, 32, 3, {422, 7}, {851, 1}, {IMPI_ANY, 7}),
    IMPI_ROW(bcast, 8, 64, 3, {468, 7}, {699, 1}, {IMPI_ANY, 7}),
    IMPI_ROW(bcast, 8, IMPI_ANY, 1, {IMPI_ANY, 7}),
    IMPI_ROW(bcast, 16, 8, 4, {256, 4}, {17181, 1}, {1048576, 7}, {IMPI_ANY, 7}),
    IMPI_ROW(bcast, 16, IMPI_ANY, 1, {IMPI_ANY, 7}),
    IMPI_ROW(gather, 1, 8, 3, {17561, 3}, {44791, 2}, {IMPI_ANY, 3}),
    IMPI_ROW(gather, 1, 16, 7, {16932, 3}, {84425, 2}, {158363, 3}, {702801, 2}, {1341444, 3},
             {2413569, 2}, {IMPI_ANY, 3}),
    IMPI_ROW(gather, 1, IMPI_ANY, 4, {47187, 3}, {349696, 2}, {IMPI_ANY, 3}, {IMPI_ANY, 1}),
    IMPI_ROW(gather, 2, IMPI_ANY, 1, {IMPI_ANY, 3}),
    IMPI_ROW(gather, 4, IMPI_ANY, 1, {IMPI_ANY, 3}),
    IMPI_ROW(gather, 8, 16, 1, {IMPI_ANY, 3}),
    IMPI_ROW(gather, 8, 32, 2, {9, 2}, {IMPI_ANY, 3}),
    IMPI_ROW(gather, 8, 64, 2, {784, 2}, {IMPI_ANY, 3}),
    IMPI_ROW(gather, 8, 128, 3, {160, 3}, {655, 2}, {IMPI_ANY, 3}),
    IMPI_ROW(gather, 8, IMPI_ANY, 1, {IMPI_ANY, 3}),
    IMPI_ROW(gather, 16, IMPI_ANY, 1, {IMPI_ANY, 3}),
    IMPI_ROW(reduce, 1, IMPI_ANY, 1, {IMPI_ANY, 1}),
    IMPI_ROW(reduce, 2, 2, 1, {IMPI_ANY, 1}),
    IMPI_ROW(reduce, 2, 4, 2, {10541, 3}, {IMPI_ANY, 1}),
    IMPI_ROW(reduce, 2, IMPI_ANY, 1, {IMPI_ANY, 1}),
    IMPI_ROW(reduce, 4, 256, 1, {IMPI_ANY, 1}),
    IMPI_ROW(reduce, 4, IMPI_ANY, 2, {45, 3}, {IMPI_ANY, 1}),
    IMPI_ROW(reduce, 8, 512, 1, {IMPI_ANY, 1}),
    IMPI_ROW(reduce, 8, IMPI_ANY, 3, {5, 1}, {11882, 3}, {IMPI_ANY, 1}),
    IMPI_ROW(reduce, 16, 256, 1, {IMPI_ANY, 1}),
    IMPI_ROW(reduce, 16, IMPI_ANY, 2, {45, 3}, {IMPI_ANY, 1}),
    IMPI_ROW(reduce_scatter, 1, 2, 5, {5, 4}, {522429, 2}, {1375877, 5}, {2932736, 2},
             {IMPI_ANY, 5}),
    IMPI_ROW(reduce_scatter, 1, 4, 9, {4, 4}, {15, 1}, {120, 3}, {651, 1}, {12188, 3}, {33890, 1},
             {572117, 2}, {1410202, 5}, {IMPI_ANY, 2}),
    IMPI_ROW(reduce_scatter, 1, 8, 7, {4, 4}, {2263, 1}, {25007, 3}, {34861, 1}, {169625, 2},
             {2734000, 4}, {IMPI_ANY, 2}),
    IMPI_ROW(reduce_scatter, 1, 16, 5, {4, 4}, {14228, 1}, {46084, 3}, {522139, 2},
             {IMPI_ANY, 5}),
    IMPI_ROW(reduce_scatter, 1, 32, 5, {4, 4}, {27516, 1}, {61693, 3}, {2483469, 2},
             {IMPI_ANY, 5}),
    IMPI_ROW(reduce_scatter, 1, 64, 4, {0, 3}, {4, 4}, {100396, 1}, {IMPI_ANY, 2}),
    IMPI_ROW(reduce_scatter, 1, IMPI_ANY, 6, {0, 3}, {4, 4}, {186926, 1}, {278259, 3},
             {1500100, 2}, {IMPI_ANY, 5}),
    IMPI_ROW(reduce_scatter, 2, 2, 2, {6, 1}, {IMPI_ANY, 2}),
    IMPI_ROW(reduce_scatter, 2, 4, 7, {5, 4}, {13, 5}, {59, 3}, {76, 1}, {91488, 3}, {680063, 4},
             {IMPI_ANY, 2}),
    IMPI_ROW(reduce_scatter, 2, 8, 8, {4, 4}, {11, 5}, {31, 1}, {69615, 3}, {202632, 2},
             {396082, 5}, {1495696, 4}, {IMPI_ANY, 2}),
    IMPI_ROW(reduce_scatter, 2, 16, 1, {4, 4}, {345, 1}, {79523, 3}, {IMPI_ANY, 2}),
    IMPI_ROW(reduce_scatter, 2, 32, 5, {0, 3}, {4, 4}, {992, 1}, {71417, 3}, {IMPI_ANY, 2}),
    IMPI_ROW(reduce_scatter, 2, 64, 4, {4, 4}, {1472, 1}, {196592, 3}, {IMPI_ANY, 2}),
    IMPI_ROW(reduce_scatter, 2, 128, 5, {0, 3}, {4, 4}, {32892, 1}, {381072, 3}, {IMPI_ANY, 2}),
    IMPI_ROW(reduce_scatter, 2, IMPI_ANY, 6, {0, 2}, {4, 4}, {33262, 1}, {1571397, 3},
             {2211398, 5}, {IMPI_ANY, 4}),
    IMPI_ROW(reduce_scatter, 4, 4, 7, {12, 4}, {27, 5}, {49, 3}, {187, 1}, {405673, 3},
             {594687, 4}, {IMPI_ANY, 2}),
    IMPI_ROW(reduce_scatter, 4, 8, 5, {24, 5}, {155, 1}, {204501, 3}, {274267, 5}, {IMPI_ANY, 4}),
    IMPI_ROW(reduce_scatter, 4, 16, 6, {63, 1}, {72, 3}, {264, 1}, {168421, 3}, {168421, 4},
             {IMPI_ANY, 2}),
    IMPI_ROW(reduce_scatter, 4, 32, 10, {0, 3}, {4, 4}, {12, 1}, {18, 5}, {419, 1}, {188739, 3},
             {716329, 4}, {1365841, 5}, {2430194, 2}, {IMPI_ANY, 4}),
    IMPI_ROW(reduce_scatter, 4, 64, 8, {0, 3}, {4, 4}, {17, 5}, {635, 1}, {202937, 3},
             {308253, 5}, {1389874, 4}, {IMPI_ANY, 2}),
    IMPI_ROW(reduce_scatter, 4, 128, 8, {0, 3}, {4, 4}, {16, 5}, {1238, 1}, {280097, 3},
             {631434, 5}, {2605072, 4}, {IMPI_ANY, 2}),
    IMPI_ROW(reduce_scatter, 4, 256, 5, {0, 2}, {4, 4}, {16, 5}, {2418, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(reduce_scatter, 4, IMPI_ANY, 6, {0, 2}, {4, 4}, {16, 5}, {33182, 1}, {3763779, 3},
             {IMPI_ANY, 4}),
    IMPI_ROW(reduce_scatter, 8, 8, 6, {5, 4}, {494, 1}, {97739, 3}, {522836, 2}, {554174, 5},
             {IMPI_ANY, 2}),
    IMPI_ROW(reduce_scatter, 8, 16, 8, {5, 4}, {62, 1}, {94, 3}, {215, 1}, {185095, 3},
             {454784, 4}, {607911, 5}, {IMPI_ANY, 4}),
    IMPI_ROW(reduce_scatter, 8, 32, 7, {0, 3}, {4, 4}, {302, 1}, {250841, 3}, {665822, 4},
             {1760980, 5}, {IMPI_ANY, 4}),
    IMPI_ROW(reduce_scatter, 8, 64, 8, {0, 3}, {4, 4}, {41, 5}, {306, 1}, {332405, 3},
             {1269189, 4}, {3712421, 5}, {IMPI_ANY, 4}),
    IMPI_ROW(reduce_scatter, 8, 128, 6, {0, 3}, {4, 4}, {39, 5}, {526, 1}, {487878, 3},
             {IMPI_ANY, 4}),
    IMPI_ROW(reduce_scatter, 8, 256, 8, {0, 2}, {4, 4}, {36, 5}, {1382, 1}, {424162, 3},
             {632881, 5}, {1127566, 3}, {IMPI_ANY, 4}),
    IMPI_ROW(reduce_scatter, 8, 512, 4, {4, 4}, {34, 5}, {5884, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(reduce_scatter, 8, IMPI_ANY, 4, {5, 4}, {32, 5}, {25105, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(reduce_scatter, 16, 4, 7, {12, 4}, {27, 5}, {49, 3}, {187, 1}, {405673, 3},
             {594687, 4}, {IMPI_ANY, 2}),
    IMPI_ROW(reduce_scatter, 16, 8, 5, {24, 5}, {155, 1}, {204501, 3}, {274267, 5},
             {IMPI_ANY, 4}),
    IMPI_ROW(reduce_scatter, 16, 16, 6, {63, 1}, {72, 3}, {264, 1}, {168421, 3}, {168421, 4},
             {IMPI_ANY, 2}),
    IMPI_ROW(reduce_scatter, 16, 32, 10, {0, 3}, {4, 4}, {12, 1}, {18, 5}, {419, 1}, {188739, 3},
             {716329, 4}, {1365841, 5}, {2430194, 2}, {IMPI_ANY, 4}),
    IMPI_ROW(reduce_scatter, 16, 64, 8, {0, 3}, {4, 4}, {17, 5}, {635, 1}, {202937, 3},
             {308253, 5}, {1389874, 4}, {IMPI_ANY, 2}),
    IMPI_ROW(reduce_scatter, 16, 128, 8, {0, 3}, {4, 4}, {16, 5}, {1238, 1}, {280097, 3},
             {631434, 5}, {2605072, 4}, {IMPI_ANY, 2}),
    IMPI_ROW(reduce_scatter, 16, 256, 5, {0, 2}, {4, 4}, {16, 5}, {2418, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(reduce_scatter, 16, IMPI_ANY, 6, {0, 2}, {4, 4}, {16, 5}, {33182, 1}, {3763779, 3},
             {IMPI_ANY, 4}),
    IMPI_ROW(scatter, 1, 2, 2, {16391, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(scatter, 1, 4, 6, {16723, 3}, {153541, 2}, {425631, 3}, {794142, 2}, {1257027, 3},
             {IMPI_ANY, 2}),
    IMPI_ROW(scatter, 1, 8, 7, {2633, 3}, {6144, 2}, {14043, 3}, {24576, 2}, {107995, 3},
             {1752729, 2}, {IMPI_ANY, 3}),
    IMPI_ROW(scatter, 1, 16, 7, {2043, 3}, {2252, 2}, {17749, 3}, {106020, 2}, {628654, 3},
             {3751354, 2}, {IMPI_ANY, 3}),
    IMPI_ROW(scatter, 1, IMPI_ANY, 4, {65907, 3}, {245132, 2}, {1042439, 3}, {IMPI_ANY, 2},
             {IMPI_ANY, 1}),
    IMPI_ROW(scatter, 2, IMPI_ANY, 1, {IMPI_ANY, 3}),
    IMPI_ROW(scatter, 4, 8, 1, {IMPI_ANY, 3}),
    IMPI_ROW(scatter, 4, 16, 2, {140, 3}, {1302, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(scatter, 4, 32, 2, {159, 3}, {486, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(scatter, 4, 64, 2, {149, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(scatter, 4, IMPI_ANY, 2, {139, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(scatter, 8, 16, 4, {587, 1}, {1370, 2}, {2102, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(scatter, 8, 32, 3, {1038, 1}, {2065, 2}, {IMPI_ANY, 3}),
    IMPI_ROW(scatter, 8, 64, 3, {515, 1}, {2069, 2}, {IMPI_ANY, 3}),
    IMPI_ROW(scatter, 8, 128, 3, {284, 1}, {796, 2}, {IMPI_ANY, 3}),
    IMPI_ROW(scatter, 8, IMPI_ANY, 2, {139, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(scatter, 16, 8, 1, {IMPI_ANY, 3}),
    IMPI_ROW(scatter, 16, 16, 3, {140, 3}, {1302, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(scatter, 16, 32, 3, {159, 3}, {486, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(scatter, 16, 64, 2, {149, 1}, {IMPI_ANY, 3}),
    IMPI_ROW(scatter, 16, IMPI_ANY, 2, {139, 1}, {IMPI_ANY, 3}),
};
#define IMPI_NROWS ((int)(sizeof impi_rows / sizeof impi_rows[0]))

/* What each algorithm number runs, per collective (index 0 unused). Selector names:
 * "default", "mvapich2". */
static const char *const impi_names[COLL_COUNT][9] = {
    [COLL_allgather] = {NULL, "rdb", "bruck", "ring", "GB"},
    [COLL_allgatherv] = {NULL, "mpich_rdb", "ompi_bruck", "ring", "GB"},
    [COLL_allreduce] = {NULL, "rdb", "rab1", "redbcast", "mvapich2_two_level", "smp_binomial",
                        "mvapich2_two_level", "ompi_ring_segmented", "ompi_ring_segmented"},
    [COLL_alltoall] = {NULL, "bruck", "mvapich2_scatter_dest", "pair", "mvapich2"},
    [COLL_alltoallv] = {NULL, "ompi_basic_linear", "bruck"},
    [COLL_barrier] = {NULL, "ompi_basic_linear", "ompi_recursivedoubling", "ompi_basic_linear",
                      "ompi_recursivedoubling", "default", "default"},
    [COLL_bcast] = {NULL, "binomial_tree", "NTSL", "NTSL", "SMP_binomial", "NTSL", "SMP_linear",
                    "mvapich2"},
    [COLL_gather] = {NULL, "ompi_binomial", "ompi_binomial", "mvapich2"},
    [COLL_reduce] = {NULL, "mvapich2", "binomial", "mvapich2", "mvapich2_two_level", "rab",
                     "rab"},
    /* 1: recursive halving for a commutative op, else SimGrid's mvapich2 choice */
    [COLL_reduce_scatter] = {NULL, "ompi_basic_recursivehalving", "mpich_pair", "mpich_rdb",
                             "default", "default"},
    [COLL_scatter] = {NULL, "ompi_binomial", "ompi_binomial", "mvapich2"},
};

static size_t impi_bytes(const coll_features *f)
{
  switch (f->coll) {
  case COLL_barrier:
  case COLL_alltoallv:
    return 1;
  case COLL_allgatherv:
  case COLL_reduce_scatter:
    return f->total;
  default:
    return f->bytes;
  }
}

const char *coll_impi_pick(const coll_features *f)
{
  coll_id c = f->coll;
  if (!impi_names[c][1])
    return NULL;
  int ppn = f->ppn > 0 ? f->ppn : 1;
  bool have = false;
  for (int i = 0; i < IMPI_NROWS; i++)
    have |= impi_rows[i].coll == c && impi_rows[i].ppn == ppn;
  if (!have)
    ppn = 1;
  const impi_row *row = NULL;
  for (int i = 0; i < IMPI_NROWS && !row; i++)
    if (impi_rows[i].coll == c && impi_rows[i].ppn == ppn &&
        (unsigned)f->size <= impi_rows[i].max_np)
      row = &impi_rows[i];
  ASSERTF(row, "impi: no row for %s, %d ranks per host", coll_infos[c].name, ppn);
  size_t bytes = impi_bytes(f);
  int k = 0;
  while (k < row->n && bytes >= row->steps[k].max_size)
    k++;
  if (k >= row->nsteps) /* 2 GiB and more: SimGrid reads past the row */
    k = row->nsteps - 1;
  int algo = row->steps[k].algo;
  ASSERTF(algo >= 1 && algo <= 8 && impi_names[c][algo], "impi: %s algorithm %d",
          coll_infos[c].name, algo);
  if (c == COLL_reduce_scatter && algo == 1 && !f->commutative)
    return "mvapich2";
  return impi_names[c][algo];
}

void coll_impi_dump(FILE *out)
{
  for (int i = 0; i < IMPI_NROWS; i++) {
    const impi_row *r = &impi_rows[i];
    fprintf(out, "table %s %d %u %d", coll_infos[r->coll].name, r->ppn, r->max_np, r->n);
    for (int k = 0; k < r->nsteps; k++)
      fprintf(out, " %u:%d", r->steps[k].max_size, r->steps[k].algo);
    fputc('\n', out);
  }
  for (int c = 0; c < COLL_COUNT; c++) {
    if (!impi_names[c][1])
      continue;
    fprintf(out, "names %s", coll_infos[c].name);
    for (int k = 1; k < 9 && impi_names[c][k]; k++)
      fprintf(out, " %d:%s", k, impi_names[c][k]);
    fputc('\n', out);
  }
}

/* the selector named name, other than this one; -1 if none */
static int other_selector(const char *name)
{
  for (size_t k = 0; k < coll_nselectors; k++)
    if (!strcmp(coll_selectors[k].name, name) && coll_selectors[k].select != coll_select_impi)
      return (int)k;
  return -1;
}

coll_alg_id coll_select_impi(coll_features *f)
{
  const char *name = coll_impi_pick(f);
  if (!name)
    return coll_select_default(f);
  LOG_DEBUG("impi: %s, %d ranks, %d per host, %zu B: %s", coll_infos[f->coll].name, f->size,
            f->ppn, impi_bytes(f), name);
  int id = coll_algo_find(f->coll, name);
  if (id >= 0 && coll_algo_fits((coll_alg_id)id, f))
    return (coll_alg_id)id;
  int k = id < 0 ? other_selector(name) : -1;
  if (k >= 0)
    return coll_selectors[k].select(f);
  coll_alg_id fb = coll_select_default(f);
  /* warned once per name (the names are the literals above) */
  static const char *warned[64];
  static size_t nwarned;
  bool seen = false;
  for (size_t i = 0; i < nwarned; i++)
    seen |= warned[i] == name;
  if (!seen && nwarned < sizeof warned / sizeof warned[0] && smpi_self()) {
    warned[nwarned++] = name;
    LOG_WARN("%s: the impi selector's choice '%s' %s; using '%s' instead (warned once)",
             coll_infos[f->coll].mpi_name, name,
             id < 0 ? "is not in this build" : "cannot serve this call", coll_algos[fb].name);
  }
  return fb;
}
