package io.cohort.daemon;

import io.cohort.cluster.Member;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * This daemon's own member and what changes at run time: the administrator's slots override and drain
 * (kept in memory: a restarted daemon starts from the database's slots, while the load servers keep the
 * drain), and the active jobs registered by io-managers. Every change calls {@code onChange}, which makes
 * the update sender send at once.
 *
 * <p>Thread-safe (synchronized): connection threads change it, the update sender reads it.
 */
final class LocalMember {
    /** Job ids and user names: what a launcher writes, nothing that could break a body or a log line. */
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9._@:-]{1,64}");

    private final Member member;
    private final Runnable onChange;
    private Integer slotsOverride;
    private String drainReason;
    private final Map<String, String> jobs = new LinkedHashMap<>(); // id -> user

    LocalMember(Member member, Runnable onChange) {
        this.member = member;
        this.onChange = onChange;
    }

    String name() {
        return member.name();
    }

    void drain(String reason) {
        synchronized (this) {
            drainReason = reason;
        }
        onChange.run();
    }

    void resume() {
        synchronized (this) {
            drainReason = null;
        }
        onChange.run();
    }

    void slots(int n) {
        synchronized (this) {
            slotsOverride = n;
        }
        onChange.run();
    }

    /**
     * Registers a job if a job slot is free (slots and the active jobs are checked together, so two
     * launchers racing for the last slot cannot both get it); returns null, or why it was refused.
     */
    String registerJob(String id, String user) {
        synchronized (this) {
            int slots = slots();
            if (jobs.size() >= slots) {
                return name() + " has no free job slot (" + jobs.size() + " of " + slots + " taken"
                        + (drainReason != null ? "; drained: " + drainReason : "") + ")";
            }
            if (jobs.putIfAbsent(id, user) != null) {
                return "job " + id + " is already registered on " + name();
            }
        }
        onChange.run();
        return null;
    }

    /** Releases a job; false if it was not active. */
    boolean releaseJob(String id) {
        synchronized (this) {
            if (jobs.remove(id) == null) {
                return false;
            }
        }
        onChange.run();
        return true;
    }

    synchronized int slots() {
        return drainReason != null ? 0 : slotsOverride != null ? slotsOverride : member.slots();
    }

    /** The user of active job {@code id}, or null. */
    synchronized String userOf(String id) {
        return jobs.get(id);
    }

    synchronized List<String> jobs() {
        return new ArrayList<>(jobs.keySet());
    }

    /** The update to send now, with {@code load} from {@link LoadAverage}. */
    synchronized LoadUpdate update(double[] load) {
        return new LoadUpdate(load[0], load[1], load[2], member.cpus(), slots(), jobs(), drainReason);
    }
}
