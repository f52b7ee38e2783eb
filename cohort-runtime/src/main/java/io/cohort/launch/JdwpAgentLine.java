package io.cohort.launch;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JDWP agent that {@code cohort run --debug} gives a peer: the option that starts it, and the line
 * it prints on the peer's stdout each time it starts listening ("Listening for transport dt_socket at
 * address: PORT"). The agent prints that line once before the first debugger attaches and again
 * every time a debugger detaches, since a {@code server=y} agent of JDK 9 and later listens anew
 * after each detach (on a new port, the address asked for being port 0).
 */
public final class JdwpAgentLine {
    /**
     * The start of the peer's JVM option, followed by HOST:0. Port 0: the agent picks a free one and
     * prints it; suspend=y holds main until a debugger resumes it. The io-manager recognises a
     * debugged peer by this prefix (an agent the user adds with --jvm-opt is the user's own).
     */
    public static final String OPTION_PREFIX = "-agentlib:jdwp=transport=dt_socket,server=y,suspend=y,address=";
    /**
     * How much of a line's end is searched: longer than the agent's text with any address. The agent
     * writes its line whole, but the program shares the stdout pipe, so a program's unfinished line
     * may come before it on the same line; the agent's text is always at the end.
     */
    private static final int TAIL = 160;
    private static final Pattern LISTENING =
            Pattern.compile("Listening for transport dt_socket at address: (?:\\S*:)?(\\d+)\\s*$");

    /**
     * An agent line as parsed.
     *
     * @param before the program's output that preceded it on the same line (usually empty)
     * @param port   the port the agent listens on, 1 to 65535
     */
    public record Listening(byte[] before, int port) {
    }

    private JdwpAgentLine() {
    }

    /** The agent option for a peer whose agent binds {@code host} (an IPv6 address in brackets). */
    public static String option(String host) {
        return OPTION_PREFIX + host + ":0";
    }

    /** Whether a peer's command starts the --debug agent. */
    public static boolean debugged(List<String> command) {
        return command.stream().anyMatch(a -> a.startsWith(OPTION_PREFIX));
    }

    /** The agent's announcement in one stdout line of a debugged peer, or null if it is not one. */
    public static Listening parse(byte[] line) {
        int from = Math.max(0, line.length - TAIL);
        // ISO-8859-1: one char per byte, so the match's start is the byte offset of the agent's text.
        Matcher m = LISTENING.matcher(new String(line, from, line.length - from, StandardCharsets.ISO_8859_1));
        if (!m.find()) {
            return null;
        }
        int port;
        try {
            port = Integer.parseInt(m.group(1));
        } catch (NumberFormatException e) {
            return null;
        }
        if (port <= 0 || port > 65535) {
            return null;
        }
        return new Listening(Arrays.copyOf(line, from + m.start()), port);
    }
}
