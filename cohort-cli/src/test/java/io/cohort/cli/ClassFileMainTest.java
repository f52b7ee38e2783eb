package io.cohort.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class ClassFileMainTest {
    private static byte[] classFile(Class<?> c) throws IOException {
        try (InputStream in = c.getResourceAsStream(c.getName().substring(c.getName().lastIndexOf('.') + 1) + ".class")) {
            return in.readAllBytes();
        }
    }

    @Test
    void aClassWithMainMayRunOneWithoutCannot() throws IOException {
        assertTrue(ClassFileMain.mayHaveMain(classFile(Main.class)));
        // Long constants take two pool entries; ClassFileMain has one (2L) and no main, interface or superclass.
        assertFalse(ClassFileMain.mayHaveMain(classFile(ClassFileMain.class)));
        assertTrue(ClassFileMain.mayHaveMain(classFile(RunCommand.class)), "an interface may hand main down");
    }

    static final class PrivateMain {
        private static void main(String[] args) {
        }
    }

    static final class MainOfInts {
        static void main(int[] args) {
        }

        static int main() {
            return 0;
        }
    }

    static final class InstanceMain {
        void main() {
        }
    }

    static final class PackageMain {
        static void main(String[] args) {
        }
    }

    @Test
    void onlyAMethodThatSomeJavaStartsCounts() throws IOException {
        assertFalse(ClassFileMain.mayHaveMain(classFile(PrivateMain.class)), "a private main starts on no Java");
        assertFalse(ClassFileMain.mayHaveMain(classFile(MainOfInts.class)), "main(int[]) and int main() start nothing");
        assertTrue(ClassFileMain.mayHaveMain(classFile(InstanceMain.class)), "Java 25 starts an instance main()");
        assertTrue(ClassFileMain.mayHaveMain(classFile(PackageMain.class)), "Java 25 starts a package-private main");
    }

    @Test
    void aSuperclassOrAnUnreadableFileLeavesItToTheJvm() throws IOException {
        assertTrue(ClassFileMain.mayHaveMain(classFile(UsageException.class)), "a superclass may hand main down");
        assertTrue(ClassFileMain.mayHaveMain(new byte[] {1, 2, 3}));
        byte[] cut = classFile(RunCommand.class);
        assertTrue(ClassFileMain.mayHaveMain(java.util.Arrays.copyOf(cut, cut.length / 2)));
    }
}
