/**
 * The collective operations library: barrier, bcast, gather(v), scatter(v), allgather(v),
 * alltoall(v), reduce, allreduce, reduce-scatter, scan and exscan, with nonblocking ibcast,
 * iallreduce and ibarrier, over any {@link io.cohort.collective.CollectiveChannel}.
 *
 * <h2>Two families of algorithms</h2>
 * Point-to-point: binomial-tree bcast and reduce, recursive-doubling and ring allgather,
 * recursive-doubling and Rabenseifner (reduce-scatter + allgather) allreduce, dissemination barrier,
 * pairwise-exchange alltoall, linear gather and scatter, recursive-doubling scan and exscan. Over
 * the PCODE broadcast domain: bcast by one multicast, allgather as the paper's all-to-all broadcast,
 * barrier as an allgather of empty messages, allreduce as an allgather plus a local reduction in rank
 * order. Every reduction keeps rank order, so non-commutative ops are correct everywhere.
 *
 * <h2>Choice ({@link io.cohort.collective.CollectivePolicy}, AUTO mode)</h2>
 * <pre>
 *   operation   domain when                        else (p2p)
 *   bcast       N &gt;= 3 (any length)               binomial tree
 *   barrier     N &gt;= 4                            dissemination
 *   allgather   N &gt;= 3 and result &lt;= 1 MiB        recursive doubling below 64 KiB, ring from 64 KiB
 *   allreduce   N &gt;= 3 and vector &lt;= 2 KiB        recursive doubling below 16 KiB, Rabenseifner from 16 KiB
 *   others      -                                  the one p2p algorithm
 * </pre>
 * Why: a multicast puts each byte on the wire once whatever N, where a tree needs log2 N rounds and
 * N - 1 copies, so bcast and small allgathers gain from N = 3 on (the EQA paper measures 60% below
 * MPICH's tree). An allreduce over the domain moves N vectors to every peer and reduces N - 1 times
 * locally, which only pays while the vector is short. Dissemination needs ceil(log2 N) round trips,
 * the domain barrier one multicast round, which wins once log2 N reaches 2. On p2p, recursive
 * doubling has log2 N latency terms and ring or Rabenseifner move the least data: the crossovers are
 * MPICH's (its allreduce switch is 2 KiB; ours is higher since a Java message costs more per call
 * than per byte). These numbers are not yet measured on the cluster in a box; the collective
 * benchmarks are expected to tune them. BCAST mode uses the domain wherever an algorithm exists,
 * P2P never opens it, and AUTO falls back to p2p when the domain cannot open.
 *
 * <p>Every peer must reach the same choice without talking, so the policy sees only what all peers
 * know alike: N, element counts, and a nominal 64 bytes per element for {@code Object[]} buffers;
 * {@code bcastObject} chooses by N alone.
 *
 * <p>Threads: see {@link io.cohort.collective.Collectives}. May depend on {@code io.cohort} (the API:
 * {@link io.cohort.Op}, {@link io.cohort.Request}, {@link io.cohort.BroadcastDomain}) and on
 * {@code io.cohort.engine} (for {@link io.cohort.collective.EngineChannel} and payload coding); the
 * API package must not depend on this one except to construct it.
 */
package io.cohort.collective;
