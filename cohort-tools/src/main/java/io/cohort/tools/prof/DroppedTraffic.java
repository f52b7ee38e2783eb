package io.cohort.tools.prof;

/**
 * What one peer's transport dropped over the job for one reason, as the peer's {@code --verbose}
 * line says it: {@code transport} ({@code udp}, {@code tcp}, {@code broadcast domain}), {@code reason}
 * ({@code failed authentication}, {@code other job}, {@code not cohort}, {@code malformed}, ...) and
 * {@code count} {@code unit}s ({@code datagram}, {@code connection}, {@code frame}).
 */
public record DroppedTraffic(String transport, String reason, String unit, long count) {
    /** Adds {@code count} to the entry of (transport, reason, unit) in {@code byKey}, made if missing. */
    static void add(java.util.Map<String, DroppedTraffic> byKey, String transport, String reason, String unit, long count) {
        if (count <= 0) {
            return;
        }
        byKey.merge(transport + '\0' + reason + '\0' + unit, new DroppedTraffic(transport, reason, unit, count),
                (a, b) -> new DroppedTraffic(a.transport, a.reason, a.unit, a.count + b.count));
    }
}
