package io.cohort.mpi.support;

/**
 * The element types a datatype is built on, numbered as both mpiJava 1.2 and the Open MPI Java
 * bindings number them, and what goes with each: bytes per element on the wire and the carrier
 * array Cohort's collectives take.
 *
 * <p>Stateless; any thread.
 */
public final class BaseType {
    public static final int NULL = 0;
    public static final int BYTE = 1;
    public static final int CHAR = 2;
    public static final int SHORT = 3;
    public static final int BOOLEAN = 4;
    public static final int INT = 5;
    public static final int LONG = 6;
    public static final int FLOAT = 7;
    public static final int DOUBLE = 8;
    /** Java objects in an {@code Object[]}, sent by serialization (mpiJava's {@code MPI.OBJECT}). */
    public static final int OBJECT = 12;

    private BaseType() {
    }

    /** Bytes one element takes on the wire (1 for BOOLEAN; 0 for NULL and OBJECT, which have no fixed size). */
    public static int bytes(int baseType) {
        return switch (baseType) {
            case CHAR, SHORT -> 2;
            case INT, FLOAT -> 4;
            case LONG, DOUBLE -> 8;
            case NULL, OBJECT -> 0;
            default -> 1;
        };
    }

    /** "int", "double", "Object"... for messages. */
    public static String name(int baseType) {
        return switch (baseType) {
            case BYTE -> "byte";
            case CHAR -> "char";
            case SHORT -> "short";
            case BOOLEAN -> "boolean";
            case INT -> "int";
            case LONG -> "long";
            case FLOAT -> "float";
            case DOUBLE -> "double";
            case OBJECT -> "Object";
            default -> "no";
        };
    }

    /** The base type whose carrier {@code array} is (int[]: INT, Object[]: OBJECT), or NULL for anything else. */
    public static int ofArray(Object array) {
        if (array instanceof int[]) {
            return INT;
        } else if (array instanceof double[]) {
            return DOUBLE;
        } else if (array instanceof byte[]) {
            return BYTE;
        } else if (array instanceof long[]) {
            return LONG;
        } else if (array instanceof float[]) {
            return FLOAT;
        } else if (array instanceof short[]) {
            return SHORT;
        } else if (array instanceof char[]) {
            return CHAR;
        } else if (array instanceof boolean[]) {
            return BOOLEAN;
        } else if (array instanceof Object[]) {
            return OBJECT;
        }
        return NULL;
    }

    /** A new carrier of {@code n} elements: the primitive array of the type, byte[] for BYTE, Object[] for OBJECT. */
    public static Object newCarrier(int baseType, int n) {
        return switch (baseType) {
            case CHAR -> new char[n];
            case SHORT -> new short[n];
            case BOOLEAN -> new boolean[n];
            case INT -> new int[n];
            case LONG -> new long[n];
            case FLOAT -> new float[n];
            case DOUBLE -> new double[n];
            case OBJECT -> new Object[n];
            default -> new byte[n];
        };
    }

    private static final Object[] EMPTY = new Object[OBJECT + 1];

    static {
        for (int t = 0; t <= OBJECT; t++) {
            EMPTY[t] = newCarrier(t, 0);
        }
    }

    /**
     * A shared empty carrier of {@code baseType}, for checks that only look at an array's type
     * (an op's {@code check}); never written, so sharing it is safe.
     */
    public static Object empty(int baseType) {
        return EMPTY[baseType];
    }

    /** Whether {@code buf} is the carrier array of {@code baseType}. */
    public static boolean isCarrier(Object buf, int baseType) {
        return buf != null && ofArray(buf) == baseType;
    }
}
