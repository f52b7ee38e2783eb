/**
 * The stacks of a running job's threads, for {@code cohort stacks}: what a peer captures
 * ({@link io.cohort.stacks.StackCapture}), the wire form of one peer's stacks
 * ({@link io.cohort.stacks.PeerStacks}, drawn in {@link io.cohort.stacks.StacksCodec}) and the
 * controller's answer for the whole job ({@link io.cohort.stacks.JobStacks}, one
 * {@link io.cohort.stacks.RankStacks} per rank, answered or not and why).
 *
 * <p>The peer side ({@code io.cohort.wireup}), the controller ({@code io.cohort.launch}) and the merge
 * ({@code io.cohort.tools.stacks}) share these types. May depend on the JDK (including
 * {@code java.management}, used only when a capture is asked for) and nothing else.
 */
package io.cohort.stacks;
