! Communicators and Cartesian topologies from Fortran (LOGICAL periods and remain_dims),
! and what privatization must give each rank of one process: its own COMMON blocks, module
! variables and SAVEd locals, its own Fortran units, and a STOP that ends only itself.
! Self-checking: rank 0 prints "f90_topo: OK". Run with 6 ranks.
module topo_state
  implicit none
  integer :: nerr = 0
  integer :: mine = -1          ! module variable: each rank stores its rank
contains
  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      nerr = nerr + 1
      print '(a,a)', 'f90_topo: check failed: ', what
    end if
  end subroutine check

  ! counts its calls in a SAVEd local: rank r calls it r+1 times
  integer function bump()
    integer, save :: calls = 0
    calls = calls + 1
    bump = calls
  end function bump
end module topo_state

program f90_topo
  use mpi
  use topo_state
  implicit none
  integer :: ierr, rank, np, i, total, half, sub, cart, line, r, src, dst
  integer :: dims(2), coords(2), cdims(2), ccoords(2), grp, wgrp, res, nrank
  logical :: periods(2), cperiods(2), remain(2), flag
  integer :: blk, u
  character(len=40) :: fname, text
  common /blk/ blk              ! COMMON block: each rank stores 1000 + rank

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  call check(np == 6, 'six ranks')

  ! privatized globals, set before other ranks run and checked after they did
  mine = rank
  blk = 1000 + rank
  do i = 1, rank + 1
    r = bump()
  end do
  write (fname, '(a,i0,a)') 'f90_topo_rank', rank, '.txt'
  open (newunit=u, file=fname, status='replace', action='write')
  close (u)
  open (unit=17, file=fname, status='replace', action='write')  ! one unit number, all ranks
  write (17, '(a,i0)') 'rank ', rank
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  write (17, '(a,i0)') 'still rank ', rank
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  close (17)
  call check(mine == rank, 'module variable is per rank')
  call check(blk == 1000 + rank, 'COMMON block is per rank')
  call check(bump() == rank + 2, 'SAVEd local is per rank')
  open (unit=17, file=fname, status='old', action='read')
  read (17, '(a)') text
  call check(text == 'rank ' // achar(48 + rank), 'unit 17 wrote this rank''s file')
  read (17, '(a)') text
  call check(text == 'still rank ' // achar(48 + rank), 'unit 17 is per rank')
  close (17, status='delete')

  ! split, compare, groups
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), -rank, half, ierr)
  call MPI_Comm_rank(half, r, ierr)
  call check(r == 2 - rank / 2, 'split with reversed keys')
  call MPI_Comm_compare(half, MPI_COMM_WORLD, res, ierr)
  call check(res == MPI_UNEQUAL, 'compare')
  call MPI_Comm_group(MPI_COMM_WORLD, wgrp, ierr)
  call MPI_Comm_group(half, grp, ierr)
  call MPI_Group_translate_ranks(grp, 1, [0], wgrp, nrank, ierr)
  call check(nrank == 4 + mod(rank, 2), 'translate_ranks')
  call MPI_Group_free(grp, ierr)
  call MPI_Group_free(wgrp, ierr)

  ! a 3 x 2 grid, periodic in the second dimension only
  dims = 0
  call MPI_Dims_create(np, 2, dims, ierr)
  call check(dims(1) == 3 .and. dims(2) == 2, 'dims_create')
  periods = [.false., .true.]
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  call MPI_Cart_get(cart, 2, cdims, cperiods, ccoords, ierr)
  call check(all(cdims == dims), 'cart_get dims')
  call check((.not. cperiods(1)) .and. cperiods(2), 'cart_get periods')
  call MPI_Cart_coords(cart, rank, 2, coords, ierr)
  call check(all(coords == ccoords) .and. coords(1) == rank / 2, 'cart_coords')
  call MPI_Cart_rank(cart, coords, r, ierr)
  call check(r == rank, 'cart_rank')
  call MPI_Cart_shift(cart, 0, 1, src, dst, ierr)
  if (coords(1) == 2) call check(dst == MPI_PROC_NULL, 'shift off the edge')
  if (coords(1) == 0) call check(src == MPI_PROC_NULL, 'shift off the edge (source)')
  call MPI_Cart_shift(cart, 1, 1, src, dst, ierr)
  call check(dst == coords(1) * 2 + mod(coords(2) + 1, 2), 'periodic shift')
  remain = [.true., .false.]
  call MPI_Cart_sub(cart, remain, line, ierr)
  call MPI_Comm_size(line, r, ierr)
  call check(r == 3, 'cart_sub size')
  call MPI_Topo_test(cart, res, ierr)
  call check(res == MPI_CART, 'topo_test')
  call MPI_Comm_test_inter(cart, flag, ierr)
  call check(.not. flag, 'test_inter')
  ! a sum along each column of the grid
  r = rank
  call MPI_Allreduce(MPI_IN_PLACE, r, 1, MPI_INTEGER, MPI_SUM, line, ierr)
  call check(r == 6 + 3 * coords(2), 'allreduce on the sub-grid')
  call MPI_Comm_free(line, ierr)
  call MPI_Comm_free(cart, ierr)
  call MPI_Comm_free(half, ierr)

  call MPI_Allreduce(nerr, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total == 0) print '(a)', 'f90_topo: OK'
  ! STOP ends this rank only: rank 5 stops right after MPI_Finalize, and the others still
  ! exchange a message before they finalize (in one process, exit() would end them all)
  if (rank == 5) then
    call MPI_Finalize(ierr)
    stop
  end if
  if (rank == 0) then
    call MPI_Send(total, 1, MPI_INTEGER, 1, 0, MPI_COMM_WORLD, ierr)
  else if (rank == 1) then
    call MPI_Recv(r, 1, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    print '(a)', 'f90_topo: ranks go on after another rank''s STOP'
  end if
  call MPI_Finalize(ierr)
  if (nerr /= 0) stop 1
end program f90_topo
