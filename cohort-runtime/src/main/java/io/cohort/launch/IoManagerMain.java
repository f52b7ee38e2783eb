package io.cohort.launch;

import io.cohort.CohortException;
import io.cohort.auth.JobSecret;
import io.cohort.wireup.JobEnvironment;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * Entry point of the io-manager process: {@code IoManagerMain -}, its parameters on the first line of
 * standard input, tab-separated: {@code <controller host:port> <jobId> <job secret> <host>}. The
 * controller (through a {@link LaunchAgent}) starts one per host and writes that line
 * ({@link #handParameters}); {@code host} is the name the controller placed this host's ranks on (its
 * {@code --hosts} name).
 *
 * <p>Standard input, not the command line: a command line is readable by every user of the host
 * ({@code ps}, {@code /proc/PID/cmdline}) and is printed by {@code --verbose}, and the job's secret
 * is in these parameters. Through {@code ssh} the line crosses the network inside ssh's encrypted
 * channel; the launch agent of a template ({@code --launch-agent 'CMD %h'}) must likewise pass
 * standard input on, privately.
 */
public final class IoManagerMain {
    private IoManagerMain() {
    }

    /** The one argument: read the parameters, tab-separated, from the first line of standard input. */
    public static final String PARAMETERS_ON_STDIN = "-";

    /** Writes the parameters line to {@code ioManager}'s standard input and closes it. */
    static void handParameters(Process ioManager, String controller, String jobId, JobSecret secret, String host)
            throws IOException {
        try (OutputStream in = ioManager.getOutputStream()) {
            in.write(String.join("\t", controller, jobId, secret.toHex(), host).concat("\n")
                    .getBytes(StandardCharsets.UTF_8));
        }
    }

    public static void main(String[] args) {
        if (args.length != 1 || !args[0].equals(PARAMETERS_ON_STDIN)) {
            System.err.println("cohort: the io-manager takes '-' and its parameters on standard input; it is started by cohort run");
            System.exit(ExitCodes.USAGE);
        }
        String line;
        try {
            line = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        } catch (IOException e) {
            line = null;
        }
        if (line == null || line.isBlank()) {
            System.exit(0); // an early io-manager no job took (EarlyIoManager.discard)
        }
        String[] p = line.split("\t");
        if (p.length != 4) {
            System.err.println("cohort: the io-manager's standard input is not <controller host:port> <jobId> <secret> <host>; it is started by cohort run");
            System.exit(ExitCodes.USAGE);
        }
        int code;
        try {
            JobSecret secret = JobSecret.parse(p[2], "the io-manager's parameter line");
            Socket s = new Socket();
            s.connect(JobEnvironment.parseAddress(p[0]), 30_000);
            code = new IoManager(new ControlConnection(s), System.err).run(p[1], secret, p[3]);
        } catch (IOException | RuntimeException e) {
            System.err.println("cohort: io-manager for job " + p[1] + " failed: " + e.getMessage());
            code = e instanceof CohortException ? ExitCodes.USAGE : ExitCodes.LAUNCH_FAILURE;
        }
        System.exit(code);
    }
}
