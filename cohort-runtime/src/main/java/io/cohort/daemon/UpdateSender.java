package io.cohort.daemon;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * Sends this member's {@link LoadUpdate} to every load server over UDP: every
 * {@code daemon.update_interval}, and at once when {@link #poke} says something changed (slots, drain,
 * jobs). Thread {@code cohortd-update}; {@link #poke} may be called from any thread.
 */
final class UpdateSender implements AutoCloseable {
    private final LocalMember member;
    private final java.util.Map<String, InetSocketAddress> loadServers; // by member name: each update is sealed for its load server
    private final DatagramSocket socket;
    private final MessageAuthenticator auth;
    private final DaemonLog log;
    private final long intervalMillis;
    private final Object lock = new Object();
    private boolean changed;
    private volatile boolean running = true;
    private long sent;
    private Thread thread;

    UpdateSender(LocalMember member, java.util.Map<String, InetSocketAddress> loadServers, DatagramSocket socket, MessageAuthenticator auth,
                 DaemonLog log, long intervalMillis) {
        this.member = member;
        this.loadServers = loadServers;
        this.socket = socket;
        this.auth = auth;
        this.log = log;
        this.intervalMillis = intervalMillis;
    }

    void start() {
        thread = new Thread(this::run, "cohortd-update");
        thread.setDaemon(true);
        thread.start();
    }

    /** Something changed: send an update now. */
    void poke() {
        synchronized (lock) {
            changed = true;
            lock.notifyAll();
        }
    }

    private void run() {
        String lastFailure = null;
        String lastLoadProblem = null;
        while (running) {
            LoadUpdate update = member.update(LoadAverage.read());
            String loadProblem = LoadAverage.problem();
            if (loadProblem != null && !loadProblem.equals(lastLoadProblem)) {
                log.info(loadProblem);
            } else if (loadProblem == null && lastLoadProblem != null) {
                log.info("the load file reads again");
            }
            lastLoadProblem = loadProblem;
            for (java.util.Map.Entry<String, InetSocketAddress> server : loadServers.entrySet()) {
                InetSocketAddress to = server.getValue();
                byte[] frame;
                try {
                    frame = auth.seal(MessageType.UPDATE, update.toBody(), server.getKey());
                } catch (RuntimeException e) { // e.g. an update too large for one datagram: say so, keep the thread
                    String f = "cannot build an update: " + e.getMessage();
                    if (!f.equals(lastFailure)) {
                        log.info(f);
                    }
                    lastFailure = f;
                    break;
                }
                try {
                    socket.send(new DatagramPacket(frame, frame.length, to));
                    sent++;
                    lastFailure = null;
                } catch (IOException | RuntimeException e) { // RuntimeException: an address that did not resolve
                    String f = "cannot send an update to " + to + ": " + e.getMessage();
                    if (running && !f.equals(lastFailure)) {
                        log.info(f); // once per kind of failure, not every interval
                    }
                    lastFailure = f;
                }
            }
            synchronized (lock) {
                if (!changed && running) {
                    try {
                        lock.wait(intervalMillis); // the update interval, or until poke()
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                changed = false;
            }
        }
    }

    @Override
    public void close() {
        running = false;
        poke();
        socket.close();
    }
}
