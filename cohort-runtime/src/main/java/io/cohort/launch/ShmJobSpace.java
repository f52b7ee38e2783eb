package io.cohort.launch;

import io.cohort.collective.SharedSegmentBytes;
import io.cohort.transport.shm.ShmJobDirectory;
import io.cohort.transport.shm.ShmSegmentFile;
import io.cohort.transport.shm.ShmSpace;
import io.cohort.transport.shm.ShmTransport;
import io.cohort.wireup.JobEnvironment;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The io-manager's part in its peers' shared memory: before any of them starts, it checks that
 * {@code /dev/shm} can hold their rings and collective segment and makes the job's private
 * directory ({@link ShmJobDirectory}), which every peer is told of in its environment; when the
 * job ends it removes the directory with whatever a killed peer left in it.
 *
 * <p>The io-manager does it, rather than a peer, because it alone knows every peer of this host
 * before they run and outlives them all: one check says the one sentence, and the clean-up
 * does not depend on which peer died when.
 */
final class ShmJobSpace {
    private ShmJobSpace() {
    }

    /**
     * Checks the space and makes the directory for the peers of {@code request}; null where they
     * will not use shared memory (one local peer, or a transport other than auto or shm).
     *
     * @throws IOException one sentence: the directory is too small (naming it, the bytes needed
     *                     and free) or cannot be made
     */
    static Path prepare(LaunchRequest request) throws IOException {
        List<LaunchRequest.Peer> peers = request.peers();
        if (peers.size() < 2) {
            return null;
        }
        Map<String, String> env = peers.get(0).environment();
        String transport = env.getOrDefault(JobEnvironment.TRANSPORT, "auto").toLowerCase(java.util.Locale.ROOT);
        if (!transport.equals("auto") && !transport.equals("shm")) {
            return null;
        }
        List<String> command = peers.get(0).command();
        int ringBytes = ringBytes(property(command, ShmTransport.RING_BYTES_PROP_NAME));
        int size = size(env.get(JobEnvironment.SIZE), peers.size());
        // The world's collective segment is made on a host only if every peer of the job is on it.
        long collective = peers.size() == size
                ? SharedSegmentBytes.of(size, property(command, SharedSegmentBytes.AREA_BYTES_PROP_NAME)) : 0;
        Path base = ShmSegmentFile.defaultDirectory();
        ShmSpace.check(base, ShmSpace.needed(peers.size(), ringBytes, collective));
        return ShmJobDirectory.create(base);
    }

    /**
     * The value of {@code -Dname=} on a peer's command line (the last one wins, as for the JVM),
     * or null. Only the JVM's options count: they come before the main class.
     */
    static String property(List<String> command, String name) {
        String prefix = "-D" + name + "=";
        String value = null;
        for (String arg : command) {
            if (arg.equals(PeerCommandLines.PEER_MAIN)) {
                break;
            }
            if (arg.startsWith(prefix)) {
                value = arg.substring(prefix.length());
            }
        }
        return value;
    }

    /** The ring size the peers will use; a bad value is theirs to report, and counts as the default here. */
    private static int ringBytes(String v) {
        try {
            return ShmTransport.ringBytes(v);
        } catch (RuntimeException e) {
            return ShmTransport.RING_BYTES_DEFAULT;
        }
    }

    private static int size(String v, int fallback) {
        try {
            return v == null ? fallback : Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            return fallback; // the peers say what is wrong with it
        }
    }
}
