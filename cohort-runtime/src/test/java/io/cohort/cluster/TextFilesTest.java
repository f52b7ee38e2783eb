package io.cohort.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The checks that keep a named file from hanging or exhausting whoever reads it. */
@Timeout(10)
public class TextFilesTest {
    @TempDir
    Path dir;

    /** A FIFO made by the system's mkfifo; opening it for reading would block until a writer came. */
    public static Path fifo(Path dir, String name) throws IOException, InterruptedException {
        Path f = dir.resolve(name);
        Process p = new ProcessBuilder("mkfifo", f.toString()).inheritIO().start();
        assertEquals(0, p.waitFor(), "mkfifo failed");
        return f;
    }

    /** A sparse file of {@code size} bytes: big on paper, nothing on disk. */
    public static Path sparse(Path dir, String name, long size) throws IOException {
        Path f = dir.resolve(name);
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength(size);
        }
        return f;
    }

    @Test
    void aRegularFileWithinTheLimitIsReadAndDecoded() throws IOException {
        Path f = dir.resolve("t");
        Files.writeString(f, "héllo\n", StandardCharsets.UTF_8);
        assertEquals("héllo\n", TextFiles.read(f, 7, StandardCharsets.UTF_8));
        Path link = Files.createSymbolicLink(dir.resolve("link"), f);
        assertEquals("héllo\n", TextFiles.read(link, 7, StandardCharsets.UTF_8));
    }

    @Test
    void aFifoIsRefusedWithoutOpeningIt() throws Exception {
        Path f = fifo(dir, "fifo");
        assertEquals("is not a regular file (a device, FIFO or socket)",
                assertThrows(TextFiles.NotTextFileException.class, () -> TextFiles.read(f, 100, StandardCharsets.UTF_8))
                        .getMessage());
    }

    @Test
    void devicesAndDirectoriesAreRefused() {
        assertEquals("is not a regular file (a device, FIFO or socket)",
                assertThrows(TextFiles.NotTextFileException.class,
                        () -> TextFiles.read(Path.of("/dev/zero"), 100, StandardCharsets.UTF_8)).getMessage());
        assertEquals("is a directory", assertThrows(TextFiles.NotTextFileException.class,
                () -> TextFiles.read(dir, 100, StandardCharsets.UTF_8)).getMessage());
    }

    @Test
    void aFileOverTheLimitIsRefusedBeforeItIsRead() throws IOException {
        Path f = sparse(dir, "big", 3L << 30);
        assertEquals("is larger than 16 MiB", assertThrows(TextFiles.NotTextFileException.class,
                () -> TextFiles.read(f, 16 << 20, StandardCharsets.UTF_8)).getMessage());
        Path small = dir.resolve("s");
        Files.writeString(small, "12345");
        assertEquals("is larger than 4 bytes", assertThrows(TextFiles.NotTextFileException.class,
                () -> TextFiles.read(small, 4, StandardCharsets.UTF_8)).getMessage());
    }

    @Test
    void bytesNotValidInTheCharsetAndMissingFilesAreTheirOwnExceptions() throws IOException {
        Path f = dir.resolve("bin");
        Files.write(f, new byte[] {'a', (byte) 0xe9});
        assertThrows(MalformedInputException.class, () -> TextFiles.read(f, 100, StandardCharsets.US_ASCII));
        assertThrows(MalformedInputException.class, () -> TextFiles.read(f, 100, StandardCharsets.UTF_8));
        assertThrows(NoSuchFileException.class, () -> TextFiles.read(dir.resolve("none"), 100, StandardCharsets.UTF_8));
    }
}
