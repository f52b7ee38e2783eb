package io.cohort.launch;

import java.util.List;

/** The {@code --launch-agent} names: {@code local}, {@code netns}, {@code ssh}, or a command template. */
public final class LaunchAgents {
    public static final List<String> NAMES = List.of("local", "netns", "ssh");

    private LaunchAgents() {
    }

    /**
     * The agent for a name or a template.
     *
     * @throws IllegalArgumentException with a sentence, for a template that never names the host
     */
    public static LaunchAgent parse(String spec) {
        String s = spec == null ? "" : spec.trim();
        switch (s) {
            case "local":
                return new LocalLaunchAgent();
            case "netns":
                return new NetnsLaunchAgent();
            case "ssh":
                return new SshLaunchAgent();
            default:
                return new TemplateLaunchAgent(s);
        }
    }
}
