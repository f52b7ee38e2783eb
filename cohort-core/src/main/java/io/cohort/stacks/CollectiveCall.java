package io.cohort.stacks;

import java.util.Objects;

/**
 * The collective a thread of a peer was in when its stacks were captured: what the program asked
 * for, as far as every rank of the communicator must ask alike (MPI's rule), so that the merge can
 * show ranks that wait in different collectives, or disagree about one.
 *
 * @param operation    the call as the API names it ({@code bcast}, {@code allreduce}, {@code ibarrier}, ...)
 * @param communicator the communicator's context id, the same on every member ({@code 0}: the world);
 *                     disjoint communicators made by one split share it
 * @param members      the communicator's members in world ranks ({@link #members(int[])}: {@code [1,3,5]}),
 *                     which tells such communicators apart; empty for the world
 * @param sequence     the collective's number on that communicator, from 0, counted alike on every member
 * @param root         the root, or -1 for a collective without one
 * @param count        the elements this rank passed (its send buffer's; a scatter's receive buffer's),
 *                     or -1 where the call has no such count (a barrier, an object bcast)
 * @param type         the buffer's type as the program gave it ({@code int[]}, {@code ByteBuffer},
 *                     {@code String[]}), or empty when there is none
 * @param op           the reduction's op ({@code SUM}, or a user op's name), or empty
 */
public record CollectiveCall(String operation, int communicator, String members, long sequence, int root, long count,
                             String type, String op) {
    /** The longest members list written out; a longer one ends in "...]" and says how many ranks there are. */
    static final int MEMBERS_SHOWN = 40;

    public CollectiveCall {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(members, "members");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(op, "op");
    }

    /** A buffer's type as {@link #type} names it: {@code int[]}, {@code String[]}, {@code ByteBuffer} (heap or direct alike); empty for none. */
    public static String typeOf(Class<?> type) {
        if (type == null) {
            return "";
        }
        return java.nio.ByteBuffer.class.isAssignableFrom(type) ? "ByteBuffer" : type.getSimpleName();
    }

    /** "world", else "communicator C [members]": unique to one communicator of the job. */
    public String communicatorName() {
        if (communicator == 0 && members.isEmpty()) {
            return "world";
        }
        return "communicator " + communicator + (members.isEmpty() ? "" : " " + members);
    }

    /**
     * World ranks as a compact list, {@code [0,2,4-9]}, ascending; runs of three or more become a
     * range. Past {@link #MEMBERS_SHOWN} characters it ends in {@code ...]} with the count
     * ({@code [0,2,4,...] (32768 ranks)}); as it starts with the lowest rank, disjoint member sets
     * never read alike.
     */
    public static String members(int[] worldRanks) {
        int[] r = worldRanks.clone();
        java.util.Arrays.sort(r);
        return RankList.format(r, MEMBERS_SHOWN);
    }

    /** Whether every pair of {@code calls} (of one collective, one per distinct call) may meet ({@link #agreesWith}). */
    public static boolean allMeet(java.util.List<CollectiveCall> calls) {
        for (int a = 0; a < calls.size(); a++) {
            for (int b = a + 1; b < calls.size(); b++) {
                if (!calls.get(a).agreesWith(calls.get(b))) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Whether two ranks' calls of one collective (same communicator and number) may meet: the same
     * operation (a nonblocking form counts as its blocking one), root and op, the same kind of
     * element ({@code byte[]} and {@code ByteBuffer} alike, any object arrays alike) and, except for
     * the {@code v} forms whose counts may differ by rank, the same count. What one of the two does
     * not say (an object bcast) is not held against it.
     *
     * <p>Gathers, scatters, allgathers and all-to-alls move each rank's block as encoded bytes, so
     * there bytes meet any primitive kind of the same length: MPI's packed data, or a struct of ints,
     * sent as {@code byte[]} to a root that receives {@code int[]} (the {@code mpi} and {@code mpj}
     * layers do this). Two different primitive kinds (ints against longs) still disagree, even at the
     * same length: the values would be read wrongly.
     */
    public boolean agreesWith(CollectiveCall other) {
        if (!blockingName().equals(other.blockingName()) || root != other.root || !op.equals(other.op)) {
            return false;
        }
        if (type.isEmpty() || other.type.isEmpty()) {
            return true;
        }
        String mine = elementKind();
        String theirs = other.elementKind();
        boolean sameCount = count < 0 || other.count < 0 || !countsMustAgree() || count == other.count;
        if (mine.equals(theirs)) {
            return sameCount;
        }
        if (movesBytes() && (mine.equals("bytes") && width(theirs) > 0 || theirs.equals("bytes") && width(mine) > 0)) {
            return count < 0 || other.count < 0 || !countsMustAgree() || count * width(mine) == other.count * width(theirs);
        }
        return false;
    }

    /** The collectives whose blocks travel as encoded bytes, whatever the buffers' types. */
    private boolean movesBytes() {
        return switch (blockingName()) {
            case "gather", "gatherv", "scatter", "scatterv", "allgather", "allgatherv", "alltoall", "alltoallv" -> true;
            default -> false;
        };
    }

    /** Bytes per element of a primitive kind as the wire encodes it; 0 for objects. */
    private static int width(String kind) {
        return switch (kind) {
            case "bytes", "booleans" -> 1;
            case "shorts", "chars" -> 2;
            case "ints", "floats" -> 4;
            case "longs", "doubles" -> 8;
            default -> 0;
        };
    }

    /** What {@link #agreesWith} compares, as a phrase: {@code bcast from root 0 of 4 ints}. */
    public String signature() {
        StringBuilder b = new StringBuilder(blockingName());
        if (root >= 0) {
            b.append(" from root ").append(root);
        }
        if (!op.isEmpty()) {
            b.append(" with ").append(op);
        }
        if (!type.isEmpty()) {
            b.append(" of ");
            String kind = elementKind();
            if (count >= 0 && countsMustAgree()) {
                b.append(count).append(' ');
                if (count == 1 && kind.endsWith("s")) {
                    kind = kind.substring(0, kind.length() - 1);
                }
            }
            b.append(kind);
        }
        return b.toString();
    }

    /** The operation without the {@code i} of a nonblocking form. */
    public String blockingName() {
        return switch (operation) {
            case "ibarrier", "ibcast", "iallreduce" -> operation.substring(1);
            default -> operation;
        };
    }

    private boolean countsMustAgree() {
        return !operation.endsWith("v") && !operation.equals("bcastObject") && !operation.equals("bcastBytes");
    }

    /** What the elements are, with the types that carry the same elements made one. */
    private String elementKind() {
        if (type.equals("ByteBuffer") || type.equals("byte[]")) {
            return "bytes";
        }
        return switch (type) {
            case "short[]", "int[]", "long[]", "float[]", "double[]", "char[]", "boolean[]" ->
                    type.substring(0, type.length() - 2) + "s";
            default -> type.endsWith("[]") ? "objects" : type;
        };
    }

    /** One line: {@code bcast #17 on world: root 0, 4 elements of int[]}. */
    public String describe() {
        StringBuilder b = new StringBuilder(operation).append(" #").append(sequence).append(" on ").append(communicatorName());
        String sep = ": ";
        if (root >= 0) {
            b.append(sep).append("root ").append(root);
            sep = ", ";
        }
        if (!op.isEmpty()) {
            b.append(sep).append(op);
            sep = ", ";
        }
        if (!type.isEmpty()) {
            b.append(sep);
            if (count >= 0) {
                b.append(count).append(count == 1 ? " element of " : " elements of ");
            }
            b.append(type);
        }
        return b.toString();
    }
}
