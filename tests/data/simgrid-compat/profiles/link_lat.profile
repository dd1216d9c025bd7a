# latency of link L in s: 20 ms from 0.05 s to 0.38 s, else 50 us (once). Both changes fall
# while no message is under way on L: SimGrid 3.32 reports a deadlock when a change falls
# in a message's latency phase (here at 0.16 s: "Deadlock detected" at 0.332872 s); smpi
# applies a change to the messages that start after it.
0 0.00005
0.05 0.02
0.38 0.00005
