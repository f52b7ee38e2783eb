package io.cohort.comm;

import io.cohort.BroadcastDomain;
import io.cohort.CohortException;
import io.cohort.Request;
import io.cohort.broadcast.eqa.BroadcastProtocol;
import io.cohort.broadcast.eqa.EqaAgentThread;
import io.cohort.broadcast.eqa.EqaContext;
import io.cohort.broadcast.eqa.EqaDomain;
import io.cohort.broadcast.pcode.DomainFactory;
import io.cohort.broadcast.pcode.PcodeContext;
import io.cohort.broadcast.pcode.PcodeDomain;
import io.cohort.engine.DomainPolling;
import io.cohort.idle.IdleStrategies;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Opens a communicator's broadcast domain, collectively: every peer binds its sockets and sends
 * every other its unicast address (or the reason it could not, so that no peer waits for an
 * address that never comes) over the collective context, then makes the domain of the job's
 * protocol ({@link BroadcastProtocol#configured()}): a {@link PcodeDomain}, polled by the peer's
 * progress agent, or an {@link EqaDomain}, driven by its own agent thread, which idles as the
 * peer's idle strategy does. A bad {@code cohort.eqa.*} setting fails the opening at every peer
 * alike, with the setting named.
 *
 * <p>Threads: the thread that opens the domain, under the communicator's lock.
 */
final class DomainOpening {
    private final EngineCommunicator comm;
    private final DomainFactory factory;
    private final DomainPolling polling;
    private final Consumer<String> verbose;

    DomainOpening(EngineCommunicator comm, DomainFactory factory, DomainPolling polling, Consumer<String> verbose) {
        this.comm = comm;
        this.factory = factory;
        this.polling = polling;
        this.verbose = verbose;
    }

    BroadcastDomain open() {
        BroadcastProtocol protocol = null;
        EqaContext eqa = null;
        DomainFactory.Binding binding = null;
        String mine;
        CohortException localFailure = null;
        try {
            protocol = BroadcastProtocol.configured();
            if (protocol == BroadcastProtocol.EQA) {
                eqa = EqaContext.fromSystemProperties();
                binding = factory.forEqa().bind();
            } else {
                binding = factory.bind();
            }
            mine = "ok " + binding.address();
        } catch (CohortException e) {
            localFailure = e;
            mine = "failed " + e.getMessage();
        } catch (IllegalArgumentException e) {
            localFailure = new CohortException("cannot open the broadcast domain: " + e.getMessage());
            mine = "failed " + localFailure.getMessage();
        }
        String[] addresses = new String[comm.size()];
        String remoteFailure = null;
        try {
            byte[] payload = mine.getBytes(StandardCharsets.UTF_8);
            Request[] sends = new Request[comm.size()];
            for (int p = 0; p < comm.size(); p++) {
                if (p != comm.rank()) {
                    sends[p] = comm.engine.send(comm.toEngine(p), comm.collectiveContext, EngineCommunicator.TAG_DOMAIN,
                            ByteBuffer.wrap(payload));
                }
            }
            for (int p = 0; p < comm.size(); p++) {
                String s = p == comm.rank() ? mine : new String(comm.receiveCollective(p, EngineCommunicator.TAG_DOMAIN),
                        StandardCharsets.UTF_8);
                if (s.startsWith("ok ")) {
                    addresses[p] = s.substring(3);
                } else if (remoteFailure == null && p != comm.rank()) {
                    remoteFailure = "rank " + p + " could not open it: " + s.substring(s.indexOf(' ') + 1);
                }
            }
            for (Request r : sends) {
                if (r != null) {
                    r.await();
                }
            }
        } catch (RuntimeException e) {
            if (binding != null) {
                binding.abort();
            }
            throw e;
        }
        if (localFailure != null) {
            throw localFailure;
        }
        if (remoteFailure != null) {
            binding.abort();
            throw new CohortException("cannot open the broadcast domain: " + remoteFailure);
        }
        if (protocol == BroadcastProtocol.EQA) {
            PcodeContext timers = PcodeContext.fromSystemProperties(); // the call time-out and linger of every domain
            String idle = IdleStrategies.configured().get().name();
            EqaDomain d = EqaDomain.open(binding, addresses, eqa, EqaAgentThread.Idle.forStrategy(idle),
                    timers.callTimeoutNanos(), timers.lingerNanos(),
                    memory -> verbose.accept("cohort: " + comm + "'s eqa domain: " + memory));
            if (comm.worldRanks != null) {
                d.worldRanks(comm.worldRanks); // the stacks name the ranks a call waits for as the job does
            }
            verbose.accept("cohort: " + comm + " broadcasts over eqa (mode " + eqa.mode().name().toLowerCase(java.util.Locale.ROOT)
                    + ", " + eqa.bufferDesign().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-')
                    + " buffer, window " + eqa.window() + ")");
            return d; // its own agent drives it: the progress agent need not poll it
        }
        PcodeDomain d = binding.complete(addresses);
        if (comm.worldRanks != null) {
            d.worldRanks(comm.worldRanks); // the stacks name the ranks a call waits for as the job does
        }
        d.onAwaitedClosed(p -> comm.engine.noteAwaitedClosed(comm.toEngine(p)));
        polling.startPolling(d);
        verbose.accept("cohort: " + comm + " broadcasts over pcode");
        return d;
    }
}
