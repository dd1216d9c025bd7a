# off from the start
0 0
