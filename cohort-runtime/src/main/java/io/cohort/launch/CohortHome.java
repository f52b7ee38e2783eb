package io.cohort.launch;

import java.io.File;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;

/**
 * Where the distribution's jars are. The {@value #HOME_PROP_NAME} system property (set by the
 * {@code ./cohort} script) names the home whose {@code lib/} holds them; without it, the directory
 * this class was loaded from. A jar missing from there (running from an IDE or target/classes) is
 * found through the code source of a class it contains.
 */
public final class CohortHome {
    public static final String HOME_PROP_NAME = "cohort.home";
    public static final String CORE_JAR = "cohort-core.jar";
    public static final String RUNTIME_JAR = "cohort-runtime.jar";
    public static final String EXAMPLES_JAR = "cohort-examples.jar";

    private CohortHome() {
    }

    /** The lib directory, or null when the classes were not loaded from a jar and no home is set. */
    public static Path libDir() {
        String home = System.getProperty(HOME_PROP_NAME);
        if (home != null && !home.isBlank()) {
            return Path.of(home, "lib").toAbsolutePath().normalize();
        }
        Path own = codeSource(CohortHome.class);
        return own != null && Files.isRegularFile(own) ? own.getParent() : null;
    }

    /** A jar of the distribution: lib/NAME if it exists, else wherever {@code probeClass} came from. */
    public static Path jar(String name, String probeClass) {
        Path lib = libDir();
        if (lib != null && Files.isRegularFile(lib.resolve(name))) {
            return lib.resolve(name);
        }
        try {
            return codeSource(Class.forName(probeClass, false, CohortHome.class.getClassLoader()));
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    public static Path coreJar() {
        return jar(CORE_JAR, "io.cohort.wireup.PeerMain");
    }

    public static Path runtimeJar() {
        return jar(RUNTIME_JAR, "io.cohort.launch.IoManagerMain");
    }

    /** The io-manager's classpath: core + runtime. */
    public static String ioManagerClasspath() {
        return coreJar() + File.pathSeparator + runtimeJar();
    }

    static Path codeSource(Class<?> c) {
        CodeSource cs = c.getProtectionDomain().getCodeSource();
        URL url = cs == null ? null : cs.getLocation();
        if (url == null) {
            return null;
        }
        try {
            return Path.of(url.toURI()).toAbsolutePath().normalize();
        } catch (URISyntaxException | IllegalArgumentException e) {
            return null;
        }
    }

    /** The java launcher of the running JDK. */
    public static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
