package io.cohort.tools.prof;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The name a profiled peer gives its recording, {@code <App>.prof.<rank>.jfr}. The rank in the name is
 * only a fall-back: the {@code io.cohort.PeerInfo} event inside the file is authoritative.
 */
record ProfileFileName(String application, int rank) {
    static final String SUFFIX = ".jfr";
    private static final Pattern NAME = Pattern.compile("(.*)\\.prof\\.(\\d{1,9})\\.jfr");

    /** The parsed name, or null when the file is not named as a peer names it. */
    static ProfileFileName parse(Path file) {
        Matcher m = NAME.matcher(file.getFileName().toString());
        return m.matches() ? new ProfileFileName(m.group(1), Integer.parseInt(m.group(2))) : null;
    }

    static boolean isRecording(Path file) {
        return file.getFileName().toString().endsWith(SUFFIX);
    }
}
