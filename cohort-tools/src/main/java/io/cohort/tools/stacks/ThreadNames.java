package io.cohort.tools.stacks;

import io.cohort.stacks.JobStacks;
import io.cohort.stacks.RankStacks;
import io.cohort.stacks.ThreadStack;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Thread names as the merged tree shows them, so that the same thread of different ranks (and the
 * interchangeable threads of one pool) meet in one node. The numbers in a name are judged by what
 * the whole job shows, per <em>shape</em> (the name with each run of digits as a placeholder):
 *
 * <ul>
 *   <li>a number that equals its thread's rank in every thread of that shape, seen on two ranks at
 *       least, is the rank: {@code N} ({@code cohort-progress-3} on rank 3 → {@code cohort-progress-N});</li>
 *   <li>otherwise a number that differs between the threads of that shape is an index: {@code *}
 *       ({@code pool-1-thread-1..8} → {@code pool-1-thread-*}, shown with its thread count;
 *       {@code Thread-5} on one rank and {@code Thread-6} on another → {@code Thread-*});</li>
 *   <li>a number that is the same everywhere stays ({@code pool-1-thread-*}'s {@code 1}).</li>
 * </ul>
 *
 * A fixed rule ("replace the rank") would turn {@code worker-3-1} into {@code worker-3-N} on rank 1
 * and leave it alone on rank 3; judging by the job keeps each name's meaning.
 */
final class ThreadNames {
    private static final Pattern DIGITS = Pattern.compile("\\d+");

    /** Per shape: what each digit position becomes ("N", "*", or null for "keep"). */
    private final Map<String, String[]> replacements = new HashMap<>();

    private ThreadNames() {
    }

    static ThreadNames of(JobStacks job, ThreadFilter filter) {
        Map<String, List<Sample>> byShape = new HashMap<>();
        for (RankStacks r : job.ranks()) {
            for (ThreadStack t : r.stacks().threads()) {
                if (filter.shows(t)) {
                    Parsed p = parse(t.name());
                    if (!p.numbers.isEmpty()) {
                        byShape.computeIfAbsent(p.shape, s -> new ArrayList<>()).add(new Sample(r.rank(), p.numbers));
                    }
                }
            }
        }
        ThreadNames names = new ThreadNames();
        for (Map.Entry<String, List<Sample>> e : byShape.entrySet()) {
            List<Sample> samples = e.getValue();
            int positions = samples.get(0).numbers.size();
            Set<Integer> ranks = new HashSet<>();
            for (Sample s : samples) {
                ranks.add(s.rank);
            }
            String[] what = new String[positions];
            for (int i = 0; i < positions; i++) {
                boolean isRank = ranks.size() >= 2;
                Set<String> values = new HashSet<>();
                for (Sample s : samples) {
                    String v = stripZeros(s.numbers.get(i));
                    values.add(v);
                    isRank &= v.equals(Integer.toString(s.rank));
                }
                what[i] = isRank ? "N" : values.size() > 1 ? "*" : null;
            }
            names.replacements.put(e.getKey(), what);
        }
        return names;
    }

    /** How a thread (or lock owner) called {@code name} is shown in the tree. */
    String normalise(String name) {
        Parsed p = parse(name);
        String[] what = replacements.get(p.shape);
        if (what == null) {
            return name;
        }
        StringBuilder b = new StringBuilder();
        Matcher m = DIGITS.matcher(name);
        int i = 0;
        int last = 0;
        while (m.find()) {
            b.append(name, last, m.start()).append(what[i] != null ? what[i] : m.group());
            last = m.end();
            i++;
        }
        return b.append(name, last, name.length()).toString();
    }

    private record Sample(int rank, List<String> numbers) {
    }

    private record Parsed(String shape, List<String> numbers) {
    }

    private static Parsed parse(String name) {
        Matcher m = DIGITS.matcher(name);
        StringBuilder shape = new StringBuilder();
        List<String> numbers = new ArrayList<>();
        int last = 0;
        while (m.find()) {
            shape.append(name, last, m.start()).append('\u0000');
            numbers.add(m.group());
            last = m.end();
        }
        shape.append(name, last, name.length());
        return new Parsed(shape.toString(), numbers);
    }

    private static String stripZeros(String digits) {
        int i = 0;
        while (i < digits.length() - 1 && digits.charAt(i) == '0') {
            i++;
        }
        return digits.substring(i);
    }
}
