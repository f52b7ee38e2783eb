package mpi;

import io.cohort.LocalCohort;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A class compiled against MPJ Express's own {@code mpi.jar} links against cohort-mpj: a program is
 * compiled with javax.tools against Debian's libmpj-java jars and run here over in-JVM peers; and
 * every public member of MPJ Express's API classes is present here with the same descriptor, apart
 * from the documented ones that name MPJ Express's device types. Skipped, with one line, when
 * libmpj-java is not installed.
 */
@Timeout(120)
class BinaryCompatibilityTest {
    static final Path MPJ_LIB = Path.of("/usr/share/mpj/lib");
    static final Path MPJ_MPI = MPJ_LIB.resolve("mpi.jar");
    /** The public API classes of MPJ Express's mpi.jar (the rest are its implementation: BandByte, Packer ...). */
    static final String[] API = {"MPI", "Comm", "Intracomm", "Intercomm", "Cartcomm", "Graphcomm", "CartParms",
            "GraphParms", "ShiftParms", "Group", "Datatype", "Status", "Request", "Prequest", "Op", "User_function",
            "Errhandler", "MPIException"};
    /** Types of MPJ Express's devices: members that use them are left out (docs/mpj.md). */
    static final String[] DEVICE_TYPES = {"mpjdev.", "mpjbuf.", "xdev."};

    @Test
    void aProgramCompiledAgainstMpjExpressRunsHere() throws Exception {
        assumeTrue(Files.isRegularFile(MPJ_MPI), "MPJ Express's mpi.jar is not installed (apt-get install libmpj-java);"
                + " the binary compatibility check is skipped");
        Path dir = Files.createTempDirectory("mpjcompat");
        Path src = dir.resolve("CompatProgram.java");
        try (InputStream in = getClass().getResourceAsStream("/mpjcompat/CompatProgram.java")) {
            Files.write(src, in.readAllBytes());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String cp = MPJ_MPI + File.pathSeparator + MPJ_LIB.resolve("mpj.jar");
        int rc = javac.run(null, null, err, "--release", "17", "-classpath", cp, "-d", dir.toString(), src.toString());
        assertEquals(0, rc, "javac against MPJ Express's mpi.jar: " + err);

        // Our mpi classes come from the test's class loader; the program's class from the directory.
        try (URLClassLoader loader = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
            Method main = Class.forName("CompatProgram", true, loader).getMethod("main", String[].class);
            for (int n : new int[] {1, 2, 4}) {
                AtomicInteger ran = new AtomicInteger();
                LocalCohort.run(n, world -> {
                    Peer.bind(new Peer(world));
                    try {
                        main.invoke(null, (Object) new String[] {"x"});
                        ran.incrementAndGet();
                    } finally {
                        Peer.unbind();
                    }
                });
                assertEquals(n, ran.get());
            }
        }
    }

    @Test
    void everyPublicMemberOfMpjExpressesApiIsHere() throws Exception {
        assumeTrue(Files.isRegularFile(MPJ_MPI), "MPJ Express's mpi.jar is not installed (apt-get install libmpj-java);"
                + " the API comparison is skipped");
        List<URL> urls = new ArrayList<>(List.of(MPJ_MPI.toUri().toURL(), MPJ_LIB.resolve("mpj.jar").toUri().toURL()));
        Path log4j = Path.of("/usr/share/java/log4j-1.2.jar");
        if (Files.isRegularFile(log4j)) {
            urls.add(log4j.toUri().toURL());
        }
        Set<String> missing = new TreeSet<>();
        // The platform loader as parent: MPJ's classes never resolve to ours.
        try (URLClassLoader theirs = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader())) {
            for (String name : API) {
                Class<?> t = Class.forName("mpi." + name, false, theirs);
                Class<?> o = Class.forName("mpi." + name);
                assertEquals(t.getSuperclass() == null ? null : t.getSuperclass().getName().replace("mpjdev.Status",
                        "java.lang.Object").replace("mpjdev.MPJDevException", "java.lang.RuntimeException"),
                        o.getSuperclass() == null ? null : o.getSuperclass().getName(), name + "'s superclass");
                assertEquals(Modifier.isAbstract(t.getModifiers()), Modifier.isAbstract(o.getModifiers()), name);
                for (Method m : t.getDeclaredMethods()) {
                    if (!Modifier.isPublic(m.getModifiers()) || usesDevice(m.toString())) {
                        continue;
                    }
                    try {
                        Method ours = o.getMethod(m.getName(), ourTypes(m.getParameterTypes()));
                        if (!ours.getReturnType().getName().equals(m.getReturnType().getName())
                                || Modifier.isStatic(ours.getModifiers()) != Modifier.isStatic(m.getModifiers())) {
                            missing.add(name + ": " + m + " differs from " + ours);
                        }
                    } catch (NoSuchMethodException e) {
                        missing.add(name + ": " + m);
                    }
                }
                for (var c : t.getDeclaredConstructors()) {
                    if (Modifier.isPublic(c.getModifiers()) && !usesDevice(c.toString())) {
                        try {
                            o.getConstructor(ourTypes(c.getParameterTypes()));
                        } catch (NoSuchMethodException e) {
                            missing.add(name + ": " + c);
                        }
                    }
                }
                for (Field f : t.getDeclaredFields()) {
                    if (!Modifier.isPublic(f.getModifiers()) || usesDevice(f.getType().getName())) {
                        continue;
                    }
                    try {
                        Field ours = o.getField(f.getName());
                        if (!ours.getType().getName().equals(f.getType().getName())
                                || Modifier.isStatic(ours.getModifiers()) != Modifier.isStatic(f.getModifiers())) {
                            missing.add(name + ": field " + f + " differs from " + ours);
                        } else if (Modifier.isFinal(f.getModifiers()) && Modifier.isStatic(f.getModifiers())
                                && f.getType().isPrimitive()) {
                            f.setAccessible(true);
                            assertEquals(f.get(null), ours.get(null), name + "." + f.getName() + " is inlined by javac");
                        }
                    } catch (NoSuchFieldException e) {
                        missing.add(name + ": field " + f);
                    }
                }
            }
            // mpjdev.Status's fields, which programs read through mpi.Status.
            for (String field : new String[] {"source", "tag", "index"}) {
                assertEquals(int.class, Status.class.getField(field).getType());
            }
        }
        assertTrue(missing.isEmpty(), "members of MPJ Express's API missing or different here:\n"
                + String.join("\n", missing));
    }

    private static boolean usesDevice(String s) {
        return Arrays.stream(DEVICE_TYPES).anyMatch(s::contains);
    }

    private static Class<?>[] ourTypes(Class<?>[] theirs) throws ClassNotFoundException {
        Class<?>[] out = new Class<?>[theirs.length];
        for (int i = 0; i < theirs.length; i++) {
            Class<?> t = theirs[i];
            out[i] = t.getName().startsWith("mpi.") ? Class.forName(t.getName())
                    : t.isArray() && t.getComponentType().getName().startsWith("mpi.")
                    ? Class.forName("[L" + t.getComponentType().getName() + ";") : t;
        }
        return out;
    }
}
