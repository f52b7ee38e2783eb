package io.cohort.deck;

import io.cohort.CohortException;

/**
 * A DECK operation was refused: an unknown or duplicate name, a group below its minimum size, a
 * destroyed mailbox or group. The message is one sentence saying what was wrong and what to do.
 */
public class DeckException extends CohortException {
    public DeckException(String message) {
        super(message);
    }
}
