package io.cohort.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reads the small text files a user names (the configuration database, the cluster key, a host
 * file) without trusting what the name points at: a FIFO would block the open for ever, a device
 * such as {@code /dev/zero} never ends, and a huge file would fill the heap. Only a regular file of at
 * most a given size is read, and its bytes must be valid in the charset. The one exception is a pipe
 * the shell already opened, named as {@code /dev/stdin}, {@code /dev/fd/N} or {@code /proc/self/fd/N}
 * ({@code --hostfile <(scontrol show hostnames)}): it has a writer, so it is read, within the same
 * size. Stateless; any thread.
 */
public final class TextFiles {
    private TextFiles() {
    }

    /**
     * Why a file operation failed, as a phrase for a message about the file: the JDK's message for a
     * denied access, or another file-system failure without a reason, is only the file's name.
     */
    public static String reason(IOException e) {
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return String.valueOf(e.getMessage());
    }

    /** The file is not something to read as text; the message says what it is, as a phrase after the name. */
    public static final class NotTextFileException extends IOException {
        private static final long serialVersionUID = 1L;

        NotTextFileException(String what) {
            super(what);
        }
    }

    /**
     * The text of {@code file}, which must be a regular file (a symbolic link to one is fine) of at most
     * {@code maxBytes} bytes, decoded strictly.
     *
     * @throws NotTextFileException when it is a directory, a FIFO, a device or a socket, or is larger
     *         than {@code maxBytes}; the message is a phrase such as "is a directory"
     * @throws java.nio.charset.CharacterCodingException when the bytes are not valid in {@code charset}
     * @throws IOException as {@link Files#newInputStream} throws it (no such file, permission denied)
     */
    public static String read(Path file, int maxBytes, Charset charset) throws IOException {
        BasicFileAttributes attrs = Files.readAttributes(file, BasicFileAttributes.class);
        if (attrs.isDirectory()) {
            throw new NotTextFileException("is a directory");
        }
        if (!attrs.isRegularFile() && !(isOpenDescriptor(file) && isPipe(file))) {
            throw new NotTextFileException("is not a regular file (a device, FIFO or socket)");
        }
        if (attrs.size() > maxBytes) {
            throw new NotTextFileException(tooLarge(maxBytes));
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            // The size was checked above, but a file can grow between the check and the read.
            bytes = in.readNBytes(maxBytes + 1);
        }
        if (bytes.length > maxBytes) {
            throw new NotTextFileException(tooLarge(maxBytes));
        }
        return charset.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString();
    }

    /** A name for a descriptor this process already has open, as the shell passes a pipe. */
    private static boolean isOpenDescriptor(Path file) {
        String name = file.toString();
        return name.equals("/dev/stdin") || name.matches("/dev/fd/\\d+") || name.matches("/proc/self/fd/\\d+");
    }

    /** Whether the file is a FIFO (a pipe): never a device, which might never end. */
    private static boolean isPipe(Path file) {
        try {
            Object mode = Files.getAttribute(file, "unix:mode");
            return mode instanceof Integer m && (m & 0170000) == 0010000;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }

    private static String tooLarge(int maxBytes) {
        return maxBytes >= 1 << 20 && maxBytes % (1 << 20) == 0
                ? "is larger than " + (maxBytes >> 20) + " MiB"
                : "is larger than " + maxBytes + " bytes";
    }
}
