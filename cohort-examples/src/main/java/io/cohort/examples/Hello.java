package io.cohort.examples;

import io.cohort.Cohort;
import io.cohort.Communicator;

import java.net.InetAddress;

/** Every peer says hello with its rank and host. */
public final class Hello {
    private Hello() {
    }

    public static void main(String[] args) throws Exception {
        try (Communicator world = Cohort.init()) {
            System.out.println("hello from rank " + world.rank() + " of " + world.size() + " on "
                    + InetAddress.getLocalHost().getHostName());
        }
    }
}
