package io.cohort.profile;

import java.util.Iterator;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Where the program called an operation: the first frame, from the top, outside the library and
 * the JDK. The shipped examples live under {@code io.cohort.examples} but are user programs. Shared
 * by the capture side ({@link Summary}'s sampled call sites) and {@code cohort prof}'s reader of
 * recorded stacks, so both name the same frame.
 */
public final class CallSites {
    /** Packages whose frames are the library or the JDK. */
    public static final List<String> LIBRARY_PACKAGES = List.of("io.cohort.", "java.", "jdk.", "sun.");
    /** Inside {@link #LIBRARY_PACKAGES} but the user's code. */
    public static final String USER_CODE_INSIDE_LIBRARY = "io.cohort.examples.";

    private static final StackWalker WALKER = StackWalker.getInstance();
    private static final FirstUserFrame FIRST_USER_FRAME = new FirstUserFrame();

    private CallSites() {
    }

    public static boolean isUserCode(String className) {
        if (className.startsWith(USER_CODE_INSIDE_LIBRARY)) {
            return true;
        }
        for (String p : LIBRARY_PACKAGES) {
            if (className.startsWith(p)) {
                return false;
            }
        }
        return true;
    }

    /** The calling thread's call site, or null when the whole stack is the library's (its own threads). */
    static StackWalker.StackFrame ofCurrentThread() {
        return WALKER.walk(FIRST_USER_FRAME);
    }

    /**
     * A class and a loop, not a lambda and a stream pipeline: linking those on a peer's first walk
     * costs it more CPU than all its walks of a run.
     */
    private static final class FirstUserFrame implements Function<Stream<StackWalker.StackFrame>, StackWalker.StackFrame> {
        @Override
        public StackWalker.StackFrame apply(Stream<StackWalker.StackFrame> frames) {
            Iterator<StackWalker.StackFrame> it = frames.iterator();
            while (it.hasNext()) {
                StackWalker.StackFrame f = it.next();
                if (isUserCode(f.getClassName())) {
                    return f;
                }
            }
            return null;
        }
    }
}
