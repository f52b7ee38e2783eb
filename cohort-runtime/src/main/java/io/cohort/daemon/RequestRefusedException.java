package io.cohort.daemon;

/**
 * A daemon answered a request with {@link MessageType#ERROR}: it understood and refused it (unknown
 * member, bad value). The message is the daemon's one sentence. The CLI exits with {@code 76}
 * (EX_PROTOCOL).
 */
public final class RequestRefusedException extends Exception {
    public RequestRefusedException(String message) {
        super(message);
    }
}
