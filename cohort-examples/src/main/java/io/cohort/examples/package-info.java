/**
 * Programs bundled with Cohort, runnable with {@code cohort run -n N --example NAME}. Each prints
 * one line a test can check. The list {@code cohort examples} shows comes from
 * {@code META-INF/cohort/examples.properties}.
 */
package io.cohort.examples;
