/**
 * Tiny programs the system tests run under {@code cohort run -cp target/test-classes}: each prints
 * one checkable line or misbehaves in one precise way. May depend on cohort-core's API only.
 */
package io.cohort.systest.programs;
