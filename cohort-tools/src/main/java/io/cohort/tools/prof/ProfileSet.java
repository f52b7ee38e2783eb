package io.cohort.tools.prof;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The recordings of one profiled job: every {@code *.jfr} file of a directory, read one by one
 * (recordings of different JVMs cannot be concatenated into one). A file that cannot be read is
 * named in a warning and skipped. A directory holding several jobs' recordings is reported for the
 * job recorded last, with a warning naming the others; two files of one rank keep the first.
 */
public final class ProfileSet {
    private final Path directory;
    private final List<PeerProfile> peers;

    private ProfileSet(Path directory, List<PeerProfile> peers) {
        this.directory = directory;
        this.peers = List.copyOf(peers);
    }

    /** For tests and tools that read their recordings elsewhere. */
    public static ProfileSet of(Path directory, List<PeerProfile> peers) {
        List<PeerProfile> sorted = new ArrayList<>(peers);
        sorted.sort(Comparator.comparingInt(PeerProfile::rank));
        return new ProfileSet(directory, sorted);
    }

    /**
     * @param warnings receives one sentence per file skipped or partly read
     * @throws ProfileInputException the directory is missing, not a directory, without recordings, or
     *                               none of them can be read
     */
    public static ProfileSet load(Path directory, Consumer<String> warnings) throws ProfileInputException {
        String hint = "give the directory that 'cohort run --profile=DIR' wrote";
        if (!Files.exists(directory)) {
            throw new ProfileInputException(directory + " does not exist; " + hint);
        }
        if (!Files.isDirectory(directory)) {
            throw new ProfileInputException(directory + " is not a directory; " + hint);
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(directory)) {
            files = s.filter(f -> ProfileFileName.isRecording(f) && Files.isRegularFile(f))
                    .sorted(Comparator.comparing((Path f) -> {
                        ProfileFileName n = ProfileFileName.parse(f);
                        return n == null ? Integer.MAX_VALUE : n.rank();
                    }).thenComparing(Path::toString))
                    .toList();
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new ProfileInputException("cannot list " + directory + " (" + e.getMessage() + "); check its permissions");
        }
        if (files.isEmpty()) {
            throw new ProfileInputException(directory + " holds no profiles (*.prof.<rank>.tsv or *.jfr); run the job with 'cohort run --profile="
                    + directory + " ...' first");
        }
        List<PeerProfile> read = new ArrayList<>();
        for (Path f : files) {
            try {
                read.add(PeerProfileReader.read(f, warnings));
            } catch (IOException e) {
                warnings.accept(f.getFileName() + ": " + e.getMessage() + "; skipped");
            }
        }
        if (read.isEmpty()) {
            throw new ProfileInputException("none of the " + files.size() + " recordings in " + directory
                    + " could be read (see the warnings above); record the job again");
        }
        return of(directory, oneJob(read, warnings));
    }

    /** The recordings of the job that ended last, one per rank. */
    private static List<PeerProfile> oneJob(List<PeerProfile> read, Consumer<String> warnings) {
        Map<String, List<PeerProfile>> byJob = read.stream().collect(Collectors.groupingBy(PeerProfile::jobId,
                LinkedHashMap::new, Collectors.toList()));
        String latest = byJob.entrySet().stream()
                .max(Comparator.comparingLong(e -> e.getValue().stream().mapToLong(PeerProfile::lastNanos).max().orElse(0)))
                .orElseThrow().getKey();
        if (byJob.size() > 1) {
            List<String> skipped = byJob.entrySet().stream().filter(e -> !e.getKey().equals(latest))
                    .flatMap(e -> e.getValue().stream()).map(p -> p.file().getFileName().toString()).toList();
            warnings.accept("the directory holds recordings of " + byJob.size() + " jobs; reporting job "
                    + (latest.isEmpty() ? "(no id)" : latest) + ", the last recorded, and skipping " + names(skipped));
        }
        Map<Integer, PeerProfile> byRank = new TreeMap<>();
        for (PeerProfile p : byJob.get(latest)) {
            PeerProfile kept = byRank.putIfAbsent(p.rank(), p);
            if (kept != null) {
                warnings.accept(p.file().getFileName() + ": rank " + p.rank() + " again (" + kept.file().getFileName()
                        + " is used); skipped");
            }
        }
        return new ArrayList<>(byRank.values());
    }

    private static String names(List<String> files) {
        return files.size() <= 4 ? String.join(", ", files)
                : String.join(", ", files.subList(0, 3)) + " and " + (files.size() - 3) + " more";
    }

    public Path directory() {
        return directory;
    }

    /** The peers read, by rank. */
    public List<PeerProfile> peers() {
        return peers;
    }

    public PeerProfile peer(int rank) {
        for (PeerProfile p : peers) {
            if (p.rank() == rank) {
                return p;
            }
        }
        return null;
    }

    /** The job's size as its peers knew it, or the highest rank + 1 if no peer said. */
    public int jobSize() {
        int size = peers.stream().mapToInt(PeerProfile::size).max().orElse(0);
        int ranks = peers.stream().mapToInt(PeerProfile::rank).max().orElse(-1) + 1;
        return Math.max(size, ranks);
    }

    /** Ranks of the job with no readable recording. */
    public List<Integer> missingRanks() {
        TreeSet<Integer> missing = new TreeSet<>();
        for (int r = 0; r < jobSize(); r++) {
            missing.add(r);
        }
        peers.forEach(p -> missing.remove(p.rank()));
        return List.copyOf(missing);
    }

    public String application() {
        return peers.stream().map(PeerProfile::application).filter(a -> !a.isEmpty()).findFirst().orElse("?");
    }

    public String jobId() {
        return peers.get(0).jobId();
    }

    /** Earliest event of the job, epoch ns: the zero of the trace's time axis. */
    public long firstNanos() {
        return peers.stream().mapToLong(PeerProfile::firstNanos).min().orElse(0);
    }

    public long lastNanos() {
        return peers.stream().mapToLong(PeerProfile::lastNanos).max().orElse(0);
    }

    /** Host name to the ranks recorded there, in order of first rank. */
    public Map<String, List<Integer>> hosts() {
        Map<String, List<Integer>> hosts = new LinkedHashMap<>();
        for (PeerProfile p : peers) {
            hosts.computeIfAbsent(p.host().isEmpty() ? "?" : p.host(), h -> new ArrayList<>()).add(p.rank());
        }
        return hosts;
    }
}
