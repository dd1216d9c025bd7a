# bandwidth of link L in B/s: 10 MB/s, then 2.5 MB/s from 105 ms to 110 ms every 25 ms
0 10000000
0.105 2500000
0.11 10000000
LOOPAFTER 0.015
