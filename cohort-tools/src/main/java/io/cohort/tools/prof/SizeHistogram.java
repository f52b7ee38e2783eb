package io.cohort.tools.prof;

import java.util.Arrays;

/**
 * Sizes of the messages of one operation: count, total, smallest, largest, and counts per size class
 * in powers of two. Class 0 holds empty messages; class k (1..63) holds sizes in [2^(k-1), 2^k).
 */
public final class SizeHistogram {
    public static final int CLASSES = 64;

    private final String operation;
    private final long[] classes = new long[CLASSES];
    private long count;
    private long totalBytes;
    private long min = Long.MAX_VALUE;
    private long max;

    public SizeHistogram(String operation) {
        this.operation = operation;
    }

    /** Sizes below 0 (not recorded) are ignored. */
    public void add(long bytes) {
        if (bytes < 0) {
            return;
        }
        count++;
        totalBytes += bytes;
        min = Math.min(min, bytes);
        max = Math.max(max, bytes);
        classes[classOf(bytes)]++;
    }

    /** {@code count} messages of size class {@code k}, {@code bytes} in all, from {@code min} to {@code max} bytes (a summary's totals). */
    public void add(int k, long count, long bytes, long min, long max) {
        if (k < 0 || count <= 0) {
            return;
        }
        this.count += count;
        totalBytes += Math.max(0, bytes);
        this.min = Math.min(this.min, Math.max(0, min));
        this.max = Math.max(this.max, max);
        classes[k] += count;
    }

    public static int classOf(long bytes) {
        return bytes <= 0 ? 0 : 64 - Long.numberOfLeadingZeros(bytes);
    }

    /** The smallest size in class k: 0, 1, 2, 4, ... */
    public static long lowerBound(int k) {
        return k == 0 ? 0 : 1L << (k - 1);
    }

    /** {@code 0}, {@code 512}, {@code 1K}, {@code 64M}: a class's lower bound as column headings show it. */
    public static String label(int k) {
        long b = lowerBound(k);
        String[] units = {"", "K", "M", "G", "T", "P", "E"};
        int u = 0;
        while (b >= 1024 && b % 1024 == 0) {
            b /= 1024;
            u++;
        }
        return b + units[u];
    }

    public String operation() {
        return operation;
    }

    public long count() {
        return count;
    }

    public long totalBytes() {
        return totalBytes;
    }

    public long min() {
        return count == 0 ? 0 : min;
    }

    public long max() {
        return max;
    }

    public double mean() {
        return count == 0 ? 0 : (double) totalBytes / count;
    }

    public long inClass(int k) {
        return classes[k];
    }

    /** The lowest class with a message, or -1 when empty. */
    public int lowestClass() {
        for (int k = 0; k < CLASSES; k++) {
            if (classes[k] > 0) {
                return k;
            }
        }
        return -1;
    }

    public int highestClass() {
        for (int k = CLASSES - 1; k >= 0; k--) {
            if (classes[k] > 0) {
                return k;
            }
        }
        return -1;
    }

    @Override
    public String toString() {
        return operation + ": " + count + " messages, " + totalBytes + " bytes, classes " + Arrays.toString(classes);
    }
}
