package io.cohort.cli;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.ClusterDbSource;
import io.cohort.daemon.ClusterKey;
import io.cohort.daemon.Daemon;
import io.cohort.daemon.DaemonLog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code cohort status} and {@code cohort admin}, run in-process against three daemons on 127.0.0.1..3. */
@Timeout(60)
class ClusterCommandsTest {
    @TempDir
    Path dir;
    private final List<Daemon> daemons = new ArrayList<>();

    record Run(int code, String out, String err) {
    }

    private Run cohort(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }

    private Path key() {
        return dir.resolve("cluster.key");
    }

    private Path db() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path f = dir.resolve("cluster.db");
        Files.writeString(f, String.join("\n", "cluster = t", "version = 1", "default_partition = all", "load_servers = a", "daemon.port = " + port,
                "daemon.update_interval = 100ms", "daemon.ttl = 1s", "daemon.heartbeat = 100ms", "daemon.ring_timeout = 500ms",
                "member.a.address = 127.0.0.1", "member.a.cpus = 2", "member.a.slots = 2",
                "member.b.address = 127.0.0.2", "member.b.cpus = 4", "member.b.slots = 4",
                "member.c.address = 127.0.0.3", "member.c.cpus = 1", "member.c.slots = 1",
                "partition.all.members = a,b,c", "partition.small.members = c", ""));
        return f;
    }

    private void startDaemons(Path db) throws Exception {
        ClusterDb d = ClusterDbSource.load(db.toString());
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream());
        for (String m : d.memberOrder()) {
            daemons.add(Daemon.start(d, m, ClusterKey.load(key()), new DaemonLog(m, quiet, Clock.systemUTC()), Clock.systemUTC()));
        }
    }

    @AfterEach
    void stop() {
        daemons.forEach(Daemon::close);
    }

    private Run awaitStatus(String must, String... args) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        Run r;
        do {
            r = cohort(args);
            if (r.code() == 0 && r.out().lines().anyMatch(l -> l.matches(must))) {
                return r;
            }
            Thread.sleep(50); // polling the load server: the command is the only way to ask
        } while (System.nanoTime() < deadline);
        throw new AssertionError("never printed a line matching '" + must + "': " + r);
    }

    @Test
    void statusDrainResumeAndJson() throws Exception {
        assertEquals(0, cohort("admin", "keygen", key().toString()).code());
        Path db = db();
        startDaemons(db);
        String[] status = {"status", "--cluster-db", db.toString(), "--key", key().toString()};
        Run r = awaitStatus("small\\s+c\\s+up\\s.*", status);
        String[] lines = r.out().split("\n");
        assertTrue(lines[0].startsWith("cluster t, load server a, "), r.out());
        assertTrue(lines[1].matches("PARTITION\\s+MEMBER\\s+STATE\\s+LOAD1\\s+LOAD5\\s+LOAD15\\s+CPUS\\s+SLOTS\\s+JOBS\\s+REASON"), lines[1]);
        assertEquals(6, lines.length, r.out()); // header, title, 3 in all, 1 in small
        assertTrue(lines[3].matches("all\\s+b\\s+(up|unknown)\\s+\\S+\\s+\\S+\\s+\\S+\\s+4\\s+4\\s+0\\s+.*"), lines[3]);

        // A reason that would not fit every STATUS answer, or would forge a row of its table, is refused at once.
        for (String bad : new String[] {"x".repeat(201), "new disk\nall  c  up"}) {
            Run refused = cohort("admin", "drain", "b", "--reason", bad, "--cluster-db", db.toString(), "--key", key().toString());
            assertEquals(2, refused.code(), refused.toString());
            assertTrue(refused.err().startsWith("cohort: --reason: a drain reason is "), refused.err());
        }
        Run drain = cohort("admin", "drain", "b", "--reason", "new disk", "--cluster-db", db.toString(), "--key", key().toString());
        assertEquals(0, drain.code(), drain.toString());
        assertEquals("b drained (new disk): taken by its daemon, load server a\n", drain.out());
        Run s = awaitStatus(".*drained.*", "status", "--partition", "all", "--cluster-db", db.toString(), "--key", key().toString());
        assertTrue(s.out().lines().anyMatch(l -> l.matches("all\\s+b\\s+drained\\s+.*\\s+4\\s+0\\s+0\\s+new disk")), s.out());
        Run json = cohort("status", "--json", "--partition", "small", "--cluster-db", db.toString(), "--key", key().toString());
        assertEquals(0, json.code(), json.toString());
        assertTrue(json.out().startsWith("{\"cluster\":\"t\",\"loadServer\":\"a\",\"time\":\""), json.out());
        assertTrue(json.out().contains("\"partitions\":[{\"name\":\"small\",\"members\":[{\"name\":\"c\","), json.out());
        assertEquals(0, cohort("admin", "resume", "b", "--cluster-db", db.toString(), "--key", key().toString()).code());
        awaitStatus("all\\s+b\\s+up\\s.*", status);
        Run slots = cohort("admin", "slots", "c", "3", "--cluster-db", db.toString(), "--key", key().toString());
        assertEquals(0, slots.code(), slots.toString());
        Run unknown = cohort("admin", "slots", "zz", "3", "--cluster-db", db.toString(), "--key", key().toString());
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().startsWith("cohort: cluster t has no member 'zz'"), unknown.err());
    }

    @Test
    void noLoadServerBadKeyAndMissingDatabaseAreOneLineEach() throws Exception {
        assertEquals(0, cohort("admin", "keygen", key().toString()).code());
        Run again = cohort("admin", "keygen", key().toString());
        assertEquals(78, again.code());
        Path db = db();
        Run none = cohort("status", "--cluster-db", db.toString(), "--key", key().toString());
        assertEquals(69, none.code(), none.toString());
        assertEquals(1, none.err().lines().count(), none.err());
        assertTrue(none.err().startsWith("cohort: no load server of cluster t answered: a (connection refused)"), none.err());
        Files.setPosixFilePermissions(key(), PosixFilePermissions.fromString("rw-r--r--"));
        Run open = cohort("status", "--cluster-db", db.toString(), "--key", key().toString());
        assertEquals(78, open.code());
        assertTrue(open.err().contains("chmod 600"), open.err());
        Run missing = cohort("status", "--cluster-db", dir.resolve("nope").toString(), "--key", key().toString());
        assertEquals(5, missing.code(), "a database that cannot be read is exit 5, as for cohort db");
        assertEquals(1, missing.err().lines().count(), missing.err());
        Run partition = cohort("status", "--partition", "zz", "--cluster-db", db.toString(), "--key", key().toString());
        assertEquals(2, partition.code());
        for (String n : new String[] {"-1", "65536"}) {
            Run slots = cohort("admin", "slots", "a", n, "--cluster-db", db.toString(), "--key", key().toString());
            assertEquals(2, slots.code(), slots.toString());
            assertEquals("cohort: slots must be from 0 to 65535 (as in the database), not " + n, slots.err().strip());
        }
    }

    /**
     * Something else listens on the daemon port and greets first (as an SSH server does): the command
     * says so in its one line, and writes no daemon-style log line of its own around it.
     */
    @Test
    void aServiceThatIsNotADaemonIsNamedInTheOneLine() throws Exception {
        assertEquals(0, cohort("admin", "keygen", key().toString()).code());
        try (ServerSocket banner = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            Thread greeter = new Thread(() -> {
                while (!banner.isClosed()) {
                    try (java.net.Socket s = banner.accept()) {
                        s.getOutputStream().write("SSH-2.0-OpenSSH_9.2\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                        s.getInputStream().read(new byte[4096]);
                    } catch (java.io.IOException e) {
                        // closed at the end of the test, or the command hung up
                    }
                }
            }, "banner");
            greeter.setDaemon(true);
            greeter.start();
            Path db = dir.resolve("banner.db");
            Files.writeString(db, String.join("\n", "cluster = t", "version = 1", "default_partition = all",
                    "load_servers = a", "daemon.port = " + banner.getLocalPort(), "member.a.address = 127.0.0.1",
                    "partition.all.members = *", ""));
            PrintStream realErr = System.err;
            ByteArrayOutputStream stray = new ByteArrayOutputStream();
            Run r;
            System.setErr(new PrintStream(stray, true));
            try {
                r = cohort("status", "--cluster-db", db.toString(), "--key", key().toString());
            } finally {
                System.setErr(realErr);
            }
            assertEquals(69, r.code(), r.toString());
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().startsWith("cohort: no load server of cluster t answered: a (answered with something that is"
                    + " not a cohortd frame: malformed frame (length field 1397966893); is daemon.port another service's?)"),
                    r.err());
            assertEquals("", stray.toString(), "nothing written around the command's own line");
        }
    }
}
