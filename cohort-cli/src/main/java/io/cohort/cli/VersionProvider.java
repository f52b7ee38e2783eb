package io.cohort.cli;

import picocli.CommandLine;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** "cohort VERSION (Java VERSION)", the version filtered into the jar at build time. */
final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {"cohort " + version() + " (Java " + System.getProperty("java.version") + ")"};
    }

    static String version() {
        Properties p = new Properties();
        try (InputStream in = VersionProvider.class.getResourceAsStream("/META-INF/cohort/version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException ignored) {
            // Fall through to "unknown".
        }
        return p.getProperty("version", "unknown");
    }
}
