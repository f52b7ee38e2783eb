package io.cohort.cli;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.ClusterDbSource;
import io.cohort.cluster.ClusterDbWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.Locale;

/**
 * {@code cohort db print}: the database as canonical text, as dnsmasq {@code txt-record=} lines, or as a
 * BIND zone fragment, from a file or from DNS.
 */
@Command(name = "print", description = "Print the database: canonical text, dnsmasq lines or a zone file fragment.")
final class DbPrintCommand extends DbSubcommand {
    @Option(names = "--format", paramLabel = "db|dnsmasq|zone", defaultValue = "db",
            description = "db: canonical database text (default); dnsmasq: txt-record lines for dnsmasq; "
                    + "zone: TXT records and an SOA for a BIND zone file.")
    String format;

    @Override
    public Integer call() {
        String f = format.toLowerCase(Locale.ROOT);
        if (!f.equals("db") && !f.equals("dnsmasq") && !f.equals("zone")) {
            throw new UsageException("--format: '" + format + "' is not a format; use db, dnsmasq or zone");
        }
        ClusterDb db = ClusterDbSource.load(databaseSpec());
        out().print(switch (f) {
            case "dnsmasq" -> ClusterDbWriter.formatDnsmasq(db);
            case "zone" -> ClusterDbWriter.formatZone(db);
            default -> ClusterDbWriter.format(db);
        });
        out().flush();
        return 0;
    }
}
