package io.cohort.cluster;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The database read from a real DNS server: dnsmasq serves the {@code txt-record=} lines that
 * {@code cohort db print --format dnsmasq} writes (and, as an authoritative server, the SOA), and
 * {@link ClusterDbSource#load} reads them through the JDK's DNS provider. Skipped with one line where
 * dnsmasq is not installed (Debian package dnsmasq-base).
 */
@Timeout(60)
class ClusterDbDnsTest {
    private static final Path DNSMASQ = Path.of("/usr/sbin/dnsmasq");

    @TempDir
    Path dir;
    private Process dnsmasq;

    @AfterEach
    void stopDnsmasq() throws InterruptedException {
        if (dnsmasq != null) {
            dnsmasq.destroy();
            if (!dnsmasq.waitFor(5, TimeUnit.SECONDS)) {
                dnsmasq.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
    }

    /** A database large enough that some records exceed one 255-byte TXT string. */
    static ClusterDb fileDatabase() {
        StringBuilder text = new StringBuilder("""
                cluster = lab
                version = 7
                default_partition = all
                load_servers = node-3, node-1
                daemon.ttl = 30s
                """);
        for (int i = 40; i >= 1; i--) { // not in natural order: member_order must carry it
            text.append("member.node-").append(i).append(".address = 10.0.0.").append(i).append('\n');
            text.append("member.node-").append(i).append(".cpus = ").append(1 + i % 4).append('\n');
        }
        text.append("member.rack.b.address = fd00::2\n");
        text.append("partition.all.members = *\npartition.all.users = alice, bob\n");
        text.append("partition.gpu.members = node-2, rack.b\npartition.gpu.network = 10.1.0.0/24\n");
        return ClusterDbParser.parse(text.toString(), "cluster.db");
    }

    @Test
    void authoritativeZoneGivesTheRecordsAndTheSerialAsVersion() throws Exception {
        ClusterDb file = fileDatabase();
        int port = startDnsmasq(file, "--auth-zone=lab", "--auth-zone=empty", "--auth-server=ns.lab,127.0.0.1",
                "--auth-soa=9");
        ClusterDb fromDns = ClusterDbSource.load("dns://127.0.0.1:" + port + "/lab");
        assertEquals(9, fromDns.version(), "the SOA serial is the version");
        assertEquals(withVersion(file, 9), fromDns);
        assertEquals(file.memberOrder(), fromDns.memberOrder());
        // A zone the server holds without TXT records: that sentence, not a "malformed answer".
        ClusterDbException e = assertThrows(ClusterDbException.class,
                () -> ClusterDbSource.load("dns://127.0.0.1:" + port + "/empty"));
        assertTrue(e.getMessage().contains(": the zone 'empty' has no TXT records at the DNS server 127.0.0.1:" + port),
                e.getMessage());
    }

    @Test
    void nonAuthoritativeServerGivesTheVersionToken() throws Exception {
        ClusterDb file = fileDatabase();
        int port = startDnsmasq(file);
        ClusterDb fromDns = ClusterDbSource.load("dns://127.0.0.1:" + port + "/lab");
        assertEquals(file, fromDns);
        assertEquals(file.memberOrder(), fromDns.memberOrder());
        ClusterDbException e = assertThrows(ClusterDbException.class,
                () -> ClusterDbSource.load("dns://127.0.0.1:" + port + "/other"));
        assertTrue(e.getMessage().startsWith("dns://127.0.0.1:" + port + "/other: "), e.getMessage());
    }

    @Test
    @Timeout(20)
    void serverThatDoesNotAnswerFailsWithinSeconds() throws IOException {
        try (DatagramSocket silent = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            long start = System.nanoTime();
            ClusterDbException e = assertThrows(ClusterDbException.class,
                    () -> ClusterDbSource.load("dns://127.0.0.1:" + silent.getLocalPort() + "/lab"));
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            java.util.regex.Matcher m = java.util.regex.Pattern.compile(java.util.regex.Pattern.quote("dns://127.0.0.1:"
                    + silent.getLocalPort() + "/lab: the DNS server 127.0.0.1:" + silent.getLocalPort()
                    + " did not answer (gave up after ") + "(\\d+\\.\\d) s\\); check the address and port, or use a file database")
                    .matcher(e.getMessage());
            assertTrue(m.matches(), e.getMessage());
            assertTrue(millis < 10_000, "took " + millis + " ms");
            double said = Double.parseDouble(m.group(1)) * 1000;
            assertTrue(said >= 3_000 && said <= millis + 100, "said " + said + " ms, took " + millis + " ms");
        }
    }

    @Test
    @Timeout(20)
    void aMalformedAnswerIsOneSentenceNotAnInternalError() throws Exception {
        try (DatagramSocket server = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            Thread answerer = new Thread(() -> {
                byte[] buf = new byte[512];
                while (!server.isClosed()) {
                    try {
                        java.net.DatagramPacket q = new java.net.DatagramPacket(buf, buf.length);
                        server.receive(q);
                        // The query's id, a header claiming one question and five answers, then bytes no name starts with.
                        byte[] reply = new byte[12 + 40];
                        reply[0] = buf[0];
                        reply[1] = buf[1];
                        reply[2] = (byte) 0x84;
                        reply[5] = 1;
                        reply[7] = 5;
                        java.util.Arrays.fill(reply, 12, reply.length, (byte) 0xff);
                        server.send(new java.net.DatagramPacket(reply, reply.length, q.getSocketAddress()));
                    } catch (IOException closed) {
                        return;
                    }
                }
            }, "malformed-dns");
            answerer.setDaemon(true);
            answerer.start();
            String spec = "dns://127.0.0.1:" + server.getLocalPort() + "/lab";
            ClusterDbException e = assertThrows(ClusterDbException.class, () -> ClusterDbSource.load(spec));
            assertTrue(e.getMessage().startsWith(spec + ": the DNS server 127.0.0.1:" + server.getLocalPort()
                    + " sent a malformed answer for the TXT records of 'lab' ("), e.getMessage());
        }
    }

    private static ClusterDb withVersion(ClusterDb db, long version) {
        return new ClusterDb(db.name(), version, db.defaultPartition(), db.loadServers(), db.daemon(), db.members(),
                db.partitions());
    }

    /** Starts dnsmasq on 127.0.0.1 at a free port and returns the port once it answers a query. */
    private int startDnsmasq(ClusterDb db, String... extra) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(DNSMASQ),
                "dnsmasq is missing (apt-get install dnsmasq-base): the DNS cluster database tests are skipped");
        Path conf = dir.resolve("dnsmasq.conf");
        Files.writeString(conf, ClusterDbWriter.formatDnsmasq(db));
        for (int attempt = 0; ; attempt++) {
            int port = freePort();
            List<String> cmd = new ArrayList<>(List.of(DNSMASQ.toString(), "--no-daemon", "--no-resolv", "--no-hosts",
                    "--bind-interfaces", "--listen-address=127.0.0.1", "--port=" + port, "--pid-file=",
                    "--conf-file=" + conf));
            cmd.addAll(List.of(extra));
            Path log = dir.resolve("dnsmasq-" + attempt + ".log");
            dnsmasq = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (awaitAnswer(port, db.name())) {
                return port;
            }
            stopDnsmasq();
            dnsmasq = null;
            if (attempt == 2) { // the port may have been taken between our probe and dnsmasq's bind
                throw new AssertionError("dnsmasq did not start: " + Files.readString(log));
            }
        }
    }

    /** Polls a query until dnsmasq answers (true) or exits (false). */
    private boolean awaitAnswer(int port, String zone) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            if (!dnsmasq.isAlive()) {
                return false;
            }
            try {
                DnsZoneReader.read("127.0.0.1:" + port, zone, "probe");
                return true;
            } catch (ClusterDbException notYet) {
                dnsmasq.waitFor(20, TimeUnit.MILLISECONDS); // returns early if it exits
            }
        }
        return false;
    }

    /** A port free for both TCP and UDP on the loopback address (dnsmasq binds both). */
    private static int freePort() throws IOException {
        for (int i = 0; ; i++) {
            try (ServerSocket tcp = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                 DatagramSocket udp = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                         tcp.getLocalPort()))) {
                return udp.getLocalPort();
            } catch (java.net.BindException taken) {
                if (i == 10) {
                    throw taken;
                }
            }
        }
    }
}
