/* privatize_multi: the interface between privatize_multi_a.c and privatize_multi_b.c. */
#ifndef PRIVATIZE_MULTI_H
#define PRIVATIZE_MULTI_H
extern int multi_counter;
extern double multi_values[256];
extern const char *multi_label;
void multi_record(int rank);
int multi_hidden_calls(void);
#endif
