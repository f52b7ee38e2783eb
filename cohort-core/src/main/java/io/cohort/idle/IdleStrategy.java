package io.cohort.idle;

/**
 * What a waiting thread does after a round of progress found no work. Instances keep per-wait
 * state and belong to one thread at a time; {@link IdleStrategies#factory} makes fresh ones.
 */
public interface IdleStrategy {
    /** Called after a round that did no work. */
    void idle(Blocker blocker);

    /** Called after a round that did work, so the next idle period starts from the beginning. */
    void reset();

    /** The name under which {@link IdleStrategies} knows this strategy. */
    String name();

    /**
     * Whether every {@link #idle} blocks at once, with no spinning first: then polling before it
     * is wasted where the transport's sleep does the same work ({@code Transport.blockReplacesPoll}).
     */
    default boolean blocksAtOnce() {
        return false;
    }
}
