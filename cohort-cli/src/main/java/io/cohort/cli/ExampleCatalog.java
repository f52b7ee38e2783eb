package io.cohort.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The examples shipped in cohort-examples.jar, from every {@value #RESOURCE} on the classpath.
 * Line format: {@code name = main class | one-line description}; '#' starts a comment.
 */
final class ExampleCatalog {
    static final String RESOURCE = "META-INF/cohort/examples.properties";

    /** One example. */
    record Example(String name, String mainClass, String description) {
    }

    private final Map<String, Example> examples;

    private ExampleCatalog(Map<String, Example> examples) {
        this.examples = examples;
    }

    static ExampleCatalog load() {
        Map<String, Example> map = new LinkedHashMap<>();
        try {
            for (URL url : Collections.list(ExampleCatalog.class.getClassLoader().getResources(RESOURCE))) {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(url.openStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = r.readLine()) != null) {
                        Example e = parse(line);
                        if (e != null) {
                            map.putIfAbsent(e.name(), e);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the list of examples: " + e.getMessage(), e);
        }
        return new ExampleCatalog(map);
    }

    static Example parse(String line) {
        String l = line.strip();
        int eq = l.indexOf('=');
        if (l.isEmpty() || l.startsWith("#") || eq <= 0) {
            return null;
        }
        String name = l.substring(0, eq).strip();
        String rest = l.substring(eq + 1).strip();
        int bar = rest.indexOf('|');
        String main = (bar < 0 ? rest : rest.substring(0, bar)).strip();
        String description = bar < 0 ? "" : rest.substring(bar + 1).strip();
        return main.isEmpty() ? null : new Example(name, main, description);
    }

    Map<String, Example> all() {
        return examples;
    }

    Example get(String name) {
        return examples.get(name);
    }
}
