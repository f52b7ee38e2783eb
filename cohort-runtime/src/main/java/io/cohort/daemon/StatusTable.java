package io.cohort.daemon;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A load server's answer to {@link MessageType#STATUS}: its table and its refusal counters, with
 * the body encoding both ways. Member names may contain dots, so rows are found through the
 * {@code members} list, never by splitting keys.
 *
 * @param cluster  the cluster's name
 * @param server   the load server that answered
 * @param time     its clock when it answered, epoch ms
 * @param members  rows in the database's order
 * @param counters its counters (refusals by reason, duplicate reports)
 */
public record StatusTable(String cluster, String server, long time, List<MemberStatus> members,
                          Map<String, Long> counters) {
    public StatusTable {
        members = List.copyOf(members);
        counters = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(counters));
    }

    /** One member's row, or null; a linear search, so callers that look up many build {@link #byName} once. */
    public MemberStatus member(String name) {
        return members.stream().filter(m -> m.name().equals(name)).findFirst().orElse(null);
    }

    /** The rows by member name, in the table's order. */
    public Map<String, MemberStatus> byName() {
        Map<String, MemberStatus> out = new LinkedHashMap<>();
        members.forEach(m -> out.put(m.name(), m));
        return out;
    }

    /** The answer's body, written straight to its encoded form (a large cluster's table is megabytes). */
    public MessageBody toBody() {
        MessageBody.Writer b = new MessageBody.Writer(256 + members.size() * 320);
        b.put("cluster", cluster).put("server", server).put("time", time);
        b.put("members", String.join(",", members.stream().map(MemberStatus::name).toList()));
        for (MemberStatus m : members) {
            String p = "m." + m.name() + ".";
            b.put(p + "state", m.state().label());
            b.put(p + "load", LoadUpdate.format(m.load1()) + " " + LoadUpdate.format(m.load5()) + " " + LoadUpdate.format(m.load15()));
            b.put(p + "cpus", m.cpus()).put(p + "slots", m.slots()).put(p + "jobs", String.join(",", m.jobs()));
            b.put(p + "lastUpdate", m.lastUpdate()).put(p + "since", m.since()).put(p + "reason", m.reason());
            if (m.drainReason() != null) {
                b.put(p + "drain", m.drainReason());
            }
        }
        b.put("counters", String.join(",", counters.keySet()));
        counters.forEach((k, v) -> b.put("c." + k, v));
        return b.toBody();
    }

    /** Reads what {@link #toBody} wrote; anything else is a {@link MalformedMessageException}. */
    public static StatusTable fromBody(MessageBody b) {
        List<MemberStatus> rows = new ArrayList<>();
        for (String name : list(b.require("members"))) {
            String p = "m." + name + ".";
            String[] load = b.require(p + "load").split(" ");
            if (load.length != 3) {
                throw new MalformedMessageException("bad load of " + name);
            }
            double[] l = new double[3];
            for (int i = 0; i < 3; i++) {
                try {
                    l[i] = Double.parseDouble(load[i]);
                } catch (NumberFormatException e) {
                    throw new MalformedMessageException("bad load of " + name);
                }
            }
            rows.add(new MemberStatus(name, MemberState.ofLabel(b.require(p + "state")), l[0], l[1], l[2], b.getInt(p + "cpus"),
                    b.getInt(p + "slots"), list(b.get(p + "jobs", "")), b.getLong(p + "lastUpdate"), b.getLong(p + "since"),
                    b.get(p + "reason", ""), b.get(p + "drain")));
        }
        Map<String, Long> counters = new LinkedHashMap<>();
        for (String c : list(b.get("counters", ""))) {
            counters.put(c, b.getLong("c." + c));
        }
        return new StatusTable(b.require("cluster"), b.require("server"), b.getLong("time"), rows, counters);
    }

    private static List<String> list(String s) {
        return s.isEmpty() ? List.of() : Arrays.asList(s.split(","));
    }
}
