package io.cohort.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** {@code cohort examples}: the examples {@code cohort run --example NAME} can run. */
@Command(name = "examples", description = "List the examples that 'cohort run --example NAME' runs.")
final class ExamplesCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        ExampleCatalog.load().all().values().forEach(e -> out.printf("%-10s %s%n", e.name(), e.description()));
        out.flush();
        return 0;
    }
}
