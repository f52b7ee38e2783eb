/**
 * The buffer adapters both MPI APIs share: how a program's buffer argument (a Java array or an NIO
 * buffer, a count of items of a {@link io.cohort.mpi.support.Layout}, from an element offset)
 * becomes what Cohort's API takes, and how results get back into it.
 *
 * <ul>
 *   <li>{@link io.cohort.mpi.support.buffers.ElementView}: element access to arrays and NIO buffers;</li>
 *   <li>{@link io.cohort.mpi.support.buffers.Carriers}: items packed into carrier arrays and wire
 *       bytes, and back;</li>
 *   <li>{@link io.cohort.mpi.support.buffers.Operand}: one buffer argument of a collective, the
 *       program's own array where it already is the carrier, else a packed copy stored back after;</li>
 *   <li>{@link io.cohort.mpi.support.buffers.Blocks}: the blocks of a v-collective, with the element
 *       counts and displacements Cohort takes.</li>
 * </ul>
 *
 * Each API keeps its own rules at its edge (what a buffer may be, what an offset counts, which
 * arguments are errors) and checks the arguments before it calls these: they assume buffers that
 * hold the items. Depends on cohort-core only; not an API.
 */
package io.cohort.mpi.support.buffers;
