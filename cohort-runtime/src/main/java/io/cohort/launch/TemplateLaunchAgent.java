package io.cohort.launch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A launch agent given as a command template ({@code --launch-agent 'srun -w %h'}): the template is
 * split into words at spaces, {@code %h} (or {@code {host}}) becomes the host name and {@code %%}
 * a percent sign, and the io-manager's command follows as separate arguments, the way
 * {@code ip netns exec HOST} and {@code ssh HOST} take theirs.
 */
public final class TemplateLaunchAgent implements LaunchAgent {
    private final List<String> words;

    /** @throws IllegalArgumentException when the template is empty or never names the host */
    public TemplateLaunchAgent(String template) {
        List<String> w = Arrays.stream(template.trim().split("\\s+")).filter(s -> !s.isEmpty()).toList();
        if (w.isEmpty()) {
            throw new IllegalArgumentException("--launch-agent needs local, netns, ssh or a command template with %h");
        }
        if (w.stream().noneMatch(s -> s.replace("%%", "").contains("%h") || s.contains("{host}"))) {
            throw new IllegalArgumentException("--launch-agent '" + template.trim() + "' is not local, netns or ssh, "
                    + "and as a command template it must contain %h where the host name goes (e.g. 'ssh -p 2222 %h')");
        }
        this.words = w;
    }

    @Override
    public List<String> command(String host, List<String> ioManagerCommand) {
        List<String> c = new ArrayList<>(words.size() + ioManagerCommand.size() + 1);
        c.add(LocalLaunchAgent.SETSID);
        for (String w : words) {
            c.add(expand(w, host));
        }
        c.addAll(ioManagerCommand);
        return c;
    }

    static String expand(String word, String host) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < word.length(); i++) {
            char ch = word.charAt(i);
            if (ch == '%' && i + 1 < word.length() && word.charAt(i + 1) == '%') {
                b.append('%');
                i++;
            } else if (ch == '%' && i + 1 < word.length() && word.charAt(i + 1) == 'h') {
                b.append(host);
                i++;
            } else if (word.startsWith("{host}", i)) {
                b.append(host);
                i += "{host}".length() - 1;
            } else {
                b.append(ch);
            }
        }
        return b.toString();
    }

    @Override
    public String startHint() {
        return "check that setsid and the agent's command (" + words.get(0) + ") are installed";
    }
}
