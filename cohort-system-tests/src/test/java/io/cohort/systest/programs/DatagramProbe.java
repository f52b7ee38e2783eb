package io.cohort.systest.programs;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.MulticastSocket;
import java.net.NetworkInterface;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A tiny UDP probe for the cluster in a box (not a Cohort program).
 *
 * <pre>
 *  listen PORT GROUP PAYLOAD...   join GROUP on the host's network interface, print "listening",
 *                                 then "got PAYLOAD from ADDRESS" for the first copy of each
 *                                 expected payload; exit 0 once all arrived, 1 after 30 s
 *  send PORT DEST=PAYLOAD...      send each payload three times to DEST (unicast, broadcast or
 *                                 multicast with TTL 1), print "sent"
 * </pre>
 */
public final class DatagramProbe {
    private static final int GIVE_UP_MILLIS = 30_000;

    private DatagramProbe() {
    }

    public static void main(String[] args) throws IOException {
        int port = Integer.parseInt(args[1]);
        if (args[0].equals("listen")) {
            System.exit(listen(port, InetAddress.getByName(args[2]), List.of(args).subList(3, args.length)) ? 0 : 1);
        }
        try (MulticastSocket s = new MulticastSocket()) {
            s.setBroadcast(true);
            s.setTimeToLive(1);
            for (int i = 2; i < args.length; i++) {
                int eq = args[i].indexOf('=');
                byte[] payload = args[i].substring(eq + 1).getBytes(StandardCharsets.UTF_8);
                InetSocketAddress dest = new InetSocketAddress(InetAddress.getByName(args[i].substring(0, eq)), port);
                for (int copy = 0; copy < 3; copy++) {
                    s.send(new DatagramPacket(payload, payload.length, dest));
                }
            }
        }
        System.out.println("sent");
    }

    private static boolean listen(int port, InetAddress group, List<String> expected) throws IOException {
        Set<String> missing = new LinkedHashSet<>(expected);
        try (MulticastSocket s = new MulticastSocket(port)) { // bound to the wildcard: gets broadcasts too
            s.joinGroup(new InetSocketAddress(group, 0), hostInterface());
            s.setSoTimeout(GIVE_UP_MILLIS);
            System.out.println("listening");
            System.out.flush();
            byte[] buf = new byte[1500];
            while (!missing.isEmpty()) {
                DatagramPacket p = new DatagramPacket(buf, buf.length);
                try {
                    s.receive(p);
                } catch (SocketTimeoutException e) {
                    System.out.println("missing " + missing);
                    return false;
                }
                String text = new String(p.getData(), 0, p.getLength(), StandardCharsets.UTF_8);
                if (missing.remove(text)) {
                    System.out.println("got " + text + " from " + p.getAddress().getHostAddress());
                    System.out.flush();
                }
            }
        }
        return true;
    }

    /** The one interface of a box host that is up, not loopback and multicast-capable (eth0). */
    private static NetworkInterface hostInterface() throws IOException {
        for (NetworkInterface i : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (i.isUp() && !i.isLoopback() && i.supportsMulticast()) {
                return i;
            }
        }
        throw new IOException("no multicast-capable interface is up");
    }
}
