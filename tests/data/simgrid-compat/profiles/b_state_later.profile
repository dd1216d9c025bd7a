# B turned off during its second computation
0.15 0
