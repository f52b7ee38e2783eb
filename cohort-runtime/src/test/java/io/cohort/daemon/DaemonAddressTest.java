package io.cohort.daemon;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.ClusterDbParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Timeout(10)
class DaemonAddressTest {
    @Test
    void aMemberWhoseAddressIsNotThisHostsIsNamedAsSuch() {
        // 192.0.2.1 (TEST-NET-1) is on no interface of any machine.
        ClusterDb db = ClusterDbParser.parse("""
                cluster = t
                version = 1
                default_partition = all
                load_servers = far
                member.far.address = 192.0.2.1
                partition.all.members = *
                """, "test.db");
        ClusterConfigException e = assertThrows(ClusterConfigException.class, () -> Daemon.start(db, "far", TestClusters.KEY,
                new DaemonLog("far", new PrintStream(OutputStream.nullOutputStream()), Clock.systemUTC()), Clock.systemUTC()));
        assertEquals("member far's address 192.0.2.1 is not an address of this host; run this daemon on far, or give"
                + " --member the name of the member this host is", e.getMessage());
    }
}
