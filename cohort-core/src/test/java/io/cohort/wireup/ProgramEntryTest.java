package io.cohort.wireup;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Timeout(10)
class ProgramEntryTest {
    static final List<String> CALLS = new ArrayList<>();

    public static class Classic {
        public static void main(String[] args) {
            CALLS.add("classic " + String.join(",", args));
        }
    }

    static class PackageStatic {
        static void main(String[] args) {
            CALLS.add("package static " + args.length);
        }
    }

    static class InstanceNoArgs {
        void main() {
            CALLS.add("instance no args");
        }
    }

    static class BothForms {
        void main() {
            CALLS.add("no args");
        }

        void main(String[] args) {
            CALLS.add("with args " + args.length);
        }
    }

    interface Runnable2 {
        default void main() {
            CALLS.add("interface default");
        }
    }

    static class FromInterface implements Runnable2 {
    }

    static class Base {
        void main(String[] args) {
            CALLS.add("base");
        }
    }

    static class Derived extends Base {
        void main() {
            CALLS.add("derived no args");
        }
    }

    static class PrivateOnly {
        private static void main(String[] args) {
            CALLS.add("never");
        }
    }

    static class WrongReturn {
        public static int main(String[] args) {
            return 1;
        }
    }

    static class NoDefaultConstructor {
        NoDefaultConstructor(int x) {
        }

        void main() {
        }
    }

    abstract static class Abstract {
        void main() {
        }
    }

    static class ThrowingConstructor {
        ThrowingConstructor() {
            throw new IllegalStateException("boom");
        }

        void main() {
        }
    }

    private static String run(Class<?> c, int java, String... args) throws Exception {
        CALLS.clear();
        ProgramEntry.of(c, java).run(args);
        return String.join("|", CALLS);
    }

    private static String refusal(Class<?> c, int java) {
        return assertThrows(ProgramEntry.NoEntryException.class, () -> ProgramEntry.of(c, java)).getMessage();
    }

    @Test
    void theClassicMainRunsOnEveryJava() throws Exception {
        assertEquals("classic a,b", run(Classic.class, 17, "a", "b"));
        assertEquals("classic a", run(Classic.class, 25, "a"));
    }

    @Test
    void beforeJava25OnlyAPublicStaticMainStartsAndTheOthersAreNamed() {
        String name = PackageStatic.class.getName();
        assertEquals("class " + name + " has a non-public static void main(String[]), which Java 17 does not start;"
                + " make it public static void main(String[]), or run the peers on Java 25 or newer",
                refusal(PackageStatic.class, 17));
        assertEquals("class " + InstanceNoArgs.class.getName() + " has an instance method void main(), which Java 21"
                + " does not start; make it public static void main(String[]), or run the peers on Java 25 or newer",
                refusal(InstanceNoArgs.class, 21));
        assertEquals("class " + WrongReturn.class.getName() + " has no public static void main(String[])",
                refusal(WrongReturn.class, 17));
    }

    @Test
    void fromJava25NonPublicAndInstanceMainsStartAsTheJavaLauncherStartsThem() throws Exception {
        assertEquals("package static 2", run(PackageStatic.class, 25, "x", "y"));
        assertEquals("instance no args", run(InstanceNoArgs.class, 25, "ignored"));
        assertEquals("with args 1", run(BothForms.class, 25, "x"), "a String[] main comes first");
        assertEquals("interface default", run(FromInterface.class, 25));
        assertEquals("base", run(Derived.class, 26), "a String[] main anywhere in the hierarchy beats a main()");
    }

    @Test
    void fromJava25WhatCannotStartIsSaidInOneSentence() {
        assertEquals("class " + PrivateOnly.class.getName() + " has no main method (void main(String[]) or void main(),"
                + " not private)", refusal(PrivateOnly.class, 25));
        assertEquals("class " + WrongReturn.class.getName() + " has no main method (void main(String[]) or void main(),"
                + " not private)", refusal(WrongReturn.class, 25));
        assertEquals("class " + NoDefaultConstructor.class.getName() + " has an instance main method but no non-private"
                + " constructor without parameters to make the object it is called on",
                refusal(NoDefaultConstructor.class, 25));
        assertEquals("class " + Abstract.class.getName() + " has an instance main method but is abstract, so no object"
                + " of it can be made to call it on", refusal(Abstract.class, 25));
    }

    @Test
    void whatTheConstructorThrowsIsTheProgramsFailure() throws Exception {
        ProgramEntry e = ProgramEntry.of(ThrowingConstructor.class, 25);
        InvocationTargetException t = assertThrows(InvocationTargetException.class, () -> e.run(new String[0]));
        assertInstanceOf(IllegalStateException.class, t.getCause());
    }
}
