! The `mpi` module of smpi: everything of mpif.h (constants, sentinels, the functions that
! are not subroutines), for `use mpi`, and the generic MPI_SIZEOF. No explicit interfaces for
! the other subroutines yet (as with mpif.h, their arguments are not checked at compile
! time). mpi_f08 is not provided (docs/fortran.md).
module mpi
  implicit none
  include 'mpif.h'
  ! MPI_SIZEOF(X, SIZE, IERROR): the size in bytes of one element of X, scalar or array of
  ! any rank (assumed rank). The specifics are C functions of libsmpi (fortran.c), one per
  ! size, so using the module links no object code of its own. No LOGICAL specifics: a
  ! BIND(C) LOGICAL other than C_BOOL is an extension, which -std=f2008 programs refuse.
  interface MPI_SIZEOF
    subroutine smpi_sizeof_i1(x, size, ierror) bind(C, name='smpi_f_sizeof_1')
      integer(1), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine smpi_sizeof_i1
    subroutine smpi_sizeof_i2(x, size, ierror) bind(C, name='smpi_f_sizeof_2')
      integer(2), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine smpi_sizeof_i2
    subroutine smpi_sizeof_i4(x, size, ierror) bind(C, name='smpi_f_sizeof_4')
      integer(4), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine smpi_sizeof_i4
    subroutine smpi_sizeof_i8(x, size, ierror) bind(C, name='smpi_f_sizeof_8')
      integer(8), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine smpi_sizeof_i8
    subroutine smpi_sizeof_r4(x, size, ierror) bind(C, name='smpi_f_sizeof_4')
      real(4), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine smpi_sizeof_r4
    subroutine smpi_sizeof_r8(x, size, ierror) bind(C, name='smpi_f_sizeof_8')
      real(8), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine smpi_sizeof_r8
    subroutine smpi_sizeof_r16(x, size, ierror) bind(C, name='smpi_f_sizeof_16')
      real(16), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine smpi_sizeof_r16
    subroutine smpi_sizeof_c4(x, size, ierror) bind(C, name='smpi_f_sizeof_8')
      complex(4), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine smpi_sizeof_c4
    subroutine smpi_sizeof_c8(x, size, ierror) bind(C, name='smpi_f_sizeof_16')
      complex(8), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine smpi_sizeof_c8
    subroutine smpi_sizeof_c16(x, size, ierror) bind(C, name='smpi_f_sizeof_32')
      complex(16), dimension(..), intent(in) :: x
      integer, intent(out) :: size, ierror
    end subroutine smpi_sizeof_c16
  end interface MPI_SIZEOF
end module mpi
