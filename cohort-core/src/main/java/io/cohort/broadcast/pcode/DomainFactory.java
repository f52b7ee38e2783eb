package io.cohort.broadcast.pcode;

import io.cohort.DomainCounters;
import io.cohort.auth.JobSecret;

import io.cohort.CohortException;
import io.cohort.transport.fault.DatagramPort;
import io.cohort.transport.fault.FaultInjectingPort;
import io.cohort.transport.fault.FaultPlan;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketAddress;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * Opens the job's PCODE domain for one peer, in two steps around an exchange the caller makes:
 * {@link #bind} opens this peer's sockets on the interface that carries its job address and says
 * which unicast address the others must use; once every peer's address is known,
 * {@link Binding#complete} makes the domain.
 *
 * <p>The medium is the job's multicast group ({@link MulticastGroup}, derived from the transport
 * key) unless {@value #MEDIUM_PROP_NAME}{@code =broadcast} picks the subnet broadcast address of
 * that interface ({@link SubnetBroadcast}). The job's datagram fault plan, if any, goes under both
 * sockets, seeded per rank and socket so that a failing run replays.
 */
public final class DomainFactory {
    /** {@code multicast} (default) or {@code broadcast}. */
    public static final String MEDIUM_PROP_NAME = "cohort.bcast.medium";
    /** {@code pcode} (default) or {@code eqa}: which protocol the domains run (io.cohort.broadcast.eqa.BroadcastProtocol checks it). */
    public static final String PROTOCOL_PROP_NAME = "cohort.bcast.protocol";
    /** Fault-plan streams of the domain's sockets start here, apart from the udp transport's. */
    private static final long FAULT_STREAM_BASE = 1L << 32;

    private final int rank;
    private final int size;
    private final JobSecret secret;
    private final long key;
    /**
     * The whole name of this domain's members, from which frame keys are derived
     * ({@link #authenticator}): empty for the job's world, and for each communicator step its
     * context, its member count and its members' job ranks. {@link #key} is a 64-bit hash of the
     * same, enough to spread groups and ports but not to keep frame keys apart.
     */
    private final long[] scope;
    private final InetAddress local;
    private final FaultPlan faults;
    private final boolean alone;
    /** The drops of every domain this factory and those derived from it opened: the job's drop report reads them. */
    private final PcodeCounters drops;

    /**
     * @param local this peer's address in the job (the one its other transports use); its interface
     *              carries the domain's traffic
     * @param alone no other peer of the job runs on this host (multicast loopback is then switched off)
     */
    public DomainFactory(int rank, int size, JobSecret secret, InetAddress local, FaultPlan faults, boolean alone) {
        this(rank, size, secret, secret.jobTag(), new long[0], local, faults, alone, new PcodeCounters());
    }

    private DomainFactory(int rank, int size, JobSecret secret, long key, long[] scope, InetAddress local, FaultPlan faults,
                          boolean alone, PcodeCounters drops) {
        this.secret = secret;
        this.scope = scope;
        this.drops = drops;
        this.alone = alone;
        this.rank = rank;
        this.size = size;
        this.key = key;
        this.local = local;
        this.faults = faults;
    }

    /**
     * The factory of a communicator's own domain: its members in their communicator ranks, and a key
     * (hence a wire tag and, unless one is configured, a multicast group and port) derived from the
     * communicator's context and its members' job ranks. Two communicators that share a peer have
     * different contexts; two with disjoint members may share a context but not their members, so
     * their traffic never mixes either way.
     */
    public DomainFactory forCommunicator(int context, int[] worldRanks, int rank) {
        long h = key ^ (context * 0x9E3779B97F4A7C15L);
        for (int r : worldRanks) {
            h = Long.rotateLeft(h ^ (r * 0xC2B2AE3D27D4EB4FL), 27) * 0x165667B19E3779F9L;
        }
        long[] sc = java.util.Arrays.copyOf(scope, scope.length + 2 + worldRanks.length);
        sc[scope.length] = context;
        sc[scope.length + 1] = worldRanks.length; // so that no two steps' tuples run together
        for (int i = 0; i < worldRanks.length; i++) {
            sc[scope.length + 2 + i] = worldRanks[i];
        }
        return new DomainFactory(rank, worldRanks.length, secret, h, sc, local, faults, alone, drops);
    }

    /**
     * The factory of the same members' EQA domain ({@code --bcast-protocol eqa}): the same network,
     * medium, secret and faults, and a key of its own, so that its multicast group, port and frame
     * keys differ from any PCODE domain's.
     */
    public DomainFactory forEqa() {
        return new DomainFactory(rank, size, secret, Long.rotateLeft(key, 17) ^ 0x4551_4131_4551_4131L, scope, local,
                faults, alone, drops);
    }

    /** This peer's rank among the domain's members. */
    public int rank() {
        return rank;
    }

    /** The domain's members. */
    public int size() {
        return size;
    }

    /** The domain's key: its group and port derive from it, and so must the key of its frames' tags. */
    public long key() {
        return key;
    }

    /** The job's secret, from which frame keys are derived. */
    public JobSecret secret() {
        return secret;
    }

    /**
     * A frame signer for {@code purpose} keyed with HMAC-SHA-256 from the job secret over the
     * purpose and this domain's whole scope (each communicator's context and every member's job
     * rank), not through the 64-bit {@link #key}: two communicators whose keys collide still sign
     * apart. One per thread, as {@link JobSecret#authenticator} says.
     */
    public io.cohort.auth.FrameAuthenticator authenticator(String purpose) {
        return secret.authenticator(purpose, scope);
    }

    /**
     * The datagrams dropped by every domain this factory and those derived from it opened, by reason
     * (only the {@code DROPPED_*} counters move), whether those domains are open or closed.
     */
    public DomainCounters drops() {
        return drops.snapshot();
    }

    /**
     * Adds the drops of a domain this factory did not make itself (an EQA domain on its binding, as
     * it closes) to the job's totals: only the {@code DROPPED_*} counters of {@code counters} count.
     */
    public void countDrops(DomainCounters counters) {
        for (DomainCounters.Counter c : DomainCounters.Counter.values()) {
            if (c.ordinal() >= DomainCounters.Counter.DROPPED_FOREIGN.ordinal() && counters.get(c) != 0) {
                drops.add(c, counters.get(c)); // the drops are last in the enum, as PcodeCounters.add says
            }
        }
    }

    /** Every {@code cohort.bcast.*} setting there is. */
    public static final List<String> SETTING_NAMES = List.of(MEDIUM_PROP_NAME, PROTOCOL_PROP_NAME, MulticastGroup.GROUP_PROP_NAME,
            PcodeContext.DATAGRAM_BYTES_PROP_NAME, PcodeContext.SENT_BUFFER_FRAMES_PROP_NAME,
            PcodeContext.P2P_BUFFER_FRAMES_PROP_NAME, PcodeContext.EARLY_BUFFER_FRAMES_PROP_NAME,
            PcodeContext.FLOW_WINDOW_PROP_NAME, PcodeContext.STATUS_WINDOW_PROP_NAME,
            PcodeContext.STATUS_IDLE_MICROS_PROP_NAME, PcodeContext.REQUEST_NACK_DELAY_MICROS_PROP_NAME,
            PcodeContext.GAP_NACK_DELAY_MICROS_PROP_NAME, PcodeContext.NACK_INTERVAL_MICROS_PROP_NAME,
            PcodeContext.NACK_CEILING_MICROS_PROP_NAME,
            PcodeContext.RESEND_HOLD_MICROS_PROP_NAME, PcodeContext.RESEND_BURST_PROP_NAME,
            PcodeContext.CALL_TIMEOUT_MILLIS_PROP_NAME, PcodeContext.SPINS_PROP_NAME, PcodeContext.YIELDS_PROP_NAME,
            PcodeContext.LINGER_MILLIS_PROP_NAME);

    /**
     * Checks {@code cohort.bcast.*} settings without opening anything (the launcher calls it, so a
     * bad value costs one line before any peer starts): every name must exist and every value be valid.
     *
     * @throws IllegalArgumentException naming the first bad setting
     */
    public static void checkSettings(Properties p) {
        for (String name : p.stringPropertyNames()) {
            if (name.startsWith("cohort.bcast.") && !SETTING_NAMES.contains(name)) {
                throw new IllegalArgumentException("-D" + name + ": no such broadcast-domain setting; see docs/architecture.md");
            }
        }
        PcodeContext.from(p);
        medium(p);
        String group = p.getProperty(MulticastGroup.GROUP_PROP_NAME);
        if (group != null && !group.isBlank()) {
            MulticastGroup.parse(group);
        }
    }

    private static String medium(Properties p) {
        String medium = p.getProperty(MEDIUM_PROP_NAME, "multicast").trim().toLowerCase(Locale.ROOT);
        if (!medium.equals("multicast") && !medium.equals("broadcast")) {
            throw new io.cohort.BadSettingException("setting " + MEDIUM_PROP_NAME + "=" + medium
                    + " names no medium; choose multicast or broadcast");
        }
        return medium;
    }

    /** Settings are checked, then this peer's sockets bound. A bad setting or a missing interface: one sentence. */
    public Binding bind() {
        PcodeContext ctx;
        String medium;
        boolean datagramConfigured;
        try {
            datagramConfigured = PcodeContext.datagramBytesConfigured(System.getProperties());
            ctx = PcodeContext.fromSystemProperties();
            ctx.validate(size);
            medium = medium(System.getProperties());
        } catch (IllegalArgumentException e) {
            throw new CohortException("cannot open the broadcast domain: " + e.getMessage());
        }
        try {
            NetworkInterface nif = local.isLoopbackAddress() ? MulticastGroup.loopbackInterface()
                    : NetworkInterface.getByInetAddress(local);
            if (nif == null) {
                throw new IOException("no network interface has the address " + local.getHostAddress());
            }
            DatagramPort[] ports;
            SocketAddress target;
            if (medium.equals("multicast")) {
                MulticastGroup group = MulticastGroup.forJob(key);
                ports = group.open(local, nif, !alone);
                target = group.address();
            } else {
                SubnetBroadcast b = SubnetBroadcast.forJob(broadcastAddressOf(nif), key);
                ports = b.open(new InetSocketAddress(local, 0));
                target = b.address();
            }
            int offer = datagramConfigured ? ctx.datagramBytes : PcodeContext.datagramBytesForMtu(nif.getMTU());
            return new Binding(ctx, ports, target, offer);
        } catch (IOException e) {
            throw new CohortException("cannot open the broadcast domain of rank " + rank + " on "
                    + local.getHostAddress() + ": " + e.getMessage(), e);
        }
    }

    private InetAddress broadcastAddressOf(NetworkInterface nif) throws IOException {
        if (local.isLoopbackAddress()) {
            return InetAddress.getByName("127.255.255.255");
        }
        for (InterfaceAddress a : nif.getInterfaceAddresses()) {
            if (a.getAddress().equals(local) && a.getBroadcast() instanceof Inet4Address) {
                return a.getBroadcast();
            }
        }
        throw new IOException("interface " + nif.getName() + " has no IPv4 broadcast address for "
                + local.getHostAddress() + "; use the multicast medium");
    }

    /** A non-negative number, or -1. */
    private static int parse(String digits) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * This peer's bound sockets, waiting for the others' addresses. Each peer also offers a datagram
     * size (the setting, or what its interface's MTU carries), and the domain uses the smallest
     * offer: every peer computes it from the same list, and no peer is sent a datagram its link
     * would have to fragment.
     */
    public final class Binding {
        private final PcodeContext ctx;
        private final DatagramPort[] ports;
        private final SocketAddress target;
        private final int datagramOffer;

        private Binding(PcodeContext ctx, DatagramPort[] ports, SocketAddress target, int datagramOffer) {
            this.ctx = ctx;
            this.ports = ports;
            this.target = target;
            this.datagramOffer = datagramOffer;
        }

        /** The unicast address the other peers send to and this peer's datagram offer: {@code a.b.c.d:port/bytes}. */
        public String address() {
            InetSocketAddress a = (InetSocketAddress) ports[0].localAddress();
            return a.getAddress().getHostAddress() + ":" + a.getPort() + "/" + datagramOffer;
        }

        /** The factory this binding came from. */
        public DomainFactory factory() {
            return DomainFactory.this;
        }

        /**
         * The sockets and addresses of every peer's {@link #address()}, indexed by rank, for a domain
         * other than PCODE (EQA's): no datagram size is agreed, and the job's fault plan goes under
         * both sockets as for PCODE. Closes the sockets and says why in one sentence where an address
         * is not usable.
         */
        public DomainEndpoints endpoints(String[] addresses) {
            SocketAddress[] peers = new SocketAddress[size];
            for (int r = 0; r < size; r++) {
                String a = addresses[r];
                int slash = a == null ? -1 : a.lastIndexOf('/');
                int colon = slash < 0 ? -1 : a.lastIndexOf(':', slash);
                int port = colon < 1 ? -1 : parse(a.substring(colon + 1, slash));
                if (port < 0 || port > 0xFFFF) {
                    abort();
                    throw new CohortException("rank " + r + " sent no usable broadcast-domain address: " + a);
                }
                peers[r] = new InetSocketAddress(a.substring(0, colon), port);
            }
            DatagramPort unicast = ports[0];
            DatagramPort group = ports[1];
            if (faults != null && !faults.isNone()) {
                unicast = new FaultInjectingPort(unicast, faults, faults.seedFor(FAULT_STREAM_BASE + 2L * rank));
                group = new FaultInjectingPort(group, faults, faults.seedFor(FAULT_STREAM_BASE + 2L * rank + 1));
            }
            return new DomainEndpoints(unicast, group, target, peers);
        }

        /** Makes the domain from every peer's {@link #address()}, indexed by rank. */
        public PcodeDomain complete(String[] addresses) {
            SocketAddress[] peers = new SocketAddress[size];
            int datagram = Integer.MAX_VALUE;
            for (int r = 0; r < size; r++) {
                String a = addresses[r];
                int slash = a == null ? -1 : a.lastIndexOf('/');
                int colon = slash < 0 ? -1 : a.lastIndexOf(':', slash);
                int port = colon < 1 ? -1 : parse(a.substring(colon + 1, slash));
                int offer = slash < 0 ? -1 : parse(a.substring(slash + 1));
                if (port < 0 || port > 0xFFFF || offer < 0) {
                    abort();
                    throw new CohortException("rank " + r + " sent no usable broadcast-domain address: " + a);
                }
                peers[r] = new InetSocketAddress(a.substring(0, colon), port);
                datagram = Math.min(datagram, offer);
            }
            try {
                ctx.datagramBytes(datagram);
                ctx.validate(size);
            } catch (IllegalArgumentException e) {
                abort();
                throw new CohortException("cannot open the broadcast domain: the peers' links carry datagrams of "
                        + datagram + " bytes: " + e.getMessage());
            }
            DatagramPort unicast = ports[0];
            DatagramPort group = ports[1];
            if (faults != null && !faults.isNone()) {
                unicast = new FaultInjectingPort(unicast, faults, faults.seedFor(FAULT_STREAM_BASE + 2L * rank));
                group = new FaultInjectingPort(group, faults, faults.seedFor(FAULT_STREAM_BASE + 2L * rank + 1));
            }
            PcodeDomain domain = new PcodeDomain(rank, size, authenticator("bcast"), key, ctx,
                    new DomainEndpoints(unicast, group, target, peers));
            domain.counters.countDropsAlsoIn(drops);
            return domain;
        }

        /** Closes the sockets (the exchange failed). */
        public void abort() {
            for (DatagramPort p : ports) {
                p.close();
            }
        }
    }
}
