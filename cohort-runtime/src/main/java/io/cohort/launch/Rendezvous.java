package io.cohort.launch;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the controller listens, and which of its addresses each host is told.
 *
 * <p>With {@code --controller-address} that address, for everyone. Otherwise, per host: loopback
 * if the agent says the host is this machine ({@code local}), else the local address the kernel
 * would send from to reach the host's address (found by connecting a UDP socket, which sends
 * nothing). When every host is reached from the same address the socket is bound on that one
 * address only; when they differ (a controller with a leg in several networks) it is bound on the
 * wildcard address and each host still gets the address that routes to it.
 */
record Rendezvous(InetSocketAddress bind, Map<String, InetAddress> advertised) {

    static Rendezvous choose(HostPlan plan) throws LaunchException {
        Map<String, InetAddress> perHost = new LinkedHashMap<>();
        List<String> hosts = plan.placement().hosts();
        if (plan.controllerAddress() != null) {
            hosts.forEach(h -> perHost.put(h, plan.controllerAddress()));
            return new Rendezvous(new InetSocketAddress(plan.controllerAddress(), 0), perHost);
        }
        for (String h : hosts) {
            InetAddress target;
            try {
                target = plan.agent().address(h);
            } catch (IOException e) {
                throw new LaunchException(e.getMessage(), e);
            }
            perHost.put(h, target.isLoopbackAddress() ? InetAddress.getLoopbackAddress() : sourceToward(h, target));
        }
        boolean one = perHost.values().stream().distinct().count() == 1;
        InetSocketAddress bind = one ? new InetSocketAddress(perHost.values().iterator().next(), 0) : new InetSocketAddress(0);
        return new Rendezvous(bind, perHost);
    }

    /** The local address the routing table picks for packets to {@code target}. */
    static InetAddress sourceToward(String host, InetAddress target) throws LaunchException {
        try (DatagramSocket probe = new DatagramSocket()) {
            probe.connect(target, 9); // UDP connect only chooses a route and a source address; nothing is sent
            InetAddress local = probe.getLocalAddress();
            if (local == null || local.isAnyLocalAddress()) {
                throw new IOException("no local address routes there");
            }
            return local;
        } catch (IOException | RuntimeException e) {
            throw new LaunchException("no route from this machine to host " + host + " (" + target.getHostAddress()
                    + "); give --controller-address with an address of this machine that it reaches", e);
        }
    }

    /** "10.213.7.254:41233" for one host. */
    String addressFor(String host, int port) {
        return advertised.get(host).getHostAddress() + ":" + port;
    }
}
