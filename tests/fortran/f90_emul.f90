! smpi's extensions from Fortran: smpi_execute_flops (F77 style, no module), sampling
! (smpi_sample_local / smpi_sample_next) and shared allocation (module smpi:
! smpi_shared_malloc returns a TYPE(C_PTR) for C_F_POINTER). Simulator only (not MPICH).
! Run with 2 ranks, --cfg=smpi/cpu-threshold:-1 --cfg=smpi/wtime:0 --cfg=smpi/host-speed:1Gf
! (measured CPU time is not simulated: only what the program injects is).
program f90_emul
  use mpi
  use smpi
  use, intrinsic :: iso_c_binding, only : c_ptr, c_f_pointer, c_size_t
  implicit none
  integer :: ierr, rank, np, k, runs, nerr, total
  integer*8 :: st(4)
  double precision :: t0, t, flops, d(6), sink
  type(c_ptr) :: cp
  double precision, pointer :: big(:)

  nerr = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)

  ! 2.5e8 flops on a 1 Gflop/s host (platform default speed): 0.25 s of simulated time
  t0 = MPI_Wtime()
  flops = 2.5d8
  call smpi_execute_flops(flops)
  t = MPI_Wtime() - t0
  if (abs(t - 0.25d0) > 1d-9) then
    nerr = nerr + 1
    print *, 'f90_emul: smpi_execute_flops took', t, 'expected 0.25'
  end if
  t0 = MPI_Wtime()
  call smpi_execute(0.125d0)
  t = MPI_Wtime() - t0
  if (abs(t - 0.125d0) > 1d-9) then
    nerr = nerr + 1
    print *, 'f90_emul: smpi_execute took', t, 'expected 0.125'
  end if

  ! a block sampled 3 times out of 6: its CPU time is measured (even with cpu-threshold -1)
  ! 3 times, then the last 3 executions are skipped and inject the mean of the first 3
  runs = 0
  do k = 1, 6
    t0 = MPI_Wtime()
    call smpi_sample_local(st, 'f90_emul block', 3, 0d0)
    do while (smpi_sample_next(st))
      runs = runs + 1
      sink = busy(300000 * k)
    end do
    d(k) = MPI_Wtime() - t0
  end do
  if (runs /= 3) then
    nerr = nerr + 1
    print *, 'f90_emul: sampled block ran', runs, 'times, expected 3'
  end if
  do k = 4, 6
    if (abs(d(k) - sum(d(1:3)) / 3) > 1d-9 * d(k) .or. d(k) <= 0) then
      nerr = nerr + 1
      print *, 'f90_emul: skipped execution', k, 'took', d(k), 'expected the mean', &
               sum(d(1:3)) / 3
    end if
  end do

  ! one shared block for every rank: what rank 0 writes, rank 1 reads
  cp = smpi_shared_malloc(int(8 * 1000000, c_size_t))
  call c_f_pointer(cp, big, [1000000])
  if (rank == 0) big(123456) = 42d0
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (big(123456) /= 42d0) then
    nerr = nerr + 1
    print *, 'f90_emul: shared block not shared, rank', rank, 'reads', big(123456)
  end if
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call smpi_shared_free(cp)

  call MPI_Allreduce(nerr, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total == 0) print '(a)', 'f90_emul: OK'
  call MPI_Finalize(ierr)
  if (nerr /= 0) stop 1

contains

  double precision function busy(n)
    integer, intent(in) :: n
    integer :: i
    busy = 0
    do i = 1, n
      busy = busy + sqrt(dble(i))
    end do
  end function busy
end program f90_emul
