/**
 * The merged stacks of {@code cohort stacks}: every thread of every answering rank folded into one
 * prefix tree ({@link io.cohort.tools.stacks.StackTree}, LLNL STAT's view of a parallel job), whose
 * nodes carry the set of ranks that are there, and its text form
 * ({@link io.cohort.tools.stacks.StackTreeFormatter}); the per-rank dumps of {@code --raw}
 * ({@link io.cohort.tools.stacks.RawStacksFormatter}). Pure functions of an
 * {@link io.cohort.stacks.JobStacks}; see docs/stacks.md for how to read the tree.
 *
 * <p>May depend on the JDK and cohort-core's {@code io.cohort.stacks}.
 */
package io.cohort.tools.stacks;
