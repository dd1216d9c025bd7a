! Every collective with MPI_IN_PLACE, the Fortran datatypes and reduction pairs, a user op, an
! error handler and attribute copy/delete callbacks written in Fortran, from `use mpi`.
! Self-checking: rank 0 prints "f90_coll: OK". Run with 5 ranks.
module coll_checks
  implicit none
  integer :: nerr = 0, ncopies = 0, ndeletes = 0, nhandled = 0, lasterr = 0
contains
  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      nerr = nerr + 1
      print '(a,a)', 'f90_coll: check failed: ', what
    end if
  end subroutine check
end module coll_checks

! the decimal digits of invec(i) then those of inoutvec(i): associative, not commutative, so
! the result shows the operand order
subroutine digits(invec, inoutvec, n, datatype)
  implicit none
  integer :: n, datatype, i, m
  integer :: invec(n), inoutvec(n)
  do i = 1, n
    m = 10
    do while (m <= inoutvec(i))
      m = m * 10
    end do
    inoutvec(i) = invec(i) * m + inoutvec(i)
  end do
end subroutine digits

subroutine on_error(comm, code)
  use coll_checks
  implicit none
  integer :: comm, code
  nhandled = nhandled + 1
  lasterr = code
end subroutine on_error

subroutine copy_attr(oldcomm, keyval, extra, val_in, val_out, flag, ierr)
  use mpi
  use coll_checks
  implicit none
  integer :: oldcomm, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: extra, val_in, val_out
  logical :: flag
  ncopies = ncopies + 1
  val_out = val_in + extra
  flag = .true.
  ierr = MPI_SUCCESS
end subroutine copy_attr

subroutine delete_attr(comm, keyval, val, extra, ierr)
  use mpi
  use coll_checks
  implicit none
  integer :: comm, keyval, ierr
  integer(kind=MPI_ADDRESS_KIND) :: val, extra
  ndeletes = ndeletes + 1
  ierr = MPI_SUCCESS
end subroutine delete_attr

program f90_coll
  use mpi
  use coll_checks
  implicit none
  external :: digits, on_error, copy_attr, delete_attr
  integer, parameter :: n = 5
  integer :: ierr, rank, np, i, j, total, op, eh, key, dup, req(2), sts(MPI_STATUS_SIZE, 2)
  integer :: iv(n * 3), counts(n), displs(n), pair(2), pairs(2, 2), ival
  integer(kind=8) :: i8
  integer(kind=1) :: i1
  integer(kind=2) :: i2
  real(kind=4) :: r4, rpair(2)
  real(kind=16) :: q16
  complex(kind=4) :: c8
  complex(kind=8) :: z16
  real :: r(2)
  real(kind=8) :: d(n), r8, dpair(2)
  complex :: c
  double complex :: z
  logical :: l, flag
  character(len=4) :: chars(n)
  integer(kind=MPI_ADDRESS_KIND) :: aval, tagub

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  call check(np == n, 'five ranks')

  ! bcast, reduce and allreduce in place
  ival = merge(42, -1, rank == 2)
  call MPI_Bcast(ival, 1, MPI_INTEGER, 2, MPI_COMM_WORLD, ierr)
  call check(ival == 42, 'bcast')
  ival = rank + 1
  if (rank == 0) then
    call MPI_Reduce(MPI_IN_PLACE, ival, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
    call check(ival == n * (n + 1) / 2, 'reduce in place')
  else
    call MPI_Reduce(ival, MPI_BOTTOM, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  end if
  d = rank
  call MPI_Allreduce(MPI_IN_PLACE, d, n, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  call check(all(d == n - 1), 'allreduce in place')

  ! gather / scatter family, root in place
  iv = -1
  iv(rank + 1) = rank * 7
  if (rank == 1) then
    call MPI_Gather(MPI_IN_PLACE, 1, MPI_INTEGER, iv, 1, MPI_INTEGER, 1, MPI_COMM_WORLD, ierr)
    call check(all(iv(1:n) == [(i * 7, i = 0, n - 1)]), 'gather in place')
  else
    call MPI_Gather(iv(rank + 1), 1, MPI_INTEGER, iv, 1, MPI_INTEGER, 1, MPI_COMM_WORLD, ierr)
  end if
  counts = [(i + 1, i = 0, n - 1)]
  displs = [(i * (i + 1) / 2, i = 0, n - 1)]
  iv = -1
  iv(displs(rank + 1) + 1 : displs(rank + 1) + rank + 1) = rank
  call MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, iv, counts, displs, MPI_INTEGER, &
                      MPI_COMM_WORLD, ierr)
  call check(iv(15) == 4 .and. iv(1) == 0 .and. iv(5) == 2, 'allgatherv in place')
  iv = -1
  iv(rank + 1) = rank + 100
  call MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, iv, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call check(all(iv(1:n) == [(i + 100, i = 0, n - 1)]), 'allgather in place')
  if (rank == 0) then
    iv(1:n) = [(i * 3, i = 0, n - 1)]
    call MPI_Scatter(iv, 1, MPI_INTEGER, MPI_IN_PLACE, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    call check(iv(1) == 0, 'scatter in place')
  else
    call MPI_Scatter(iv, 1, MPI_INTEGER, ival, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    call check(ival == rank * 3, 'scatter')
  end if
  if (rank == 3) then
    iv = [(i, i = 1, 15)]
    call MPI_Gatherv(MPI_IN_PLACE, 0, MPI_INTEGER, iv, counts, displs, MPI_INTEGER, 3, &
                     MPI_COMM_WORLD, ierr)
    call check(iv(2) == 1 .and. iv(11) == 4 .and. iv(7) == 7, 'gatherv in place')
  else
    iv(1:rank + 1) = rank
    call MPI_Gatherv(iv, rank + 1, MPI_INTEGER, iv, counts, displs, MPI_INTEGER, 3, &
                     MPI_COMM_WORLD, ierr)
  end if
  ! alltoall in place: iv(j) = rank*10 + j-1 goes to rank j-1
  iv(1:n) = [(rank * 10 + i, i = 0, n - 1)]
  call MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, iv, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call check(all(iv(1:n) == [(i * 10 + rank, i = 0, n - 1)]), 'alltoall in place')
  counts = 1
  displs = [(i, i = 0, n - 1)]
  iv(1:n) = [(rank * 10 + i, i = 0, n - 1)]
  call MPI_Alltoallv(MPI_IN_PLACE, counts, displs, MPI_DATATYPE_NULL, iv, counts, displs, &
                     MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call check(all(iv(1:n) == [(i * 10 + rank, i = 0, n - 1)]), 'alltoallv in place')
  ! reduce_scatter(_block), scan, exscan in place
  iv(1:n) = [(rank + i, i = 0, n - 1)]
  call MPI_Reduce_scatter_block(MPI_IN_PLACE, iv, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(iv(1) == n * rank + n * (n - 1) / 2, 'reduce_scatter_block in place')
  iv(1:n) = [(rank + i, i = 0, n - 1)]
  counts = 1
  call MPI_Reduce_scatter(MPI_IN_PLACE, iv, counts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(iv(1) == n * rank + n * (n - 1) / 2, 'reduce_scatter in place')
  ival = rank + 1
  call MPI_Scan(MPI_IN_PLACE, ival, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(ival == (rank + 1) * (rank + 2) / 2, 'scan in place')
  ival = rank + 1
  call MPI_Exscan(MPI_IN_PLACE, ival, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank > 0) call check(ival == rank * (rank + 1) / 2, 'exscan in place')
  ! nonblocking collectives
  ival = 1
  call MPI_Iallreduce(MPI_IN_PLACE, ival, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Ibarrier(MPI_COMM_WORLD, req(2), ierr)
  call MPI_Waitall(2, req, sts, ierr)
  call check(ival == n, 'iallreduce')

  ! Fortran datatypes and reduction pairs
  r = [real(rank), 0.5]
  call MPI_Allreduce(MPI_IN_PLACE, r, 2, MPI_REAL, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(r(1) == 10.0 .and. r(2) == 2.5, 'MPI_REAL')
  c = cmplx(rank, 1)
  call MPI_Allreduce(MPI_IN_PLACE, c, 1, MPI_COMPLEX, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(c == cmplx(10, 5), 'MPI_COMPLEX')
  z = dcmplx(0, rank)
  call MPI_Allreduce(MPI_IN_PLACE, z, 1, MPI_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(z == dcmplx(0, 10), 'MPI_DOUBLE_COMPLEX')
  l = rank /= 3
  call MPI_Allreduce(MPI_IN_PLACE, l, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
  call check(.not. l, 'MPI_LOGICAL land')
  l = rank == 3
  call MPI_Allreduce(MPI_IN_PLACE, l, 1, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD, ierr)
  call check(l, 'MPI_LOGICAL lor')
  i8 = 2_8**40 * rank
  call MPI_Allreduce(MPI_IN_PLACE, i8, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(i8 == 10 * 2_8**40, 'MPI_INTEGER8')
  r8 = rank * 0.25d0
  call MPI_Allreduce(MPI_IN_PLACE, r8, 1, MPI_REAL8, MPI_MIN, MPI_COMM_WORLD, ierr)
  call check(r8 == 0, 'MPI_REAL8')
  pair = [mod(rank * 3, n), rank]
  call MPI_Allreduce(MPI_IN_PLACE, pair, 1, MPI_2INTEGER, MPI_MAXLOC, MPI_COMM_WORLD, ierr)
  call check(pair(1) == 4 .and. pair(2) == 3, 'MPI_2INTEGER maxloc')
  dpair = [abs(rank - 2.5d0), dble(rank)]
  call MPI_Allreduce(MPI_IN_PLACE, dpair, 1, MPI_2DOUBLE_PRECISION, MPI_MINLOC, &
                     MPI_COMM_WORLD, ierr)
  call check(dpair(1) == 0.5d0 .and. dpair(2) == 2, 'MPI_2DOUBLE_PRECISION minloc')
  pairs(:, 1) = [rank, rank]
  pairs(:, 2) = [-rank, rank]
  call MPI_Allreduce(MPI_IN_PLACE, pairs, 2, MPI_2INTEGER, MPI_MINLOC, MPI_COMM_WORLD, ierr)
  call check(pairs(1, 2) == -4 .and. pairs(2, 2) == 4 .and. pairs(2, 1) == 0, 'pairs')
  ! sized types and the remaining pairs and logical ops
  i1 = int(rank + 1, 1)
  call MPI_Allreduce(MPI_IN_PLACE, i1, 1, MPI_INTEGER1, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(i1 == 15, 'MPI_INTEGER1')
  i2 = int(-rank * 1000, 2)
  call MPI_Allreduce(MPI_IN_PLACE, i2, 1, MPI_INTEGER2, MPI_MIN, MPI_COMM_WORLD, ierr)
  call check(i2 == -4000, 'MPI_INTEGER2')
  r4 = 0.5 * rank
  call MPI_Allreduce(MPI_IN_PLACE, r4, 1, MPI_REAL4, MPI_MAX, MPI_COMM_WORLD, ierr)
  call check(r4 == 2.0, 'MPI_REAL4')
  q16 = 1.0_16 / 3 * rank
  call MPI_Allreduce(MPI_IN_PLACE, q16, 1, MPI_REAL16, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(abs(q16 - 10.0_16 / 3) < 1e-30_16, 'MPI_REAL16')
  z16 = dcmplx(0, 1)
  call MPI_Allreduce(MPI_IN_PLACE, z16, 1, MPI_COMPLEX16, MPI_PROD, MPI_COMM_WORLD, ierr)
  call check(z16 == dcmplx(0, 1), 'MPI_COMPLEX16 prod (i**5 = i)')
  c8 = cmplx(1, rank)
  call MPI_Allreduce(MPI_IN_PLACE, c8, 1, MPI_COMPLEX8, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(c8 == cmplx(5, 10), 'MPI_COMPLEX8')
  rpair = [real(mod(rank + 2, n)), real(rank)]
  call MPI_Allreduce(MPI_IN_PLACE, rpair, 1, MPI_2REAL, MPI_MINLOC, MPI_COMM_WORLD, ierr)
  call check(rpair(1) == 0 .and. rpair(2) == 3, 'MPI_2REAL minloc')
  l = rank < 3
  call MPI_Allreduce(MPI_IN_PLACE, l, 1, MPI_LOGICAL, MPI_LXOR, MPI_COMM_WORLD, ierr)
  call check(l, 'MPI_LOGICAL lxor (3 trues)')
  ival = ishft(1, rank)
  call MPI_Allreduce(MPI_IN_PLACE, ival, 1, MPI_INTEGER, MPI_BOR, MPI_COMM_WORLD, ierr)
  call check(ival == 31, 'MPI_BOR')
  chars(rank + 1) = 'r' // achar(48 + rank)
  call MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, chars, 4, MPI_CHARACTER, &
                     MPI_COMM_WORLD, ierr)
  call check(chars(5) == 'r4' .and. chars(1) == 'r0', 'MPI_CHARACTER')

  ! a user op written in Fortran, not commutative: rank order is kept (digits 1..5)
  call MPI_Op_create(digits, .false., op, ierr)
  ival = rank + 1
  call MPI_Allreduce(MPI_IN_PLACE, ival, 1, MPI_INTEGER, op, MPI_COMM_WORLD, ierr)
  call check(ival == 12345, 'user op (not commutative)')
  call MPI_Op_commutative(op, flag, ierr)
  call check(.not. flag, 'op_commutative')
  call MPI_Op_free(op, ierr)

  ! an error handler written in Fortran: called with the error code, the call returns it
  call MPI_Comm_create_errhandler(on_error, eh, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  call MPI_Comm_set_errhandler(dup, eh, ierr)
  call MPI_Send(ival, -1, MPI_INTEGER, 0, 0, dup, ierr)
  call check(nhandled == 1 .and. lasterr == ierr .and. ierr /= MPI_SUCCESS, 'errhandler')
  call MPI_Error_class(ierr, ival, ierr)
  call check(ival == MPI_ERR_COUNT, 'error class')
  call MPI_Errhandler_free(eh, ierr)

  ! attributes: Fortran copy/delete callbacks, values, predefined MPI_TAG_UB
  call MPI_Comm_create_keyval(copy_attr, delete_attr, key, 1000_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_set_attr(dup, key, 7_MPI_ADDRESS_KIND * rank, ierr)
  call MPI_Comm_free(dup, ierr)
  call check(ndeletes == 1, 'delete callback')
  call MPI_Comm_set_attr(MPI_COMM_WORLD, key, 5_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  call check(ncopies == 1, 'copy callback')
  call MPI_Comm_get_attr(dup, key, aval, flag, ierr)
  call check(flag .and. aval == 1005, 'copied attribute value')
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, tagub, flag, ierr)
  call check(flag .and. tagub >= 32767, 'MPI_TAG_UB')
  call MPI_Comm_free(dup, ierr)
  call MPI_Comm_delete_attr(MPI_COMM_WORLD, key, ierr)
  call check(ndeletes == 3, 'delete callbacks')
  call MPI_Comm_free_keyval(key, ierr)

  call MPI_Allreduce(nerr, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total == 0) print '(a)', 'f90_coll: OK'
  call MPI_Finalize(ierr)
  if (nerr /= 0) stop 1
end program f90_coll
