/**
 * The transport SPI: what the progress engine needs from something that moves bytes between
 * peers. Transports move opaque payloads with a (context, tag) envelope; typing, matching and
 * collectives live above them. Implementations: {@code local} (threads in one JVM), {@code shm},
 * {@code tcp} and {@code udp}; {@code fault} holds the datagram fault-injection layer.
 *
 * <p>May depend on {@code io.cohort} (exceptions) and the JDK only.
 */
package io.cohort.transport;
