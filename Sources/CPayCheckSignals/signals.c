#include "CPayCheckSignals.h"

#include <pthread.h>
#include <signal.h>

static void paycheck_stop_signals(sigset_t *set) {
    sigemptyset(set);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
}

/// Runs before `main` and before any thread exists, so every thread the process starts inherits the mask.
__attribute__((constructor)) static void paycheck_hold_signals(void) {
    sigset_t set;
    paycheck_stop_signals(&set);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
}

void paycheck_release_held_signals(void) {
    sigset_t set;
    paycheck_stop_signals(&set);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}
