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
 * Line format: {@code name = main class | one-line description [| ARG MIN MAX]}; '#' starts a comment.
 * The optional last field says that the example takes at most one argument, a whole number named
 * ARG from MIN to MAX, which {@code cohort run --example} checks before it starts anything.
 */
final class ExampleCatalog {
    static final String RESOURCE = "META-INF/cohort/examples.properties";

    /** One example. */
    record Example(String name, String mainClass, String description, Argument argument) {
        Example(String name, String mainClass, String description) {
            this(name, mainClass, description, null);
        }

        /**
         * Null if {@code args} suit this example, else one sentence saying what it takes. An example
         * without an argument spec takes none.
         */
        String check(java.util.List<String> args) {
            if (args.isEmpty()) {
                return null;
            }
            if (argument == null) {
                return "--example " + name + " takes no arguments; got '" + String.join(" ", args) + "'";
            }
            String takes = "--example " + name + " takes one argument, " + argument.name() + ", a whole number from "
                    + argument.min() + " to " + argument.max();
            if (args.size() > 1) {
                return takes + "; got " + args.size() + " arguments";
            }
            try {
                long v = Long.parseLong(args.get(0));
                if (v >= argument.min() && v <= argument.max()) {
                    return null;
                }
            } catch (NumberFormatException notANumber) {
                // Said below.
            }
            return takes + ", not '" + args.get(0) + "'";
        }
    }

    /** The one whole-number argument an example takes. */
    record Argument(String name, long min, long max) {
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
        String[] fields = rest.split("\\|", -1);
        String main = fields[0].strip();
        String description = fields.length > 1 ? fields[1].strip() : "";
        Argument argument = null;
        if (fields.length > 2) {
            String[] a = fields[2].strip().split("\\s+");
            try {
                argument = a.length == 3 ? new Argument(a[0], Long.parseLong(a[1]), Long.parseLong(a[2])) : null;
            } catch (NumberFormatException e) {
                argument = null;
            }
            if (argument == null) {
                throw new IllegalStateException("the list of examples has a bad argument spec: " + line);
            }
        }
        return main.isEmpty() ? null : new Example(name, main, description, argument);
    }

    Map<String, Example> all() {
        return examples;
    }

    Example get(String name) {
        return examples.get(name);
    }
}
