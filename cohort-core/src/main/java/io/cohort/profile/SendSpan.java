package io.cohort.profile;

/**
 * A point-to-point send the program is making, measured for the profile: into this peer's
 * {@link Summary} with {@code --profile} (the default mode), or as a {@link SendEvent} while a
 * Flight Recorder records events. Made by {@link Profiling#startSend()}, which returns null when
 * nothing measures; finished once, by the thread that started it.
 */
public final class SendSpan {
    private final long start;
    private final SendEvent event;

    private SendSpan(long start, SendEvent event) {
        this.start = start;
        this.event = event;
    }

    static SendSpan start(boolean summary) {
        if (summary) {
            return new SendSpan(Summary.start(Summary.Kind.SEND), null);
        }
        SendEvent e = SendEvent.startIfEnabled();
        return e == null ? null : new SendSpan(0, e);
    }

    public void finish(int communicator, int peer, int tag, long bytes, long sequence, String operation) {
        if (event != null) {
            event.finish(communicator, peer, tag, bytes, sequence, operation);
        } else {
            Summary.finish(Summary.Kind.SEND, operation, "", communicator, peer, bytes, start);
        }
    }
}
