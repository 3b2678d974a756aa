// WhereAmI is licensed under the Apache License, Version 2.0: see LICENSE.
#include <signal.h>
#include <string.h>

#include "CEarlySignals.h"

static int blocked_early = 0;

// The interrupt signals are blocked before anything else of the program runs, so that one
// sent while the program starts waits, pending, for the thread that takes them
// (Interrupts.install in the whereami target), rather than meeting the Swift runtime's
// crash reporter, which answered SIGQUIT with a crash report in 8 of 100 runs of a debug
// build that got it in their first 10 ms. A function in the executable's .preinit_array
// runs before the initialisers of every shared library (the Swift runtime, which installs
// that reporter, and Dispatch among them), and, linked statically, before the runtime's
// own; a constructor would run after the libraries'. Threads inherit the mask, and none
// is started before, so every thread has them blocked.
static void whereami_block_signals_early(int argc, char **argv, char **environment) {
  (void)environment;
  // The package's test bundle links whereami's objects too, and its runner has no thread
  // that would take the signals: there they keep their usual effect.
  const char *suffix = ".xctest";
  if (argc > 0 && argv != 0 && argv[0] != 0) {
    size_t length = strlen(argv[0]);
    if (length >= strlen(suffix) && strcmp(argv[0] + length - strlen(suffix), suffix) == 0) return;
  }
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGQUIT);
  sigaddset(&set, SIGHUP);
  blocked_early = sigprocmask(SIG_BLOCK, &set, 0) == 0;
}

__attribute__((section(".preinit_array"), used)) static void (*const whereami_preinit)(int, char **, char **) =
    whereami_block_signals_early;

int whereami_signals_blocked_early(void) { return blocked_early; }
