! More of the generated bindings from Fortran: info objects and strings, error strings,
! versions, subarrays in Fortran order, MPI_Type_create_struct from MPI_Get_address
! (INTEGER(KIND=MPI_ADDRESS_KIND)), pack/unpack, matched probes, one-sided communication
! (MPI_Win_create, MPI_Put, fences, MPI_WIN_BASE/SIZE attributes), MPI_Alloc_mem, group
! ranges, a distributed graph with MPI_UNWEIGHTED and a neighbour all-to-all, MPI_SIZEOF.
! Self-checking: rank 0 prints "f90_misc: OK". Run with 4 ranks.
program f90_misc
  use mpi
  implicit none
  integer :: ierr, rank, np, nerr, total, info, nkeys, vlen, ver, subver, rlen, i, j
  integer :: sub, sty, msg, cnt, win, grp, wgrp, gsize, g, pos, peers(2), nbr(2), next, prev
  integer :: st(MPI_STATUS_SIZE), ranges(3, 1), blens(2), types(2), k
  integer(kind=MPI_ADDRESS_KIND) :: a0, a1, disps(2), lb, extent, wsize, wbase, one
  logical :: flag
  character(len=MPI_MAX_INFO_VAL) :: val
  character(len=MPI_MAX_ERROR_STRING) :: estr
  character(len=MPI_MAX_LIBRARY_VERSION_STRING) :: lib
  double precision :: grid(6, 5), part(2, 3), w(4)
  integer :: packbuf(64), ibuf(4), rbuf(4)
  type :: pair_t
    sequence
    integer :: id
    double precision :: v
  end type pair_t
  type(pair_t) :: pr(2)

  nerr = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  next = mod(rank + 1, np)
  prev = mod(rank + np - 1, np)

  ! info: keys and values are blank-trimmed CHARACTER arguments
  call MPI_Info_create(info, ierr)
  call MPI_Info_set(info, 'color   ', 'blue sky   ', ierr)
  call MPI_Info_set(info, 'size', '42', ierr)
  call MPI_Info_get_nkeys(info, nkeys, ierr)
  call check(nkeys == 2, 'info nkeys')
  call MPI_Info_get(info, 'color', MPI_MAX_INFO_VAL, val, flag, ierr)
  call check(flag .and. val == 'blue sky', 'info value')
  call MPI_Info_get_valuelen(info, 'size', vlen, flag, ierr)
  call check(flag .and. vlen == 2, 'info valuelen')
  call MPI_Info_get(info, 'none', MPI_MAX_INFO_VAL, val, flag, ierr)
  call check(.not. flag, 'info missing key')
  call MPI_Info_get_nthkey(info, 1, val, ierr)
  call check(val == 'size', 'info nthkey')
  call MPI_Info_free(info, ierr)
  call check(info == MPI_INFO_NULL, 'info freed')

  call MPI_Error_string(MPI_ERR_TRUNCATE, estr, rlen, ierr)
  call check(rlen > 0 .and. rlen == len_trim(estr), 'error string')
  ! MPI_SIZEOF: one element's size, scalar or array of any rank
  call MPI_Sizeof(w, i, ierr)
  call check(i == 8 .and. ierr == MPI_SUCCESS, 'MPI_SIZEOF double precision array')
  call MPI_Sizeof(rank, i, ierr)
  call check(i == 4, 'MPI_SIZEOF integer')
  call MPI_Sizeof(wsize, i, ierr)
  call check(i == 8, 'MPI_SIZEOF address kind')
  call MPI_Sizeof(grid(1, 1), i, ierr)
  call check(i == 8, 'MPI_SIZEOF array element')
  call MPI_Get_version(ver, subver, ierr)
  call check(ver == MPI_VERSION .and. subver == MPI_SUBVERSION, 'get_version')
  call MPI_Get_library_version(lib, rlen, ierr)
  call check(rlen > 0, 'library version')

  ! a 2 x 3 block of a 6 x 5 array (Fortran order), sent as a subarray
  do j = 1, 5
    do i = 1, 6
      grid(i, j) = rank * 100 + i * 10 + j
    end do
  end do
  call MPI_Type_create_subarray(2, [6, 5], [2, 3], [3, 1], MPI_ORDER_FORTRAN, &
                                MPI_DOUBLE_PRECISION, sub, ierr)
  call MPI_Type_commit(sub, ierr)
  call MPI_Sendrecv(grid, 1, sub, next, 1, part, 6, MPI_DOUBLE_PRECISION, prev, 1, &
                    MPI_COMM_WORLD, st, ierr)
  call check(part(1, 1) == prev * 100 + 42 .and. part(2, 3) == prev * 100 + 54, 'subarray')
  call MPI_Type_get_extent(sub, lb, extent, ierr)
  call check(lb == 0 .and. extent == 6 * 5 * 8, 'subarray extent')
  call MPI_Type_free(sub, ierr)

  ! a struct from absolute addresses: an INTEGER and a DOUBLE PRECISION of a SEQUENCE type
  call MPI_Get_address(pr(1)%id, a0, ierr)
  call MPI_Get_address(pr(1)%v, a1, ierr)
  blens = 1
  types = [MPI_INTEGER, MPI_DOUBLE_PRECISION]
  disps = [0_MPI_ADDRESS_KIND, MPI_Aint_diff(a1, a0)]
  call MPI_Type_create_struct(2, blens, disps, types, sty, ierr)
  call MPI_Get_address(pr(2)%id, a1, ierr)
  call MPI_Type_create_resized(sty, 0_MPI_ADDRESS_KIND, a1 - a0, k, ierr)
  call MPI_Type_free(sty, ierr)
  call MPI_Type_commit(k, ierr)
  pr(1) = pair_t(rank, rank * 0.5d0)
  pr(2) = pair_t(-rank, -rank * 0.5d0)
  call MPI_Sendrecv_replace(pr, 2, k, next, 2, prev, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call check(pr(1)%id == prev .and. pr(2)%v == -prev * 0.5d0, 'struct from addresses')
  call MPI_Type_free(k, ierr)

  ! pack / unpack
  ibuf = [1, 2, 3, 4] * (rank + 1)
  pos = 0
  call MPI_Pack(ibuf, 4, MPI_INTEGER, packbuf, 256, pos, MPI_COMM_WORLD, ierr)
  call MPI_Pack(grid, 2, MPI_DOUBLE_PRECISION, packbuf, 256, pos, MPI_COMM_WORLD, ierr)
  call check(pos == 32, 'pack position')
  pos = 0
  call MPI_Unpack(packbuf, 256, pos, rbuf, 4, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call check(all(rbuf == ibuf), 'unpack')

  ! matched probe
  call MPI_Send(ibuf, 3, MPI_INTEGER, next, 3, MPI_COMM_WORLD, ierr)
  call MPI_Mprobe(prev, 3, MPI_COMM_WORLD, msg, st, ierr)
  call MPI_Get_count(st, MPI_INTEGER, cnt, ierr)
  call check(cnt == 3, 'mprobe count')
  call MPI_Mrecv(rbuf, cnt, MPI_INTEGER, msg, st, ierr)
  call check(rbuf(3) == 3 * (prev + 1) .and. msg == MPI_MESSAGE_NULL, 'mrecv')

  ! one-sided: each rank puts its rank into w(rank+1) of every other rank
  w = -1
  call MPI_Win_create(w, 32_MPI_ADDRESS_KIND, 8, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_Win_get_attr(win, MPI_WIN_SIZE, wsize, flag, ierr)
  call check(flag .and. wsize == 32, 'MPI_WIN_SIZE')
  call MPI_Win_get_attr(win, MPI_WIN_BASE, wbase, flag, ierr)
  call MPI_Get_address(w, a0, ierr)
  call check(flag .and. wbase == a0, 'MPI_WIN_BASE')
  call MPI_Win_fence(0, win, ierr)
  one = rank
  do i = 0, np - 1
    call MPI_Put(dble(rank), 1, MPI_DOUBLE_PRECISION, i, one, 1, MPI_DOUBLE_PRECISION, &
                 win, ierr)
  end do
  call MPI_Win_fence(0, win, ierr)
  call check(all(w == [0d0, 1d0, 2d0, 3d0]), 'put and fence')
  call MPI_Win_free(win, ierr)

  ! group ranges: ranks 1..3 by steps of 2
  call MPI_Comm_group(MPI_COMM_WORLD, wgrp, ierr)
  ranges(:, 1) = [1, 3, 2]
  call MPI_Group_range_incl(wgrp, 1, ranges, grp, ierr)
  call MPI_Group_size(grp, gsize, ierr)
  call MPI_Group_rank(grp, g, ierr)
  call check(gsize == 2, 'group_range_incl size')
  if (rank == 3) call check(g == 1, 'group_range_incl rank')
  if (rank == 0) call check(g == MPI_UNDEFINED, 'group_range_incl undefined')
  call MPI_Group_free(grp, ierr)
  call MPI_Group_free(wgrp, ierr)

  ! a ring as a distributed graph without weights, and a neighbour all-to-all on it
  peers = [prev, next]
  call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, peers, MPI_UNWEIGHTED, 2, peers, &
                                      MPI_UNWEIGHTED, MPI_INFO_NULL, .false., g, ierr)
  call MPI_Dist_graph_neighbors_count(g, i, j, flag, ierr)
  call check(i == 2 .and. j == 2 .and. .not. flag, 'dist graph unweighted')
  ibuf(1:2) = [rank * 10 + 1, rank * 10 + 2]
  call MPI_Neighbor_alltoall(ibuf, 1, MPI_INTEGER, nbr, 1, MPI_INTEGER, g, ierr)
  call check(nbr(1) == prev * 10 + 2 .and. nbr(2) == next * 10 + 1, 'neighbor_alltoall')
  call MPI_Comm_free(g, ierr)

  call MPI_Allreduce(nerr, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total == 0) print '(a)', 'f90_misc: OK'
  call MPI_Finalize(ierr)
  if (nerr /= 0) stop 1

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      nerr = nerr + 1
      print '(a,a)', 'f90_misc: check failed: ', what
    end if
  end subroutine check
end program f90_misc
