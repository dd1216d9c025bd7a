# B turned off during its first computation (sgc.c: 1e8 flops = 0.1 s)
0.05 0
0.5 1
