package io.cohort.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.cohort.engine.MachineMap;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

@Timeout(10)
class CoreBindingTest {
    @Test
    void localRanksTakeTheAllowedProcessorsInOrderThenInTurn() {
        String allowed = "2-3,6";
        assertEquals(2, CoreBinding.cpuFor(0, allowed));
        assertEquals(3, CoreBinding.cpuFor(1, allowed));
        assertEquals(6, CoreBinding.cpuFor(2, allowed));
        assertEquals(2, CoreBinding.cpuFor(3, allowed));
        assertEquals(6, CoreBinding.cpuFor(5, allowed));
    }

    @Test
    void offlineProcessorsAreSkippedUnlessNoneOfTheAllowedIsOnline() {
        BitSet online = MachineMap.cpuSet("0,2-3");
        assertEquals(0, CoreBinding.cpuFor(0, "0-3", online));
        assertEquals(2, CoreBinding.cpuFor(1, "0-3", online));
        assertEquals(3, CoreBinding.cpuFor(2, "0-3", online));
        assertEquals(0, CoreBinding.cpuFor(3, "0-3", online));
        assertEquals(5, CoreBinding.cpuFor(1, "4-5", online)); // disjoint: the kernel's list is not looked at
        assertEquals(1, CoreBinding.cpuFor(1, "0-3", null));
    }

    @Test
    void anUnreadableListIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CoreBinding.cpuFor(0, "zero"));
        assertTrue(e.getMessage().contains("\"zero\""), e.getMessage());
    }

    @Test
    void theModeIsReadFromThePeersEnvironment() {
        assertEquals(CoreBinding.Mode.AUTO, CoreBinding.mode(Map.of()), "unset: the default, which an older io-manager reads as none");
        assertEquals(CoreBinding.Mode.NONE, CoreBinding.mode(Map.of("COHORT_BIND_TO", "none")));
        assertEquals(CoreBinding.Mode.CORE, CoreBinding.mode(Map.of("COHORT_BIND_TO", "core")));
        assertEquals(CoreBinding.Mode.AUTO, CoreBinding.mode(Map.of("COHORT_BIND_TO", "auto")));
        assertThrows(IllegalArgumentException.class, () -> CoreBinding.mode(Map.of("COHORT_BIND_TO", "socket")));
    }

    private static String plan(int peers, String cpus) {
        BitSet[] plan = CoreBinding.split(peers, MachineMap.cpuSet(cpus));
        return Arrays.stream(plan).map(MachineMap::cpuList).collect(Collectors.joining(" | "));
    }

    @Test
    void autoSplitsTheClaimedProcessorsIntoBlocksOrHandsThemOutInTurn() {
        assertEquals("0 | 1", plan(2, "0-1"));
        assertEquals("0-1", plan(1, "0-1"), "one peer gets them all");
        assertEquals("0-31 | 32-63", plan(2, "0-63"));
        assertEquals("0-2 | 3-4 | 5-6", plan(3, "0-6"), "the first blocks take the remainder");
        assertEquals("2,4 | 6,9", plan(2, "2,4,6,9"), "blocks of the claimed processors, not of the numbers");
        assertEquals("0 | 1 | 0 | 1", plan(4, "0-1"), "more peers than processors: one each, in turn");
        assertEquals("5 | 5 | 5", plan(3, "5"));
        assertNull(CoreBinding.split(2, new BitSet()), "nothing claimed: unbound");
    }

    @Test
    void autoBindsOnlyToProcessorsNoOtherClaimHolds(@TempDir Path dir) throws IOException {
        assumeTrue(CoreBinding.onPath(CoreBinding.TASKSET) != null, "needs taskset (util-linux)");
        BitSet allowed = MachineMap.cpuSet(CoreBinding.allowedCpus());
        assumeTrue(allowed.equals(MachineMap.cpuSet(java.nio.file.Files.readString(
                Path.of("/sys/devices/system/cpu/online")).trim())), "needs every allowed processor online");
        try (CoreBinding.Auto first = CoreBinding.Auto.claim(1, dir)) {
            List<String> all = first.prefix(Map.of("COHORT_BIND_INDEX", "0"));
            assertEquals(List.of("-c", MachineMap.cpuList(allowed)), all.subList(1, 3), "one peer: every allowed processor");
            try (CoreBinding.Auto second = CoreBinding.Auto.claim(2, dir)) {
                assertEquals(List.of(), second.prefix(Map.of("COHORT_BIND_INDEX", "1")), "all held: unbound");
            }
        }
        try (CoreBinding.Auto again = CoreBinding.Auto.claim(2, dir)) {
            assertEquals(3, again.prefix(Map.of("COHORT_BIND_INDEX", "1")).size(), "the first claim's close gave them back");
        }
    }

    @Test
    void peersThatShareAProcessorAreTold(@TempDir Path dir) throws IOException {
        assumeTrue(CoreBinding.onPath(CoreBinding.TASKSET) != null, "needs taskset (util-linux)");
        int n = MachineMap.cpuSet(CoreBinding.allowedCpus()).cardinality();
        try (CoreBinding.Auto enough = CoreBinding.Auto.claim(n, dir)) {
            for (int i = 0; i < n; i++) {
                assertFalse(enough.shared(Map.of("COHORT_BIND_INDEX", Integer.toString(i))), "one processor each: rank " + i);
            }
        }
        try (CoreBinding.Auto crowded = CoreBinding.Auto.claim(n + 1, dir)) {
            // In turn: index n is back on index 0's processor; the others have one each (n > 1).
            assertTrue(crowded.shared(Map.of("COHORT_BIND_INDEX", "0")));
            assertTrue(crowded.shared(Map.of("COHORT_BIND_INDEX", Integer.toString(n))));
            assertEquals(n == 1, crowded.shared(Map.of("COHORT_BIND_INDEX", Integer.toString(n - 1))));
        }
        List<Integer> three = List.of(0, 1, n);
        assertTrue(CoreBinding.shared(Map.of("COHORT_BIND_INDEX", "0"), three), "core: index n on index 0's processor");
        assertEquals(n == 1, CoreBinding.shared(Map.of("COHORT_BIND_INDEX", "1"), three));
        assertFalse(CoreBinding.shared(Map.of("COHORT_BIND_INDEX", "0"), List.of(0)), "alone");
    }

    @Test
    void claimsTakeWhatIsFreeAndLeaveWhatIsHeld(@TempDir Path dir) {
        BitSet wanted = MachineMap.cpuSet("0-3");
        try (CpuClaims a = CpuClaims.claim(MachineMap.cpuSet("1-2"), dir)) {
            assertEquals("1-2", MachineMap.cpuList(a.cpus()));
            try (CpuClaims b = CpuClaims.claim(wanted, dir)) {
                assertEquals("0,3", MachineMap.cpuList(b.cpus()));
            }
        }
        try (CpuClaims c = CpuClaims.claim(wanted, dir.resolve("missing"))) {
            assertTrue(c.cpus().isEmpty(), "no directory: nothing claimed, so nothing bound");
        }
        try (CpuClaims again = CpuClaims.claim(wanted, dir)) {
            assertEquals("0-3", MachineMap.cpuList(again.cpus()), "every claim given back on close");
        }
    }

    @Test
    void aClaimFileIsNeverFollowedThroughALinkNorMadeWritableByOthersOnceItExists(@TempDir Path dir) throws IOException {
        Path victim = java.nio.file.Files.writeString(dir.resolve("victim"), "secret");
        java.nio.file.Files.setPosixFilePermissions(victim, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        java.nio.file.Files.createSymbolicLink(dir.resolve(CpuClaims.PREFIX + "0"), victim);
        java.nio.file.Files.writeString(dir.resolve(CpuClaims.PREFIX + "1"), "");
        java.nio.file.Files.setPosixFilePermissions(dir.resolve(CpuClaims.PREFIX + "1"),
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        try (CpuClaims c = CpuClaims.claim(MachineMap.cpuSet("0-2"), dir)) {
            assertEquals("1-2", MachineMap.cpuList(c.cpus()), "the link is left alone");
        }
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                java.nio.file.Files.getPosixFilePermissions(victim)));
        assertEquals("secret", java.nio.file.Files.readString(victim));
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                java.nio.file.Files.getPosixFilePermissions(dir.resolve(CpuClaims.PREFIX + "1"))), "an existing file keeps its mode");
        assertEquals("rw-rw-rw-", java.nio.file.attribute.PosixFilePermissions.toString(
                java.nio.file.Files.getPosixFilePermissions(dir.resolve(CpuClaims.PREFIX + "2"))), "a new one is shared");
    }

    @Test
    void thePrefixNamesTasksetAndTheProcessorOfTheLocalRank() throws IOException {
        String first = Integer.toString(CoreBinding.cpuFor(0, CoreBinding.allowedCpus()));
        java.util.List<String> prefix = CoreBinding.prefix(Map.of("COHORT_BIND_INDEX", "0"));
        assertEquals(3, prefix.size(), prefix.toString());
        assertTrue(prefix.get(0).endsWith("/taskset"), prefix.toString());
        assertEquals(java.util.List.of("-c", first), prefix.subList(1, 3));
    }

    @Test
    void aPeerWithoutItsIndexIsRefusedInOneSentence() {
        IOException e = assertThrows(IOException.class, () -> CoreBinding.prefix(Map.of("COHORT_LOCAL_RANK", "0")));
        assertEquals("--bind-to core needs the peer's COHORT_BIND_INDEX, which is not set", e.getMessage());
    }
}
