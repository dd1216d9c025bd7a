/* A shared library of the program's own with global state (tests/porting/privlib.c): a
 * counter, a pointer to it, and a string, as a library's globals typically are. */
int privlib_counter;
int *privlib_counter_ptr = &privlib_counter; /* relocated at load: must point at each copy */
char privlib_owner[16] = "none";

int privlib_bump(void) { return ++*privlib_counter_ptr; }
