package io.cohort.systest.programs;

import io.cohort.Cohort;
import io.cohort.Communicator;
import io.cohort.ObjectRefusedException;

import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Rank 0 sends rank 1 a TreeMap (tag 1), a LinkedList (tag 2) and a String (tag 3). Rank 1 prints
 * what each receive gave, or the sentence of its refusal; with {@code uncaught} it lets the first
 * refusal end the program, as a program that expects no refusal would.
 */
public final class SendsObjects {
    private SendsObjects() {
    }

    public static void main(String[] args) {
        boolean uncaught = args.length > 0 && args[0].equals("uncaught");
        try (Communicator world = Cohort.init()) {
            if (world.rank() == 0) {
                world.sendObject(1, 1, new TreeMap<>(Map.of(1, "one")));
                world.sendObject(1, 2, new LinkedList<>(List.of(2)));
                world.sendObject(1, 3, "three");
            } else if (world.rank() == 1) {
                for (int tag = 1; tag <= 3; tag++) {
                    if (uncaught) {
                        System.out.println("tag " + tag + ": " + world.recvObject(0, tag));
                        continue;
                    }
                    try {
                        System.out.println("tag " + tag + ": " + world.recvObject(0, tag));
                    } catch (ObjectRefusedException e) {
                        System.out.println("tag " + tag + " refused: " + e.getMessage());
                    }
                }
            }
            world.barrier();
        }
    }
}
