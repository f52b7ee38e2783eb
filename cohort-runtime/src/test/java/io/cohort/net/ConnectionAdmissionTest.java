package io.cohort.net;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The bookkeeping of who holds a connection, on real accepted sockets from several loopback addresses. */
@Timeout(10)
class ConnectionAdmissionTest {
    private final ServerSocket server = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
    private final List<Socket> sockets = new ArrayList<>();

    ConnectionAdmissionTest() throws IOException {
    }

    @AfterEach
    void close() throws IOException {
        for (Socket s : sockets) {
            s.close();
        }
        server.close();
    }

    /** The daemon's side of a new connection from {@code source}. */
    private Socket accepted(String source) throws IOException {
        Socket c = new Socket();
        sockets.add(c);
        c.bind(new InetSocketAddress(source, 0));
        c.connect(server.getLocalSocketAddress());
        Socket s = server.accept();
        sockets.add(s);
        return s;
    }

    @Test
    void aSourceBeyondItsCapShedsItsOwnOldestNotAnotherSourceNorTheNewest() throws IOException {
        ConnectionAdmission a = new ConnectionAdmission(2, 10, 10);
        Socket other = accepted("127.0.0.5");
        Socket first = accepted("127.0.0.6");
        Socket second = accepted("127.0.0.6");
        assertEquals(List.of(), a.admit(other));
        assertEquals(List.of(), a.admit(first));
        assertEquals(List.of(), a.admit(second));
        Socket third = accepted("127.0.0.6");
        assertEquals(List.of(first), a.admit(third));
        assertEquals(3, a.pendingCount());
        assertEquals(ConnectionAdmission.Promotion.GONE, a.authenticated(first));
        assertEquals(ConnectionAdmission.Promotion.ADMITTED, a.authenticated(third));
    }

    @Test
    void aFullPoolShedsTheOldestOfAllAndTheAuthenticatedPlacesAreApart() throws IOException {
        ConnectionAdmission a = new ConnectionAdmission(5, 2, 1);
        Socket s1 = accepted("127.0.0.5");
        Socket s2 = accepted("127.0.0.6");
        Socket s3 = accepted("127.0.0.7");
        a.admit(s1);
        a.admit(s2);
        assertEquals(List.of(s1), a.admit(s3));
        assertEquals(ConnectionAdmission.Promotion.ADMITTED, a.authenticated(s2));
        assertEquals(1, a.authenticatedCount());
        assertEquals(1, a.pendingCount());
        assertEquals(ConnectionAdmission.Promotion.FULL, a.authenticated(s3), "the one authenticated place is s2's");
        a.closed(s2);
        assertEquals(0, a.authenticatedCount());
    }

    @Test
    void anExpiredConnectionIsForgottenOnceAndCannotAuthenticateAfter() throws IOException {
        ConnectionAdmission a = new ConnectionAdmission(5, 5, 5);
        Socket s = accepted("127.0.0.5");
        a.admit(s);
        assertTrue(a.expire(s));
        assertFalse(a.expire(s));
        assertEquals(ConnectionAdmission.Promotion.GONE, a.authenticated(s));
        assertEquals(0, a.pendingCount());
        a.closed(s);
        assertEquals(0, a.authenticatedCount());
    }
}
