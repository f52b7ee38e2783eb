package io.cohort.cli;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.ClusterDbEditor;
import io.cohort.cluster.ClusterDbException;
import io.cohort.cluster.ClusterDbParser;
import io.cohort.cluster.ClusterDbText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code cohort db remove member|partition NAME}: removes every token of a member or partition. Refused
 * while other tokens still name it (load servers, a partition's explicit member list, the default
 * partition); its entry in {@code member_order} / {@code partition_order} goes with it.
 */
@Command(name = "remove", description = "Remove a member or a partition with all its tokens, if nothing names it.")
final class DbRemoveCommand extends DbSubcommand {
    @Parameters(index = "0", paramLabel = "member|partition", description = "What to remove.")
    String kind;

    @Parameters(index = "1", paramLabel = "NAME", description = "Its name.")
    String name;

    @Override
    public Integer call() {
        String k = kind.toLowerCase(Locale.ROOT);
        if (!k.equals("member") && !k.equals("partition")) {
            throw new UsageException("'" + kind + "' cannot be removed; remove a member or a partition");
        }
        ClusterDbEditor editor = ClusterDbEditor.open(databaseSpec());
        ClusterDb current = ClusterDbParser.parse(editor.original(), editor.spec());
        ClusterDbText text = ClusterDbText.of(editor.original());
        boolean member = k.equals("member");
        if (member ? current.member(name).isEmpty() : current.partition(name).isEmpty()) {
            throw new ClusterDbException(editor.spec() + ": there is no " + k + " '" + name + "'");
        }
        List<String> users = member ? memberReferences(current, text) : partitionReferences(current);
        if (!users.isEmpty()) {
            throw new ClusterDbException(editor.spec() + ": " + k + " '" + name + "' is still named by "
                    + String.join(" and ", users) + "; change " + (users.size() == 1 ? "that" : "those") + " first");
        }
        text.removeAll(k + "." + name + ".");
        String orderToken = k + "_order";
        text.value(orderToken).ifPresent(order -> {
            List<String> rest = new ArrayList<>(Arrays.asList(order.split("\\s*,\\s*")));
            rest.remove(name);
            text.set(orderToken, String.join(", ", rest));
        });
        ClusterDb db = editor.commit(text.text());
        out().println("removed " + k + " " + name + ", saved " + editor.spec() + ": " + summary(db));
        out().flush();
        return 0;
    }

    private List<String> memberReferences(ClusterDb db, ClusterDbText text) {
        List<String> refs = new ArrayList<>();
        if (db.loadServers().contains(name)) {
            refs.add("load_servers");
        }
        for (String p : db.partitions().keySet()) {
            String token = "partition." + p + ".members";
            Optional<String> listed = text.value(token);
            // '*' follows the members: it is no reference to any one of them
            if (listed.isPresent() && !listed.get().equals("*") && db.partitions().get(p).members().contains(name)) {
                refs.add(token);
            }
        }
        return refs;
    }

    private List<String> partitionReferences(ClusterDb db) {
        return db.defaultPartition().equals(name) ? List.of("default_partition") : List.of();
    }
}
