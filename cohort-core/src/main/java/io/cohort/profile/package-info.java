/**
 * Cohort's Java Flight Recorder events and the recording behind {@code cohort run --profile}: the
 * capture side of the parallel profiler, whose reports ({@code cohort prof}) read the files back.
 *
 * <table>
 *   <caption>Events (names and fields are a contract with the reader: fields may be added, never changed)</caption>
 *   <tr><td>{@code io.cohort.Send}, {@code io.cohort.Receive}</td><td>{@link io.cohort.profile.SendEvent},
 *       {@link io.cohort.profile.ReceiveEvent}: the program's point-to-point messages, paired by sequence number</td></tr>
 *   <tr><td>{@code io.cohort.Probe}, {@code io.cohort.Wait}</td><td>{@link io.cohort.profile.ProbeEvent},
 *       {@link io.cohort.profile.WaitEvent}</td></tr>
 *   <tr><td>{@code io.cohort.Collective}</td><td>{@link io.cohort.profile.CollectiveEvent}, with the algorithm that ran</td></tr>
 *   <tr><td>{@code io.cohort.Region}</td><td>{@link io.cohort.profile.RegionEvent}, from {@code io.cohort.Profile.region}</td></tr>
 *   <tr><td>{@code io.cohort.PeerInfo}, {@code io.cohort.Job}</td><td>{@link io.cohort.profile.PeerInfoEvent},
 *       {@link io.cohort.profile.JobEvent}: who recorded the file, and the application's time</td></tr>
 *   <tr><td>{@code io.cohort.Nack}, {@code io.cohort.Retransmission}, {@code io.cohort.FlowControlStall}</td>
 *       <td>{@link io.cohort.profile.NackEvent}, {@link io.cohort.profile.RetransmissionEvent},
 *       {@link io.cohort.profile.FlowControlStallEvent}: the datagram protocols (udp, pcode, eqa)</td></tr>
 *   <tr><td>{@code io.cohort.DroppedTraffic}</td><td>{@link io.cohort.profile.DroppedTrafficEvent}: what the
 *       transports dropped (failed authentication, other job, malformed), once per transport and reason at the job's end</td></tr>
 * </table>
 *
 * <p>Cost when nothing records: the library never names an event class directly but goes through
 * {@link io.cohort.profile.Profiling}, whose methods return null (do nothing) after one volatile
 * read while no Flight Recorder exists in the JVM: loading an event class would start JFR's
 * registration machinery, up to a third of a second of a peer's start-up. Once a recorder exists, each
 * event's {@code isEnabled()} (asked of a shared, never-committed instance) decides, so the hot
 * paths allocate nothing and read no thread-local unless a recording wants the event. The events
 * are {@code @Enabled(false)} by default: only a recording that asks for them ({@code cohort.jfc})
 * gets them. Emitting only at the public API (and the protocols' own places) is what keeps the
 * library's internal traffic (collectives, DECK) out of the message events.
 *
 * <p>On one thread, the {@code Send}, {@code Receive}, {@code Probe}, {@code Wait} and
 * {@code Collective} events never overlap (a reader sums their durations as the time spent
 * communicating): the collectives' own messages and waits record nothing, and a nonblocking
 * receive's {@code Receive} is an instant inside the {@code Wait} that handed it over.
 *
 * <p>Threads: events are begun and finished by the thread making the call, except a udp
 * flow-control stall's (finished by whichever thread saw the window open) and the protocols'
 * instants (the thread running the protocol). Depends on the JDK ({@code jdk.jfr}) only.
 */
package io.cohort.profile;
