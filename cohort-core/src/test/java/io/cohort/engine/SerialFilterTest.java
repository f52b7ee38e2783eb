package io.cohort.engine;

import io.cohort.BadSettingException;
import io.cohort.ObjectRefusedException;
import io.cohort.Status;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayInputStream;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The serial filter on remote bytes ({@link Payloads#toObject}): hostile streams fail fast with a
 * sentence, ordinary object graphs pass, and a user's pattern and the JVM-wide one are honoured.
 */
@Isolated // sets a system property other tests' peers read: runs with no other class beside it
@Timeout(20)
class SerialFilterTest {
    private static final Status FROM_0 = new Status(0, 7, 0);

    @AfterEach
    void clearSetting() {
        System.clearProperty(SerialFilter.PROP_NAME);
    }

    /** The bomb ({@link HostilePayloads#bomb}) of 100 levels never finishes deserializing without a filter. */
    @Test
    void theBombFailsItsReceiveWellUnderASecond() {
        byte[] b = Payloads.ofObject(HostilePayloads.bomb(100));
        // Preemptive: without a filter readObject never returns, and the test must fail, not hang.
        ObjectRefusedException e = assertTimeoutPreemptively(Duration.ofMillis(500),
                () -> assertThrows(ObjectRefusedException.class, () -> Payloads.toObject(b, FROM_0)));
        assertTrue(e.getMessage().startsWith("refused to deserialize a message from rank 0 (tag 7): "), e.getMessage());
        assertTrue(e.getMessage().contains("past maxdepth=20 of the serial filter 'maxdepth=20;maxrefs=10000000'"),
                e.getMessage());
        assertTrue(e.getMessage().endsWith("cohort run --serial-filter can widen it"), e.getMessage());
    }

    @Test
    void aForgedArrayLengthIsRefusedBeforeItIsAllocated() {
        long free = Runtime.getRuntime().freeMemory();
        ObjectRefusedException e = assertThrows(ObjectRefusedException.class,
                () -> Payloads.toObject(HostilePayloads.forgedIntArray(0x7ff00000), FROM_0));
        assertTrue(e.getMessage().contains("an array of 2146435072 int claims more than the 16 bytes left in the message"),
                e.getMessage());
        // The same for references: an Object[] that claims a billion elements in a few bytes.
        byte[] b = Payloads.ofObject(new Object[] {"a", "b"});
        int at = indexOf(b, new byte[] {0x78, 0x70, 0, 0, 0, 2}) + 2; // end of the class description, then the length
        ByteBuffer.wrap(b).putInt(at, 1_000_000_000);
        ObjectRefusedException r = assertThrows(ObjectRefusedException.class, () -> Payloads.toObject(b, FROM_0));
        assertTrue(r.getMessage().contains("an array of 1000000000 java.lang.Object claims more than"), r.getMessage());
        assertTrue(Runtime.getRuntime().freeMemory() > free / 2 || Runtime.getRuntime().totalMemory() < (1L << 30),
                "nothing large was allocated");
    }

    /**
     * What the filter sees of the JDK's hash tables, which is what it may allow 8 slots per byte:
     * HashMap, HashSet, Hashtable and their subclasses check their table as a Map$Entry[] (never
     * HashMap$Node[]); IdentityHashMap checks an Object[], 8 long when empty with one byte left;
     * ConcurrentHashMap checks no table, only its serialized Segment[16] field.
     */
    @Test
    void theFilterSeesTheJdksHashTablesAsMapEntryArrays() throws Exception {
        Map<Integer, Integer> hundred = new HashMap<>();
        for (int i = 0; i < 100; i++) {
            hundred.put(i, i);
        }
        for (Object table : List.of(new HashMap<>(hundred), new HashSet<>(hundred.keySet()), new LinkedHashMap<>(hundred),
                new java.util.LinkedHashSet<>(hundred.keySet()), new java.util.Hashtable<>(hundred))) {
            String first = arraysSeen(table).get(0); // 256 slots for HashMap's 100 entries, 143 for Hashtable's
            assertTrue(first.startsWith("java.util.Map$Entry["), table.getClass().getName() + ": " + first);
        }
        assertEquals(List.of("java.lang.Object[8] with 1 left"), arraysSeen(new java.util.IdentityHashMap<>()));
        assertEquals(List.of("java.util.concurrent.ConcurrentHashMap$Segment[16] with 2340 left"),
                arraysSeen(new ConcurrentHashMap<>(hundred)));
    }

    private static List<String> arraysSeen(Object o) throws Exception {
        byte[] b = Payloads.ofObject(o);
        List<String> seen = new ArrayList<>();
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(b))) {
            in.setObjectInputFilter(info -> {
                if (info.arrayLength() >= 0) {
                    seen.add(info.serialClass().getComponentType().getName() + "[" + info.arrayLength() + "]"
                            + (o instanceof java.util.IdentityHashMap || o instanceof ConcurrentHashMap
                                    ? " with " + (b.length - info.streamBytes()) + " left" : ""));
                }
                return ObjectInputFilter.Status.UNDECIDED;
            });
            in.readObject();
        }
        return seen;
    }

    @Test
    void anObjectArrayGetsOneElementPerByteLeftNotEight() {
        byte[] b = Payloads.ofObject(new Object[] {"a", "b"});
        int at = indexOf(b, new byte[] {0x78, 0x70, 0, 0, 0, 2}) + 2;
        int left = b.length - at - 4;
        ByteBuffer.wrap(b).putInt(at, 4 * left); // the old allowance was 8 per byte
        ObjectRefusedException r = assertThrows(ObjectRefusedException.class, () -> Payloads.toObject(b, FROM_0));
        assertTrue(r.getMessage().contains("an array of " + 4 * left + " java.lang.Object claims more than the "
                + left + " bytes left in the message hold"), r.getMessage());
    }

    /** A Map.Entry that writes the array it holds in its place: hash-table arrays nested in each other. */
    static final class Nest implements Map.Entry<Object, Object>, Serializable {
        private final transient Map.Entry<?, ?>[] inner;

        Nest(Map.Entry<?, ?>[] inner) {
            this.inner = inner;
        }

        private Object writeReplace() {
            return inner;
        }

        @Override
        public Object getKey() {
            return null;
        }

        @Override
        public Object getValue() {
            return null;
        }

        @Override
        public Object setValue(Object value) {
            throw new UnsupportedOperationException();
        }
    }

    /**
     * {@code levels} arrays of one element each nested in each other, the first with its class
     * description and the rest by reference to it; each length then forged to what
     * {@code claim} makes of the bytes left after it.
     */
    private static byte[] nestedArrays(Object outer, int levels, java.util.function.IntUnaryOperator claim) {
        byte[] b = Payloads.ofObject(outer);
        List<Integer> at = new ArrayList<>(List.of(indexOf(b, new byte[] {0x78, 0x70, 0, 0, 0, 1}) + 2));
        byte[] inner = {0x75, 0x71, 0, 0x7e, 0, 0, 0, 0, 0, 1}; // TC_ARRAY, TC_REFERENCE to handle 0, length 1
        for (int i = at.get(0); at.size() < levels; i++) {
            if (Arrays.equals(b, i, i + inner.length, inner, 0, inner.length)) {
                at.add(i + 6);
            }
        }
        for (int p : at) {
            ByteBuffer.wrap(b).putInt(p, claim.applyAsInt(b.length - p - 4));
        }
        return b;
    }

    /** Reads {@code b} through the configured filter; the bytes of the arrays it let the stream allocate. */
    private static long arrayBytesAllowed(byte[] b, SerialFilter.Check check) {
        long[] bytes = {0};
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(b))) {
            in.setObjectInputFilter(info -> {
                ObjectInputFilter.Status s = check.checkInput(info);
                if (s != ObjectInputFilter.Status.REJECTED && info.arrayLength() >= 0) {
                    bytes[0] += info.arrayLength() * (info.serialClass().getComponentType().isPrimitive() ? 1 : 8L);
                }
                return s;
            });
            in.readObject();
        } catch (Exception e) {
            // refused, or out of bytes: what was allocated before is the point
        }
        return bytes[0];
    }

    @Test
    void arraysNestedInArraysCannotEachClaimTheBytesLeft() {
        Map.Entry<?, ?>[] tables = new Map.Entry<?, ?>[1];
        Object[] plain = new Object[1];
        for (int i = 1; i < 15; i++) {
            tables = new Map.Entry<?, ?>[] {new Nest(tables)};
            plain = new Object[] {plain};
        }
        // Each array within its own bound (a table 2 per byte left of its 8, an Object[] half of its
        // one), 15 deep: unchecked together they would take 240 and 60 times the message.
        for (byte[] b : List.of(nestedArrays(tables, 15, left -> 2 * left), nestedArrays(plain, 15, left -> left / 2))) {
            SerialFilter.Check check = SerialFilter.configured().forMessage(b.length);
            long allocated = arrayBytesAllowed(b, check);
            assertTrue(allocated <= SerialFilter.ARRAY_BYTES_PER_BYTE * b.length,
                    allocated + " bytes of arrays from a message of " + b.length);
            assertTrue(check.refusal() != null && check.refusal().contains(" bytes of the message hold with the arrays"
                    + " before it of the serial filter 'maxdepth=20;maxrefs=10000000'"), String.valueOf(check.refusal()));
            ObjectRefusedException e = assertThrows(ObjectRefusedException.class, () -> Payloads.toObject(b, FROM_0));
            assertTrue(e.getMessage().endsWith("cohort run --serial-filter can widen it"), e.getMessage());
        }
    }

    @Test
    void tablesAndArraysOfOrdinaryGraphsStayWithinTheBudget() {
        List<Object> tiny = new ArrayList<>(); // the most table per byte: one-entry maps and sets, empty identity maps
        for (int i = 0; i < 5_000; i++) {
            tiny.add(new HashMap<>(Map.of(i, i)));
            tiny.add(new HashSet<>(Set.of(i)));
            tiny.add(new java.util.IdentityHashMap<>());
            tiny.add(new java.util.Hashtable<>(Map.of(i, "v")));
            tiny.add(new ArrayDeque<>());
        }
        assertEquals(tiny.size(), ((List<?>) roundTrip(tiny)).size());
        assertEquals(new ArrayList<>(Collections.nCopies(100_000, null)), roundTrip(new ArrayList<>(Collections.nCopies(100_000, null))));
        assertArrayEquals(new Object[100_000], roundTrip(new Object[100_000])); // 8 bytes of references per byte of TC_NULL
        java.util.IdentityHashMap<Object, Object> identity = new java.util.IdentityHashMap<>();
        Object shared = "v";
        for (int i = 0; i < 10_000; i++) {
            identity.put(new Point(i, i), shared);
        }
        assertEquals(10_000, roundTrip(identity).size());
    }

    private static int indexOf(byte[] b, byte[] part) {
        for (int i = 0; i + part.length <= b.length; i++) {
            if (Arrays.equals(b, i, i + part.length, part, 0, part.length)) {
                return i;
            }
        }
        throw new AssertionError("no " + Arrays.toString(part) + " in the stream");
    }

    private static int indexOfInt(byte[] b, int value) {
        for (int i = b.length - 4; i >= 0; i--) {
            if (ByteBuffer.wrap(b).getInt(i) == value) {
                return i;
            }
        }
        throw new AssertionError("no " + value + " in the stream");
    }

    record Point(int x, int y) implements Serializable {
    }

    static final class Tree implements Serializable {
        final String name;
        final List<Tree> children = new ArrayList<>();
        final Map<String, double[]> data = new HashMap<>();

        Tree(String name) {
            this.name = name;
        }
    }

    enum Colour { RED, GREEN }

    @Test
    void ordinaryObjectGraphsPass() {
        Tree root = new Tree("root");
        Tree t = root;
        for (int i = 0; i < 5; i++) { // a user's tree, 5 levels of lists and maps
            Tree child = new Tree("c" + i);
            child.data.put("v", new double[] {i, i + 0.5});
            t.children.add(child);
            t.children.add(new Tree("leaf" + i));
            t = child;
        }
        Tree back = roundTrip(root);
        assertEquals("c4", back.children.get(0).children.get(0).children.get(0).children.get(0).children.get(0).name);
        assertArrayEquals(new double[] {4, 4.5},
                back.children.get(0).children.get(0).children.get(0).children.get(0).children.get(0).data.get("v"));

        Map<String, List<Integer>> map = new HashMap<>();
        for (int i = 0; i < 1000; i++) {
            map.put("k" + i, List.of(i, i + 1));
        }
        List<Object> all = List.of(map, new TreeMap<>(Map.of("a", 1, "b", 2)), new LinkedList<>(List.of(1, 2, 3)),
                new LinkedHashMap<>(Map.of(Colour.RED, new Point(1, 2))),
                new ConcurrentHashMap<>(Map.of("c", Set.of(1, 2, 3))), Colour.GREEN,
                Arrays.asList(1L, 2L), new HashSet<>(Set.of(new Point(3, 4))));
        assertTrue(all.equals(roundTrip(all)), "the JDK collections came back unequal"); // not their 1000 keys in a report
        assertArrayEquals(new String[] {"s", null}, roundTrip(new String[] {"s", null}));
        assertEquals(List.of("x", "y"), new ArrayList<>(roundTrip(new ArrayDeque<>(List.of("x", "y")))));

        ArrayList<Integer> many = new ArrayList<>(); // 200 000 objects and a 1.6 MB array: large, not hostile
        for (int i = 0; i < 200_000; i++) {
            many.add(i);
        }
        assertEquals(many, roundTrip(many));
        double[] big = new double[200_000];
        Arrays.fill(big, 1.5);
        assertArrayEquals(big, roundTrip(big));
        assertEquals(new HashSet<>(many), roundTrip(new HashSet<>(many)));
    }

    private static <T> T roundTrip(T o) {
        byte[] b = Payloads.ofObject(o);
        return Payloads.toObject(b, new Status(1, 0, b.length));
    }

    static final class Node implements Serializable {
        final Node next;

        Node(Node next) {
            this.next = next;
        }
    }

    static Node chain(int n) {
        Node head = null;
        for (int i = 0; i < n; i++) {
            head = new Node(head);
        }
        return head;
    }

    @Test
    void aUsersPatternRejectsItsClassesAndWidensTheLimits() {
        System.setProperty(SerialFilter.PROP_NAME, "!java.util.TreeMap;maxdepth=60");
        ObjectRefusedException e = assertThrows(ObjectRefusedException.class,
                () -> roundTrip(new ArrayList<>(List.of(new TreeMap<>(Map.of(1, 2))))));
        assertTrue(e.getMessage().contains("class java.util.TreeMap is rejected by the serial filter"
                + " 'maxdepth=60;maxrefs=10000000;!java.util.TreeMap'"), e.getMessage());
        assertEquals(List.of(1, 2), roundTrip(new ArrayList<>(List.of(1, 2)))); // the rest still passes
        roundTrip(chain(50)); // 50 deep: past the default, within the user's maxdepth

        System.clearProperty(SerialFilter.PROP_NAME);
        ObjectRefusedException deep = assertThrows(ObjectRefusedException.class, () -> roundTrip(chain(50)));
        assertTrue(deep.getMessage().contains(" at depth 21 is past maxdepth=20"), deep.getMessage());
    }

    @Test
    void aUsersLimitsNarrowToo() {
        System.setProperty(SerialFilter.PROP_NAME, "maxrefs=100;maxarray=10");
        ObjectRefusedException refs = assertThrows(ObjectRefusedException.class,
                () -> roundTrip(new ArrayList<>(Collections.nCopies(200, null))));
        assertTrue(refs.getMessage().contains("an array of 200 java.lang.Object is past maxarray=10"), refs.getMessage());
        List<Integer> distinct = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            distinct.add(1000 + i);
        }
        System.setProperty(SerialFilter.PROP_NAME, "maxrefs=100");
        ObjectRefusedException r = assertThrows(ObjectRefusedException.class, () -> roundTrip(distinct));
        assertTrue(r.getMessage().contains("is object number 101, past maxrefs=100"), r.getMessage());
    }

    @Test
    void theJvmWideFilterIsCombinedNotReplaced() throws Exception {
        ObjectInputFilter jvm = ObjectInputFilter.Config.createFilter("!java.util.TreeMap;java.util.*;java.lang.*");
        SerialFilter f = SerialFilter.parse("!java.util.LinkedList", jvm);
        // The JVM's REJECTED wins over the user's undecided ...
        SerialFilter.Check c1 = read(f, new TreeMap<>(Map.of(1, 2)));
        assertTrue(c1.refusal().contains("class java.util.TreeMap is rejected by jdk.serialFilter '"
                + jvm + "'"), c1.refusal());
        // ... the user's REJECTED over the JVM's ALLOWED ...
        SerialFilter.Check c2 = read(f, new LinkedList<>(List.of(1)));
        assertTrue(c2.refusal().contains("class java.util.LinkedList is rejected by the serial filter"), c2.refusal());
        // ... and the JVM's ALLOWED (java.util.*) does not lift the limits.
        SerialFilter.Check c3 = read(f, HostilePayloads.bomb(100));
        assertTrue(c3.refusal().contains("past maxdepth=20"), c3.refusal());
        assertEquals(null, read(f, new HashMap<>(Map.of("a", 1))).refusal());
    }

    private static SerialFilter.Check read(SerialFilter f, Object o) throws Exception {
        byte[] b = Payloads.ofObject(o);
        SerialFilter.Check check = f.forMessage(b.length);
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(b))) {
            in.setObjectInputFilter(check);
            in.readObject();
        } catch (InvalidClassException refused) {
            assertTrue(check.refusal() != null, "refused with no reason: " + refused);
        }
        return check;
    }

    @Test
    void aBadPatternIsOneSentence() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SerialFilter.parse("maxdepth=abc"));
        assertTrue(e.getMessage().startsWith("serial filter 'maxdepth=abc' is not a jdk.serialFilter pattern ("),
                e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), e.getMessage());
        System.setProperty(SerialFilter.PROP_NAME, "maxfoo=1");
        BadSettingException s = assertThrows(BadSettingException.class, () -> roundTrip("x"));
        assertTrue(s.getMessage().startsWith("system property cohort.serialFilter: serial filter 'maxfoo=1'"),
                s.getMessage());
    }

    /** A class that sizes an array from its stream, as many do: -1 there throws NegativeArraySizeException. */
    static final class Sized implements Serializable {
        transient int[] values = new int[3];

        private void writeObject(java.io.ObjectOutputStream out) throws java.io.IOException {
            out.writeInt(0x5157_0003); // a marker the test finds, then the length
            out.writeInt(values.length);
        }

        private void readObject(ObjectInputStream in) throws java.io.IOException {
            in.readInt();
            values = new int[in.readInt()];
        }
    }

    @Test
    void hostileBytesThatReachAReadObjectAreOneSentence() {
        byte[] b = Payloads.ofObject(new Sized());
        ByteBuffer.wrap(b).putInt(indexOfInt(b, 0x5157_0003) + 4, -1);
        io.cohort.CohortException e = assertThrows(io.cohort.CohortException.class, () -> Payloads.toObject(b, FROM_0));
        assertTrue(e.getMessage().startsWith("A message from rank 0 (tag 7) is not a serialized object this peer can read: "
                + "java.lang.NegativeArraySizeException"), e.getMessage());
    }
}
