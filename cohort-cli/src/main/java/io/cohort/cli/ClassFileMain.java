package io.cohort.cli;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;

/**
 * Reads just enough of a class file to tell, before launch, that a class certainly has no
 * {@code main}: no method that could start it on any Java, no superclass but {@code java.lang.Object} and no interface
 * that could hand one down. Anything less certain (a superclass, an unreadable or newer file) is left to the
 * peers' JVMs, which name it in one line too, after the launch.
 */
final class ClassFileMain {
    private static final int ACC_PRIVATE = 0x0002;
    private static final java.util.Set<String> MAIN_DESCRIPTORS = java.util.Set.of("([Ljava/lang/String;)V", "()V");

    private ClassFileMain() {
    }

    /** False only if the class in {@code classFile} certainly has no method that can start it. */
    static boolean mayHaveMain(byte[] classFile) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
            if (in.readInt() != 0xCAFEBABE) {
                return true;
            }
            in.readUnsignedShort(); // minor
            in.readUnsignedShort(); // major
            int count = in.readUnsignedShort();
            String[] utf8 = new String[count];
            int[] classNameIndex = new int[count];
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1 -> utf8[i] = in.readUTF();
                    case 7 -> classNameIndex[i] = in.readUnsignedShort();
                    case 8, 16, 19, 20 -> in.skipNBytes(2);
                    case 15 -> in.skipNBytes(3);
                    case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
                    case 5, 6 -> {
                        in.skipNBytes(8);
                        i++; // a long or double takes two entries
                    }
                    default -> {
                        return true; // a constant of a kind this reader does not know: a newer format
                    }
                }
            }
            in.readUnsignedShort(); // access flags
            in.readUnsignedShort(); // this class
            int superIndex = in.readUnsignedShort();
            String superName = superIndex == 0 ? null : utf8[classNameIndex[superIndex]];
            int interfaces = in.readUnsignedShort();
            in.skipNBytes(2L * interfaces);
            skipMembers(in, null); // fields
            boolean main = skipMembers(in, utf8);
            // A superclass may hand main down, and a newer JVM may take a default main from an interface.
            return main || interfaces > 0 || (superName != null && !superName.equals("java/lang/Object"));
        } catch (IOException | RuntimeException e) {
            return true;
        }
    }

    /**
     * Skips a field or method table; with {@code utf8}, returns whether a method may start a program
     * on some Java: named main, not private, {@code void} with a {@code String[]} or no parameter
     * (Java 25 takes non-public and instance ones; the peer's JVM decides, with its own message).
     */
    private static boolean skipMembers(DataInputStream in, String[] utf8) throws IOException {
        boolean main = false;
        int members = in.readUnsignedShort();
        for (int m = 0; m < members; m++) {
            int access = in.readUnsignedShort();
            int name = in.readUnsignedShort();
            int descriptor = in.readUnsignedShort();
            if (utf8 != null && "main".equals(utf8[name]) && (access & ACC_PRIVATE) == 0
                    && MAIN_DESCRIPTORS.contains(utf8[descriptor])) {
                main = true;
            }
            int attributes = in.readUnsignedShort();
            for (int a = 0; a < attributes; a++) {
                in.readUnsignedShort();
                in.skipNBytes(Integer.toUnsignedLong(in.readInt()));
            }
        }
        return main;
    }
}
