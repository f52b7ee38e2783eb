package io.cohort.cli;

import io.cohort.CohortException;
import io.cohort.collective.CollectiveMode;
import io.cohort.collective.CollectivePolicy;
import io.cohort.engine.SerialFilter;
import io.cohort.idle.IdleStrategies;
import io.cohort.broadcast.eqa.BroadcastProtocol;
import io.cohort.broadcast.eqa.EqaContext;
import io.cohort.broadcast.pcode.DomainFactory;
import io.cohort.transport.fault.FaultPlan;
import io.cohort.transport.udp.UdpSettings;
import io.cohort.wireup.JobEnvironment;
import io.cohort.wireup.NetworkPrefix;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The checks of the peers' settings that only cohort-core can make: idle strategies, collective
 * modes and forced algorithms, datagram fault plans, serial filters, network prefixes, broadcast
 * protocols, and the {@code cohort.udp.*}, {@code cohort.bcast.*} and {@code cohort.eqa.*} properties, whether given as options of
 * {@code cohort run}, as {@code -x} variables or as {@code --jvm-opt -D} properties. Made before
 * anything starts, so that a bad value costs one line and exit 2 ({@link UsageException}) instead of
 * every peer failing at start.
 *
 * <p>The one class of the command line that reaches into cohort-core's internal packages (idle,
 * engine, collective, transport.*, wireup's network prefix): those dependencies stay here.
 */
final class PeerSettingChecks {
    /** The variable {@code --idle} sets ({@code COHORT_IDLE}). */
    static final String IDLE_ENV_NAME = IdleStrategies.IDLE_ENV_NAME;
    /** The variable {@code --bcast-protocol} sets ({@code COHORT_BCAST_PROTOCOL}). */
    static final String BCAST_PROTOCOL_ENV_NAME = BroadcastProtocol.ENV_NAME;

    private PeerSettingChecks() {
    }

    /** {@code -x} values of the variables that options stand for, checked as the options are. */
    static void checkPassedOn(Map<String, String> env) {
        checkPassedOn(env, IdleStrategies.IDLE_ENV_NAME, IdleStrategies::factory);
        checkPassedOn(env, JobEnvironment.TRANSPORT, v -> oneOf(v, JobEnvironment.TRANSPORTS));
        checkPassedOn(env, JobEnvironment.COLLECTIVES, CollectiveMode::parse);
        checkPassedOn(env, JobEnvironment.FAULT, FaultPlan::parse);
        checkPassedOn(env, BroadcastProtocol.ENV_NAME, BroadcastProtocol::parse);
        checkPassedOn(env, JobEnvironment.SERIAL_FILTER, SerialFilter::parse);
        checkPassedOn(env, JobEnvironment.NETWORK, v -> {
            if (!v.isBlank()) {
                NetworkPrefix.parse(v);
            }
        });
    }

    /** {@code --idle STRATEGY}. */
    static void checkIdle(String idle) {
        try {
            IdleStrategies.factory(idle);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /** {@code --bcast-protocol NAME}: the name as the peers take it. */
    static String checkBcastProtocol(String protocol) {
        try {
            return BroadcastProtocol.parse(protocol).label();
        } catch (IllegalArgumentException e) {
            throw new UsageException("--bcast-protocol: " + e.getMessage());
        }
    }

    /** {@code --fault SPEC}. */
    static void checkFault(String fault) {
        try {
            FaultPlan.parse(fault);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--fault: " + e.getMessage());
        }
    }

    /** {@code --serial-filter PATTERN}. */
    static void checkSerialFilter(String serialFilter) {
        try {
            SerialFilter.parse(serialFilter);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--serial-filter: " + e.getMessage());
        }
    }

    /**
     * Peer settings given as {@code --jvm-opt -Dcohort.udp.X=V}, {@code -Dcohort.bcast.X=V} or {@code -Dcohort.fault=SPEC} are
     * checked here, so a bad value costs one line and exit 2 instead of every peer failing at start.
     */
    static void checkPeerProperties(List<String> jvmOptions) {
        Map<String, String> udp = new LinkedHashMap<>();
        Properties bcast = new Properties();
        Properties eqa = new Properties();
        for (String o : jvmOptions) {
            if (!o.startsWith("-D")) {
                continue;
            }
            int eq = o.indexOf('=');
            String name = eq < 0 ? o.substring(2) : o.substring(2, eq);
            String value = eq < 0 ? "" : o.substring(eq + 1);
            if (name.startsWith("cohort.udp.")) {
                udp.put(name, value);
            } else if (name.startsWith("cohort.eqa.")) {
                eqa.setProperty(name, value);
            } else if (name.startsWith("cohort.bcast.")) {
                bcast.setProperty(name, value);
            } else if (name.equals(CollectivePolicy.FORCE_PROP_NAME)) {
                try {
                    CollectivePolicy.parseForced(value);
                } catch (IllegalArgumentException e) {
                    throw new UsageException("--jvm-opt " + o + ": " + e.getMessage());
                }
            } else if (name.equals(SerialFilter.PROP_NAME) || name.equals("jdk.serialFilter")) {
                try {
                    SerialFilter.parse(value, null); // a bad jdk.serialFilter would fail every peer's first receive
                } catch (IllegalArgumentException e) {
                    throw new UsageException("--jvm-opt " + o + ": " + e.getMessage());
                }
            } else if (name.equals(FaultPlan.FAULT_PROP_NAME)) {
                try {
                    FaultPlan.parse(value);
                } catch (IllegalArgumentException e) {
                    throw new UsageException("--jvm-opt " + o + ": " + e.getMessage());
                }
            }
        }
        try {
            DomainFactory.checkSettings(bcast);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--jvm-opt: " + e.getMessage());
        }
        try {
            BroadcastProtocol.parse(bcast.getProperty(BroadcastProtocol.PROP_NAME));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--jvm-opt -D" + BroadcastProtocol.PROP_NAME + ": " + e.getMessage());
        }
        List<String> eqaProblems = EqaContext.problems(eqa);
        if (!eqaProblems.isEmpty()) {
            // One line per bad value, so that one run shows every setting to fix.
            List<String> lines = new java.util.ArrayList<>();
            for (String p : eqaProblems) {
                lines.add("--jvm-opt: " + p);
            }
            throw new UsageException(lines);
        }
        if (udp.isEmpty()) {
            return;
        }
        UdpSettings settings;
        try {
            settings = UdpSettings.from(udp::get);
        } catch (RuntimeException e) {
            throw new UsageException("--jvm-opt: " + e.getMessage());
        }
        for (String name : udp.keySet()) {
            if (!settings.explicit().containsKey(name)) {
                throw new UsageException("--jvm-opt -D" + name + ": no such udp setting; see docs/cli.md");
            }
        }
    }

    /** Refuses {@code -x NAME=VALUE} in one sentence where {@code check} refuses the value. */
    private static void checkPassedOn(Map<String, String> env, String name, java.util.function.Consumer<String> check) {
        String value = env.get(name);
        if (value == null) {
            return;
        }
        try {
            check.accept(value);
        } catch (IllegalArgumentException | CohortException e) {
            throw new UsageException("-x " + name + "=" + value + ": " + e.getMessage());
        }
    }

    private static void oneOf(String value, List<String> allowed) {
        if (!allowed.contains(value.trim().toLowerCase(java.util.Locale.ROOT))) {
            throw new IllegalArgumentException("not one of " + allowed);
        }
    }
}
