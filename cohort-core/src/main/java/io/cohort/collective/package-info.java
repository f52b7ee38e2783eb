/**
 * The collective operations library: barrier, bcast, gather(v), scatter(v), allgather(v),
 * alltoall(v), reduce, allreduce, reduce-scatter, scan and exscan, with nonblocking ibcast,
 * iallreduce and ibarrier, over any {@link io.cohort.collective.CollectiveChannel}.
 *
 * <h2>Two families of algorithms</h2>
 * Point-to-point: binomial-tree bcast and reduce, recursive-doubling and ring allgather,
 * recursive-doubling and Rabenseifner (reduce-scatter + allgather) allreduce, dissemination and
 * fan-in (binomial or linear) barriers,
 * pairwise-exchange alltoall, linear gather and scatter, recursive-doubling scan and exscan. Over
 * the PCODE broadcast domain: bcast by one multicast, allgather as the paper's all-to-all broadcast,
 * barrier as an allgather of empty messages, allreduce as an allgather plus a local reduction in rank
 * order. Every reduction keeps rank order, so non-commutative ops are correct everywhere.
 *
 * <p>Through shared memory ({@link io.cohort.collective.SharedMemoryCollectives}), where every peer
 * of a communicator is on one host: barrier, bcast, reduce, allreduce and allgather(v) copy their
 * data into the communicator's segment once and out once, and wait on each other's phase words
 * instead of messages. AUTO takes them wherever all peers share a host; P2P never does.
 *
 * <h2>Choice ({@link io.cohort.collective.CollectivePolicy}, AUTO mode)</h2>
 * All peers on one host: barrier, bcast, allgather, reduce and allreduce through shared memory
 * (an op whose values must not be split, and Object[] buffers, by the table below). Otherwise:
 * <pre>
 *   operation   domain when                        else (p2p)
 *   bcast       N &gt;= 3, fits one datagram,        binomial tree
 *               peers not crowded
 *   barrier     -                                  dissemination
 *   allgather   -                                  recursive doubling below 64 KiB, ring from 64 KiB
 *   allreduce   -                                  recursive doubling below 16 KiB, Rabenseifner from 16 KiB
 *   others      -                                  the one p2p algorithm
 * </pre>
 * Where peers outnumber their cores, shapes with fewer messages or rounds replace these (the table
 * in docs/collectives.md): across a network, barrier, allreduce and allgather through rank 0 in two
 * rounds, and bcast by the tree even in one datagram; on one host, reduce + binomial bcast for long
 * allreduce vectors.
 * Measured on the cluster in a box (docs/notes/benchmark-history.md, docs/collectives.md): a bcast in one
 * datagram (the domain's datagrams fill the link's MTU) reaches 7 peers in 0.6-0.8x the binomial
 * tree's median time, though its whole loop is longer where peers share cores; longer bcasts,
 * and the domain's allgather, allreduce and barrier (N multicasts, each arriving at N - 1 peers),
 * cost one wake-up per datagram per peer and lost to the p2p
 * algorithms where all peers share two cores. On p2p,
 * recursive doubling has log2 N latency terms and ring or Rabenseifner move the least data: the
 * crossovers are MPICH's (its allreduce switch is 2 KiB; ours is higher since a Java message costs
 * more per call than per byte). BCAST mode uses the domain wherever an algorithm exists,
 * P2P never opens it, and AUTO falls back to p2p when the domain cannot open.
 *
 * <p>Every peer must reach the same choice without talking, so the policy sees only what all peers
 * know alike: N, element counts, and a nominal 64 bytes per element for {@code Object[]} buffers;
 * {@code bcastObject} chooses by N alone.
 *
 * <p>Threads: see {@link io.cohort.collective.Collectives}. May depend on {@code io.cohort} (the API:
 * {@link io.cohort.Op}, {@link io.cohort.Request}, {@link io.cohort.BroadcastDomain}) and on
 * {@code io.cohort.engine} (for {@link io.cohort.collective.EngineChannel} and payload coding), on
 * {@code io.cohort.transport.shm} (for the segment behind {@link io.cohort.collective.EngineChannel}'s
 * {@link io.cohort.collective.SharedSegment}), on {@code io.cohort.stacks} (what a wait waits for) and on
 * {@code io.cohort.profile} (one Collective event per call). The communicator ({@code io.cohort.comm})
 * drives it; the engine and the API know nothing of it ({@link io.cohort.collective.OpKernels}, the
 * predefined ops' loops, reach {@link io.cohort.Op} through the provider).
 */
package io.cohort.collective;
