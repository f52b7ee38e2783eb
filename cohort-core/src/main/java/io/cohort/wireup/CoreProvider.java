package io.cohort.wireup;

import io.cohort.CohortProvider;
import io.cohort.Communicator;
import io.cohort.LocalCohort;
import io.cohort.Profile;
import io.cohort.Request;
import io.cohort.collective.OpKernels;
import io.cohort.comm.EngineCommunicator;
import io.cohort.deck.Deck;
import io.cohort.deck.service.PeerDeck;
import io.cohort.engine.Payloads;
import io.cohort.engine.ProgressEngine;
import io.cohort.engine.RequestWaiter;
import io.cohort.idle.IdleStrategies;
import io.cohort.profile.Profiling;
import io.cohort.profile.RegionSpan;
import io.cohort.transport.fault.FaultPlan;

import java.time.Duration;
import java.util.List;

/**
 * cohort-core's {@link CohortProvider}, which the API loads by this class's name: the API's entry
 * points as the rest of cohort-core implements them. The top of the implementation, so it may use every
 * package below it; nothing of the implementation depends on it.
 *
 * <p>Threads: any; {@link #init} and {@link #closeIfOpen} hold the class's lock.
 */
public final class CoreProvider implements CohortProvider {
    /** The world {@link #init} made, once per process (per loader of the API, as before the provider). */
    private static EngineCommunicator world;

    /** For the API, which makes the one instance. */
    public CoreProvider() {
    }

    /**
     * Under {@code cohort run} this connects to the launcher, opens the transports, exchanges
     * addresses with every other peer and returns the world communicator; run as a plain
     * {@code java} program, a world of one peer.
     */
    @Override
    public Communicator init() {
        synchronized (CoreProvider.class) {
            if (world != null) {
                if (world.isClosed()) {
                    throw new IllegalStateException("Cohort.init() called after the world communicator was closed");
                }
                return world;
            }
            if (JobEnvironment.isLaunched(System.getenv())) {
                world = PeerRuntime.start(JobEnvironment.from(System.getenv()));
            } else {
                ProgressEngine engine = new ProgressEngine(0, 1, IdleStrategies.configured());
                PeerDeck.install(engine);
                world = new EngineCommunicator(engine, 0, new Runnable() {
                    @Override
                    public void run() {
                        engine.shutdown();
                    }
                });
                world.recordJobStart("single", "localhost");
            }
            return world;
        }
    }

    @Override
    public void closeIfOpen() {
        synchronized (CoreProvider.class) {
            if (world != null && !world.isClosed()) {
                world.close();
            }
        }
    }

    @Override
    public void runLocal(int size, String transport, String idle, String fault, int cores, Duration timeout,
                         LocalCohort.PeerBody body) {
        LocalJob job = LocalJob.builder().size(size).transport(transport).fault(fault).cores(cores).timeout(timeout);
        if (idle != null) {
            job.idle(idle);
        }
        job.run(body);
    }

    @Override
    public void checkIdleStrategy(String name) {
        IdleStrategies.factory(name);
    }

    @Override
    public void checkFaultSpec(String spec) {
        FaultPlan.parse(spec);
    }

    @Override
    public <T> T readObject(byte[] bytes, String what) {
        return Payloads.toObject(bytes, what);
    }

    @Override
    public void awaitAll(List<? extends Request> requests) {
        RequestWaiter.awaitAll(requests);
    }

    @Override
    public void awaitAny(List<? extends Request> requests) {
        RequestWaiter.awaitAny(requests);
    }

    @Override
    public boolean testAll(List<? extends Request> requests) {
        return RequestWaiter.testAll(requests);
    }

    @Override
    public Profile.Region region(String name) {
        RegionSpan e = Profiling.startRegion();
        return e == null ? null : new RecordedRegion(e, name);
    }

    @Override
    public Reduction reduction(String name) {
        return OpKernels.reduction(name);
    }

    @Override
    public <T> T peerService(Communicator comm, Class<T> type) {
        if (type == Deck.class) {
            return type.cast(PeerDeck.of(comm));
        }
        throw new IllegalArgumentException("a peer has no service of type " + type.getName());
    }

    /** A region a recording wants: its event, ended and committed at the first close. */
    private static final class RecordedRegion implements Profile.Region {
        private final String name;
        private RegionSpan event;

        RecordedRegion(RegionSpan event, String name) {
            this.event = event;
            this.name = name;
        }

        @Override
        public void close() {
            RegionSpan e = event;
            if (e != null) {
                event = null;
                e.finish(name);
            }
        }
    }
}
