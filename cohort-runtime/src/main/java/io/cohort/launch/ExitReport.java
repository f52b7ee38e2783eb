package io.cohort.launch;

import io.cohort.wireup.ControlFrame;
import io.cohort.wireup.ControlMessageType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The body of an {@link ControlMessageType#EXITED} frame: a peer's exit as its io-manager saw it.
 *
 * <pre>
 *  rank int | status int | stoppedByManager u8 | [ n int | n × crash-file path str ]
 * </pre>
 *
 * The crash-file list was appended to the original three fields; it is written only when there are
 * files, and a frame without it (an io-manager of an older version) reads as "no files".
 *
 * @param status           the exit status, 128+S for signal S
 * @param stoppedByManager the io-manager had signalled the peer (STOP) before it exited
 * @param crashFiles       what the peer left in its crash-file directory, absolute paths on its host
 */
public record ExitReport(int rank, int status, boolean stoppedByManager, List<String> crashFiles) {
    private static final int MAX_FILES = 4096;

    public ExitReport {
        crashFiles = List.copyOf(crashFiles);
    }

    public ControlFrame frame() {
        ControlFrame.BodyWriter w = ControlFrame.build(ControlMessageType.EXITED).putInt(rank).putInt(status)
                .putBoolean(stoppedByManager);
        if (!crashFiles.isEmpty()) {
            w.putInt(crashFiles.size());
            crashFiles.forEach(w::putString);
        }
        return w.frame();
    }

    public static ExitReport parse(ControlFrame f) throws IOException {
        ControlFrame.BodyReader r = f.reader();
        int rank = r.getInt();
        int status = r.getInt();
        boolean stopped = r.getBoolean();
        List<String> files = new ArrayList<>();
        if (r.hasMore()) {
            int n = r.getInt();
            if (n < 0 || n > MAX_FILES) {
                throw new IOException("malformed EXITED frame (" + n + " crash files)");
            }
            for (int i = 0; i < n; i++) {
                files.add(r.getString());
            }
        }
        return new ExitReport(rank, status, stopped, files);
    }
}
