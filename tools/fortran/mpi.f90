! The `mpi` module of smpi: everything of mpif.h (constants, sentinels, the functions that
! are not subroutines), for `use mpi`. No explicit interfaces for the subroutines yet (as with
! mpif.h, arguments are not checked at compile time). mpi_f08 is not provided (docs/fortran.md).
module mpi
  implicit none
  include 'mpif.h'
end module mpi
