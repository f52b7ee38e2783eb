package io.cohort.tools.prof;

import io.cohort.profile.SummaryFormat;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The name a profiled peer gives its profile: {@code <App>.prof.<rank>.jfr} (a recording of events) or
 * {@code <App>.prof.<rank>.tsv} (a summary). The rank in the name is only a fall-back: the peer's
 * own record inside the file is authoritative.
 */
record ProfileFileName(String application, int rank) {
    static final String SUFFIX = ".jfr";
    static final String SUMMARY_SUFFIX = SummaryFormat.EXTENSION;
    private static final Pattern NAME = Pattern.compile("(.*)\\.prof\\.(\\d{1,9})\\.(jfr|tsv)");

    /** The parsed name, or null when the file is not named as a peer names it (a rank beyond the largest job is not). */
    static ProfileFileName parse(Path file) {
        Matcher m = NAME.matcher(file.getFileName().toString());
        if (!m.matches()) {
            return null;
        }
        int rank = Integer.parseInt(m.group(2));
        return rank < SummaryReader.MAX_JOB_SIZE ? new ProfileFileName(m.group(1), rank) : null;
    }

    /** A recording of events ({@code *.jfr}), or a summary named as a peer names it (other {@code .tsv} files are not ours). */
    static boolean isRecording(Path file) {
        return file.getFileName().toString().endsWith(SUFFIX) || isSummary(file);
    }

    static boolean isSummary(Path file) {
        String n = file.getFileName().toString();
        return n.endsWith(SUMMARY_SUFFIX) && parse(file) != null;
    }
}
