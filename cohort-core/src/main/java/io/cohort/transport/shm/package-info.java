/**
 * The shared-memory transport for peers on one host (PSE's design made current): one
 * unidirectional segment per ordered pair, a lock-free ring with a producer and a consumer
 * position ({@link io.cohort.transport.shm.ShmRing}) carrying records
 * ({@link io.cohort.transport.shm.ShmRecordDescriptor}): a small message is one record copied
 * straight from the sender's buffer and matched straight out of the ring; a long one streams
 * through in fragments. No locks shared between processes, {@code VarHandle}s over mapped buffers
 * instead of {@code sun.misc.Unsafe}.
 *
 * <p>Segment files live in {@code /dev/shm} (or the temporary directory), are created owner-only,
 * and are unlinked as soon as both ends have mapped them, so a peer killed later leaves nothing
 * behind; the io-manager removes the job's files at job end for peers killed earlier.
 */
package io.cohort.transport.shm;
