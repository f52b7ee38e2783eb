package io.cohort.cli;

import io.cohort.launch.CohortHome;

import java.io.File;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * Turns the three program forms into (classpath, main class) and checks, before anything starts,
 * that the class exists: a typo should cost the user one second and one sentence, not N JVM
 * start-ups and N stack traces.
 */
final class ProgramResolver {
    /** What the peers run. */
    record Program(List<String> classpath, String mainClass) {
    }

    private final Path cwd;

    ProgramResolver(Path cwd) {
        this.cwd = cwd;
    }

    Program jar(String jar) {
        Path p = cwd.resolve(jar);
        if (Files.isDirectory(p)) {
            throw new ProgramNotFoundException(jar + " is a directory, not a jar file; give the jar to -jar, or the"
                    + " directory to -cp with the main class");
        }
        if (!Files.isRegularFile(p)) {
            throw new ProgramNotFoundException("jar file " + jar + " does not exist; check the path given to -jar");
        }
        String main;
        try (JarFile jf = new JarFile(p.toFile())) {
            Manifest m = jf.getManifest();
            main = m == null ? null : m.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
        } catch (IOException e) {
            throw new ProgramNotFoundException(jar + " is not a readable jar file (" + e.getMessage() + ")");
        }
        if (main == null || main.isBlank()) {
            throw new ProgramNotFoundException(jar + " has no Main-Class in its manifest; run it as -cp " + jar
                    + " MAIN_CLASS instead");
        }
        main = main.trim();
        Search search = new Search();
        byte[] classFile = find(List.of(p), main.replace('.', '/') + ".class", search);
        if (classFile == null && search.unsure) {
            return new Program(List.of(jar), main); // a Class-Path URL this check cannot follow: the JVM will
        }
        if (classFile == null) {
            throw new ProgramNotFoundException(jar + " names Main-Class " + main + ", which is neither in it nor on its"
                    + " Class-Path; fix the manifest, or run it as -cp " + jar + " MAIN_CLASS");
        }
        checkMain(main, classFile);
        return new Program(List.of(jar), main);
    }

    Program classpath(String classpath, String mainClass) {
        List<String> entries = new ArrayList<>();
        for (String e : classpath.split(File.pathSeparator)) {
            if (!e.isEmpty()) {
                entries.add(e);
            }
        }
        if (entries.isEmpty()) {
            throw new UsageException("-cp needs at least one directory or jar");
        }
        if (!isClassName(mainClass)) {
            String dotted = mainClass.endsWith(".class") ? mainClass.substring(0, mainClass.length() - 6) : mainClass;
            dotted = dotted.replace('/', '.');
            throw new UsageException("'" + mainClass + "' is not a Java class name; give the main class after -cp CLASSPATH"
                    + (!dotted.equals(mainClass) && isClassName(dotted) ? " (did you mean " + dotted + "?)" : ""));
        }
        List<Path> search = new ArrayList<>();
        for (String e : entries) {
            search.addAll(expand(e));
        }
        Path core = CohortHome.coreJar();
        if (core != null) {
            search.add(core);
        }
        Search looked = new Search();
        byte[] classFile = find(search, mainClass.replace('.', '/') + ".class", looked);
        if (classFile == null && looked.unsure) {
            return new Program(entries, mainClass);
        }
        if (classFile == null) {
            throw new ProgramNotFoundException("class " + mainClass + " was not found on the classpath " + classpath
                    + (looked.unreadable.isEmpty() ? "; check the class name (with its package) and the -cp entries"
                            + (mainClass.endsWith(".class") ? " (the name is without .class: "
                                    + mainClass.substring(0, mainClass.length() - 6) + ")" : "")
                            : "; " + looked.unreadable.stream().map(Path::toString).collect(java.util.stream.Collectors.joining(", "))
                                    + (looked.unreadable.size() == 1 ? " is" : " are") + " not readable by this user (permission denied)"));
        }
        checkMain(mainClass, classFile);
        return new Program(entries, mainClass);
    }

    /** A class that certainly has no main method is refused here, once, rather than by every peer. */
    private static void checkMain(String mainClass, byte[] classFile) {
        if (!ClassFileMain.mayHaveMain(classFile)) {
            throw new ProgramNotFoundException("class " + mainClass + " has no main method; give the class whose"
                    + " public static void main(String[]) starts the program");
        }
    }

    private static boolean isClassName(String s) {
        if (s.isEmpty() || s.startsWith(".") || s.endsWith(".") || s.contains("..")) {
            return false;
        }
        for (String part : s.split("\\.")) {
            if (!Character.isJavaIdentifierStart(part.charAt(0))
                    || !part.chars().skip(1).allMatch(Character::isJavaIdentifierPart)) {
                return false;
            }
        }
        return true;
    }

    /** A classpath entry as java reads it: "dir/*" means every jar in dir. */
    private List<Path> expand(String entry) {
        if (entry.equals("*") || entry.endsWith(File.separator + "*")) {
            Path dir = cwd.resolve(entry.substring(0, entry.length() - 1).isEmpty() ? "." : entry.substring(0, entry.length() - 1));
            List<Path> jars = new ArrayList<>();
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.{jar,JAR}")) {
                ds.forEach(jars::add);
            } catch (IOException e) {
                // A missing directory contributes nothing, as for java.
            }
            return jars;
        }
        return List.of(cwd.resolve(entry));
    }

    /** One lookup: the entries seen, and whether one of them could not be followed (then "not found" is not certain). */
    private static final class Search {
        final Set<Path> seen = new HashSet<>();
        boolean unsure;
        /** Entries that exist but that this user may not read: a class in them is not found by the peers either. */
        final List<Path> unreadable = new ArrayList<>();
    }

    /**
     * The bytes of {@code resource} from the first of the directories and jars that holds it,
     * following jars' manifest Class-Path like the JVM does; null if none does.
     */
    private static byte[] find(List<Path> entries, String resource, Search search) {
        for (Path p : entries) {
            if (!search.seen.add(p.toAbsolutePath().normalize())) {
                continue;
            }
            if (Files.isDirectory(p)) {
                if (Files.isRegularFile(p.resolve(resource))) {
                    try {
                        return Files.readAllBytes(p.resolve(resource));
                    } catch (IOException e) {
                        return new byte[0]; // there but unreadable here: the peers' JVMs will say why
                    }
                }
            } else if (Files.isRegularFile(p)) {
                // Versioned, as the JVM opens it: a multi-release jar may hold a class for this Java only.
                try (JarFile jf = new JarFile(p.toFile(), true, java.util.zip.ZipFile.OPEN_READ, Runtime.version())) {
                    java.util.jar.JarEntry entry = jf.getJarEntry(resource);
                    if (entry != null) {
                        try (java.io.InputStream in = jf.getInputStream(entry)) {
                            return in.readAllBytes();
                        }
                    }
                    Manifest m = jf.getManifest();
                    String cp = m == null ? null : m.getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
                    if (cp != null) {
                        List<Path> more = new ArrayList<>();
                        for (String s : cp.trim().split("\\s+")) {
                            if (s.isEmpty()) {
                                continue;
                            }
                            // Relative URLs against the jar's own (%20 for a space, file: URLs too).
                            try {
                                java.net.URI u = p.toAbsolutePath().getParent().toUri().resolve(s);
                                if ("file".equals(u.getScheme())) {
                                    more.add(Path.of(u));
                                } else {
                                    search.unsure = true;
                                }
                            } catch (RuntimeException e) {
                                search.unsure = true;
                            }
                        }
                        byte[] found = find(more, resource, search);
                        if (found != null) {
                            return found;
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    if (!Files.isReadable(p)) {
                        search.unreadable.add(p);
                    }
                    // Else not a jar: java ignores it too.
                }
            }
        }
        return null;
    }
}
