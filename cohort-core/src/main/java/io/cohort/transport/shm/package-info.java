/**
 * The shared-memory transport for peers on one host (PSE's design made current): one
 * unidirectional segment per ordered pair, a lock-free ring with a producer and a consumer
 * position ({@link io.cohort.transport.shm.ShmRing}), the same frames as TCP streamed through it
 * ({@link io.cohort.transport.stream}), no locks shared between processes, {@code VarHandle}s over
 * mapped buffers instead of {@code sun.misc.Unsafe}.
 *
 * <p>Segment files live in {@code /dev/shm} (or the temporary directory), are created owner-only,
 * and are unlinked as soon as both ends have mapped them, so a peer killed later leaves nothing
 * behind; the io-manager removes the job's files at job end for peers killed earlier.
 */
package io.cohort.transport.shm;
