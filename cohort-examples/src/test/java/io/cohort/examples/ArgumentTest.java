package io.cohort.examples;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Timeout(10)
class ArgumentTest {
    @Test
    void theRangeComesFromTheCatalogLineThatCohortRunChecks() {
        assertArrayEquals(new String[] {"intervals", "1", "9223372036854775807"}, Argument.spec("pi"));
        assertArrayEquals(new String[] {"laps", "1", "2147483647"}, Argument.spec("ring"));
        for (String example : new String[] {"alltoall", "broadcast", "deck"}) {
            assertEquals(3, Argument.spec(example).length, example);
        }
        assertThrows(IllegalStateException.class, () -> Argument.spec("hello"), "hello takes no argument");
    }

    @Test
    void aGoodArgumentOrNoneIsTaken() {
        assertEquals(12, Argument.wholeNumber("ring", new String[] {"12"}, 10));
        assertEquals(10, Argument.wholeNumber("ring", new String[0], 10));
        assertEquals(Long.MAX_VALUE, Argument.wholeNumber("pi", new String[] {"9223372036854775807"}, 1));
    }
}
