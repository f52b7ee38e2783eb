package io.cohort.cli;

import io.cohort.tools.prof.ChromeTrace;
import io.cohort.tools.prof.PeerProfile;
import io.cohort.tools.prof.HtmlReport;
import io.cohort.tools.prof.ProfileAnalysis;
import io.cohort.tools.prof.ProfileInputException;
import io.cohort.tools.prof.ProfileSet;
import io.cohort.tools.prof.Scope;
import io.cohort.tools.prof.TableLimit;
import io.cohort.tools.prof.TextReport;
import io.cohort.tools.prof.TimelineWindow;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code cohort prof DIR}: the reports of a job run with {@code cohort run --profile=DIR}. The text
 * report goes to stdout unless another report is asked for; {@code --html} and {@code --trace} write
 * files (by default into DIR). Warnings about unreadable recordings go to stderr, and the report is
 * made from the rest.
 */
@Command(name = "prof", sortOptions = false,
        description = "Report on a job recorded with 'cohort run --profile=DIR': text, HTML with plots, or a Chrome trace.",
        customSynopsis = {"cohort prof DIR [--rank R] [--top N] [--share PERCENT] [--text[=FILE]]",
                "            [--html[=FILE]] [--trace[=FILE]] [--timeline-window FROM:TO]"})
final class ProfCommand implements Callable<Integer> {
    static final String HTML_DEFAULT_NAME = "report.html";
    static final String TRACE_DEFAULT_NAME = "trace.json";
    private static final String STDOUT = "-";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "DIR", description = "The directory the profiled job wrote its recordings to.")
    Path directory;

    @Option(names = "--rank", paramLabel = "R", description = "Report on this rank only (default: the mean of all peers).")
    Integer rank;

    @Option(names = "--top", paramLabel = "N", description = "At most N entries per ranked table (default: ${DEFAULT-VALUE}).")
    int top = TableLimit.TOP_DEFAULT;

    @Option(names = "--share", paramLabel = "PERCENT",
            description = "Only as many entries of a ranked table as cover this share of its total (default: 100).")
    double share = 100;

    @Option(names = "--text", arity = "0..1", fallbackValue = STDOUT, paramLabel = "FILE",
            description = "Write the text report to FILE (without FILE or with -, to stdout: the default when no other report is asked for).")
    String text;

    @Option(names = "--html", arity = "0..1", fallbackValue = "", paramLabel = "FILE",
            description = "Write the HTML report to FILE (default: DIR/" + HTML_DEFAULT_NAME + "; a directory gets that name in it).")
    String html;

    @Option(names = "--trace", arity = "0..1", fallbackValue = "", paramLabel = "FILE",
            description = "Write the Chrome trace (Perfetto, chrome://tracing) to FILE (default: DIR/" + TRACE_DEFAULT_NAME + ").")
    String trace;

    @Option(names = "--timeline-window", paramLabel = "FROM:TO",
            description = "The part of the job the HTML report's timeline draws, in ms since the job's first event: 120:180, 250: "
                    + "(to the end), :40 (default: from the start; at most " + HtmlReport.TIMELINE_MAX_EVENTS + " events either way).")
    String timelineWindow;

    @Option(names = "--verbose", description = "Print the stack trace of an error.")
    boolean verbose;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help.")
    boolean help;

    @Override
    public Integer call() throws ProfileInputException, IOException {
        TimelineWindow window = checkOptions();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ProfileSet set = ProfileSet.load(directory, w -> {
            err.println("cohort: warning: " + ExitCodeMapper.sentence(w));
            err.flush();
        });
        Scope scope;
        if (rank == null) {
            scope = Scope.allPeers(set);
        } else if (set.peer(rank) != null) {
            scope = Scope.rank(set, rank);
        } else {
            throw new UsageException(directory + " holds no readable recording of rank " + rank + "; its ranks are "
                    + set.peers().stream().map(p -> Integer.toString(p.rank())).reduce((a, b) -> a + ", " + b).orElse("none"));
        }
        if (trace != null && scope.peers().stream().allMatch(PeerProfile::isSummary)) {
            throw new UsageException(directory + " holds a summary profile, which has no events for a trace; record the job with "
                    + "'cohort run --profile --profile-mode=full' for one");
        }
        ProfileAnalysis analysis = new ProfileAnalysis(set, scope, new TableLimit(top, share));
        String textTarget = text != null ? text : html == null && trace == null ? STDOUT : null;
        // Names of written files go where the text report does not, so stdout stays one parseable report.
        PrintWriter notes = STDOUT.equals(textTarget) ? err : out;
        if (textTarget != null) {
            String report = TextReport.render(analysis);
            if (STDOUT.equals(textTarget)) {
                out.print(report);
                out.flush();
            } else {
                Path f = target(textTarget, "report.txt");
                write(f, w -> w.write(report));
                notes.println("wrote " + f + " (text report)");
            }
        }
        if (html != null) {
            Path f = target(html, HTML_DEFAULT_NAME);
            String page = HtmlReport.render(analysis, window);
            write(f, w -> w.write(page));
            notes.println("wrote " + f + " (HTML report)");
        }
        if (trace != null) {
            Path f = target(trace, TRACE_DEFAULT_NAME);
            write(f, w -> ChromeTrace.write(set, scope, w));
            notes.println("wrote " + f + " (Chrome trace: open it at ui.perfetto.dev or chrome://tracing)");
        }
        notes.flush();
        return 0;
    }

    /** @return the timeline's window */
    private TimelineWindow checkOptions() {
        if (directory == null) {
            for (String v : new String[] {html, trace, text}) {
                if (v != null && !v.isEmpty() && Files.isDirectory(Path.of(v))) {
                    throw new UsageException("the directory of recordings is missing, and '" + v + "' was taken as a file to write; "
                            + "name the directory first ('cohort prof " + v + " --html') or give files as --html=FILE");
                }
            }
            throw new UsageException("the directory of recordings is missing; run 'cohort prof DIR' with the directory "
                    + "'cohort run --profile=DIR' wrote");
        }
        if (top < 1) {
            throw new UsageException("--top " + top + ": the number of entries per table must be 1 or more");
        }
        if (!(share > 0 && share <= 100)) {
            throw new UsageException("--share " + share + ": the share of time must be above 0 and at most 100 (percent)");
        }
        if (rank != null && rank < 0) {
            throw new UsageException("--rank " + rank + ": a rank is 0 or more");
        }
        if (timelineWindow == null) {
            return TimelineWindow.WHOLE_JOB;
        }
        if (html == null) {
            throw new UsageException("--timeline-window shapes the HTML report's timeline; add --html");
        }
        try {
            return TimelineWindow.parse(timelineWindow);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--timeline-window " + e.getMessage());
        }
    }

    /** The file a report goes to: the default name in DIR, or in a directory given as the value. */
    private Path target(String value, String defaultName) {
        if (value.isEmpty()) {
            return directory.resolve(defaultName);
        }
        Path p = Path.of(value);
        return Files.isDirectory(p) ? p.resolve(defaultName) : p;
    }

    private interface Body {
        void writeTo(Writer w) throws IOException;
    }

    private static void write(Path file, Body body) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                body.writeTo(w);
            }
        } catch (IOException e) {
            throw new OutputFileException("cannot write " + file + " (" + describe(e) + "); choose another file or directory", e);
        }
    }

    private static String describe(IOException e) {
        String m = e.getMessage();
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof java.nio.file.FileAlreadyExistsException f) {
            // Only creating the directories throws it: a part of the path is a file.
            return f.getFile() + " is a file, not a directory";
        }
        if (e instanceof java.nio.file.NotDirectoryException f) {
            return f.getFile() + " is not a directory";
        }
        if (e instanceof java.nio.file.FileSystemException fse && fse.getReason() != null) {
            return fse.getReason();
        }
        return m == null ? e.getClass().getSimpleName() : m;
    }
}
