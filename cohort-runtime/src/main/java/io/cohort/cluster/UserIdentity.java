package io.cohort.cluster;

import java.io.IOException;
import java.util.Objects;
import java.util.Set;

/**
 * Who runs a job, as a partition's access list sees it: the user name and the Unix groups the user
 * belongs to. Access control applies to Cohort's own activity only (PSE: "it does not affect the use of
 * the machine for other applications").
 */
public record UserIdentity(String user, Set<String> groups) {
    public UserIdentity {
        Objects.requireNonNull(user, "user");
        groups = Set.copyOf(groups);
    }

    /** The user this JVM runs as, with the groups {@code id -Gn} lists (no groups if {@code id} cannot run). */
    public static UserIdentity current() {
        String user = System.getProperty("user.name");
        try {
            return of(user);
        } catch (IOException e) {
            return new UserIdentity(user, Set.of());
        }
    }

    /**
     * {@code user} with the groups {@code id -Gn USER} lists on this machine.
     *
     * @throws IOException when this machine does not know the user (or {@code id} cannot run)
     */
    public static UserIdentity of(String user) throws IOException {
        String out = Commands.output(java.util.List.of("id", "-Gn", "--", user));
        return new UserIdentity(user, out.isEmpty() ? Set.of() : Set.of(out.split("\\s+")));
    }

    /**
     * Refuses a job before anything starts when this user may not use the partition.
     *
     * @throws AccessDeniedException with one sentence naming the user and the partition
     */
    public void checkAllowed(Partition partition) {
        if (!partition.allows(user, groups)) {
            throw new AccessDeniedException("user " + user + " may not run jobs in partition " + partition.name()
                    + " (allowed: users " + (partition.users().isEmpty() ? "none" : String.join(",", new java.util.TreeSet<>(partition.users())))
                    + (partition.groups().isEmpty() ? "" : ", groups " + String.join(",", new java.util.TreeSet<>(partition.groups())))
                    + ")");
        }
    }
}
