/**
 * The cluster configuration database: members, overlapping partitions and their attributes, load
 * servers and daemon settings (PSE's "Cluster Definition and Management"), read from a file or from DNS
 * TXT records, and edited with {@code cohort db}. Used by the daemons ({@code io.cohort.daemon}), the
 * launcher's placement and {@code cohort status}. Depends on the JDK only.
 */
package io.cohort.cluster;
