/**
 * System tests: real jobs through the {@code cohort} command (the built distribution), checked by
 * their output, files, exit codes and the process table. May depend on the JDK and JUnit only; the
 * programs they run live in {@code io.cohort.systest.programs}.
 */
package io.cohort.systest;
