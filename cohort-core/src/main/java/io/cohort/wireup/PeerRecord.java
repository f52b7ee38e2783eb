package io.cohort.wireup;

import io.cohort.engine.MachineMap;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** What one peer publishes at start-up: who it is and where its transports listen. */
public final class PeerRecord {
    private final int rank;
    private final long pid;
    private final String host;
    private final Map<String, String> endpoints;
    private final String machine;
    private final int cores;
    private final String cpus;

    /** A record whose machine is its host and whose cores are unknown (0). */
    public PeerRecord(int rank, long pid, String host, Map<String, String> endpoints) {
        this(rank, pid, host, endpoints, host, 0, "");
    }

    /**
     * @param machine      what tells this peer's kernel from others' ({@link ProcessInfo#machine}):
     *                     peers with the same one share cores, whatever their host names
     * @param cores        how many processors this JVM may use ({@code availableProcessors()}: its
     *                     affinity, cpuset and CPU quota), 0 if unknown
     * @param cpus         which processors it may run on, as Linux lists them ({@code 0-3,6}), empty
     *                     if unknown
     */
    public PeerRecord(int rank, long pid, String host, Map<String, String> endpoints, String machine, int cores,
                      String cpus) {
        this.rank = rank;
        this.pid = pid;
        this.host = host;
        this.endpoints = Map.copyOf(endpoints);
        this.machine = machine;
        this.cores = cores;
        this.cpus = cpus;
    }

    public int rank() {
        return rank;
    }

    public long pid() {
        return pid;
    }

    public String host() {
        return host;
    }

    /** Transport name → address, e.g. {@code tcp → 10.0.0.7:41233}. */
    public Map<String, String> endpoints() {
        return endpoints;
    }

    public String machine() {
        return machine;
    }

    public int cores() {
        return cores;
    }

    public String cpus() {
        return cpus;
    }

    /** Where the peers of a table run, as {@link MachineMap} counts them. */
    public static MachineMap placement(PeerRecord[] table) {
        String[] machines = new String[table.length];
        int[] cores = new int[table.length];
        String[] cpus = new String[table.length];
        for (PeerRecord p : table) {
            machines[p.rank] = p.machine;
            cores[p.rank] = p.cores;
            cpus[p.rank] = p.cpus;
        }
        return MachineMap.of(machines, cores, cpus);
    }

    /** "rank 3 (pid 4711 on node7)", for error messages. */
    public String describe() {
        return "rank " + rank + " (pid " + pid + " on " + host + ")";
    }

    void writeTo(ControlFrame.BodyWriter w) {
        w.putLong(pid).putString(host).putInt(endpoints.size());
        for (Map.Entry<String, String> e : endpoints.entrySet()) {
            w.putString(e.getKey()).putString(e.getValue());
        }
        w.putString(machine).putInt(cores).putString(cpus);
    }

    static PeerRecord readFrom(int rank, ControlFrame.BodyReader r) throws IOException {
        long pid = r.getLong();
        String host = r.getString();
        int n = r.getInt();
        if (n < 0 || n > 64) {
            throw new IOException("malformed peer record (" + n + " endpoints)");
        }
        Map<String, String> endpoints = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            endpoints.put(r.getString(), r.getString());
        }
        String machine = r.getString();
        int cores = r.getInt();
        String cpus = r.getString();
        if (cores < 0) {
            throw new IOException("malformed peer record (" + cores + " cores)");
        }
        return new PeerRecord(rank, pid, host, endpoints, machine, cores, cpus);
    }

    /** Encodes a whole table, in rank order, as a {@link ControlMessageType#PEER_TABLE} frame. */
    public static ControlFrame table(PeerRecord[] records) {
        ControlFrame.BodyWriter w = ControlFrame.build(ControlMessageType.PEER_TABLE).putInt(records.length);
        for (PeerRecord p : records) {
            p.writeTo(w);
        }
        return w.frame();
    }

    public static PeerRecord[] parseTable(ControlFrame f) throws IOException {
        ControlFrame.BodyReader r = f.reader();
        int size = r.getInt();
        if (size < 1 || size > 1 << 20) {
            throw new IOException("malformed peer table (size " + size + ")");
        }
        PeerRecord[] records = new PeerRecord[size];
        for (int i = 0; i < size; i++) {
            records[i] = readFrom(i, r);
        }
        return records;
    }

    /** Encodes this peer's {@link ControlMessageType#PEER_HELLO}, with the connection's client nonce (hex). */
    public ControlFrame hello(String jobId, String nonce) {
        ControlFrame.BodyWriter w = ControlFrame.build(ControlMessageType.PEER_HELLO)
                .putString(jobId).putString(nonce).putInt(rank);
        writeTo(w);
        return w.frame();
    }

    /** Parses a hello into (jobId, nonce, record). */
    public static Hello parseHello(ControlFrame f) throws IOException {
        ControlFrame.BodyReader r = f.reader();
        String jobId = r.getString();
        String nonce = r.getString();
        int rank = r.getInt();
        return new Hello(jobId, nonce, readFrom(rank, r));
    }

    /** A parsed {@link ControlMessageType#PEER_HELLO}. */
    public static final class Hello {
        public final String jobId;
        /** The connection's client nonce, hex ({@link ControlAuth}). */
        public final String nonce;
        public final PeerRecord record;

        Hello(String jobId, String nonce, PeerRecord record) {
            this.jobId = jobId;
            this.nonce = nonce;
            this.record = record;
        }
    }
}
