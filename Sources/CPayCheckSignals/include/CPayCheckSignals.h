#ifndef CPAYCHECK_SIGNALS_H
#define CPAYCHECK_SIGNALS_H

/// SIGINT and SIGTERM are held (blocked, so they stay pending) from before `main` runs: `paycheck run` then sees a
/// signal that came while the process was still starting, once its watcher is installed, instead of dying with the
/// previous run's reports in place. A command that does not watch signals releases them, and a held one then acts
/// as it always would.
void paycheck_release_held_signals(void);

#endif
