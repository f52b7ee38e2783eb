package io.cohort.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(5)
class DebugSpecTest {
    @Test
    void allListsAndRanges() {
        assertEquals(List.of(0, 1, 2), List.copyOf(DebugSpec.parse("all", 3, true).ranks()));
        assertEquals(List.of(0, 2, 3, 5), List.copyOf(DebugSpec.parse("5, 0,2-3", 6, false).ranks()));
        assertEquals(List.of(1), List.copyOf(DebugSpec.parse("1-1", 2, true).ranks()));
    }

    @Test
    void badListsSayWhy() {
        IllegalArgumentException outside = assertThrows(IllegalArgumentException.class, () -> DebugSpec.parse("0,4", 4, true));
        assertEquals("--debug=0,4 names rank 4, outside a job of 4 peers (ranks 0-3)", outside.getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> DebugSpec.parse("3-1", 4, true)).getMessage()
                .contains("runs backwards"));
        assertThrows(IllegalArgumentException.class, () -> DebugSpec.parse("1,,2", 4, true));
        assertThrows(IllegalArgumentException.class, () -> DebugSpec.parse("-1", 4, true));
        assertThrows(IllegalArgumentException.class, () -> DebugSpec.parse("1", 1, true));
    }

    @Test
    void shellQuotingSurvivesQuotes() {
        assertEquals("'/opt/my jdk/bin/jdb'", DebuggerWindows.shellQuote("/opt/my jdk/bin/jdb"));
        assertEquals("'it'\\''s'", DebuggerWindows.shellQuote("it's"));
    }
}
