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
        try (InputStream in = c.getResourceAsStream(c.getSimpleName() + ".class")) {
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

    @Test
    void aSuperclassOrAnUnreadableFileLeavesItToTheJvm() throws IOException {
        assertTrue(ClassFileMain.mayHaveMain(classFile(UsageException.class)), "a superclass may hand main down");
        assertTrue(ClassFileMain.mayHaveMain(new byte[] {1, 2, 3}));
        byte[] cut = classFile(RunCommand.class);
        assertTrue(ClassFileMain.mayHaveMain(java.util.Arrays.copyOf(cut, cut.length / 2)));
    }
}
