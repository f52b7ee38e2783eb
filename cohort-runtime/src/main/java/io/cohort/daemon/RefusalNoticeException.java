package io.cohort.daemon;

import java.io.IOException;

/** The daemon closed the connection with a {@link RefusalNotice} instead of an answer. */
final class RefusalNoticeException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient RefusalNotice notice;

    RefusalNoticeException(RefusalNotice notice) {
        super("the daemon closed the connection: " + notice.reason(), null);
        this.notice = notice;
    }

    RefusalNotice notice() {
        return notice;
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this; // an expected event, worded by DaemonClient.describe, never printed with a trace
    }
}
