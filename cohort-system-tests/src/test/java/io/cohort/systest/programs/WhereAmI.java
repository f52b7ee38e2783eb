package io.cohort.systest.programs;

import java.net.Inet4Address;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;
import java.util.TreeSet;

/**
 * Never calls the API: prints "rank R host H local L/S addresses A,B" with the IPv4 addresses of
 * the network interfaces this process sees, so a test can tell which host it really runs on.
 */
public final class WhereAmI {
    private WhereAmI() {
    }

    public static void main(String[] args) throws SocketException {
        TreeSet<String> addresses = new TreeSet<>();
        for (NetworkInterface i : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!i.isLoopback()) {
                Collections.list(i.getInetAddresses()).stream().filter(a -> a instanceof Inet4Address)
                        .forEach(a -> addresses.add(a.getHostAddress()));
            }
        }
        System.out.println("rank " + System.getenv("COHORT_RANK") + " host " + System.getenv("COHORT_HOST") + " local "
                + System.getenv("COHORT_LOCAL_RANK") + "/" + System.getenv("COHORT_LOCAL_SIZE") + " addresses "
                + String.join(",", addresses));
    }
}
