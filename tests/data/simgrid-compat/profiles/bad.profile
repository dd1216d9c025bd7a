0 1.0
1 fast
