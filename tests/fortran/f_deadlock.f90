! Both ranks receive first: a deadlock. The report must name each rank's MPI_RECV with the
! Fortran file and line of the call (built with -g), as it does for C (f_deadlock.py).
program f_deadlock
  use mpi
  implicit none
  integer :: ierr, rank, peer, x
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  peer = 1 - rank
  call MPI_Recv(x, 1, MPI_INTEGER, peer, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Send(x, 1, MPI_INTEGER, peer, 5, MPI_COMM_WORLD, ierr)
  call MPI_Finalize(ierr)
end program f_deadlock
