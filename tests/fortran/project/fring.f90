! A token around the ring: each rank adds its rank; rank 0 checks the sum.
program fring
  use mpi
  use fring_mod
  implicit none
  integer :: ierr, rank, np
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  if (rank == 0) then
    token = 0
    call MPI_Send(token, 1, MPI_INTEGER, mod(1, np), 0, MPI_COMM_WORLD, ierr)
    call MPI_Recv(token, 1, MPI_INTEGER, np - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    if (token == np * (np - 1) / 2) then
      print '(a,i0,a)', 'fring: OK (', np, ' ranks)'
    else
      print '(a,i0)', 'fring: FAILED, token ', token
    end if
  else
    call MPI_Recv(token, 1, MPI_INTEGER, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    token = token + rank
    call MPI_Send(token, 1, MPI_INTEGER, mod(rank + 1, np), 0, MPI_COMM_WORLD, ierr)
  end if
  call MPI_Finalize(ierr)
end program fring
