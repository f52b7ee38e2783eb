package io.cohort.transport.tcp;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.nio.channels.NetworkChannel;

/**
 * TCP keepalive for Cohort's long-lived connections (peer to peer, peer and io-manager to the
 * launcher, a launcher's registration with a daemon): a host that dies or is cut off without closing
 * anything is noticed after about {@value #IDLE_SECONDS} + {@value #COUNT} x {@value #INTERVAL_SECONDS}
 * seconds of silence, as a failed connection, instead of never. The probes cost one small segment per
 * idle connection every few seconds.
 *
 * <p>Keepalive only runs while nothing sent is unacknowledged; a connection with data in flight to a
 * dead host is ended by TCP's own retransmission limit (minutes), which the JDK gives no option to
 * shorten. Where the platform lacks the per-socket times, its system-wide ones apply.
 */
public final class KeepAlive {
    /** Seconds of silence before the first probe. */
    public static final int IDLE_SECONDS = 5;
    /** Seconds between probes. */
    public static final int INTERVAL_SECONDS = 1;
    /**
     * Unanswered probes that end the connection. Many short ones rather than a few long ones: on a
     * lossy link a probe or its answer is lost often (each of the two at 20% loss: 36% of probes),
     * and 3 in a row ended healthy jobs; 8 in a row happens about once in 3500 silences there.
     */
    public static final int COUNT = 8;

    private KeepAlive() {
    }

    /** Turns keepalive on for a channel (a mesh or wire-up connection). */
    public static void on(NetworkChannel channel) throws IOException {
        channel.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
        times(channel::setOption);
    }

    /** Turns keepalive on for a blocking socket (a control connection). */
    public static void on(Socket socket) throws IOException {
        socket.setKeepAlive(true);
        times(socket::setOption);
    }

    @FunctionalInterface
    private interface Setter {
        Object set(SocketOption<Integer> option, Integer value) throws IOException;
    }

    private static void times(Setter s) throws IOException {
        try {
            s.set(jdk.net.ExtendedSocketOptions.TCP_KEEPIDLE, IDLE_SECONDS);
            s.set(jdk.net.ExtendedSocketOptions.TCP_KEEPINTERVAL, INTERVAL_SECONDS);
            s.set(jdk.net.ExtendedSocketOptions.TCP_KEEPCOUNT, COUNT);
        } catch (UnsupportedOperationException e) {
            // Not on this platform: the system's keepalive times apply.
        }
    }
}
