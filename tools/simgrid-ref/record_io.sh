#!/bin/sh
# Records SimGrid 3.32's MPI-IO times for tests/io/io_simgrid.c (4 ranks on
# tests/data/simgrid-ref/platforms/io_disks.xml) into tests/data/simgrid-ref/io_disks.txt;
# tests/io/io_simgrid.py compares ours with them. Run from anywhere; ~2 s.
#
#   tools/simgrid-ref/record_io.sh
#
# SimGrid's file-system plugin reads the disks' content file (io_disks_content.txt) from the
# directory smpirun runs in: the run happens in the platforms directory. Without simulated
# computation SimGrid's dates are the same at every run, and the lines are sorted: a re-run
# leaves git clean.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
plat=$top/tests/data/simgrid-ref/platforms
build=${SGREF_BUILD:-$(mktemp -d)}
out=$top/tests/data/simgrid-ref/io_disks.txt
cfg="--cfg=smpi/wtime:0 --cfg=smpi/simulate-computation:no"
echo "smpicc -O1 tests/io/io_simgrid.c -o \$BUILD/io_simgrid" >&2
smpicc -O1 "$top/tests/io/io_simgrid.c" -o "$build/io_simgrid" 2>"$build/cc.log"
echo "(cd tests/data/simgrid-ref/platforms && smpirun -np 4 -platform io_disks.xml $cfg \$BUILD/io_simgrid)" >&2
{
  echo "# MPI-IO call times of tests/io/io_simgrid.c, 4 ranks round-robin on io_disks.xml"
  echo "# simgrid: $(smpirun -version 2>/dev/null | head -1) (libsimgrid-dev $(dpkg-query -W -f '${Version}' libsimgrid-dev 2>/dev/null || echo '?'))"
  echo "# command: cd tests/data/simgrid-ref/platforms && smpirun -np 4 -platform io_disks.xml $cfg io_simgrid"
  echo "# columns: io phase rank seconds"
  (cd "$plat" && smpirun -np 4 -platform io_disks.xml $cfg "$build/io_simgrid" 2>"$build/run.log") |
    grep '^io ' | sort
} > "$out"
echo "wrote $out ($(grep -c '^io ' "$out") times)" >&2
