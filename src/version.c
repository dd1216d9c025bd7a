#include "smpi/smpi.h"

SMPI_PUBLIC const char *smpi_version_string(void) { return "0.1.0"; }
