# B turned off while the first 100 kB messages are under way
0.105 0
