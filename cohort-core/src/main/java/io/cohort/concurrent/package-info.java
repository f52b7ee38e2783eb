/**
 * Small concurrency building blocks of the message path that the JDK does not offer in the cheap
 * form needed there. Depends on the JDK only; every ordering choice carries its reason.
 */
package io.cohort.concurrent;
