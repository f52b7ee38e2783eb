package io.cohort.daemon;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.Member;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which member this daemon is: the one named by {@code --member}, else the one whose address is an
 * address of this host's interfaces. Addresses, not the host name: network namespaces (the cluster in a
 * box) share one host name, and a machine's name often resolves to 127.0.1.1.
 */
final class MemberResolver {
    private MemberResolver() {
    }

    static Member resolve(ClusterDb db, String named) throws ClusterConfigException {
        if (named != null) {
            return db.member(named).orElseThrow(() -> new ClusterConfigException("cluster " + db.name() + " has no member '"
                    + named + "' (its members: " + String.join(", ", db.memberOrder()) + ")"));
        }
        Set<InetAddress> local = localAddresses();
        List<Member> matches = new ArrayList<>();
        for (Member m : db.members().values()) {
            try {
                for (InetAddress a : InetAddress.getAllByName(m.address())) {
                    if (local.contains(a)) {
                        matches.add(m);
                        break;
                    }
                }
            } catch (UnknownHostException e) {
                // A member whose name does not resolve here is not this host.
            }
        }
        if (matches.size() == 1) {
            return matches.get(0);
        }
        if (matches.isEmpty()) {
            throw new ClusterConfigException("no member of cluster " + db.name() + " has an address of this host ("
                    + String.join(", ", local.stream().map(InetAddress::getHostAddress).sorted().toList()) + "); give --member NAME");
        }
        throw new ClusterConfigException("several members of cluster " + db.name() + " have addresses of this host ("
                + String.join(", ", matches.stream().map(Member::name).toList()) + "); give --member NAME");
    }

    static Set<InetAddress> localAddresses() throws ClusterConfigException {
        Set<InetAddress> out = new HashSet<>();
        try {
            for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                out.addAll(Collections.list(nif.getInetAddresses()));
            }
        } catch (SocketException e) {
            throw new ClusterConfigException("cannot list this host's network interfaces (" + e.getMessage() + "); give --member NAME");
        }
        return out;
    }
}
