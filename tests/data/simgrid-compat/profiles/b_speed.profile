% speed scale of host B, once (no loop; the first event is not at 0)
0.12 0.25
0.3 0.8
