package io.cohort.daemon;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Sends the ring's reports to every load server at once: {@link #report} only queues (so the ring's
 * thread never waits on a slow or dead load server), and one thread per load server
 * ({@code cohortd-report-NAME}) delivers them in order as REPORT requests, trying each
 * {@value #ATTEMPTS} times. A load server that stays unreachable misses the report; a member it never
 * hears from again still expires there by TTL.
 */
final class LoadServerProxy implements AutoCloseable {
    static final int ATTEMPTS = 3;
    static final long RETRY_PAUSE_MILLIS = 300;

    private final List<Thread> threads = new ArrayList<>();
    private final List<BlockingQueue<MessageBody>> queues = new ArrayList<>();
    private final DaemonClient client;
    private final DaemonLog log;
    private volatile boolean running = true;

    LoadServerProxy(Map<String, InetSocketAddress> loadServers, DaemonClient client, DaemonLog log) {
        this.client = client;
        this.log = log;
        loadServers.forEach((name, address) -> {
            BlockingQueue<MessageBody> q = new LinkedBlockingQueue<>(10_000);
            queues.add(q);
            Thread t = new Thread(() -> deliver(name, address, q), "cohortd-report-" + name);
            t.setDaemon(true);
            threads.add(t);
        });
    }

    void start() {
        threads.forEach(Thread::start);
    }

    /** Queues "{@code member} is down/up, seen at {@code at} because {@code why}" for every load server. Any thread. */
    void report(String member, boolean down, long at, String why) {
        MessageBody b = MessageBody.empty().put("member", member).put("state", down ? "down" : "up").put("at", at).put("why", why);
        queues.forEach(q -> q.offer(b));
    }

    private void deliver(String name, InetSocketAddress address, BlockingQueue<MessageBody> queue) {
        while (running) {
            MessageBody b;
            try {
                b = queue.poll(1, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                return;
            }
            if (b == null) {
                continue;
            }
            String failure = null;
            for (int attempt = 1; attempt <= ATTEMPTS && running; attempt++) {
                try {
                    client.request(name, address, MessageType.REPORT, b);
                    failure = null;
                    break;
                } catch (IOException | RequestRefusedException | MalformedMessageException e) {
                    failure = DaemonClient.describe(e);
                    try {
                        Thread.sleep(RETRY_PAUSE_MILLIS); // a pause between attempts, not a synchronisation
                    } catch (InterruptedException ie) {
                        return;
                    }
                }
            }
            if (failure != null) {
                log.info("could not report " + b.get("member") + " " + b.get("state") + " to load server " + name + ": " + failure);
            }
        }
    }

    @Override
    public void close() {
        running = false;
        threads.forEach(Thread::interrupt);
    }
}
