package io.cohort.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which setpriv, if any, guards the peers against their io-manager's death. */
class ParentDeathTest {
    private static Path program(Path dir, String name, String body) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    @Test
    @Timeout(30)
    void aSetprivThatTakesPdeathsigIsNamedByItsFullPath(@TempDir Path dir) throws IOException {
        Path setpriv = program(dir, "setpriv", "exit 0");
        assertEquals(List.of(setpriv.toString(), "--pdeathsig", "CONT", "--"),
                PeerProcess.ParentDeath.probe(dir + ":/usr/bin:/bin"));
    }

    @Test
    @Timeout(30)
    void withoutSetprivOrWithOneTooOldThePeersStartAsBefore(@TempDir Path dir) throws IOException {
        Path none = Files.createDirectory(dir.resolve("none"));
        assertEquals(List.of(), PeerProcess.ParentDeath.probe(none.toString()));
        Path old = Files.createDirectory(dir.resolve("old"));
        program(old, "setpriv", "echo \"setpriv: unrecognized option '--pdeathsig'\" >&2; exit 1");
        assertEquals(List.of(), PeerProcess.ParentDeath.probe(old.toString()));
    }

    @Test
    @Timeout(30)
    void thisHostsSetprivIfAnyIsAnAbsolutePath() {
        List<String> prefix = PeerProcess.ParentDeath.prefix();
        assertTrue(prefix.isEmpty() || Path.of(prefix.get(0)).isAbsolute(), prefix.toString());
    }
}
