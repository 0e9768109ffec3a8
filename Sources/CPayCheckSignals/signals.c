#include "CPayCheckSignals.h"

#include <pthread.h>
#include <signal.h>

static void paycheck_stop_signals(sigset_t *set) {
    sigemptyset(set);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
}

/// Runs before `main` and before any thread exists, so every thread the process starts inherits the mask.
static void paycheck_hold_signals(void) {
    sigset_t set;
    paycheck_stop_signals(&set);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
}

#if defined(__ELF__)
/// The executable's pre-initialisers run before any shared library's initialisers (the Swift runtime's, Foundation's),
/// as soon as the dynamic linker has loaded them: the earliest instruction a program can run.
__attribute__((section(".preinit_array"), used)) static void (*const paycheck_hold_signals_first)(void) = paycheck_hold_signals;
#else
__attribute__((constructor)) static void paycheck_hold_signals_first(void) { paycheck_hold_signals(); }
#endif

void paycheck_release_held_signals(void) {
    sigset_t set;
    paycheck_stop_signals(&set);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}
