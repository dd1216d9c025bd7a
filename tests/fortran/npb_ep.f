C     An NPB-EP-like kernel, written for smpi's tests in the style of the
C     NAS Parallel Benchmarks (Fortran 77, mpif.h, COMMON blocks, a
C     STOP at the end), implementing the EP specification: 2**M pairs of
C     uniform deviates from the NPB generator x(k+1) = 5**13 x(k) mod
C     2**46 (seed 271828183), Gaussian pairs by the polar method, counts
C     per square annulus, sums of both coordinates; batches of 2**16
C     pairs dealt to the ranks, each starting from its own jump of the
C     generator. Verification against the published sums of class S
C     (M = 24); for other sizes the program checks nothing.
C         smpirun -np P npb_ep [M]          (default M = 24, class S)
      PROGRAM NPBEP
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER MK, NK, NQ
      PARAMETER (MK = 16, NK = 2**MK, NQ = 10)
      DOUBLE PRECISION X(2*NK), Q(0:NQ-1)
      COMMON /STORAGE/ X, Q
      INTEGER*8 A, S, AN, T1, T2
      INTEGER M, NN, K, KK, I, L, IERR, RANK, NP, NARG
      DOUBLE PRECISION SX, SY, GC, TT, T, X1, X2, TM, TSTART, TEND
      DOUBLE PRECISION SXV, SYV, ERRX, ERRY, QQ(0:NQ-1)
      CHARACTER*16 ARG
      LOGICAL OK
      INTEGER*8 MULT46
      EXTERNAL MULT46
      PARAMETER (A = 1220703125_8, S = 271828183_8)

      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      M = 24
      NARG = COMMAND_ARGUMENT_COUNT()
      IF (NARG .GE. 1) THEN
        CALL GET_COMMAND_ARGUMENT(1, ARG)
        READ (ARG, *) M
      END IF
      NN = 2**(M - MK)
      IF (RANK .EQ. 0) THEN
        WRITE (*, 1000) M, NP
 1000   FORMAT (' NAS-like EP kernel: 2**', I2, ' pairs, ', I4,
     &          ' processes')
      END IF
C     AN = A**(2*NK) mod 2**46: the jump of one batch
      AN = A
      DO I = 1, MK + 1
        AN = MULT46(AN, AN)
      END DO
      DO I = 0, NQ - 1
        Q(I) = 0
      END DO
      SX = 0
      SY = 0
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      TSTART = MPI_WTIME()
      DO K = RANK + 1, NN, NP
C       seed of batch K: S * AN**(K-1) mod 2**46, by binary powering
        T1 = S
        T2 = AN
        KK = K - 1
        DO WHILE (KK .GT. 0)
          IF (MOD(KK, 2) .EQ. 1) T1 = MULT46(T1, T2)
          T2 = MULT46(T2, T2)
          KK = KK / 2
        END DO
        DO I = 1, 2 * NK
          T1 = MULT46(T1, A)
          X(I) = DBLE(T1) * 0.5D0**46
        END DO
        DO I = 1, NK
          X1 = 2 * X(2*I-1) - 1
          X2 = 2 * X(2*I) - 1
          T = X1 * X1 + X2 * X2
          IF (T .LE. 1) THEN
            TT = SQRT(-2 * LOG(T) / T)
            X1 = X1 * TT
            X2 = X2 * TT
            L = INT(MAX(ABS(X1), ABS(X2)))
            Q(L) = Q(L) + 1
            SX = SX + X1
            SY = SY + X2
          END IF
        END DO
      END DO
      CALL MPI_ALLREDUCE(MPI_IN_PLACE, SX, 1, MPI_DOUBLE_PRECISION,
     &                   MPI_SUM, MPI_COMM_WORLD, IERR)
      CALL MPI_ALLREDUCE(MPI_IN_PLACE, SY, 1, MPI_DOUBLE_PRECISION,
     &                   MPI_SUM, MPI_COMM_WORLD, IERR)
      CALL MPI_ALLREDUCE(Q, QQ, NQ, MPI_DOUBLE_PRECISION, MPI_SUM,
     &                   MPI_COMM_WORLD, IERR)
      TEND = MPI_WTIME()
      TM = TEND - TSTART
      CALL MPI_ALLREDUCE(MPI_IN_PLACE, TM, 1, MPI_DOUBLE_PRECISION,
     &                   MPI_MAX, MPI_COMM_WORLD, IERR)
      IF (RANK .EQ. 0) THEN
        GC = 0
        DO I = 0, NQ - 1
          GC = GC + QQ(I)
        END DO
        WRITE (*, 1001) SX, SY, GC
 1001   FORMAT (' sums', 2(1X, ES24.16), '  Gaussian pairs ', F12.0)
        OK = .FALSE.
        IF (M .EQ. 24) THEN
          SXV = -3.247834652034740D3
          SYV = -6.958407078382297D3
          ERRX = ABS((SX - SXV) / SXV)
          ERRY = ABS((SY - SYV) / SYV)
          OK = ERRX .LE. 1D-8 .AND. ERRY .LE. 1D-8
        END IF
        WRITE (*, 1002) TM
 1002   FORMAT (' Time in seconds = ', F12.6)
        IF (OK) THEN
          WRITE (*, '(A)') ' Verification = SUCCESSFUL'
        ELSE IF (M .EQ. 24) THEN
          WRITE (*, '(A)') ' Verification = UNSUCCESSFUL'
        ELSE
          WRITE (*, '(A)') ' Verification = NOT PERFORMED'
        END IF
      END IF
      CALL MPI_FINALIZE(IERR)
      STOP
      END

C     A * B mod 2**46 for 0 <= A, B < 2**46, exactly in 64-bit integers:
C     split each factor into 23-bit halves
      INTEGER*8 FUNCTION MULT46(A, B)
      INTEGER*8 A, B, A1, A2, B1, B2, T, R23, R46
      PARAMETER (R23 = 2_8**23, R46 = 2_8**46)
      A1 = A / R23
      A2 = A - A1 * R23
      B1 = B / R23
      B2 = B - B1 * R23
      T = MOD(A1 * B2 + A2 * B1, R23)
      MULT46 = MOD(T * R23 + A2 * B2, R46)
      END
