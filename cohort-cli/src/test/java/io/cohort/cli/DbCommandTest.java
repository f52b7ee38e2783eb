package io.cohort.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code cohort db} in-process: output, the saved files and the exit codes of bad input. */
@Timeout(20)
class DbCommandTest {
    private static final String LAB = """
            # the lab
            cluster = lab
            version = 7
            default_partition = all
            load_servers = m1

            member.m1.address = 10.0.0.1   # first
            member.m1.cpus = 2
            member.m2.address = 10.0.0.2
            member.m3.address = 10.0.0.3

            partition.all.members = *
            partition.gpu.members = m1, m2
            """;

    @TempDir
    Path dir;

    private record Result(int code, String out, String err) {
    }

    private Result run(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out), new PrintWriter(err), env);
        return new Result(code, out.toString(), err.toString());
    }

    private Result db(Path file, String... args) {
        String[] all = new String[args.length + 3];
        all[0] = "db";
        System.arraycopy(args, 0, all, 1, args.length);
        all[args.length + 1] = "--cluster-db";
        all[args.length + 2] = file.toString();
        return run(Map.of(), all);
    }

    private Path lab() throws IOException {
        Path file = dir.resolve("cluster.db");
        Files.writeString(file, LAB);
        return file;
    }

    private static void assertError(Result r, int code, String fragment) {
        assertEquals(code, r.code(), r.err());
        String[] lines = r.err().strip().split("\n");
        assertEquals(1, lines.length, "one line expected: " + r.err());
        assertTrue(lines[0].startsWith("cohort: "), r.err());
        assertTrue(lines[0].contains(fragment), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
    }

    @Test
    void validateSaysOkInOneLine() throws IOException {
        Result r = db(lab(), "validate");
        assertEquals(0, r.code(), r.err());
        assertEquals("ok: cluster lab, version 7, 3 members, 2 partitions\n", r.out());
    }

    @Test
    void validateReportsTheErrorWithExitCode5() throws IOException {
        Path file = lab();
        Files.writeString(file, LAB.replace("member.m1.cpus = 2", "member.m1.cpus = two"));
        assertError(db(file, "validate"), 5, file + ":8: member.m1.cpus = 'two': the number of CPUs must be");
        assertError(db(dir.resolve("none.db"), "validate"), 5, "none.db: no such file");
    }

    @Test
    void databaseComesFromTheEnvironmentWithoutTheOption() throws IOException {
        Path file = lab();
        Result r = run(Map.of("COHORT_CLUSTER_DB", file.toString()), "db", "validate");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("ok: cluster lab"));
    }

    @Test
    void initCreatesAValidFileAndRefusesToOverwrite() {
        Path file = dir.resolve("etc/cohort/cluster.db");
        Result r = db(file, "init", "lab2", "--load-server", "head", "--address", "192.168.1.1");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("created " + file + ": cluster lab2, version 1, 1 member, 1 partition"), r.out());
        assertEquals(0, db(file, "validate").code());
        assertError(db(file, "init", "lab2"), 5, "the file exists already");
        assertError(db(dir.resolve("x.db"), "init", "bad_name!"), 5, "the cluster's name must be a DNS name");
        assertError(db(dir.resolve("x.db"), "init", "bad name"), 2,
                "CLUSTER 'bad name' must be one word of printable ASCII without '#' or '='");
        assertError(db(dir.resolve("x.db"), "init", "lab\nmember.x.address=10.9.9.9"), 2,
                "CLUSTER 'lab?member.x.address=10.9.9.9' must be one word");
        assertError(db(dir.resolve("x.db"), "init", "lab", "--load-server", "m1\nload_servers=m2"), 2, "--load-server 'm1?load_servers=m2'");
        assertError(db(dir.resolve("x.db"), "init", "lab", "--address", "10.0.0.1 # x"), 2, "--address '10.0.0.1 # x'");
        assertError(db(dir.resolve("x.db"), "init", "lab", "--address", ""), 2, "--address ''");
        assertFalse(Files.exists(dir.resolve("x.db")), "nothing is written for a refused init");
        assertError(run(Map.of(), "db", "validate", "--cluster-db", ""), 2, "--cluster-db is empty");
        assertError(run(Map.of(), "db", "validate", "--cluster-db", " "), 2, "--cluster-db is empty");
        assertError(run(Map.of(), "status", "--cluster-db", file.toString(), "--key", ""), 2, "--key is empty");
    }

    @Test
    void setEditsInPlaceAndRaisesTheVersion() throws IOException {
        Path file = lab();
        Result r = db(file, "set", "member.m4.address=10.0.0.4", "member.m1.cpus=8", "partition.gpu.nice = 5");
        assertEquals(0, r.code(), r.err());
        assertEquals("saved " + file + ": cluster lab, version 8, 4 members, 2 partitions\n", r.out());
        String text = Files.readString(file);
        assertTrue(text.startsWith("# the lab\ncluster = lab\nversion = 8\n"), text);
        assertTrue(text.contains("member.m1.address = 10.0.0.1   # first\nmember.m1.cpus = 8\n"), text);
        assertTrue(text.contains("member.m3.address = 10.0.0.3\n\nmember.m4.address = 10.0.0.4\n"), text);
        assertTrue(text.endsWith("partition.gpu.members = m1, m2\npartition.gpu.nice = 5\n"), text);
    }

    @Test
    void invalidSetIsNotSaved() throws IOException {
        Path file = lab();
        assertError(db(file, "set", "partition.gpu.members=m1, m9"), 5, "'m9' is not a member");
        assertError(db(file, "set", "colour=red"), 5, "colour = 'red': unknown token");
        assertError(db(file, "set", "nonsense"), 2, "'nonsense' is not TOKEN=VALUE");
        assertError(db(file, "set", "version=3"), 5, "version 3 is below the current 7");
        assertEquals(LAB, Files.readString(file));
    }

    @Test
    void unsetReturnsToTheDefault() throws IOException {
        Path file = lab();
        assertEquals(0, db(file, "unset", "member.m1.cpus").code());
        assertTrue(db(file, "print").out().contains("member.m1.cpus = 1\n"));
        assertError(db(file, "unset", "member.m1.cpus"), 5, "there is no 'member.m1.cpus' to unset");
        assertError(db(file, "unset", "default_partition"), 5, "the required token 'default_partition' is missing");
        assertError(db(file, "unset", "version"), 5, "'version' cannot be unset; every edit raises it by one");
        assertTrue(Files.readString(file).contains("version = 8\n"));
    }

    @Test
    void removeRefusesWhileReferenced() throws IOException {
        Path file = lab();
        assertError(db(file, "remove", "member", "m1"), 5,
                "member 'm1' is still named by load_servers and partition.gpu.members; change those first");
        assertError(db(file, "remove", "partition", "all"), 5, "partition 'all' is still named by default_partition");
        assertError(db(file, "remove", "member", "m9"), 5, "there is no member 'm9'");
        assertError(db(file, "remove", "host", "m9"), 2, "remove a member or a partition");
        Result r = db(file, "remove", "member", "m3");
        assertEquals(0, r.code(), r.err());
        assertEquals("removed member m3, saved " + file + ": cluster lab, version 8, 2 members, 2 partitions\n",
                r.out());
        assertEquals(0, db(file, "remove", "partition", "gpu").code());
        assertEquals(LAB.replace("version = 7", "version = 9").replace("member.m3.address = 10.0.0.3\n", "")
                .replace("partition.gpu.members = m1, m2\n", ""), Files.readString(file));
    }

    @Test
    void printFormats() throws IOException {
        Path file = lab();
        Result db = db(file, "print");
        assertEquals(0, db.code(), db.err());
        assertTrue(db.out().contains("partition.all.members = m1, m2, m3\n"), db.out());
        Result dnsmasq = db(file, "print", "--format", "dnsmasq");
        assertTrue(dnsmasq.out().contains("txt-record=lab,\"load_servers=m1\"\n"), dnsmasq.out());
        assertTrue(dnsmasq.out().contains("txt-record=lab,\"member_order=m1, m2, m3\"\n"), dnsmasq.out());
        Result zone = db(file, "print", "--format", "zone");
        assertTrue(zone.out().contains("@\tIN\tSOA\tns hostmaster ( 7 "), zone.out());
        assertTrue(zone.out().contains("@\tIN\tTXT\t\"member.m2.address=10.0.0.2\"\n"), zone.out());
        assertError(db(file, "print", "--format", "json"), 2, "'json' is not a format; use db, dnsmasq or zone");
    }

    @Test
    void dbWithoutSubcommandIsAUsageErrorAndHelpNamesThem() {
        assertError(run(Map.of(), "db"), 2, "a subcommand is needed (init, print, validate, set, unset, remove, edit)");
        Result help = run(Map.of(), "help", "db");
        assertEquals(0, help.code(), help.err());
        assertTrue(help.out().contains("validate") && help.out().contains("edit"), help.out());
    }

    @Test
    void dnsDatabasesAreNotEdited() {
        Result r = run(Map.of(), "db", "set", "--cluster-db", "dns:lab", "member.m1.cpus=2");
        assertError(r, 5, "dns:lab: a DNS database cannot be edited by cohort");
    }

    @Test
    void editSavesAValidResult() throws IOException {
        Path file = lab();
        Path script = editor("sed -i 's/cpus = 2/cpus = 6/' \"$1\"");
        Result r = run(Map.of("EDITOR", "vi-not-used", "VISUAL", "sh " + script), "db", "edit", "--cluster-db",
                file.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals("saved " + file + ": cluster lab, version 8, 3 members, 2 partitions\n", r.out());
        assertTrue(Files.readString(file).contains("member.m1.cpus = 6\n"));
    }

    @Test
    void editWithoutTerminalReportsAnInvalidResultAndKeepsTheCopy() throws IOException {
        Path file = lab();
        Path script = editor("sed -i 's/cpus = 2/cpus = 0/' \"$1\"");
        Result r = run(Map.of("EDITOR", "sh " + script), "db", "edit", "--cluster-db", file.toString());
        assertError(r, 5, "member.m1.cpus = '0': the number of CPUs must be a whole number from 1 to 4096;"
                + " nothing was saved, the edited copy is ");
        assertEquals(LAB, Files.readString(file));
        Path copy = Path.of(r.err().strip().replaceAll(".*the edited copy is ", ""));
        assertTrue(Files.readString(copy).contains("cpus = 0"));
        Files.delete(copy);
        assertError(run(Map.of("EDITOR", "false"), "db", "edit", "--cluster-db", file.toString()), 5,
                "the editor 'false' exited with status 1; nothing was saved");
        Result unchanged = run(Map.of("EDITOR", "true"), "db", "edit", "--cluster-db", file.toString());
        assertEquals("no changes; " + file + " was left as it was\n", unchanged.out());
    }

    @Test
    void anEditedCopyThatIsNotTextIsKeptAndOneThatIsGoneIsSaidSo() throws IOException {
        Path file = lab();
        Path script = editor("printf '\\377\\376' >> \"$1\"");
        Result r = run(Map.of("EDITOR", "sh " + script), "db", "edit", "--cluster-db", file.toString());
        assertError(r, 5, "the edited copy is not UTF-8 text; nothing was saved, the edited copy is ");
        assertEquals(LAB, Files.readString(file));
        Path copy = Path.of(r.err().strip().replaceAll(".*the edited copy is ", ""));
        assertTrue(Files.size(copy) == LAB.getBytes(java.nio.charset.StandardCharsets.UTF_8).length + 2, "the user's bytes are kept");
        Files.delete(copy);
        Result huge = run(Map.of("EDITOR", "truncate -s 20M"), "db", "edit", "--cluster-db", file.toString());
        assertError(huge, 5, "the edited copy is larger than 16 MiB; nothing was saved, the edited copy is ");
        assertEquals(LAB, Files.readString(file));
        Files.delete(Path.of(huge.err().strip().replaceAll(".*the edited copy is ", "")));
        Result gone = run(Map.of("EDITOR", "rm -f"), "db", "edit", "--cluster-db", file.toString());
        assertEquals(5, gone.code(), gone.err());
        assertTrue(gone.err().contains("(it was removed); nothing was saved"), gone.err());
        assertEquals(LAB, Files.readString(file));
    }

    private Path editor(String body) throws IOException {
        Path script = dir.resolve("editor.sh");
        Files.writeString(script, body + "\n");
        return script;
    }
}
