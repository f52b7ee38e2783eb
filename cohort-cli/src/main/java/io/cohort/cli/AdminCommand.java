package io.cohort.cli;

import io.cohort.cluster.ClusterDb;
import io.cohort.daemon.ClusterKey;
import io.cohort.daemon.ClusterUnreachableException;
import io.cohort.daemon.DaemonClient;
import io.cohort.daemon.MessageBody;
import io.cohort.daemon.MessageType;
import io.cohort.daemon.RequestRefusedException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code cohort admin}: the administrator's commands. {@code drain}, {@code resume} and {@code slots} go
 * to the member's own daemon (which changes what it reports) and to every load server (which shows it at
 * once, also for a member whose daemon is down); they succeed when at least one load server took them.
 */
@Command(name = "admin", description = "Administer the cluster: drain, resume, slots, keygen.",
        subcommands = {AdminCommand.Drain.class, AdminCommand.Resume.class, AdminCommand.Slots.class, AdminCommand.Keygen.class})
final class AdminCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is needed (drain, resume, slots, keygen)");
    }

    /** Sends {@code type} about {@code member} to its daemon and the load servers; prints one line. */
    static int send(CommandLine.Model.CommandSpec spec, ClusterOptions options, String member, MessageType type, MessageBody body,
                    String done) throws Exception {
        ClusterDb db = options.db();
        if (db.member(member).isEmpty()) {
            throw new UsageException("cluster " + db.name() + " has no member '" + member + "' (its members: "
                    + String.join(", ", db.memberOrder()) + ")");
        }
        DaemonClient client = options.client(db);
        Map<String, String> targets = new LinkedHashMap<>(); // daemon -> role, the member's own first
        targets.put(member, "its daemon");
        db.loadServers().forEach(ls -> targets.merge(ls, "load server " + ls, (a, b) -> a + " and load server " + ls));
        List<String> took = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        int loadServersTook = 0;
        String refused = null;
        for (Map.Entry<String, String> t : targets.entrySet()) {
            try {
                client.request(db, t.getKey(), type, body);
                took.add(t.getValue());
                if (db.loadServers().contains(t.getKey())) {
                    loadServersTook++;
                }
            } catch (RequestRefusedException e) {
                refused = e.getMessage();
                failed.add(t.getValue() + " (refused: " + e.getMessage() + ")");
            } catch (IOException | RuntimeException e) {
                failed.add(t.getValue() + " (" + DaemonClient.describe(e) + ")");
            }
        }
        if (loadServersTook == 0) {
            if (refused != null) {
                throw new RequestRefusedException(refused);
            }
            // The member's own daemon may have taken it (it keeps the change): say so, or the user thinks nothing changed.
            throw new ClusterUnreachableException("no load server of cluster " + db.name() + " took the request"
                    + (took.isEmpty() ? "" : " (" + member + " " + done + ": taken by " + String.join(", ", took)
                    + ", which the load servers learn at its next update)") + ": not by " + String.join(", ", failed)
                    + "; " + DaemonClient.advice(failed));
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println(member + " " + done + ": taken by " + String.join(", ", took)
                + (failed.isEmpty() ? "" : "; not by " + String.join(", ", failed)));
        out.flush();
        return 0;
    }

    @Command(name = "drain", description = "Take MEMBER out of scheduling (slots 0); running jobs go on.")
    static final class Drain implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @CommandLine.Mixin
        ClusterOptions cluster = new ClusterOptions();
        @Parameters(index = "0", paramLabel = "MEMBER")
        String member;
        @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "Why, as 'cohort status' will show it.")
        String reason;

        @Override
        public Integer call() throws Exception {
            if (reason.isBlank()) {
                throw new UsageException("--reason needs a text saying why " + member + " is drained");
            }
            String wrong = io.cohort.daemon.DrainReason.check(reason);
            if (wrong != null) {
                throw new UsageException("--reason: " + wrong);
            }
            return send(spec, cluster, member, MessageType.DRAIN, MessageBody.empty().put("member", member).put("reason", reason),
                    "drained (" + reason + ")");
        }
    }

    @Command(name = "resume", description = "Undo 'drain': MEMBER takes jobs again.")
    static final class Resume implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @CommandLine.Mixin
        ClusterOptions cluster = new ClusterOptions();
        @Parameters(index = "0", paramLabel = "MEMBER")
        String member;

        @Override
        public Integer call() throws Exception {
            return send(spec, cluster, member, MessageType.RESUME, MessageBody.empty().put("member", member), "resumed");
        }
    }

    @Command(name = "slots", description = "Set MEMBER's job slots until its daemon restarts; running jobs are not affected.")
    static final class Slots implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @CommandLine.Mixin
        ClusterOptions cluster = new ClusterOptions();
        @Parameters(index = "0", paramLabel = "MEMBER")
        String member;
        @Parameters(index = "1", paramLabel = "N")
        int slots;

        @Override
        public Integer call() throws Exception {
            if (slots < 0 || slots > io.cohort.cluster.Member.MAX_SLOTS) {
                throw new UsageException("slots must be from 0 to " + io.cohort.cluster.Member.MAX_SLOTS
                        + " (as in the database), not " + slots);
            }
            return send(spec, cluster, member, MessageType.SLOTS, MessageBody.empty().put("member", member).put("slots", slots),
                    "has " + slots + " slots");
        }
    }

    @Command(name = "keygen", description = "Write a new cluster key (32 random bytes, hex) to FILE, mode 0600.")
    static final class Keygen implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;
        @Parameters(index = "0", paramLabel = "FILE")
        Path file;

        @Override
        public Integer call() throws Exception {
            ClusterKey.generate(file);
            spec.commandLine().getOut().println("wrote a new cluster key to " + file + " (mode 0600); copy it to every member");
            spec.commandLine().getOut().flush();
            return 0;
        }
    }
}
