package io.cohort.cli;

/** The command line is wrong; the message says what to change. Exit code 2. */
public final class UsageException extends RuntimeException {
    /** Further problems found with the first, each its own line after the message's; empty for most. */
    private final java.util.List<String> more;

    public UsageException(String message) {
        super(message);
        this.more = java.util.List.of();
    }

    /** Several problems at once (every bad setting of a kind): one line each, the first as the message. */
    public UsageException(java.util.List<String> problems) {
        super(problems.get(0));
        this.more = java.util.List.copyOf(problems.subList(1, problems.size()));
    }

    /** The problems after the first, each printed on a line of its own. */
    public java.util.List<String> more() {
        return more;
    }
}
