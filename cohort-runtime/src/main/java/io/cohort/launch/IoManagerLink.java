package io.cohort.launch;

/**
 * One io-manager of a job: the host it serves, its ranks, its agent process and its connection.
 * Written by {@link JobRendezvous} only (on the controller's event thread), which owns every link;
 * the controller reads them to decide on time-outs and losses.
 */
final class IoManagerLink {
    final String host;
    final int[] ranks;
    Process process;
    ControlConnection conn;
    /** Flow control of its ranks' standard input; null if the io-manager does not acknowledge it. */
    StdinWindow stdinWindow;
    /** LAUNCH sent. */
    boolean launched;
    /** Written off: its unreported ranks count as killed, its process and connection are ended. */
    boolean gone;

    IoManagerLink(String host, int[] ranks) {
        this.host = host;
        this.ranks = ranks;
    }
}
