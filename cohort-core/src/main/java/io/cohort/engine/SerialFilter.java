package io.cohort.engine;

import io.cohort.BadSettingException;

import java.io.ObjectInputFilter;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link ObjectInputFilter} on every {@code ObjectInputStream} that reads another process's
 * bytes ({@link Payloads#toObject}): limits that always apply, then the user's class patterns, then
 * the JVM-wide {@code jdk.serialFilter}. Internal, not API.
 *
 * <p>The limits, and why these values:
 * <ul>
 *   <li>{@code maxdepth} {@value #MAX_DEPTH_DEFAULT}, the depth the JDK's own RMI registry filter
 *       allows. Depth is what a hash-collision "bomb" (sets nested in sets, each level sharing the
 *       next level's two sets) needs: its work doubles per level in {@code hashCode}, where no
 *       filter sees it, so only a shallow limit bounds it. Measured on a 2-core VM: 19 levels, the
 *       most that pass, take 25 ms (75 ms in a cold JVM); 24 levels would take 0.7 s, 100 forever,
 *       and are refused at depth 21 within a millisecond or two.</li>
 *   <li>{@code maxrefs} {@value #MAX_REFS_DEFAULT} objects and back-references: a ceiling on the
 *       stream's handle table. Each costs the sender a few bytes, so this only caps huge messages.</li>
 *   <li>{@code maxbytes}: the message's own length, never more, so a stream cannot read past it.</li>
 *   <li>arrays: no array (nor a collection's table, which the JDK checks as an array) longer than
 *       the bytes left in the message could fill: a primitive element needs its width, a
 *       reference at least one byte ({@code TC_NULL}). Only the JDK's hash tables get 8 per byte:
 *       HashMap, HashSet, Hashtable and their subclasses check their table as a
 *       {@code java.util.Map$Entry[]} (measured: the filter sees that, never {@code HashMap$Node[]})
 *       sized up to 8 slots per entry (the load factor is clamped to 0.25). Any other reference
 *       array gets one per byte and {@value #REFERENCE_SLACK} more: the table of an empty
 *       IdentityHashMap, which its readObject checks as an {@code Object[]}. That table has up to
 *       6 slots per entry, so a large IdentityHashMap whose entries take under 6 bytes each (a
 *       one-letter String key and a null value) is the legitimate graph this refuses. A forged
 *       length of two billion is refused before anything is allocated. {@code maxarray} may
 *       lower it.</li>
 *   <li>all arrays together: {@value #ARRAY_BYTES_PER_BYTE} bytes per byte of the message, a
 *       reference counted as 8 bytes (no compressed pointers) and a primitive as its width. The
 *       per-array bound alone let arrays nested in arrays each claim the same remaining bytes, up
 *       to 20 deep, so a message could allocate hundreds of times its length before it ran out.
 *       An ordinary graph takes 8 at most (an array of nulls, an IdentityHashMap of 6-byte
 *       entries; a hash table at the default load factor less), so 16 leaves it room.</li>
 * </ul>
 * A user's pattern ({@code cohort run --serial-filter}, read from {@value #ENV_NAME} or the system
 * property {@value #PROP_NAME}) is {@code jdk.serialFilter} syntax: its {@code maxdepth},
 * {@code maxrefs}, {@code maxarray} and {@code maxbytes} replace the defaults (a larger
 * {@code maxbytes} than the message is still the message); its class patterns are asked next. The
 * JVM-wide filter cannot be merged on Java 17 ({@code ObjectInputFilter.merge} is Java 21), so the
 * combination is written here: any REJECTED wins, then any ALLOWED, else UNDECIDED (allowed).
 */
public final class SerialFilter {
    public static final String PROP_NAME = "cohort.serialFilter";
    public static final String ENV_NAME = "COHORT_SERIAL_FILTER";
    public static final long MAX_DEPTH_DEFAULT = 20;
    public static final long MAX_REFS_DEFAULT = 10_000_000;
    /** A hash table's slots per byte: sized up to 8 per entry, whose key takes a byte at least. */
    private static final long TABLE_SLOTS_PER_BYTE = 8;
    /** What the filter sees of every JDK hash table's readObject (HashMap, HashSet, Hashtable, their subclasses). */
    private static final Class<?> TABLE = java.util.Map.Entry.class;
    /** Reference slots past one per byte: an empty IdentityHashMap's table is 8 with a byte left. */
    static final long REFERENCE_SLACK = 8;
    /** The bytes all of a stream's arrays may take, per byte of the message; see the class comment. */
    static final long ARRAY_BYTES_PER_BYTE = 16;

    private static volatile SerialFilter last; // of configured(): parsed again only when the setting changes

    private final String pattern;
    private final long maxDepth;
    private final long maxRefs;
    private final long maxArray;
    private final long maxBytes;
    private final String classPatterns;
    private final ObjectInputFilter classes;
    private final ObjectInputFilter jvmWide;

    private SerialFilter(String pattern, long maxDepth, long maxRefs, long maxArray, long maxBytes,
            String classPatterns, ObjectInputFilter jvmWide) {
        this.pattern = pattern;
        this.maxDepth = maxDepth;
        this.maxRefs = maxRefs;
        this.maxArray = maxArray;
        this.maxBytes = maxBytes;
        this.classPatterns = classPatterns;
        this.classes = classPatterns.isEmpty() ? null : ObjectInputFilter.Config.createFilter(classPatterns);
        this.jvmWide = jvmWide;
    }

    /** The filter of a user's pattern ("" for none) with the JVM-wide {@code jdk.serialFilter}. */
    public static SerialFilter parse(String pattern) {
        return parse(pattern, ObjectInputFilter.Config.getSerialFilter());
    }

    /**
     * The filter of {@code pattern} with {@code jvmWide} in the place of {@code jdk.serialFilter}
     * (null: none). Throws IllegalArgumentException, one sentence, for a pattern the JDK would refuse.
     */
    public static SerialFilter parse(String pattern, ObjectInputFilter jvmWide) {
        String p = pattern == null ? "" : pattern;
        try {
            ObjectInputFilter.Config.createFilter(p); // the JDK's own syntax check, limits included
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("serial filter '" + p + "' is not a jdk.serialFilter pattern ("
                    + e.getMessage() + "); write class patterns and limits separated by ';', such as"
                    + " 'com.example.**;java.base/*;!*;maxdepth=50'");
        }
        long depth = MAX_DEPTH_DEFAULT;
        long refs = MAX_REFS_DEFAULT;
        long array = Long.MAX_VALUE;
        long bytes = Long.MAX_VALUE;
        List<String> rest = new ArrayList<>();
        for (String t : p.split(";")) { // as the JDK splits it: no blanks around items
            if (t.startsWith("maxdepth=")) {
                depth = limit(t);
            } else if (t.startsWith("maxrefs=")) {
                refs = limit(t);
            } else if (t.startsWith("maxarray=")) {
                array = limit(t);
            } else if (t.startsWith("maxbytes=")) {
                bytes = limit(t);
            } else if (!t.isEmpty()) {
                rest.add(t);
            }
        }
        return new SerialFilter(p, depth, refs, array, bytes, String.join(";", rest), jvmWide);
    }

    private static long limit(String item) {
        return Long.parseLong(item.substring(item.indexOf('=') + 1)); // createFilter has checked it
    }

    /**
     * The filter the settings name: the system property {@value #PROP_NAME} if set, else
     * {@value #ENV_NAME}, else the defaults alone. A bad value is a {@link BadSettingException}.
     */
    public static SerialFilter configured() {
        String p = System.getProperty(PROP_NAME);
        String from = "system property " + PROP_NAME;
        if (p == null) {
            p = System.getenv(ENV_NAME);
            from = "environment variable " + ENV_NAME;
        }
        p = p == null ? "" : p;
        SerialFilter f = last;
        if (f != null && f.pattern.equals(p)) {
            return f;
        }
        try {
            f = parse(p);
        } catch (IllegalArgumentException e) {
            throw new BadSettingException(from + ": " + e.getMessage());
        }
        last = f;
        return f;
    }

    /** A filter for one stream of {@code length} bytes, which remembers why it refused. */
    public Check forMessage(int length) {
        return new Check(length);
    }

    /** The limits and class patterns in force, as a pattern ({@code maxbytes} is each message's length). */
    public String describe() {
        StringBuilder s = new StringBuilder("maxdepth=" + maxDepth + ";maxrefs=" + maxRefs);
        if (maxArray != Long.MAX_VALUE) {
            s.append(";maxarray=").append(maxArray);
        }
        if (maxBytes != Long.MAX_VALUE) {
            s.append(";maxbytes=").append(maxBytes);
        }
        if (!classPatterns.isEmpty()) {
            s.append(';').append(classPatterns);
        }
        return s.toString();
    }

    @Override
    public String toString() {
        return describe();
    }

    /** The filter of one stream: set it on the stream, and ask {@link #refusal} after it throws. */
    public final class Check implements ObjectInputFilter {
        private final long length;
        private String refusal;
        /** Bytes of the arrays allowed so far, references at 8: within {@value #ARRAY_BYTES_PER_BYTE} per byte. */
        private long arrayBytes;

        private Check(long length) {
            this.length = length;
        }

        /** Why this stream was refused, one clause naming the class or the limit and the filter; null if it was not. */
        public String refusal() {
            return refusal;
        }

        @Override
        public Status checkInput(FilterInfo info) {
            String limit = limitExceeded(info);
            if (limit != null) {
                return refuse(limit + " of the serial filter '" + describe() + "'");
            }
            Status user = classes == null ? Status.UNDECIDED : classes.checkInput(info);
            if (user == Status.REJECTED) {
                return refuse(what(info) + " is rejected by the serial filter '" + describe() + "'");
            }
            Status jvm = jvmWide == null ? Status.UNDECIDED : jvmWide.checkInput(info);
            if (jvm == Status.REJECTED) {
                return refuse(what(info) + " is rejected by jdk.serialFilter '" + jvmWide + "'");
            }
            return user == Status.ALLOWED || jvm == Status.ALLOWED ? Status.ALLOWED : Status.UNDECIDED;
        }

        private Status refuse(String why) {
            if (refusal == null) { // the first reason is the cause; the stream stops there
                refusal = why;
            }
            return Status.REJECTED;
        }

        private String limitExceeded(FilterInfo info) {
            if (info.depth() > maxDepth) {
                return what(info) + " at depth " + info.depth() + " is past maxdepth=" + maxDepth;
            }
            if (info.references() > maxRefs) {
                return what(info) + " is object number " + info.references() + ", past maxrefs=" + maxRefs;
            }
            long bytes = Math.min(maxBytes, length);
            if (info.streamBytes() > bytes) {
                return "the stream's " + info.streamBytes() + " bytes are past maxbytes=" + bytes
                        + (bytes == length ? " (the message's length)" : "");
            }
            long n = info.arrayLength();
            Class<?> c = info.serialClass();
            if (n < 0 || c == null || !c.isArray()) {
                return null;
            }
            String array = "an array of " + n + " " + c.getComponentType().getName();
            if (n > maxArray) {
                return array + " is past maxarray=" + maxArray;
            }
            long left = Math.max(0, length - info.streamBytes());
            Class<?> e = c.getComponentType();
            boolean fits = e.isPrimitive() ? n <= left / width(e)
                    : n <= (e == TABLE ? left * TABLE_SLOTS_PER_BYTE : left + REFERENCE_SLACK);
            if (!fits) {
                return array + " claims more than the " + left + " bytes left in the message hold";
            }
            long takes = n * (e.isPrimitive() ? width(e) : 8);
            if (arrayBytes + takes > length * ARRAY_BYTES_PER_BYTE) { // nested arrays each claiming what is left
                return array + " claims more than the " + length + " bytes of the message hold with the arrays before it";
            }
            arrayBytes += takes;
            return null;
        }
    }

    private static String what(ObjectInputFilter.FilterInfo info) {
        Class<?> c = info.serialClass();
        return c != null ? "class " + c.getName() : "an object";
    }

    private static int width(Class<?> primitive) {
        if (primitive == long.class || primitive == double.class) {
            return 8;
        }
        if (primitive == int.class || primitive == float.class) {
            return 4;
        }
        if (primitive == short.class || primitive == char.class) {
            return 2;
        }
        return 1;
    }
}
