# L off while the first messages cross it, back at 0.2 s
0.105 0
0.2 1
