# L off and back before anything crosses it
0.05 0
0.08 1
