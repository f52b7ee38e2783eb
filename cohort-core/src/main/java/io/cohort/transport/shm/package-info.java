/**
 * The shared-memory transport for peers on one host (PSE's design made current): one
 * unidirectional segment per ordered pair, a lock-free ring with a producer and a consumer
 * position ({@link io.cohort.transport.shm.ShmRing}) carrying records
 * ({@link io.cohort.transport.shm.ShmRecordDescriptor}): a small message is one record copied
 * straight from the sender's buffer and matched straight out of the ring; a long one streams
 * through in fragments. No locks shared between processes, {@code VarHandle}s over mapped buffers
 * instead of {@code sun.misc.Unsafe}.
 *
 * <p>Beside the rings, a communicator whose peers all share the host has one collective segment
 * ({@link io.cohort.transport.shm.ShmCollectiveSegment}, {@link io.cohort.transport.shm.ShmCollectiveDescriptor}):
 * a slot per member, two shared areas and a phase word per member, through which the
 * shared-memory collectives of {@code io.cohort.collective} copy data once in and once out. A
 * member about to sleep asks to be rung there as on its rings, so the same doorbell wakes it.
 *
 * <p>Segment files live in the job's private directory in {@code /dev/shm} (or the temporary
 * directory), {@link io.cohort.transport.shm.ShmJobDirectory}, which no other user can enter or
 * predict; they are created owner-only with their pages reserved ({@link io.cohort.transport.shm.ShmPages}),
 * and are unlinked as soon as both ends have mapped them, so a peer killed later leaves nothing
 * behind; the io-manager removes the directory at job end, with the files of peers killed earlier.
 */
package io.cohort.transport.shm;
