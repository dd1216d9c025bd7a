# speed scale of host A: half speed from 50 ms to 150 ms, then again every 200 ms
0 1.0
0.05 0.5
0.15 1.0
LOOPAFTER 0.05
