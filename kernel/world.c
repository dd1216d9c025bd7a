/* The kernel's world (world.h): one per process, zero until each module's init. */
#include "kernel/world.h"

kernel_world kworld;
