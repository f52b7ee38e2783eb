package io.cohort.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(5)
class LaunchRequestTest {
    @Test
    void roundTrip() throws IOException {
        LaunchRequest req = new LaunchRequest("/tmp/work", List.of(
                new LaunchRequest.Peer(0, List.of("java", "-cp", "a:b", "Main", "-v"), Map.of("A", "1")),
                new LaunchRequest.Peer(1, List.of("java"), Map.of())));
        assertEquals(req, LaunchRequest.parse(req.frame()));
    }

    @Test
    void stdinTargets() {
        assertEquals("all", StdinTarget.parse("ALL").toString());
        assertEquals(true, StdinTarget.parse("none").isNone());
        assertEquals(3, StdinTarget.parse("3").singleRank());
        assertEquals(true, StdinTarget.parse("0").includes(0));
        assertEquals(false, StdinTarget.parse("0").includes(1));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> StdinTarget.parse("-1"));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> StdinTarget.parse("x"));
    }
}
