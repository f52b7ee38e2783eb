package io.cohort.launch;

import io.cohort.wireup.ControlFrame;
import io.cohort.wireup.ControlMessageType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The body of a {@link ControlMessageType#LAUNCH} frame: the working directory and, per peer on
 * this host, its rank, its command line (without the io-manager's {@code setsid} prefix) and the
 * environment variables to add to the io-manager's own.
 */
public record LaunchRequest(String workingDirectory, List<Peer> peers) {
    /** One peer to start. */
    public record Peer(int rank, List<String> command, Map<String, String> environment) {
    }

    public ControlFrame frame() {
        ControlFrame.BodyWriter w = ControlFrame.build(ControlMessageType.LAUNCH)
                .putString(workingDirectory).putInt(peers.size());
        for (Peer p : peers) {
            w.putInt(p.rank()).putInt(p.command().size());
            p.command().forEach(w::putString);
            w.putInt(p.environment().size());
            p.environment().forEach((k, v) -> w.putString(k).putString(v));
        }
        return w.frame();
    }

    public static LaunchRequest parse(ControlFrame f) throws IOException {
        ControlFrame.BodyReader r = f.reader();
        String cwd = r.getString();
        int n = count(r.getInt());
        List<Peer> peers = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int rank = r.getInt();
            int argc = count(r.getInt());
            List<String> command = new ArrayList<>(argc);
            for (int a = 0; a < argc; a++) {
                command.add(r.getString());
            }
            int envc = count(r.getInt());
            Map<String, String> env = new LinkedHashMap<>();
            for (int e = 0; e < envc; e++) {
                env.put(r.getString(), r.getString());
            }
            peers.add(new Peer(rank, command, env));
        }
        return new LaunchRequest(cwd, peers);
    }

    private static int count(int n) throws IOException {
        if (n < 0 || n > 1 << 20) {
            throw new IOException("malformed LAUNCH frame (count " + n + ")");
        }
        return n;
    }
}
