package io.cohort.tools.prof;

import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the HTML report's timeline draws ({@link SvgTimeline} draws it): the scope's sends, receives,
 * probes, waits, collectives and regions inside a window of time, one lane per Java thread that has
 * any there (every peer gets at least one lane), and the messages whose two ends are both drawn.
 *
 * <p>Without a window chosen, the picture spans the scope's operations and regions, from the first to
 * the last, as a trace viewer opens a trace (a recording's other events, from the JVM's start-up on, are
 * not drawn and would leave the picture's first part empty).
 *
 * <p>A page must stay small and quick to open however long the job ran, so at most {@code maxEvents}
 * events are drawn: when the window holds more, the picture ends where the first event left out
 * begins (everything that starts earlier is drawn, the rest is not) and the report says so. The
 * window's time is nanoseconds since the job's first event, as in the Chrome trace.
 *
 * <p>Regions may nest and contain communication; in a lane they are stacked by depth, one row per
 * level (the deepest rows beyond {@link #MAX_REGION_ROWS} share the last one), above one row of
 * communication events, which do not nest.
 */
final class Timeline {
    /** The most events drawn: about 1.3 MB of SVG with their tooltips, which a browser still opens at once. */
    static final int MAX_EVENTS = 5000;
    static final int MAX_REGION_ROWS = 3;

    /**
     * A drawn event: a communication event or a region (the other is null), on a row of its lane. Times
     * in ns since the job's first event, not clipped to the picture.
     */
    record Item(Lane lane, int row, long start, long end, CommEvent comm, RegionEvent region) {
    }

    /** A message from a drawn send to the drawn receive that matched it. */
    record Arrow(Item send, Item receive) {
    }

    /** One Java thread of one peer ({@code threadId} -1: a peer with nothing in the window). */
    static final class Lane {
        final PeerProfile peer;
        final long threadId;
        final String threadName;
        final boolean firstOfPeer;
        final List<Item> items = new ArrayList<>();
        int regionRows;

        Lane(PeerProfile peer, long threadId, String threadName, boolean firstOfPeer) {
            this.peer = peer;
            this.threadId = threadId;
            this.threadName = threadName;
            this.firstOfPeer = firstOfPeer;
        }

        /** Rows: the region rows, then the communication row. */
        int rows() {
            return regionRows + 1;
        }
    }

    final Scope scope;
    /** The picture's span, ns since the job's first event: the window, cut short when events were left out. */
    final long from;
    final long to;
    /** From the job's first event to the scope's last. */
    final long jobEnd;
    final int totalEvents;
    final int eventsInWindow;
    final int eventsDrawn;
    final List<Lane> lanes = new ArrayList<>();
    final List<Arrow> arrows = new ArrayList<>();
    /** Drawn sends and receives with no drawn other end (outside the picture, out of scope or not recorded). */
    final int endsWithoutArrow;

    private Timeline(Scope scope, long from, long to, long jobEnd, int totalEvents, int eventsInWindow, int eventsDrawn,
                     int endsWithoutArrow) {
        this.scope = scope;
        this.from = from;
        this.to = to;
        this.jobEnd = jobEnd;
        this.totalEvents = totalEvents;
        this.eventsInWindow = eventsInWindow;
        this.eventsDrawn = eventsDrawn;
        this.endsWithoutArrow = endsWithoutArrow;
    }

    boolean isCut() {
        return eventsDrawn < eventsInWindow;
    }

    static Timeline of(ProfileSet set, Scope scope, TimelineWindow window, int maxEvents) {
        long zero = set.firstNanos();
        long jobEnd = 0;
        long firstStart = Long.MAX_VALUE;
        long lastEnd = 0;
        int total = 0;
        for (PeerProfile p : scope.peers()) {
            jobEnd = Math.max(jobEnd, p.lastNanos() - zero);
            for (CommEvent e : p.comms()) {
                firstStart = Math.min(firstStart, e.startNanos() - zero);
                lastEnd = Math.max(lastEnd, e.endNanos() - zero);
            }
            for (RegionEvent r : p.regions()) {
                firstStart = Math.min(firstStart, r.startNanos() - zero);
                lastEnd = Math.max(lastEnd, r.startNanos() + r.durationNanos() - zero);
            }
            total += p.comms().size() + p.regions().size();
        }
        jobEnd = Math.max(jobEnd, lastEnd);
        long from;
        long to;
        if (!window.isChosen()) {
            // As a trace viewer opens: from the first operation to the last, not from the JVMs' start-up.
            from = total == 0 ? 0 : Math.max(0, firstStart);
            to = total == 0 ? Math.max(1, jobEnd) : Math.max(from + 1, lastEnd);
        } else {
            from = window.fromNanos();
            // A window that runs past the last operation stops there; one that starts after it is drawn (empty) as asked.
            to = window.toNanos() > lastEnd && lastEnd > from ? lastEnd : window.toNanos();
            if (to == Long.MAX_VALUE) {
                to = from + 1;
            }
        }

        // The cut: the (maxEvents+1)-th start in the window (starts before the window count as its start).
        long[] starts = new long[total];
        int inWindow = 0;
        for (PeerProfile p : scope.peers()) {
            for (CommEvent e : p.comms()) {
                long s = e.startNanos() - zero;
                if (intersects(s, e.endNanos() - zero, from, to)) {
                    starts[inWindow++] = Math.max(from, s);
                }
            }
            for (RegionEvent r : p.regions()) {
                long s = r.startNanos() - zero;
                if (intersects(s, s + r.durationNanos(), from, to)) {
                    starts[inWindow++] = Math.max(from, s);
                }
            }
        }
        long cut = Long.MAX_VALUE;
        if (inWindow > maxEvents) {
            Arrays.sort(starts, 0, inWindow);
            cut = starts[maxEvents];
            to = Math.max(cut, from + 1);
        }
        final long pictureTo = to;
        final long cutAt = cut;
        Drawn drawn = (s, e) -> intersects(s, e, from, pictureTo) && Math.max(from, s) < cutAt;

        Map<CommEvent, Item> itemOf = new IdentityHashMap<>();
        List<Lane> lanes = new ArrayList<>();
        int drawnCount = 0;
        for (PeerProfile p : scope.peers()) {
            TreeMap<Long, List<CommEvent>> comms = new TreeMap<>();
            TreeMap<Long, List<RegionEvent>> regions = new TreeMap<>();
            for (CommEvent e : p.comms()) {
                if (drawn.test(e.startNanos() - zero, e.endNanos() - zero)) {
                    comms.computeIfAbsent(e.threadId(), t -> new ArrayList<>()).add(e);
                }
            }
            for (RegionEvent r : p.regions()) {
                long s = r.startNanos() - zero;
                if (drawn.test(s, s + r.durationNanos())) {
                    regions.computeIfAbsent(r.threadId(), t -> new ArrayList<>()).add(r);
                }
            }
            TreeSet<Long> threads = new TreeSet<>(comms.keySet());
            threads.addAll(regions.keySet());
            if (threads.isEmpty()) {
                lanes.add(new Lane(p, -1, "", true));
                continue;
            }
            boolean first = true;
            for (long tid : threads) {
                Lane lane = new Lane(p, tid, p.threads().getOrDefault(tid, "thread " + tid), first);
                first = false;
                drawnCount += stackRegions(lane, regions.getOrDefault(tid, List.of()), zero);
                for (CommEvent e : comms.getOrDefault(tid, List.of())) {
                    Item it = new Item(lane, lane.regionRows, e.startNanos() - zero, e.endNanos() - zero, e, null);
                    lane.items.add(it);
                    itemOf.put(e, it);
                    drawnCount++;
                }
                lanes.add(lane);
            }
        }

        MessagePairs pairs = MessagePairs.of(scope, e -> itemOf.containsKey(e));
        List<Arrow> arrows = new ArrayList<>();
        int ends = 0;
        Map<Item, Boolean> received = new IdentityHashMap<>();
        for (Lane lane : lanes) {
            for (Item it : lane.items) {
                if (it.comm() == null) {
                    continue;
                }
                if (it.comm().kind() == CommKind.SEND) {
                    CommEvent r = pairs.receiveOf(lane.peer.rank(), it.comm());
                    Item ri = r == null ? null : itemOf.get(r);
                    if (ri == null) {
                        ends++;
                    } else {
                        arrows.add(new Arrow(it, ri));
                        received.put(ri, true);
                    }
                } else if (it.comm().kind() == CommKind.RECEIVE) {
                    ends++;
                }
            }
        }
        ends -= received.size();
        Timeline t = new Timeline(scope, from, to, jobEnd, total, inWindow, drawnCount, ends);
        t.lanes.addAll(lanes);
        t.arrows.addAll(arrows);
        return t;
    }

    /** Puts a lane's regions on rows by nesting depth; returns how many. */
    private static int stackRegions(Lane lane, List<RegionEvent> regions, long zero) {
        List<RegionEvent> sorted = new ArrayList<>(regions);
        // Outer before inner: by start, and at one start the longer first.
        sorted.sort(Comparator.comparingLong(RegionEvent::startNanos).thenComparing(Comparator.comparingLong(RegionEvent::durationNanos).reversed()));
        Deque<Long> open = new ArrayDeque<>();
        int rows = 0;
        for (RegionEvent r : sorted) {
            long s = r.startNanos() - zero;
            long e = s + r.durationNanos();
            while (!open.isEmpty() && open.peek() <= s) {
                open.pop();
            }
            int row = Math.min(open.size(), MAX_REGION_ROWS - 1);
            open.push(e);
            rows = Math.max(rows, row + 1);
            lane.items.add(new Item(lane, row, s, e, null, r));
        }
        lane.regionRows = rows;
        return sorted.size();
    }

    private static boolean intersects(long start, long end, long from, long to) {
        return start <= to && end >= from;
    }

    @FunctionalInterface
    private interface Drawn {
        boolean test(long start, long end);
    }
}
