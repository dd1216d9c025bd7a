/* The discrete-event engine: simulated clock, actors, timers, and the main loop.
 *
 *   eng_init()  ->  eng_actor_create() ...  ->  eng_run()  ->  eng_shutdown()
 *
 * Main loop (eng_run), one iteration per simulated date:
 *
 *   1. run every runnable actor, one at a time, in the order they became runnable (FIFO);
 *      an actor runs until it blocks, sleeps, yields or ends, then hands control straight
 *      to the next runnable actor (no detour through the maestro); actors woken during
 *      this phase run in the same phase, at the same date;
 *   2. ask each resource model for the date of its next event (the models re-solve their
 *      max-min systems here, lazily) and take the minimum with the timers;
 *   3. none: if actors are still alive, they are all blocked: report a deadlock (every
 *      blocked actor and what it waits for) and return ENG_DEADLOCK; else the simulation is
 *      over;
 *   4. advance the clock to that date, let each model process its events (finished
 *      activities wake their actors), fire due timers, and go to 1.
 *
 * Everything here is deterministic: no wall clock, no pointer comparisons, FIFO run queue,
 * heaps with insertion-order tie breaking. The same inputs give bit-identical dates.
 *
 * One engine per process (the simulated world is a singleton, like the simulation). */
#ifndef SMPI_KERNEL_ENGINE_H
#define SMPI_KERNEL_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include "src/list.h"

typedef struct eng_actor eng_actor;
typedef struct eng_timer eng_timer;
typedef void (*eng_actor_fn)(void *arg);
typedef void (*eng_timer_fn)(void *arg);
/* Writes one line describing what a blocked actor waits for (deadlock reports). */
typedef void (*eng_describe_fn)(eng_actor *a, void *data, char *buf, size_t len);

enum { ENG_OK = 0, ENG_DEADLOCK = 2 };

/* Resource models (CPU, network, ...) plug into the main loop through this interface. */
typedef struct eng_model eng_model;
typedef struct eng_model_ops {
  const char *name;
  /* Date of the next event of the model (>= now), or a negative value if none. The model
   * may re-solve its sharing system here. */
  double (*next_event)(eng_model *m, double now);
  /* The clock has moved to now: process every event dated <= now. */
  void (*advance)(eng_model *m, double now);
} eng_model_ops;

struct eng_model {
  const eng_model_ops *ops;
  list_node link; /* engine's model list */
};

/* Declares the engine's config keys (precision/timing, precision/work-amount, contexts/...).
 * Idempotent; eng_init calls it. */
void eng_declare_config(void);
/* Starts a simulated world at date 0 (contexts factory from the config). Returns 0, or -1
 * with a message in err. */
int eng_init(char *err, size_t errlen);
/* Destroys every actor, timer and registered model reference (models free themselves). */
void eng_shutdown(void);
bool eng_initialized(void);

/* Runs the simulation until no actor is left (ENG_OK) or they are all blocked with nothing
 * pending (ENG_DEADLOCK, after printing the report on stderr). */
int eng_run(void);
double eng_now(void);
double eng_timing_precision(void); /* precision/timing, seconds */
double eng_work_precision(void);   /* precision/work-amount */

/* Registers m before the other models: its advance runs before theirs at each date (an
 * observer writing what happened up to now before their completions report it). */
void eng_model_register_first(eng_model *m);
void eng_model_register(eng_model *m);
void eng_model_unregister(eng_model *m);

/* Actors. A new actor is runnable at the current date. name is copied. */
eng_actor *eng_actor_create(const char *name, eng_actor_fn fn, void *arg);
eng_actor *eng_self(void); /* NULL in the maestro */
const char *eng_actor_name(const eng_actor *a);
unsigned long eng_actor_pid(const eng_actor *a); /* 1, 2, ... in creation order */
void *eng_actor_data(const eng_actor *a);
void eng_actor_set_data(eng_actor *a, void *data);
bool eng_actor_is_blocked(const eng_actor *a);
size_t eng_actor_count(void); /* alive actors */

/* From inside an actor. */
void eng_yield(void);            /* run again later at the same date, after the others */
void eng_sleep(double duration); /* duration >= 0 */
/* eng_sleep(duration) n times in a row, with nothing in between that the simulation sees (the
 * actor's polling of its own clock, run ahead: docs/polling.md). Same dates, same order of
 * events and wake-ups as the n calls, to the last bit; but the actor is not run between two
 * of them: at each of its turns the engine starts its next sleep itself, and while no other
 * event is near it moves the clock through them in a loop. */
void eng_sleep_repeat(double duration, unsigned long n);
/* Block until eng_unblock(self). describe (may be NULL) explains the wait in deadlock
 * reports. */
void eng_block(eng_describe_fn describe, void *data);
/* Make a blocked actor runnable (from an actor or from a model/timer callback). */
void eng_unblock(eng_actor *a);
/* Ends an actor. Killing oneself does not return. A blocked actor's on_kill hook runs
 * first so that whatever it waits on can forget it. */
void eng_actor_kill(eng_actor *a);
void eng_actor_on_kill(eng_actor *a, void (*hook)(eng_actor *a, void *data), void *data);
/* Called in the maestro after an actor's function returned or it was killed. */
void eng_on_actor_end(void (*hook)(eng_actor *a));
/* (Hooks are reset by eng_init: set them after it.)
 * Called just before control moves to actor `to` (from another actor or from the maestro);
 * `to` is NULL when control goes back to the maestro. Used to swap per-actor state such as
 * privatized global variables; must be cheap and must not switch contexts itself. */
void eng_on_switch(void (*hook)(eng_actor *to));

/* Timers: cb(arg) runs in the maestro at date (>= now), in date order, ties in creation
 * order. */
eng_timer *eng_timer_set(double date, eng_timer_fn cb, void *arg);
void eng_timer_cancel(eng_timer *t); /* t must not have fired */
/* A daemon timer (availability profiles) does not keep a stuck simulation going: when every
 * actor is blocked, no model has an event and only daemon timers are pending, that is a
 * deadlock now, unless matters() says an activity under way could still be changed by them
 * (a CPU at speed 0 waiting for its profile). As SimGrid, whose profiles do not delay a
 * deadlock report. */
void eng_timer_set_daemon(eng_timer *t, bool (*matters)(void));
/* No actor runnable and no timer pending: what a timer that fires forever (a looping
 * availability profile, kernel/profiles.c) checks so as not to hide a deadlock. */
bool eng_idle(void);

/* Statistics for benchmarks and the end-of-run summary. */
typedef struct eng_stats {
  unsigned long actor_switches; /* context switches into actors */
  unsigned long scheduling_rounds;
  unsigned long events;       /* dates the clock moved to */
  unsigned long inline_steps; /* of those, moves made by a blocking actor itself */
} eng_stats;
void eng_get_stats(eng_stats *out);

#endif
