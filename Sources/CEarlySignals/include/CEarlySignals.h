// WhereAmI is licensed under the Apache License, Version 2.0: see LICENSE.
#ifndef WHEREAMI_EARLY_SIGNALS_H
#define WHEREAMI_EARLY_SIGNALS_H

/// Whether SIGINT, SIGTERM, SIGQUIT and SIGHUP were blocked before the program's own code
/// and its libraries' initialisers ran (see early_signals.c).
int whereami_signals_blocked_early(void);

#endif
