package io.cohort.wireup;

import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * The program's entry point, chosen as the {@code java} launcher of the peer's own Java would choose
 * it, so that a class that runs with {@code java Main} runs unchanged under {@code cohort run}.
 *
 * <ul>
 *   <li>Before Java 25: {@code public static void main(String[])}, declared or inherited.</li>
 *   <li>From Java 25 (JLS 12.1.4, JEP 512): a non-private {@code void main(String[])}, or failing
 *       that a non-private {@code void main()}; each looked for in the class, then in the default
 *       methods of its interfaces, then likewise up its superclasses. A static one is called as it
 *       is; an instance one on a new object made by the class's non-private constructor without
 *       parameters.</li>
 * </ul>
 *
 * <p>Java 21 to 24 offered instance mains only as a preview; those JVMs get the classic rule here.
 */
final class ProgramEntry {
    /** The first Java whose launcher takes instance and non-public mains without preview features. */
    static final int FLEXIBLE_MAIN_JAVA = 25;

    private final Method method;
    private final Constructor<?> constructor;

    private ProgramEntry(Method method, Constructor<?> constructor) {
        this.method = method;
        this.constructor = constructor;
    }

    /** Why a class cannot be started: the sentence after "cohort: ". */
    static final class NoEntryException extends Exception {
        private static final long serialVersionUID = 1L;

        NoEntryException(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * The entry point of {@code c} on a JVM of version {@code javaFeature}.
     *
     * @throws NoEntryException naming what the class lacks on that Java
     */
    static ProgramEntry of(Class<?> c, int javaFeature) throws NoEntryException {
        String name = c.getName();
        if (javaFeature < FLEXIBLE_MAIN_JAVA) {
            Method m = classicMain(c);
            if (m != null) {
                accessible(m, c);
                return new ProgramEntry(m, null);
            }
            Method later = flexibleMain(c);
            if (later != null) {
                throw new NoEntryException("class " + name + " has " + describe(later) + ", which Java " + javaFeature
                        + " does not start; make it public static void main(String[]), or run the peers on Java "
                        + FLEXIBLE_MAIN_JAVA + " or newer");
            }
            throw new NoEntryException("class " + name + " has no public static void main(String[])");
        }
        Method m = flexibleMain(c);
        if (m == null) {
            throw new NoEntryException("class " + name + " has no main method (void main(String[]) or void main(),"
                    + " not private)");
        }
        accessible(m, c);
        if (Modifier.isStatic(m.getModifiers())) {
            return new ProgramEntry(m, null);
        }
        if (Modifier.isAbstract(c.getModifiers())) {
            throw new NoEntryException("class " + name + " has an instance main method but is abstract, so no object of"
                    + " it can be made to call it on");
        }
        try {
            Constructor<?> k = c.getDeclaredConstructor();
            if (Modifier.isPrivate(k.getModifiers())) {
                throw new NoSuchMethodException();
            }
            accessible(k, c);
            return new ProgramEntry(m, k);
        } catch (NoSuchMethodException e) {
            throw new NoEntryException("class " + name + " has an instance main method but no non-private constructor"
                    + " without parameters to make the object it is called on");
        }
    }

    /** Runs the program; what it throws (also from its constructor) arrives in the exception. */
    void run(String[] args) throws InvocationTargetException, IllegalAccessException, InstantiationException {
        Object target = constructor == null ? null : constructor.newInstance();
        if (method.getParameterCount() == 0) {
            method.invoke(target);
        } else {
            method.invoke(target, (Object) args);
        }
    }

    /**
     * Makes the entry point callable from here. On the class path it always is; a program in a named
     * module must export its main class's package to cohort-core (or open it, for a main method or
     * class that is not public), since a peer calls main by reflection where the {@code java}
     * launcher needs neither.
     */
    private static void accessible(AccessibleObject member, Class<?> c) throws NoEntryException {
        if (member.trySetAccessible()) {
            return;
        }
        Module core = ProgramEntry.class.getModule();
        String to = core.isNamed() ? " to " + core.getName() : "";
        throw new NoEntryException("class " + c.getName() + " is in module " + c.getModule().getName() + ", which does not"
                + " export package " + c.getPackageName() + to + "; add 'exports " + c.getPackageName() + to + ";' to its"
                + " module-info.java ('opens' if its main method or class is not public)");
    }

    /** {@code public static void main(String[])} as Java 17's launcher finds it, or null. */
    private static Method classicMain(Class<?> c) {
        try {
            Method m = c.getMethod("main", String[].class);
            return Modifier.isStatic(m.getModifiers()) && m.getReturnType() == void.class ? m : null;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /** JLS 12.1.4 of Java 25: a candidate with a {@code String[]} parameter first, then one without. */
    private static Method flexibleMain(Class<?> c) {
        Method m = search(c, true);
        return m != null ? m : search(c, false);
    }

    private static Method search(Class<?> c, boolean withArgs) {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            Method m = candidate(k, withArgs, false);
            if (m != null) {
                return m;
            }
            m = inInterfaces(k, withArgs);
            if (m != null) {
                return m;
            }
        }
        return null;
    }

    private static Method inInterfaces(Class<?> k, boolean withArgs) {
        for (Class<?> i : k.getInterfaces()) {
            Method m = candidate(i, withArgs, true);
            if (m == null) {
                m = inInterfaces(i, withArgs);
            }
            if (m != null) {
                return m;
            }
        }
        return null;
    }

    /** A method {@code k} declares that may start a program: named main, void, not private. */
    private static Method candidate(Class<?> k, boolean withArgs, boolean defaultOnly) {
        try {
            Method m = withArgs ? k.getDeclaredMethod("main", String[].class) : k.getDeclaredMethod("main");
            int mod = m.getModifiers();
            if (m.getReturnType() != void.class || Modifier.isPrivate(mod)) {
                return null;
            }
            // An interface hands down only its default methods; its static ones stay its own.
            return defaultOnly && !m.isDefault() ? null : m;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /** "an instance method void main()" or "a non-public static void main(String[])". */
    private static String describe(Method m) {
        int mod = m.getModifiers();
        String signature = "void main(" + (m.getParameterCount() == 0 ? "" : "String[]") + ")";
        if (!Modifier.isStatic(mod)) {
            return "an instance method " + signature;
        }
        return (Modifier.isPublic(mod) ? "a static " : "a non-public static ") + signature;
    }
}
