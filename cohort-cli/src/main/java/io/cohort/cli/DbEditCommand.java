package io.cohort.cli;

import io.cohort.cluster.ClusterDb;
import io.cohort.cluster.ClusterDbEditor;
import io.cohort.cluster.ClusterDbException;
import io.cohort.cluster.ClusterDbSource;
import picocli.CommandLine.Command;

import java.io.Console;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * {@code cohort db edit}: opens {@code $VISUAL}, else {@code $EDITOR}, else {@code vi} on a copy of a
 * file database; when the editor exits, the copy is validated and saved like any other edit. An invalid
 * copy is never saved: at a terminal the error is shown and the copy can be edited again; without one
 * the error is reported and the copy kept for the user.
 */
@Command(name = "edit", description = "Edit the database file in $VISUAL or $EDITOR; saved only if valid.")
final class DbEditCommand extends DbSubcommand {

    @Override
    public Integer call() throws IOException, InterruptedException {
        ClusterDbEditor editor = ClusterDbEditor.open(databaseSpec());
        Path copy = Files.createTempFile("cohort-db-", ".db",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(copy, editor.original(), StandardCharsets.UTF_8);
        boolean keepCopy = false;
        try {
            while (true) {
                runEditor(copy);
                String edited;
                try {
                    edited = io.cohort.cluster.TextFiles.read(copy, ClusterDbSource.MAX_FILE_BYTES, StandardCharsets.UTF_8);
                } catch (io.cohort.cluster.TextFiles.NotTextFileException notText) {
                    keepCopy = true;
                    throw new ClusterDbException("the edited copy " + notText.getMessage()
                            + "; nothing was saved, the edited copy is " + copy, notText);
                } catch (java.nio.charset.CharacterCodingException notText) {
                    keepCopy = true;
                    throw new ClusterDbException("the edited copy is not UTF-8 text; nothing was saved, the edited copy"
                            + " is " + copy, notText);
                } catch (IOException unreadable) {
                    // The editor removed the copy or put something else in its place: there is nothing to keep.
                    throw new ClusterDbException("the editor left no readable copy at " + copy + " ("
                            + (unreadable instanceof java.nio.file.NoSuchFileException ? "it was removed"
                                    : unreadable.getMessage()) + "); nothing was saved", unreadable);
                }
                if (edited.equals(editor.original())) {
                    out().println("no changes; " + editor.spec() + " was left as it was");
                    out().flush();
                    return 0;
                }
                try {
                    ClusterDb db = editor.commit(edited);
                    out().println("saved " + editor.spec() + ": " + summary(db));
                    out().flush();
                    return 0;
                } catch (ClusterDbException invalid) {
                    if (!askToEditAgain(invalid.getMessage())) {
                        keepCopy = true;
                        throw new ClusterDbException(invalid.getMessage() + "; nothing was saved, the edited copy is "
                                + copy, invalid);
                    }
                }
            }
        } finally {
            if (!keepCopy && Files.isRegularFile(copy, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                Files.deleteIfExists(copy);
            }
        }
    }

    /** The user's editor, run through the shell so that {@code EDITOR="code --wait"} works. */
    private void runEditor(Path file) throws IOException, InterruptedException {
        String command = firstSet(env.get("VISUAL"), env.get("EDITOR"), "vi");
        Process p = new ProcessBuilder("sh", "-c", command + " \"$1\"", "sh", file.toString()).inheritIO().start();
        int status = p.waitFor();
        if (status != 0) {
            throw new ClusterDbException("the editor '" + command + "' exited with status " + status
                    + "; nothing was saved");
        }
    }

    /** At a terminal: shows the error and asks; elsewhere: false, the caller reports the error. */
    private boolean askToEditAgain(String error) {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        String answer = console.readLine("cohort: %s%nedit again? [Y/n] ", error);
        return answer != null && !answer.strip().toLowerCase(java.util.Locale.ROOT).startsWith("n");
    }

    private static String firstSet(String... choices) {
        for (String c : choices) {
            if (c != null && !c.isBlank()) {
                return c;
            }
        }
        throw new IllegalStateException("no editor");
    }
}
