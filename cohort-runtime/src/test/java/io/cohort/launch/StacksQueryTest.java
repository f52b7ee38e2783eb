package io.cohort.launch;

import io.cohort.stacks.JobStacks;
import io.cohort.stacks.PeerStacks;
import io.cohort.stacks.RankStacks;
import io.cohort.stacks.StacksCodec;
import io.cohort.stacks.ThreadStack;
import io.cohort.wireup.ControlFrame;
import io.cohort.wireup.ControlMessageType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The client side of a stacks query against a scripted controller. */
@Timeout(20)
class StacksQueryTest {
    private static JobRegistry.Entry entry(int port) {
        return new JobRegistry.Entry("3fa2c1d9", ProcessHandle.current().pid(), -1, "127.0.0.1", port, "secret", 2,
                "app.Main", 0);
    }

    /** Serves one connection: hands its first frame and the connection to {@code script}. */
    private static <T> T withController(BiConsumer<ControlFrame, ControlConnection> script, Query<T> query) throws Exception {
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            CompletableFuture<Void> served = CompletableFuture.runAsync(() -> {
                try (Socket s = server.accept()) {
                    ControlConnection conn = new ControlConnection(s);
                    script.accept(conn.read(), conn);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            try {
                return query.ask(entry(server.getLocalPort()));
            } finally {
                served.join();
            }
        }
    }

    @FunctionalInterface
    private interface Query<T> {
        T ask(JobRegistry.Entry e) throws Exception;
    }

    @Test
    void sendsTokenAndTimeoutAndReadsEveryRank() throws Exception {
        RankStacks r0 = RankStacks.answered(0, "h", 10, PeerStacks.of(List.of(new ThreadStack("main", 1, false,
                Thread.State.WAITING, null, null, List.of(ThreadStack.frame("app.Main", "main", "Main.java", 3))))));
        RankStacks r1 = RankStacks.silent(1, "h", -1, RankStacks.Answer.NOT_JOINED, "has not joined the job");
        JobStacks got = withController((first, conn) -> {
            try {
                assertEquals(ControlMessageType.STACKS_QUERY, first.type());
                ControlFrame.BodyReader r = first.reader();
                assertEquals("secret", r.getString());
                assertEquals(1500, r.getInt());
                conn.send(ControlFrame.build(ControlMessageType.STACKS_JOB).putString("3fa2c1d9").putInt(2).putString("app.Main").frame());
                conn.send(new ControlFrame(ControlMessageType.STACKS_RANK, StacksCodec.encode(r0)));
                conn.send(new ControlFrame(ControlMessageType.STACKS_RANK, StacksCodec.encode(r1)));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, e -> StacksQuery.ask(e, Duration.ofMillis(1500)));
        assertEquals(new JobStacks("3fa2c1d9", 2, "app.Main", List.of(r0, r1)), got);
    }

    @Test
    void aRefusalIsItsOwnException() {
        StacksQuery.RefusedException e = assertThrows(StacksQuery.RefusedException.class, () -> withController((first, conn) ->
                conn.trySend(ControlFrame.build(ControlMessageType.REJECTED).putString("wrong stacks token for job 3fa2c1d9").frame()),
                q -> StacksQuery.ask(q, Duration.ofMillis(100))));
        assertEquals("the launcher of job 3fa2c1d9 refused the query: wrong stacks token for job 3fa2c1d9", e.getMessage());
    }

    @Test
    void aClosedPortMeansTheJobEnded() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        assertThrows(StacksQuery.JobEndedException.class, () -> StacksQuery.ask(entry(port), Duration.ofMillis(100)));
    }

    @Test
    void anAnswerCutShortIsAnError() {
        assertThrows(StacksQuery.JobEndedException.class, () -> withController((first, conn) ->
                conn.trySend(ControlFrame.build(ControlMessageType.STACKS_JOB).putString("3fa2c1d9").putInt(2).putString("a").frame()),
                q -> StacksQuery.ask(q, Duration.ofMillis(100))));
    }
}
