package io.cohort.daemon;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;

/**
 * A load server's UDP side: thread {@code cohortd-udp} receives {@link MessageType#UPDATE}s on the
 * daemon port and enters them in the {@link ClusterTable}. Anything else (malformed, forged, stale,
 * replayed, another type, an unknown sender) is counted and logged by the {@link RefusalLog}, and dropped.
 */
final class UpdateReceiver implements AutoCloseable {
    private final DatagramSocket socket;
    private final MessageAuthenticator auth;
    private final RefusalLog refusals;
    private final ClusterTable table;
    private final DaemonLog log;
    private volatile boolean running = true;
    private Thread thread;

    UpdateReceiver(DatagramSocket socket, MessageAuthenticator auth, RefusalLog refusals, ClusterTable table, DaemonLog log) {
        this.socket = socket;
        this.auth = auth;
        this.refusals = refusals;
        this.table = table;
        this.log = log;
    }

    void start() {
        thread = new Thread(this::run, "cohortd-udp");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        byte[] buf = new byte[DaemonFrame.MAX_LENGTH];
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        while (running) {
            try {
                p.setLength(buf.length);
                socket.receive(p);
            } catch (IOException e) {
                if (running) {
                    log.info("UDP receive failed: " + e.getMessage());
                }
                continue;
            }
            MessageAuthenticator.Opened o = auth.open(buf, p.getOffset(), p.getLength());
            if (!o.ok()) {
                refusals.refuse(o.refusal(), p.getSocketAddress(), o.detail());
                continue;
            }
            DaemonMessage m = o.message();
            if (m.type() != MessageType.UPDATE || !table.knows(m.sender())) {
                refusals.refuse(Refusal.UNEXPECTED, p.getSocketAddress(), m.type() + " from '"
                        + MessageAuthenticator.printable(m.sender()) + "' (only members' UPDATEs come by UDP)");
                continue;
            }
            LoadUpdate u;
            try {
                u = LoadUpdate.fromBody(m.body());
            } catch (MalformedMessageException e) {
                refusals.refuse(Refusal.MALFORMED, p.getSocketAddress(), e.getMessage());
                continue;
            }
            boolean wasUp = table.state(m.sender()) == MemberState.UP;
            table.onUpdate(m.sender(), m.timestamp(), u);
            if (!wasUp && table.state(m.sender()) == MemberState.UP) {
                log.info(m.sender() + " is up");
            }
        }
    }

    @Override
    public void close() {
        running = false;
        socket.close();
    }
}
