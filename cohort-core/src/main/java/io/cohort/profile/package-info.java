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
 * </table>
 *
 * <p>Cost when nothing records: every event class has a static {@code startIfEnabled()} (or
 * {@code emit}) that asks a shared, never-committed instance {@code isEnabled()} and returns null
 * (does nothing) when no recording wants the event, so the hot paths allocate nothing and read
 * no thread-local. Emitting only at the public API (and the protocol's own places) is what keeps
 * the library's internal traffic (collectives, DECK) out of the message events.
 *
 * <p>Threads: events are begun and finished by the thread making the call, except a nonblocking
 * collective's (finished by the thread that ran it) and a udp flow-control stall's (finished by
 * whichever thread saw the window open). Depends on the JDK ({@code jdk.jfr}) only.
 */
package io.cohort.profile;
