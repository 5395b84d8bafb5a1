#ifndef UMILOG_CTESTSUPPORT_H
#define UMILOG_CTESTSUPPORT_H

/// Makes the calling process a child subreaper (Linux `prctl(PR_SET_CHILD_SUBREAPER)`): a
/// descendant orphaned by its parent becomes this process's child, which it can `wait4` for.
/// Returns 0 on success, -1 elsewhere. (`prctl` is variadic, which Swift cannot call.)
int umilog_become_subreaper(void);

#endif
