package io.cohort.systest;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The dist's lib/ as JPMS modules (docs/architecture.md, "Modules"): every shipped jar is a named
 * module that resolves on a real module path, with one of the two MPI layers (they share package
 * mpi and io.cohort.mpi.support, so a module path holds one, as a class path does); a program that
 * is a named module and requires io.cohort.core runs on that path, as an in-process job and as a
 * peer's program through PeerMain; and javac refuses a module that imports cohort-core's internals.
 * Everything else in this module runs the same jars on the class path.
 */
class ModulePathSystemTest {
    static final Set<String> SHIPPED = Set.of("io.cohort.core", "io.cohort.runtime", "io.cohort.cli",
            "io.cohort.tools", "io.cohort.examples", "io.cohort.mpi", "io.cohort.mpj");
    static final Path WORK = CohortProcess.MODULE.resolve("target/module-programs");
    static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    @BeforeAll
    static void cleanWorkDirectory() throws IOException {
        CohortProcess.requireDist();
        if (Files.exists(WORK)) {
            try (Stream<Path> all = Files.walk(WORK)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        Files.createDirectories(WORK);
    }

    /** lib/'s jars as a module path, without {@code leftOut} (the other MPI layer's jar). */
    static String modulePath(String leftOut) throws IOException {
        try (Stream<Path> jars = Files.list(CohortProcess.LIB)) {
            return jars.filter(j -> j.toString().endsWith(".jar") && !j.getFileName().toString().equals(leftOut))
                    .sorted().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
        }
    }

    /** The everyday module path: lib/ with cohort-mpi.jar, without cohort-mpj.jar. */
    static String modulePath() throws IOException {
        return modulePath("cohort-mpj.jar");
    }

    @Test
    @Timeout(30)
    void everyShippedJarIsANamedModuleExportingOnlyTheApiToEveryone() {
        Map<String, ModuleDescriptor> found = new TreeMap<>();
        for (ModuleReference m : ModuleFinder.of(CohortProcess.LIB).findAll()) {
            found.put(m.descriptor().name(), m.descriptor());
        }
        Set<String> expected = new TreeSet<>(SHIPPED);
        expected.add("info.picocli");
        assertEquals(expected, found.keySet(), "the modules in " + CohortProcess.LIB);
        for (ModuleDescriptor d : found.values()) {
            assertFalse(d.isAutomatic(), d.name() + " has a module descriptor of its own");
            for (ModuleDescriptor.Exports e : d.exports()) {
                if (e.isQualified()) {
                    assertTrue(SHIPPED.containsAll(e.targets()), d.name() + " exports " + e + " to shipped modules only");
                }
            }
        }
        Map<String, Set<String>> everyone = new TreeMap<>();
        for (String name : SHIPPED) {
            everyone.put(name, found.get(name).exports().stream().filter(e -> !e.isQualified())
                    .map(ModuleDescriptor.Exports::source).collect(Collectors.toCollection(TreeSet::new)));
        }
        assertEquals(Map.of("io.cohort.core", Set.of("io.cohort", "io.cohort.deck"), "io.cohort.runtime", Set.of(),
                "io.cohort.cli", Set.of(), "io.cohort.tools", Set.of(), "io.cohort.examples", Set.of(),
                "io.cohort.mpi", Set.of("mpi"), "io.cohort.mpj", Set.of("mpi")), everyone,
                "the packages each module exports to every module");
    }

    /** The JVM validates the module path, then resolves every module on it into the boot layer. */
    @ParameterizedTest
    @ValueSource(strings = {"cohort-mpi.jar", "cohort-mpj.jar"})
    @Timeout(60)
    void libWithOneMpiLayerResolvesOnAModulePath(String mpiJar) throws Exception {
        String path = modulePath(mpiJar.equals("cohort-mpi.jar") ? "cohort-mpj.jar" : "cohort-mpi.jar");
        CohortProcess validate = java("-p", path, "--validate-modules");
        assertEquals(0, validate.exitCode(), validate.toString());
        assertEquals(List.of(), validate.out(), validate.toString());
        assertEquals(List.of(), validate.err(), validate.toString());

        CohortProcess resolve = java("-p", path, "--add-modules", "ALL-MODULE-PATH", "--show-module-resolution",
                "-version");
        assertEquals(0, resolve.exitCode(), resolve.toString());
        String mpi = mpiJar.equals("cohort-mpi.jar") ? "io.cohort.mpi" : "io.cohort.mpj";
        List<String> lines = new ArrayList<>(resolve.out());
        lines.addAll(resolve.err());
        Set<String> roots = lines.stream().filter(l -> l.startsWith("root ")).map(l -> l.split(" ")[1])
                .collect(Collectors.toSet());
        for (String m : SHIPPED) {
            if (!m.startsWith("io.cohort.mp") || m.equals(mpi)) {
                assertTrue(roots.contains(m), m + " is resolved: " + resolve);
            }
        }
    }

    /** Both MPI layers in one module path clash, in the packages they share and in no other. */
    @Test
    @Timeout(30)
    void theTwoMpiLayersAreTheOnlyModulesWhosePackagesClash() throws Exception {
        CohortProcess validate = java("-p", modulePath(""), "--validate-modules");
        assertNotEquals(0, validate.exitCode(), validate.toString());
        List<String> lines = new ArrayList<>(validate.out());
        lines.addAll(validate.err());
        // "    contains mpi conflicts with module io.cohort.mpj", under the other one's name
        Set<String> packages = new TreeSet<>();
        Set<String> with = new TreeSet<>();
        for (String l : lines) {
            String[] w = l.strip().split(" ");
            if (l.contains(" conflicts with module ")) {
                packages.add(w[1]);
                with.add(w[w.length - 1]);
            }
        }
        assertEquals(Set.of("mpi", "io.cohort.mpi.support", "io.cohort.mpi.support.buffers"), packages, validate.toString());
        assertTrue(Set.of("io.cohort.mpi", "io.cohort.mpj").containsAll(with), validate.toString());
    }

    /** A program that is a named module runs jobs of in-JVM peers, over memory and loopback TCP. */
    @Test
    @Timeout(60)
    void aModuleRequiringCoreRunsAnInProcessJobOnTheModulePath() throws Exception {
        Path classes = compile("sums", """
                module sums {
                    requires io.cohort.core;
                }
                """, "sums/Main.java", """
                package sums;

                import io.cohort.Communicator;
                import io.cohort.LocalCohort;
                import io.cohort.Op;

                import java.io.Serializable;
                import java.util.concurrent.ConcurrentSkipListMap;

                public final class Main {
                    record Part(int rank, long value) implements Serializable {
                    }

                    public static void main(String[] args) {
                        for (String transport : new String[] {"local", "tcp"}) {
                            int n = transport.equals("local") ? 4 : 3;
                            ConcurrentSkipListMap<Integer, Long> sums = new ConcurrentSkipListMap<>();
                            ConcurrentSkipListMap<Integer, String> parts = new ConcurrentSkipListMap<>();
                            LocalCohort.builder().size(n).transport(transport).run(world -> {
                                long[] sum = new long[1];
                                world.allreduce(new long[] {world.rank() + 1}, sum, Op.SUM);
                                sums.put(world.rank(), sum[0]);
                                int next = (world.rank() + 1) % world.size();
                                int prev = (world.rank() + world.size() - 1) % world.size();
                                world.sendObject(next, 7, new Part(world.rank(), sum[0]));
                                Part p = world.recvObject(prev, 7);
                                parts.put(world.rank(), p.rank() + ":" + p.value());
                            });
                            System.out.println(transport + ": " + n + " ranks, allreduce " + sums + ", received " + parts);
                        }
                        System.out.println("module " + Main.class.getModule().getName() + " uses "
                                + Communicator.class.getModule().getName());
                    }
                }
                """);
        CohortProcess p = java("-p", modulePath() + File.pathSeparator + classes, "-m", "sums/sums.Main");
        assertEquals(0, p.exitCode(), p.toString());
        assertEquals(List.of(
                "local: 4 ranks, allreduce {0=10, 1=10, 2=10, 3=10}, received {0=3:10, 1=0:10, 2=1:10, 3=2:10}",
                "tcp: 3 ranks, allreduce {0=6, 1=6, 2=6}, received {0=2:6, 1=0:6, 2=1:6}",
                "module sums uses io.cohort.core"), p.out(), p.toString());
        assertEquals(List.of(), p.err(), p.toString());
    }

    /** The compiler, not only a test, keeps programs off the implementation: no module reads its packages. */
    @Test
    @Timeout(60)
    void javacRefusesAModuleThatImportsCoreInternals() throws Exception {
        Path src = sources("sneaky", """
                module sneaky {
                    requires io.cohort.core;
                }
                """, "sneaky/Main.java", """
                package sneaky;

                import io.cohort.engine.SerialFilter;
                import io.cohort.wireup.JobEnvironment;

                public final class Main {
                    public static void main(String[] args) {
                        System.out.println(SerialFilter.class + " " + JobEnvironment.RANK);
                    }
                }
                """);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, err, "--release", "17", "--module-path",
                modulePath(), "--module-source-path", src.toString(), "-m", "sneaky", "-d",
                WORK.resolve("sneaky-classes").toString());
        String diagnostics = err.toString();
        assertNotEquals(0, rc, diagnostics);
        // An internal package, and one exported only to other Cohort modules: neither is visible.
        for (String pkg : List.of("io.cohort.engine", "io.cohort.wireup")) {
            assertTrue(diagnostics.contains("package " + pkg + " is not visible"), diagnostics);
            assertTrue(diagnostics.contains("(package " + pkg + " is declared in module io.cohort.core, which does not"
                    + " export it to module sneaky)"), diagnostics);
        }
    }

    /**
     * A peer's entry point works from a module path too: PeerMain (run outside a launcher: a job of
     * one) finds and starts a bundled example, a program module that exports its main package, and
     * tells a module that hides it what to add.
     */
    @Test
    @Timeout(60)
    void peerMainStartsExamplesAndProgramModulesFromTheModulePath() throws Exception {
        String path = modulePath();
        CohortProcess pi = java("-p", path, "--add-modules", "io.cohort.examples", "-m",
                "io.cohort.core/io.cohort.wireup.PeerMain", "io.cohort.examples.Pi", "1000000");
        assertEquals(0, pi.exitCode(), pi.toString());
        assertEquals(1, pi.out().size(), pi.toString());
        assertTrue(pi.out().get(0).startsWith("pi = 3.14159") && pi.out().get(0).endsWith("computed by 1 peer"),
                pi.toString());

        String main = """
                package %1$s;

                public final class Main {
                    public static void main(String[] args) {
                        try (io.cohort.Communicator world = io.cohort.Cohort.init()) {
                            System.out.println("%1$s: rank " + world.rank() + " of " + world.size() + ", " + args[0]);
                        }
                    }
                }
                """;
        Path open = compile("shown", """
                module shown {
                    requires io.cohort.core;
                    exports shown to io.cohort.core;
                }
                """, "shown/Main.java", main.formatted("shown"));
        CohortProcess shown = java("-p", path + File.pathSeparator + open, "--add-modules", "shown", "-m",
                "io.cohort.core/io.cohort.wireup.PeerMain", "shown.Main", "started");
        assertEquals(0, shown.exitCode(), shown.toString());
        assertEquals(List.of("shown: rank 0 of 1, started"), shown.out(), shown.toString());

        Path closed = compile("hidden", """
                module hidden {
                    requires io.cohort.core;
                }
                """, "hidden/Main.java", main.formatted("hidden"));
        CohortProcess hidden = java("-p", path + File.pathSeparator + closed, "--add-modules", "hidden", "-m",
                "io.cohort.core/io.cohort.wireup.PeerMain", "hidden.Main", "started");
        assertEquals(3, hidden.exitCode(), hidden.toString());
        assertEquals(List.of("cohort: class hidden.Main is in module hidden, which does not export package hidden to"
                + " io.cohort.core; add 'exports hidden to io.cohort.core;' to its module-info.java ('opens' if its"
                + " main method or class is not public)"), hidden.err(), hidden.toString());
    }

    /**
     * Each MPI layer works as a module on its own, its shared support classes inside it (the v-collective's
     * overlap check and the nonblocking runner come from cohort-core's qualified exports).
     */
    @Test
    @Timeout(60)
    void eachMpiLayerRunsAProgramModule() throws Exception {
        Path ompi = compile("ompiprog", """
                module ompiprog {
                    requires io.cohort.mpi;
                }
                """, "ompiprog/Main.java", """
                package ompiprog;

                import mpi.MPI;

                public final class Main {
                    public static void main(String[] args) throws Exception {
                        MPI.Init(args);
                        long[] sum = new long[1];
                        MPI.COMM_WORLD.allReduce(new long[] {41}, sum, 1, MPI.LONG, MPI.SUM);
                        int[] all = new int[2];
                        MPI.COMM_WORLD.allGatherv(new int[] {5, 6}, 2, MPI.INT, all, new int[] {2}, new int[] {0}, MPI.INT);
                        System.out.println("ompi: " + MPI.COMM_WORLD.getSize() + " process, sum " + (sum[0] + 1)
                                + ", gathered " + all[0] + all[1] + ", " + Main.class.getModule().getName() + " uses "
                                + MPI.class.getModule().getName());
                        MPI.Finalize();
                    }
                }
                """);
        CohortProcess p = java("-p", modulePath("cohort-mpj.jar") + File.pathSeparator + ompi, "-m", "ompiprog/ompiprog.Main");
        assertEquals(0, p.exitCode(), p.toString());
        assertEquals(List.of("ompi: 1 process, sum 42, gathered 56, ompiprog uses io.cohort.mpi"), p.out(), p.toString());

        Path mpj = compile("mpjprog", """
                module mpjprog {
                    requires io.cohort.mpj;
                }
                """, "mpjprog/Main.java", """
                package mpjprog;

                import mpi.MPI;

                public final class Main {
                    public static void main(String[] args) throws Exception {
                        MPI.Init(args);
                        long[] sum = new long[1];
                        MPI.COMM_WORLD.Allreduce(new long[] {41}, 0, sum, 0, 1, MPI.LONG, MPI.SUM);
                        int[] all = new int[2];
                        MPI.COMM_WORLD.Allgatherv(new int[] {5, 6}, 0, 2, MPI.INT, all, 0, new int[] {2}, new int[] {0},
                                MPI.INT);
                        System.out.println("mpj: " + MPI.COMM_WORLD.Size() + " process, sum " + (sum[0] + 1)
                                + ", gathered " + all[0] + all[1] + ", " + Main.class.getModule().getName() + " uses "
                                + MPI.class.getModule().getName());
                        MPI.Finalize();
                    }
                }
                """);
        p = java("-p", modulePath("cohort-mpi.jar") + File.pathSeparator + mpj, "-m", "mpjprog/mpjprog.Main");
        assertEquals(0, p.exitCode(), p.toString());
        assertEquals(List.of("mpj: 1 process, sum 42, gathered 56, mpjprog uses io.cohort.mpj"), p.out(), p.toString());
    }

    /** Writes a module's module-info.java and one class under WORK/src-NAME/NAME. */
    static Path sources(String module, String moduleInfo, String file, String code) throws IOException {
        Path root = WORK.resolve("src-" + module);
        Path dir = root.resolve(module);
        Files.createDirectories(dir.resolve(file).getParent());
        Files.writeString(dir.resolve("module-info.java"), moduleInfo);
        Files.writeString(dir.resolve(file), code);
        return root;
    }

    /**
     * Compiles one module against lib/ as a module path (the MPI layer it requires, not the other);
     * returns its classes' directory.
     */
    static Path compile(String module, String moduleInfo, String file, String code) throws IOException {
        Path src = sources(module, moduleInfo, file, code);
        Path out = WORK.resolve("classes-" + module);
        String path = modulePath(moduleInfo.contains("io.cohort.mpj") ? "cohort-mpi.jar" : "cohort-mpj.jar");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, err, "--release", "17", "--module-path", path,
                "--module-source-path", src.toString(), "-m", module, "-d", out.toString());
        assertEquals(0, rc, "javac " + module + ": " + err);
        return out.resolve(module);
    }

    /** Runs {@code java ARGS...} to its end, its output collected. */
    static CohortProcess java(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(JAVA, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
        cmd.addAll(List.of(args));
        CohortProcess p = CohortProcess.startCommand(cmd, Map.of());
        p.closeStdin();
        p.waitFor();
        return p;
    }
}
