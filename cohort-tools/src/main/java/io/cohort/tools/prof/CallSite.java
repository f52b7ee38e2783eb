package io.cohort.tools.prof;

import io.cohort.profile.CallSites;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;

import java.util.List;

/**
 * Where the program called an operation: the first frame, from the top, outside the library and the
 * JDK ({@link CallSites#LIBRARY_PACKAGES}, the rule the capture side uses too). The shipped examples are the user's code even though
 * their package starts with {@code io.cohort.}. A stack without such a frame (cut at JFR's depth
 * limit, or an operation started by the library itself) falls back to its top frame.
 */
public record CallSite(String className, String method, int line) implements Comparable<CallSite> {
    /** A stack trace was not recorded for the event. */
    public static final CallSite UNKNOWN = new CallSite("?", "?", -1);

    static CallSite of(RecordedStackTrace stack) {
        if (stack == null || stack.getFrames().isEmpty()) {
            return UNKNOWN;
        }
        List<RecordedFrame> frames = stack.getFrames();
        for (RecordedFrame f : frames) {
            String cls = f.getMethod().getType().getName();
            if (isUserCode(cls)) {
                return of(f);
            }
        }
        return of(frames.get(0));
    }

    private static CallSite of(RecordedFrame f) {
        return new CallSite(f.getMethod().getType().getName(), f.getMethod().getName(), f.getLineNumber());
    }

    static boolean isUserCode(String className) {
        return CallSites.isUserCode(className);
    }

    /** {@code Ring.main:27}: the class without its package, as the text report prints it. */
    public String shortName() {
        String simple = className.substring(className.lastIndexOf('.') + 1);
        return line >= 0 ? simple + "." + method + ":" + line : simple + "." + method;
    }

    /** {@code io.cohort.examples.Ring.main:27} */
    public String fullName() {
        return line >= 0 ? className + "." + method + ":" + line : className + "." + method;
    }

    @Override
    public int compareTo(CallSite o) {
        int c = className.compareTo(o.className);
        if (c == 0) {
            c = method.compareTo(o.method);
        }
        return c != 0 ? c : Integer.compare(line, o.line);
    }

    @Override
    public String toString() {
        return shortName();
    }
}
