package io.cohort.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which database applies, how specs are read, and the in-place edits of a file database. */
@Timeout(10)
class ClusterDbSourceTest {
    @TempDir
    Path dir;

    @Test
    void optionThenEnvironmentThenDefault() {
        assertEquals("a.db", ClusterDbSource.resolve("a.db", Map.of(ClusterDbSource.ENV, "b.db")));
        assertEquals("b.db", ClusterDbSource.resolve(null, Map.of(ClusterDbSource.ENV, "b.db")));
        assertEquals("b.db", ClusterDbSource.resolve(" ", Map.of(ClusterDbSource.ENV, " b.db ")));
        assertEquals("/etc/cohort/cluster.db", ClusterDbSource.resolve(null, Map.of(ClusterDbSource.ENV, "")));
        assertEquals("/etc/cohort/cluster.db", ClusterDbSource.resolve(null, Map.of()));
    }

    @Test
    void dnsSpecs() {
        assertEquals(Optional.empty(), ClusterDbSource.dnsSpec("/etc/cohort/cluster.db"));
        assertEquals(new ClusterDbSource.DnsSpec(null, "lab"), ClusterDbSource.dnsSpec("dns:lab").orElseThrow());
        assertEquals(new ClusterDbSource.DnsSpec("10.0.0.1:53", "hpc.example.org"),
                ClusterDbSource.dnsSpec("dns://10.0.0.1/hpc.example.org").orElseThrow());
        assertEquals(new ClusterDbSource.DnsSpec("ns1.example.org:5353", "lab"),
                ClusterDbSource.dnsSpec("DNS://ns1.example.org:5353/lab").orElseThrow());
        assertEquals(new ClusterDbSource.DnsSpec("[::1]:5353", "lab"),
                ClusterDbSource.dnsSpec("dns://[::1]:5353/lab").orElseThrow());
        for (String bad : new String[] {"dns:", "dns://host", "dns://host:0/lab", "dns://host:x/lab", "dns:-x",
                "dns://a b/lab"}) {
            ClusterDbException e = assertThrows(ClusterDbException.class, () -> ClusterDbSource.dnsSpec(bad), bad);
            assertTrue(e.getMessage().contains("write dns:ZONE or dns://HOST[:PORT]/ZONE"), e.getMessage());
        }
    }

    @Test
    void aFifoNamedAsTheDatabaseIsRefusedNotWaitedOn() throws Exception {
        Path fifo = TextFilesTest.fifo(dir, "cluster.db");
        assertEquals(fifo + " is not a regular file (a device, FIFO or socket); a cluster database is a text file",
                assertThrows(ClusterDbException.class, () -> ClusterDbSource.load(fifo.toString())).getMessage());
    }

    @Test
    void fileErrorsAreOneSentence() throws IOException {
        String missing = dir.resolve("none.db").toString();
        assertEquals(missing + ": no such file; create one with 'cohort db init CLUSTER' or name another with"
                + " --cluster-db or COHORT_CLUSTER_DB", assertThrows(ClusterDbException.class,
                () -> ClusterDbSource.load(missing)).getMessage());
        Path binary = dir.resolve("bin.db");
        Files.write(binary, new byte[] {(byte) 0xff, (byte) 0xfe, 0});
        assertTrue(assertThrows(ClusterDbException.class, () -> ClusterDbSource.load(binary.toString())).getMessage()
                .endsWith("the file is not UTF-8 text"));
        Path big = TextFilesTest.sparse(dir, "big.db", 1L << 32);
        assertEquals(big + " is larger than 16 MiB; a cluster database is a text file",
                assertThrows(ClusterDbException.class, () -> ClusterDbSource.load(big.toString())).getMessage());
        assertEquals("/dev/zero is not a regular file (a device, FIFO or socket); a cluster database is a text file",
                assertThrows(ClusterDbException.class, () -> ClusterDbSource.load("/dev/zero")).getMessage());
        Path ok = dir.resolve("ok.db");
        Files.writeString(ok, ClusterDbParserTest.MINIMAL);
        assertEquals("lab", ClusterDbSource.load(ok.toString()).name());
    }

    @Test
    void editRaisesTheVersionKeepsCommentsAndPermissions() throws IOException {
        Path file = dir.resolve("cluster.db");
        String original = "# our lab\n" + ClusterDbParserTest.MINIMAL.replace("version = 7", "version = 7  # bumped");
        Files.writeString(file, original);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw----"));
        ClusterDbEditor editor = ClusterDbEditor.open(file.toString());
        ClusterDbText text = ClusterDbText.of(editor.original());
        text.set("member.m2.address", "10.0.0.2");
        text.set("member.m1.cpus", "4");
        ClusterDb db = editor.commit(text.text());
        assertEquals(8, db.version());
        assertEquals(4, db.members().get("m1").cpus());
        String written = Files.readString(file);
        assertTrue(written.startsWith("# our lab\ncluster = lab\nversion = 8 # bumped\n"), written);
        assertTrue(written.contains("member.m1.address = 10.0.0.1\nmember.m1.cpus = 4\n\nmember.m2.address = 10.0.0.2\n"),
                written);
        assertEquals("rw-rw----", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        try (var files = Files.list(dir)) {
            assertEquals(1, files.count(), "no temporary file left");
        }
    }

    @Test
    void invalidEditLeavesTheFileAlone() throws IOException {
        Path file = dir.resolve("cluster.db");
        Files.writeString(file, ClusterDbParserTest.MINIMAL);
        ClusterDbEditor editor = ClusterDbEditor.open(file.toString());
        ClusterDbText text = ClusterDbText.of(editor.original());
        text.set("member.m1.cpus", "lots");
        ClusterDbException e = assertThrows(ClusterDbException.class, () -> editor.commit(text.text()));
        assertTrue(e.getMessage().startsWith(file + ":6: member.m1.cpus = 'lots'"), e.getMessage());
        assertEquals(ClusterDbParserTest.MINIMAL, Files.readString(file));
    }

    @Test
    void concurrentChangeIsNotOverwritten() throws IOException {
        Path file = dir.resolve("cluster.db");
        Files.writeString(file, ClusterDbParserTest.MINIMAL);
        ClusterDbEditor editor = ClusterDbEditor.open(file.toString());
        Files.writeString(file, ClusterDbParserTest.MINIMAL + "member.m1.cpus = 2\n");
        assertTrue(assertThrows(ClusterDbException.class, () -> editor.commit(editor.original())).getMessage()
                .contains("the file changed while this edit was made"));
    }

    @Test
    void versionRules() {
        String v7 = ClusterDbParserTest.MINIMAL;
        assertTrue(ClusterDbEditor.withRaisedVersion(v7, v7, "f").contains("version = 8\n"));
        String v20 = v7.replace("version = 7", "version = 20");
        assertEquals(v20, ClusterDbEditor.withRaisedVersion(v7, v20, "f"), "an edit that raised it keeps its value");
        assertTrue(assertThrows(ClusterDbException.class, () -> ClusterDbEditor.withRaisedVersion(v7,
                v7.replace("version = 7", "version = 3"), "f")).getMessage()
                .equals("f: version 3 is below the current 7; every edit must raise it"));
    }

    @Test
    void dnsDatabasesAreNotEditedAndNewFilesAreNotOverwritten() throws IOException {
        assertTrue(assertThrows(ClusterDbException.class, () -> ClusterDbEditor.open("dns:lab")).getMessage()
                .startsWith("dns:lab: a DNS database cannot be edited by cohort"));
        Path file = dir.resolve("new.db");
        ClusterDbEditor.create(file.toString(), ClusterDbParserTest.MINIMAL);
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertTrue(assertThrows(ClusterDbException.class,
                () -> ClusterDbEditor.create(file.toString(), ClusterDbParserTest.MINIMAL)).getMessage()
                .contains("the file exists already"));
    }

    @Test
    void textEditsKeepLayoutAndLineEnds() {
        ClusterDbText t = ClusterDbText.of("cluster = lab\r\nversion = 1\r\n\r\nmember.a.b.address = h # x\r\n");
        t.set("member.a.b.cpus", "2");
        t.set("daemon.port", "9");
        t.set("partition.p.members", "*");
        assertEquals("cluster = lab\r\nversion = 1\r\n\r\ndaemon.port = 9\r\n\r\nmember.a.b.address = h # x\r\n"
                + "member.a.b.cpus = 2\r\n\r\npartition.p.members = *\r\n", t.text());
        assertEquals(Optional.of("h"), t.value("member.a.b.address"));
        assertEquals(2, t.removeAll("member.a.b."));
        assertFalse(t.unset("member.a.b.cpus"));
        assertTrue(t.unset("daemon.port"));
        assertEquals("cluster = lab\r\nversion = 1\r\n\r\npartition.p.members = *\r\n", t.text());
    }

    @Test
    void aByteOrderMarkStaysAtTheStartAndTheFirstTokenIsStillFound() throws IOException {
        ClusterDbText t = ClusterDbText.of("\uFEFFcluster = lab\nversion = 1\n");
        assertEquals(Optional.of("lab"), t.value("cluster"));
        t.set("cluster", "hpc");
        assertEquals("\uFEFFcluster = hpc\nversion = 1\n", t.text());
        // Through the editor, as 'cohort db set' does: the version goes up and no second cluster line appears.
        Path file = dir.resolve("bom.db");
        Files.writeString(file, "\uFEFF" + ClusterDbParserTest.MINIMAL);
        ClusterDbEditor editor = ClusterDbEditor.open(file.toString());
        ClusterDbText text = ClusterDbText.of(editor.original());
        text.set("cluster", "hpc");
        text.set("version", "8");
        assertEquals("hpc", editor.commit(text.text()).name());
        assertTrue(Files.readString(file).startsWith("\uFEFFcluster = hpc\n"), Files.readString(file));
    }
}
