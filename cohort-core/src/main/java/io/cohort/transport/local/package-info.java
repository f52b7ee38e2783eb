/**
 * The in-JVM transport: peers are threads, a send copies the payload straight into the receiver's
 * matching engine. The reference implementation for the transport contract tests.
 */
package io.cohort.transport.local;
