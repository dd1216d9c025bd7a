C     Point to point, derived types over Fortran arrays and character
C     arguments from Fortran 77 (fixed form, mpif.h). Self-checking:
C     prints "f77_p2p: OK" from rank 0 when no rank failed a check,
C     else each failure and STOP 1 on the failing ranks.
C     Run with 4 ranks. Its own MPI_SEND calls PMPI_SEND (profiling).
      PROGRAM F77P2P
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, RANK, NP, NERR, I, J, K, NEXT, PREV, TOTAL
      INTEGER ST(MPI_STATUS_SIZE), STS(MPI_STATUS_SIZE, 4)
      INTEGER REQ(4), IDX, CNT, ITYPE, COLTYPE, ROWTYPE, STYPE
      INTEGER IBUF(10), JBUF(10), BLENS(2), TYPES(2), DISPS(2)
      INTEGER ADDR1, ADDR2, RLEN, NDONE, IDXS(4), BSBUF(1000), BSIZE
      DOUBLE PRECISION A(5,4), B(5,4), X(3), Y(3)
      CHARACTER*(MPI_MAX_PROCESSOR_NAME) PNAME
      CHARACTER*(MPI_MAX_OBJECT_NAME) CNAME
      LOGICAL FLAG
      INTEGER SI
      DOUBLE PRECISION SX
      INTEGER NSENDS
      COMMON /ERRS/ NERR
      COMMON /PROF/ NSENDS
C     the struct's members change behind the compiler's back (through a
C     datatype): in COMMON, every call may change them
      COMMON /SDATA/ SX, SI
      NERR = 0
      NSENDS = 0
      CALL MPI_INIT(IERR)
      CALL CHECK(IERR .EQ. MPI_SUCCESS, 'init')
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      CALL CHECK(NP .EQ. 4, 'size 4')
      NEXT = MOD(RANK + 1, NP)
      PREV = MOD(RANK + NP - 1, NP)
C     blocking ring with a status, MPI_ANY_SOURCE and MPI_GET_COUNT
      DO I = 1, 10
        IBUF(I) = RANK * 100 + I
      END DO
      IF (MOD(RANK, 2) .EQ. 0) THEN
        CALL MPI_SEND(IBUF, 10, MPI_INTEGER, NEXT, 5, MPI_COMM_WORLD,
     &                IERR)
        CALL MPI_RECV(JBUF, 10, MPI_INTEGER, MPI_ANY_SOURCE, 5,
     &                MPI_COMM_WORLD, ST, IERR)
      ELSE
        CALL MPI_RECV(JBUF, 10, MPI_INTEGER, MPI_ANY_SOURCE, 5,
     &                MPI_COMM_WORLD, ST, IERR)
        CALL MPI_SEND(IBUF, 10, MPI_INTEGER, NEXT, 5, MPI_COMM_WORLD,
     &                IERR)
      END IF
      CALL CHECK(ST(MPI_SOURCE) .EQ. PREV, 'status source')
      CALL CHECK(ST(MPI_TAG) .EQ. 5, 'status tag')
      CALL MPI_GET_COUNT(ST, MPI_INTEGER, CNT, IERR)
      CALL CHECK(CNT .EQ. 10, 'get_count')
      CALL CHECK(JBUF(10) .EQ. PREV * 100 + 10, 'ring data')
C     nonblocking: WAITALL with statuses, then WAITANY's 1-based index
      CALL MPI_IRECV(X, 3, MPI_DOUBLE_PRECISION, PREV, 1,
     &               MPI_COMM_WORLD, REQ(1), IERR)
      CALL MPI_IRECV(Y, 3, MPI_DOUBLE_PRECISION, NEXT, 2,
     &               MPI_COMM_WORLD, REQ(2), IERR)
      A(1,1) = RANK
      A(2,1) = RANK + 0.5D0
      A(3,1) = -RANK
      CALL MPI_ISEND(A, 3, MPI_DOUBLE_PRECISION, NEXT, 1,
     &               MPI_COMM_WORLD, REQ(3), IERR)
      CALL MPI_ISEND(A, 3, MPI_DOUBLE_PRECISION, PREV, 2,
     &               MPI_COMM_WORLD, REQ(4), IERR)
      CALL MPI_WAITALL(4, REQ, STS, IERR)
      CALL CHECK(STS(MPI_SOURCE, 1) .EQ. PREV, 'waitall status 1')
      CALL CHECK(STS(MPI_SOURCE, 2) .EQ. NEXT, 'waitall status 2')
      CALL CHECK(STS(MPI_TAG, 2) .EQ. 2, 'waitall tag 2')
      CALL CHECK(X(2) .EQ. PREV + 0.5D0, 'isend data')
      CALL CHECK(Y(3) .EQ. -NEXT, 'isend data 2')
      CALL CHECK(REQ(1) .EQ. MPI_REQUEST_NULL, 'request freed')
      CALL MPI_IRECV(IBUF, 1, MPI_INTEGER, PREV, 3, MPI_COMM_WORLD,
     &               REQ(1), IERR)
      REQ(2) = MPI_REQUEST_NULL
      CALL MPI_SEND(RANK, 1, MPI_INTEGER, NEXT, 3, MPI_COMM_WORLD, IERR)
      CALL MPI_WAITANY(2, REQ, IDX, MPI_STATUS_IGNORE, IERR)
      CALL CHECK(IDX .EQ. 1, 'waitany index is 1-based')
C     (MPICH 4.0.2 gives MPI_UNDEFINED + 1: tests/fortran/meson.build)
      CALL MPI_WAITANY(2, REQ, IDX, ST, IERR)
      CALL CHECK(IDX .EQ. MPI_UNDEFINED, 'waitany undefined')
      CALL CHECK(IBUF(1) .EQ. PREV, 'waitany data')
      CALL MPI_IRECV(IBUF, 1, MPI_INTEGER, NEXT, 4, MPI_COMM_WORLD,
     &               REQ(1), IERR)
      CALL MPI_ISEND(RANK, 1, MPI_INTEGER, PREV, 4, MPI_COMM_WORLD,
     &               REQ(2), IERR)
      NDONE = 0
      DO WHILE (NDONE .LT. 2)
        CALL MPI_TESTSOME(2, REQ, CNT, IDXS, MPI_STATUSES_IGNORE, IERR)
        IF (CNT .NE. MPI_UNDEFINED) THEN
          DO I = 1, CNT
            CALL CHECK(IDXS(I) .GE. 1 .AND. IDXS(I) .LE. 2, 'testsome')
          END DO
          NDONE = NDONE + CNT
        END IF
      END DO
      CALL CHECK(IBUF(1) .EQ. NEXT, 'testsome data')
C     MPI_PROBE and MPI_IPROBE (LOGICAL flag)
      IF (RANK .EQ. 0) THEN
        CALL MPI_SEND(IBUF, 7, MPI_INTEGER, 1, 9, MPI_COMM_WORLD, IERR)
      ELSE IF (RANK .EQ. 1) THEN
        CALL MPI_PROBE(0, 9, MPI_COMM_WORLD, ST, IERR)
        CALL MPI_IPROBE(0, 9, MPI_COMM_WORLD, FLAG, MPI_STATUS_IGNORE,
     &                  IERR)
        CALL CHECK(FLAG .EQV. .TRUE., 'iprobe flag')
        CALL MPI_GET_COUNT(ST, MPI_INTEGER, CNT, IERR)
        CALL CHECK(CNT .EQ. 7, 'probe count')
        CALL MPI_RECV(JBUF, CNT, MPI_INTEGER, 0, 9, MPI_COMM_WORLD,
     &                MPI_STATUS_IGNORE, IERR)
        CALL MPI_IPROBE(0, 9, MPI_COMM_WORLD, FLAG, ST, IERR)
        CALL CHECK(.NOT. FLAG, 'iprobe false')
      END IF
C     a column of A (contiguous) and a row of A (MPI_TYPE_VECTOR, stride 5)
      DO J = 1, 4
        DO I = 1, 5
          A(I, J) = RANK * 1000 + I * 10 + J
          B(I, J) = -1
        END DO
      END DO
      CALL MPI_TYPE_CONTIGUOUS(5, MPI_DOUBLE_PRECISION, COLTYPE, IERR)
      CALL MPI_TYPE_VECTOR(4, 1, 5, MPI_DOUBLE_PRECISION, ROWTYPE, IERR)
      CALL MPI_TYPE_COMMIT(COLTYPE, IERR)
      CALL MPI_TYPE_COMMIT(ROWTYPE, IERR)
      CALL MPI_SENDRECV(A(1, 3), 1, COLTYPE, NEXT, 6, B(1, 2), 1,
     &                  COLTYPE, PREV, 6, MPI_COMM_WORLD, ST, IERR)
      CALL CHECK(B(4, 2) .EQ. PREV * 1000 + 43, 'column')
      CALL CHECK(B(4, 3) .EQ. -1, 'column bounds')
      CALL MPI_SENDRECV(A(2, 1), 1, ROWTYPE, NEXT, 7, B(5, 1), 1,
     &                  ROWTYPE, PREV, 7, MPI_COMM_WORLD, ST, IERR)
      DO J = 1, 4
        CALL CHECK(B(5, J) .EQ. PREV * 1000 + 20 + J, 'row')
      END DO
      CALL CHECK(B(4, 1) .EQ. -1, 'row bounds')
C     MPI-1 struct from MPI_ADDRESS (INTEGER displacements): an INTEGER
C     and a DOUBLE PRECISION before it
      CALL MPI_ADDRESS(SI, ADDR1, IERR)
      CALL MPI_ADDRESS(SX, ADDR2, IERR)
      BLENS(1) = 1
      BLENS(2) = 1
      TYPES(1) = MPI_INTEGER
      TYPES(2) = MPI_DOUBLE_PRECISION
      DISPS(1) = 0
      DISPS(2) = ADDR2 - ADDR1
      CALL MPI_TYPE_STRUCT(2, BLENS, DISPS, TYPES, STYPE, IERR)
      CALL MPI_TYPE_COMMIT(STYPE, IERR)
      CALL MPI_TYPE_SIZE(STYPE, K, IERR)
      CALL CHECK(K .EQ. 12, 'struct size')
      CALL CHECK(DISPS(2) .EQ. -8, 'MPI_ADDRESS difference')
      SI = RANK + 7
      SX = RANK * 2.5D0
      CALL MPI_SENDRECV_REPLACE(SI, 1, STYPE, NEXT, 8, PREV, 8,
     &                          MPI_COMM_WORLD, ST, IERR)
      CALL CHECK(SI .EQ. PREV + 7, 'struct integer')
      CALL CHECK(SX .EQ. PREV * 2.5D0, 'struct double')
      CALL MPI_TYPE_FREE(STYPE, IERR)
      CALL MPI_TYPE_FREE(COLTYPE, IERR)
      CALL MPI_TYPE_FREE(ROWTYPE, IERR)
C     character arguments with hidden lengths
      CALL MPI_GET_PROCESSOR_NAME(PNAME, RLEN, IERR)
      CALL CHECK(RLEN .GT. 0 .AND. RLEN .LE. LEN(PNAME), 'name len')
      CALL CHECK(PNAME(RLEN+1:RLEN+1) .EQ. ' ', 'name blank-padded')
      CALL MPI_COMM_SET_NAME(MPI_COMM_WORLD, 'the world   ', IERR)
      CALL MPI_COMM_GET_NAME(MPI_COMM_WORLD, CNAME, RLEN, IERR)
      CALL CHECK(RLEN .EQ. 9, 'comm name trimmed')
      CALL CHECK(CNAME .EQ. 'the world', 'comm name')
C     buffered send: attach, BSEND, detach gives the size back
      CALL MPI_BUFFER_ATTACH(BSBUF, 4000, IERR)
      CALL MPI_BSEND(RANK, 1, MPI_INTEGER, NEXT, 11, MPI_COMM_WORLD,
     &               IERR)
      CALL MPI_RECV(K, 1, MPI_INTEGER, PREV, 11, MPI_COMM_WORLD, ST,
     &              IERR)
      CALL CHECK(K .EQ. PREV, 'bsend')
      CALL MPI_BUFFER_DETACH(BSBUF, BSIZE, IERR)
      CALL CHECK(BSIZE .EQ. 4000, 'buffer_detach size')
C     a status changed in place keeps its other fields
      CALL MPI_STATUS_SET_ELEMENTS(ST, MPI_INTEGER, 3, IERR)
      CALL MPI_GET_COUNT(ST, MPI_INTEGER, CNT, IERR)
      CALL CHECK(CNT .EQ. 3, 'status_set_elements')
      CALL CHECK(ST(MPI_SOURCE) .EQ. PREV .AND. ST(MPI_TAG) .EQ. 11,
     &           'status_set_elements keeps source and tag')
C     the program's own MPI_SEND (below) went to PMPI_SEND: the ring,
C     the WAITANY message, and rank 0's probe message (not SENDRECV)
      CALL CHECK(NSENDS .EQ. 2 + MERGE(1, 0, RANK .EQ. 0),
     &           'profiling interface: own MPI_SEND called')
C     the verdict: every rank's error count
      CALL MPI_ALLREDUCE(NERR, TOTAL, 1, MPI_INTEGER, MPI_SUM,
     &                   MPI_COMM_WORLD, IERR)
      IF (RANK .EQ. 0 .AND. TOTAL .EQ. 0) PRINT '(A)', 'f77_p2p: OK'
      CALL MPI_FINALIZE(IERR)
      IF (NERR .NE. 0) STOP 1
      END

      SUBROUTINE CHECK(OK, WHAT)
      LOGICAL OK
      CHARACTER*(*) WHAT
      INTEGER NERR
      COMMON /ERRS/ NERR
      IF (.NOT. OK) THEN
        NERR = NERR + 1
        PRINT '(A,A)', 'f77_p2p: check failed: ', WHAT
      END IF
      END

C     A profiling wrapper, as a tool would write it: the program's calls of
C     MPI_SEND come here, and PMPI_SEND does the work.
      SUBROUTINE MPI_SEND(BUF, COUNT, DTYPE, DEST, TAG, COMM, IERR)
      INTEGER BUF(*), COUNT, DTYPE, DEST, TAG, COMM, IERR
      INTEGER NSENDS
      COMMON /PROF/ NSENDS
      NSENDS = NSENDS + 1
      CALL PMPI_SEND(BUF, COUNT, DTYPE, DEST, TAG, COMM, IERR)
      END
