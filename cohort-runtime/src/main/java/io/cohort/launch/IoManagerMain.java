package io.cohort.launch;

import io.cohort.wireup.JobEnvironment;

import java.io.IOException;
import java.net.Socket;

/**
 * Entry point of the io-manager process:
 * {@code IoManagerMain <controller host:port> <jobId> <jobKey> [<host>]}. The controller (through a
 * {@link LaunchAgent}) starts one per host; {@code host} is the name the controller placed this
 * host's ranks on (its {@code --hosts} name), and defaults to this machine's name.
 */
public final class IoManagerMain {
    private IoManagerMain() {
    }

    /** The one argument that says: read the arguments, tab-separated, from the first line of standard input. */
    public static final String PARAMETERS_ON_STDIN = "-";

    public static void main(String[] args) {
        if (args.length == 1 && args[0].equals(PARAMETERS_ON_STDIN)) {
            // Started early (EarlyIoManager): wait for the job, or for end of input if there is none.
            String line;
            try {
                line = new java.io.BufferedReader(new java.io.InputStreamReader(System.in,
                        java.nio.charset.StandardCharsets.UTF_8)).readLine();
            } catch (IOException e) {
                line = null;
            }
            if (line == null || line.isBlank()) {
                System.exit(0);
            }
            args = line.split("\t");
        }
        if (args.length != 3 && args.length != 4) {
            System.err.println("cohort: the io-manager takes <controller host:port> <jobId> <jobKey> [<host>]; it is started by cohort run");
            System.exit(ExitCodes.USAGE);
        }
        int code;
        try {
            Socket s = new Socket();
            s.connect(JobEnvironment.parseAddress(args[0]), 30_000);
            code = new IoManager(new ControlConnection(s), System.err).run(args[1], args[2], args.length == 4 ? args[3] : HostName.local());
        } catch (IOException | RuntimeException e) {
            System.err.println("cohort: io-manager for job " + args[1] + " failed: " + e.getMessage());
            code = ExitCodes.LAUNCH_FAILURE;
        }
        System.exit(code);
    }
}
