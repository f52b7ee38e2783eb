package io.cohort.systest;

import io.cohort.cluster.ClusterDb;
import io.cohort.daemon.ClusterKey;
import io.cohort.daemon.MessageAuthenticator;
import io.cohort.daemon.MessageBody;
import io.cohort.daemon.MessageType;
import io.cohort.daemon.ReplayGuard;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Clock;

/** An attacker's view of the daemon protocol: a captured authentic frame, sent again as it was. */
final class ReplayProbe {
    private ReplayProbe() {
    }

    /** An authentic STATUS request from "captured", sealed for {@code recipient}'s daemon. */
    static byte[] sealedStatusRequest(ClusterKey key, ClusterDb db, String recipient) {
        MessageAuthenticator a = new MessageAuthenticator(key, "captured", Clock.systemUTC(), db.daemon().maxSkew().toMillis(),
                new ReplayGuard(db.daemon().maxSkew().toMillis(), 10));
        return a.seal(MessageType.STATUS, MessageBody.empty(), recipient);
    }

    /** An authentic DRAIN of {@code member} from "admin", sealed for {@code member}'s own daemon: what an eavesdropper records. */
    static byte[] sealedDrainRequest(ClusterKey key, ClusterDb db, String member, String reason) {
        MessageAuthenticator a = new MessageAuthenticator(key, "admin", Clock.systemUTC(), db.daemon().maxSkew().toMillis(),
                new ReplayGuard(db.daemon().maxSkew().toMillis(), 10));
        return a.seal(MessageType.DRAIN, MessageBody.empty().put("member", member).put("reason", reason), member);
    }

    /** Sends the bytes on a fresh connection and reads until the daemon answers or closes; returns what it sent back. */
    static byte[] send(InetSocketAddress to, byte[] frame) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(to, 2000);
            s.setSoTimeout(5000);
            s.getOutputStream().write(frame);
            s.shutdownOutput();
            InputStream in = s.getInputStream();
            return in.readAllBytes(); // the answer, or the daemon's refusal notice
        }
    }
}
