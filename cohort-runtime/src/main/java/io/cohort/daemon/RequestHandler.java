package io.cohort.daemon;

import java.io.IOException;

/**
 * Answers one kind of request ({@link MessageType}) on a daemon. Runs on the connection's thread
 * ({@code cohortd-conn-N}); may block only as long as the answer needs, except a handler that takes
 * the connection over (the ring, see {@link #TAKEN}).
 */
@FunctionalInterface
interface RequestHandler {
    /** Returned by a handler that kept the connection for itself and has finished with it (closed it). */
    MessageBody TAKEN = MessageBody.empty();

    /**
     * The body of the OK to send back, or {@link #TAKEN}. A {@link RequestRefusedException} is answered
     * with an ERROR carrying its one sentence; a {@link MalformedMessageException} (a missing field) too.
     */
    MessageBody handle(DaemonMessage request, RequestServer.Connection connection) throws RequestRefusedException, IOException;
}
