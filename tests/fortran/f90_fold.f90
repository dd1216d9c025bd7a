! A Fortran program on folded buffers through Bruck's Alltoall and Allgather (issue 27):
! smpi_shared_malloc's memory reaches the same collective code as C's SMPI_SHARED_MALLOC, so
! the blocks whose content does not matter must be skipped here too, and real blocks moved.
!   f90_fold mixed   every third rank's send buffer is folded, the others' private: every
!                    private block must arrive where MPI_ALLTOALL / MPI_ALLGATHER put it
!                    (a folded source's block is anything)
!   f90_fold folded  every buffer folded: nothing is copied into Bruck's scratch, packed or
!                    sent for real (the test wants "bytes copied: 0 in 0 copies")
! Run with --cfg=smpi/alltoall:bruck --cfg=smpi/allgather:bruck. Simulator only (module smpi).
program f90_fold
  use mpi
  use smpi
  use, intrinsic :: iso_c_binding, only : c_ptr, c_f_pointer, c_size_t
  implicit none
  integer, parameter :: blk = 250
  integer :: ierr, rank, np, j, k, nerr, total
  logical :: mixed, folded_send
  character(len=16) :: mode
  type(c_ptr) :: sp, rp
  integer, pointer :: sfold(:), rfold(:)
  integer, allocatable, target :: spriv(:), rpriv(:)
  integer, pointer :: s(:), r(:)

  nerr = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  call get_command_argument(1, mode)
  mixed = trim(mode) == 'mixed'
  if (.not. mixed .and. trim(mode) /= 'folded') then
    if (rank == 0) print '(a)', 'f90_fold: argument must be mixed or folded'
    call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
  end if

  folded_send = .not. mixed .or. mod(rank, 3) == 0
  sp = smpi_shared_malloc(int(4 * blk * np, c_size_t))
  call c_f_pointer(sp, sfold, [blk * np])
  if (folded_send) then
    s => sfold
  else
    allocate(spriv(blk * np))
    do j = 0, np - 1
      spriv(j * blk + 1:(j + 1) * blk) = code(rank, j, [(k, k = 1, blk)])
    end do
    s => spriv
  end if
  if (mixed) then
    allocate(rpriv(blk * np))
    rpriv = -1
    r => rpriv
  else
    rp = smpi_shared_malloc(int(4 * blk * np, c_size_t))
    call c_f_pointer(rp, rfold, [blk * np])
    r => rfold
  end if

  ! block j of rank i's send buffer lands as block i of rank j's receive buffer
  call MPI_Alltoall(s, blk, MPI_INTEGER, r, blk, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  if (mixed) call check('MPI_ALLTOALL', .true.)
  ! each rank's first block (meant for rank 0) lands as block i everywhere
  call MPI_Allgather(s, blk, MPI_INTEGER, r, blk, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  if (mixed) call check('MPI_ALLGATHER', .false.)

  if (mixed) then
    call MPI_Allreduce(nerr, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  else
    total = 0
  end if
  if (rank == 0 .and. total == 0) print '(a,a)', 'f90_fold: OK ', trim(mode)
  call smpi_shared_free(sp)
  if (.not. mixed) call smpi_shared_free(rp)
  call MPI_Finalize(ierr)
  if (nerr /= 0) stop 1

contains

  elemental integer function code(src, dst, k)
    integer, intent(in) :: src, dst, k
    code = 1000000 * src + 1000 * dst + k
  end function code

  subroutine check(what, to_me)
    character(len=*), intent(in) :: what
    logical, intent(in) :: to_me
    integer :: i, want_dst, bad
    do i = 0, np - 1
      if (mod(i, 3) == 0) cycle ! a folded source: its block is anything
      want_dst = 0
      if (to_me) want_dst = rank
      bad = count(r(i * blk + 1:(i + 1) * blk) /= code(i, want_dst, [(k, k = 1, blk)]))
      if (bad /= 0) then
        nerr = nerr + 1
        print '(a,a,i0,a,i0,a,i0)', what, ': rank ', rank, ' got ', bad, &
              ' wrong values in the block of rank ', i
      end if
    end do
  end subroutine check
end program f90_fold
