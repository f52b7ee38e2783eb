package io.cohort;

import java.time.Duration;
import java.util.List;

/**
 * The implementation behind the API's entry points: what {@link Cohort#init()}, {@link LocalCohort},
 * {@link Request#awaitAll}, {@link Message#asObject()}, {@link Profile#region}, the predefined
 * {@link Op}s and {@code io.cohort.deck.Deck.of} hand their work to. A service provider interface,
 * so that the API packages depend on no package of the implementation: cohort-core provides the
 * one implementation ({@code io.cohort.wireup.CoreProvider}), which {@link #get()} loads by name
 * the first time the API needs it.
 *
 * <p>Programs never call it; it is public only so that the implementation, in packages of its
 * own, can implement it.
 */
public interface CohortProvider {
    /**
     * The provider, found once per class loader of the API.
     *
     * @throws IllegalStateException if cohort-core's implementation is not on the class path
     */
    static CohortProvider get() {
        return ProviderHolder.PROVIDER;
    }

    /** {@link Cohort#init()}: joins the job once per process; later calls return the same world. */
    Communicator init();

    /** {@link Cohort#closeIfOpen()}. */
    void closeIfOpen();

    /**
     * {@link LocalCohort#run(LocalCohort.PeerBody)}: runs {@code body} on {@code size} peers as
     * threads of this JVM over {@code transport}.
     *
     * @param idle  the idle strategy's name, or null for the configured one
     * @param fault the datagram faults to inject (a {@code cohort run --fault} spec), or null for none
     */
    void runLocal(int size, String transport, String idle, String fault, int cores, Duration timeout,
                  LocalCohort.PeerBody body);

    /** Throws an {@link IllegalArgumentException} naming what is wrong if no idle strategy is called {@code name}. */
    void checkIdleStrategy(String name);

    /** Throws an {@link IllegalArgumentException} naming the bad item if {@code spec} is no fault spec. */
    void checkFaultSpec(String spec);

    /**
     * Decodes an object another peer serialized, through the serial filter; {@code what} names the
     * bytes in an error ("a message from rank 2 (tag 5)").
     *
     * @throws ObjectRefusedException if the filter refused it
     * @throws CohortException if the bytes are no object this peer can read
     */
    <T> T readObject(byte[] bytes, String what);

    /** {@link Request#awaitAll(List)}. */
    void awaitAll(List<? extends Request> requests);

    /** {@link Request#awaitAny(List)}: returns once at least one request is done. */
    void awaitAny(List<? extends Request> requests);

    /** {@link Request#testAll(List)}. */
    boolean testAll(List<? extends Request> requests);

    /** The region {@link Profile#region} opens while a recording wants regions, else null. */
    Profile.Region region(String name);

    /** The loops of the predefined op called {@code name} ({@code "SUM"} ... {@code "MAXLOC"}). */
    Reduction reduction(String name);

    /**
     * The service of type {@code type} of the peer that owns {@code comm}, a communicator this
     * provider made: {@code io.cohort.deck.Deck}.
     *
     * @throws IllegalArgumentException if {@code comm} is not this provider's or it has no such service
     * @throws IllegalStateException if {@code comm} is closed
     */
    <T> T peerService(Communicator comm, Class<T> type);

    /** A predefined op's loops, as {@link Op#check} and {@link Op#apply} run them. */
    interface Reduction {
        /** Throws an {@link IllegalArgumentException} in one sentence if the op cannot combine such arrays. */
        void check(Object array, int count);

        /** {@code inout[inoutOffset + i] = in[inOffset + i] op inout[inoutOffset + i]} for i below {@code count}. */
        void apply(Object in, int inOffset, Object inout, int inoutOffset, int count);
    }
}
