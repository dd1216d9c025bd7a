# C (no rank) off and on again, forever
0.01 0
0.02 1
LOOPAFTER 0.03
