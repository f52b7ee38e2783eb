import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Lets N MPJ Express niodev processes find each other without MPJ's daemons, ssh or mpjrun, so that
 * each can be started directly inside its own network namespace of the cluster in a box
 * (scripts/bench-collectives-box.sh). Our own code; only the exchange is MPJ's, as niodev 0.44
 * performs it in its init:
 * <ol>
 *   <li>every process is started as {@code java ... Main RANK CONF niodev app-args...}, where CONF is
 *       {@code #Number of Processes;N;#Protocol Switch Limit;L;#Server Name;HOST;#Server Port;PORT};</li>
 *   <li>it binds its two server ports, connects to HOST:PORT and sends, with {@link DataOutputStream}:
 *       the UTF string {@code "Sending Info"}, then its write port, read port and rank as ints;</li>
 *   <li>it reads one UTF string, {@code #Peer Information;host@readPort@writePort@rank;...} with one
 *       entry per process, and connects to its peers.</li>
 * </ol>
 * This class is that HOST:PORT side: it waits for all N registrations (the peer's host is the
 * address its connection came from), then answers every process with the whole table.
 * <p>
 * Usage: {@code MpjRendezvous BIND_ADDRESS N PORT_FILE [TIMEOUT_SECONDS]}: listens on an ephemeral
 * port of BIND_ADDRESS, writes that port to PORT_FILE (atomically), prints the table to stderr and
 * exits 0 once every process has it, or 1 with a message naming the missing ranks after the timeout (default 60 s).
 */
public final class MpjRendezvous {
    private MpjRendezvous() {
    }

    private record Peer(Socket socket, String host, int writePort, int readPort, int rank) {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            System.err.println("usage: MpjRendezvous BIND_ADDRESS N PORT_FILE [TIMEOUT_SECONDS]");
            System.exit(2);
        }
        InetAddress bind = InetAddress.getByName(args[0]);
        int n = Integer.parseInt(args[1]);
        Path portFile = Path.of(args[2]);
        int timeoutMillis = (args.length > 3 ? Integer.parseInt(args[3]) : 60) * 1000;
        long deadline = System.currentTimeMillis() + timeoutMillis;
        Map<Integer, Peer> peers = new TreeMap<>();
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress(bind, 0));
            Path tmp = portFile.resolveSibling(portFile.getFileName() + ".tmp");
            Files.writeString(tmp, server.getLocalPort() + "\n", StandardCharsets.US_ASCII);
            Files.move(tmp, portFile, StandardCopyOption.ATOMIC_MOVE);
            while (peers.size() < n) {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    fail(n, peers, "timed out after " + timeoutMillis / 1000 + " s");
                }
                server.setSoTimeout((int) left);
                Socket s;
                try {
                    s = server.accept();
                } catch (java.net.SocketTimeoutException e) {
                    fail(n, peers, "timed out after " + timeoutMillis / 1000 + " s");
                    return;
                }
                s.setSoTimeout(timeoutMillis);
                DataInputStream in = new DataInputStream(s.getInputStream());
                String hello = in.readUTF();
                if (!hello.equals("Sending Info")) {
                    fail(n, peers, "unexpected greeting '" + hello + "' from " + s.getRemoteSocketAddress());
                }
                int writePort = in.readInt();
                int readPort = in.readInt();
                int rank = in.readInt();
                if (rank < 0 || rank >= n || peers.containsKey(rank)) {
                    fail(n, peers, "bad or repeated rank " + rank + " from " + s.getRemoteSocketAddress());
                }
                peers.put(rank, new Peer(s, s.getInetAddress().getHostAddress(), writePort, readPort, rank));
            }
            List<String> entries = new ArrayList<>();
            for (Peer p : peers.values()) {
                entries.add(p.host() + "@" + p.readPort() + "@" + p.writePort() + "@" + p.rank());
            }
            String table = "#Peer Information;" + String.join(";", entries);
            System.err.println("MpjRendezvous: " + table);
            for (Peer p : peers.values()) {
                DataOutputStream out = new DataOutputStream(p.socket().getOutputStream());
                out.writeUTF(table);
                out.flush();
            }
            for (Peer p : peers.values()) {
                p.socket().close();
            }
        }
    }

    private static void fail(int n, Map<Integer, Peer> peers, String why) {
        List<Integer> missing = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            if (!peers.containsKey(r)) {
                missing.add(r);
            }
        }
        System.err.println("MpjRendezvous: " + why + "; ranks not registered: " + missing);
        System.exit(1);
    }
}
