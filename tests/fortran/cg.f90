! A conjugate-gradient solver kernel: 5-point operator (8 on the diagonal, -1 for the four
! neighbours: well conditioned, CG converges in a few dozen iterations) on an NX x NY grid
! split into blocks of rows, one block per rank; halo rows exchanged with MPI_SENDRECV, two
! MPI_ALLREDUCE dot products per iteration. The right-hand side is made from a known
! solution, so the program checks its own answer. The CPU cost is injected as flops
! (smpi_execute_flops: 9 flops per point for the operator, 2 per point for each dot product
! and update), so that with smpi/simulate-computation:no the simulated time depends on the
! models only and compares with SimGrid's smpif90 (tools/simgrid-ref/fortran_cg.py).
!
!   smpirun -np P ... cg NX NY ITERS   prints   cg: NXxNY P ranks ITERS iterations
!                                               error E time T s OK
program cg
  use mpi
  implicit none
  integer :: ierr, rank, np, nx, ny, nyl, y0, iters, it, i, j, up, down
  double precision, allocatable :: x(:,:), r(:,:), p(:,:), q(:,:), xt(:,:), b(:,:)
  double precision :: rr, rr_new, pq, alpha, beta, err, t0, t1, flops
  character(len=32) :: arg

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  nx = 256
  ny = 256
  iters = 30
  if (command_argument_count() >= 3) then
    call get_command_argument(1, arg)
    read (arg, *) nx
    call get_command_argument(2, arg)
    read (arg, *) ny
    call get_command_argument(3, arg)
    read (arg, *) iters
  end if
  nyl = ny / np
  y0 = rank * nyl
  if (rank == np - 1) nyl = ny - y0
  up = rank + 1
  down = rank - 1
  if (up == np) up = MPI_PROC_NULL
  if (down < 0) down = MPI_PROC_NULL
  ! columns 0 and nx+1, rows 0 and nyl+1: the boundary (zero) and the neighbours' halo rows
  allocate (x(0:nx+1, 0:nyl+1), r(0:nx+1, 0:nyl+1), p(0:nx+1, 0:nyl+1), q(0:nx+1, 0:nyl+1), &
            xt(0:nx+1, 0:nyl+1), b(0:nx+1, 0:nyl+1))
  xt = 0
  do j = 1, nyl
    do i = 1, nx
      xt(i, j) = sin(0.01d0 * i) + cos(0.02d0 * (j + y0))
    end do
  end do
  call apply(xt, b)

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  t0 = MPI_Wtime()
  x = 0
  r = b
  p = r
  rr = dot(r, r)
  do it = 1, iters
    call apply(p, q)
    pq = dot(p, q)
    alpha = rr / pq
    x(1:nx, 1:nyl) = x(1:nx, 1:nyl) + alpha * p(1:nx, 1:nyl)
    r(1:nx, 1:nyl) = r(1:nx, 1:nyl) - alpha * q(1:nx, 1:nyl)
    flops = 4d0 * nx * nyl
    call smpi_execute_flops(flops)
    rr_new = dot(r, r)
    beta = rr_new / rr
    rr = rr_new
    p(1:nx, 1:nyl) = r(1:nx, 1:nyl) + beta * p(1:nx, 1:nyl)
    flops = 2d0 * nx * nyl
    call smpi_execute_flops(flops)
  end do
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  t1 = MPI_Wtime()

  err = maxval(abs(x(1:nx, 1:nyl) - xt(1:nx, 1:nyl)))
  call MPI_Allreduce(MPI_IN_PLACE, err, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (err < 1d-9) then
      print '(a,i0,a,i0,1x,i0,a,i0,a,es9.2,a,es22.15,a)', 'cg: ', nx, 'x', ny, np, ' ranks ', &
        iters, ' iterations error ', err, ' time ', t1 - t0, ' s OK'
    else
      print '(a,es9.2)', 'cg: FAILED, error ', err
    end if
  end if
  call MPI_Finalize(ierr)
  if (err >= 1d-9) stop 1

contains

  ! w = A v on this block, after exchanging v's halo rows with the neighbours
  subroutine apply(v, w)
    double precision, intent(inout) :: v(0:, 0:)
    double precision, intent(out) :: w(0:, 0:)
    integer :: st(MPI_STATUS_SIZE)
    double precision :: f
    call MPI_Sendrecv(v(0, nyl), nx + 2, MPI_DOUBLE_PRECISION, up, 1, &
                      v(0, 0), nx + 2, MPI_DOUBLE_PRECISION, down, 1, MPI_COMM_WORLD, st, ierr)
    call MPI_Sendrecv(v(0, 1), nx + 2, MPI_DOUBLE_PRECISION, down, 2, &
                      v(0, nyl + 1), nx + 2, MPI_DOUBLE_PRECISION, up, 2, MPI_COMM_WORLD, &
                      MPI_STATUS_IGNORE, ierr)
    w = 0
    w(1:nx, 1:nyl) = 8 * v(1:nx, 1:nyl) - v(0:nx-1, 1:nyl) - v(2:nx+1, 1:nyl) &
                     - v(1:nx, 0:nyl-1) - v(1:nx, 2:nyl+1)
    f = 9d0 * nx * nyl
    call smpi_execute_flops(f)
  end subroutine apply

  double precision function dot(u, v)
    double precision, intent(in) :: u(0:, 0:), v(0:, 0:)
    double precision :: f
    dot = sum(u(1:nx, 1:nyl) * v(1:nx, 1:nyl))
    f = 2d0 * nx * nyl
    call smpi_execute_flops(f)
    call MPI_Allreduce(MPI_IN_PLACE, dot, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  end function dot
end program cg
