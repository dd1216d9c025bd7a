! The `smpi` module: smpi's extensions for Fortran 90 programs (docs/fortran.md). The
! routines of F77 style (smpi_execute_flops, smpi_sample_local/global/next) need no module.
module smpi
  use, intrinsic :: iso_c_binding, only : c_ptr, c_size_t
  implicit none
  interface
    ! a block of SIZE bytes whose pages all ranks calling from this line share
    ! (SMPI_SHARED_MALLOC in C); C_F_POINTER makes it a Fortran array
    function smpi_shared_malloc(size) bind(C, name='smpi_f_shared_malloc')
      import :: c_ptr, c_size_t
      integer(c_size_t), value :: size
      type(c_ptr) :: smpi_shared_malloc
    end function smpi_shared_malloc
    subroutine smpi_shared_free(ptr) bind(C, name='smpi_shared_free')
      import :: c_ptr
      type(c_ptr), value :: ptr
    end subroutine smpi_shared_free
  end interface
end module smpi
